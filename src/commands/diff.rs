//! `fbc diff OLD NEW`: load both catalogs (directories, images or `REV:PATH` from
//! git), compare them, and write the report in the chosen format.

use std::io::Write as _;

use crate::ExitStatus;
use crate::catalog::git::GitPath;
use crate::cli::{DiffArgs, DiffFormat, DiffRule};
use crate::diff::report::{json, markdown, text};
use crate::diff::{self, Failed, Options, PackageReport, Rule};
use crate::graph::deprecations::Deprecations;
use crate::output::gitlab;
use crate::text::shown::Form;

pub(crate) fn run(args: &DiffArgs) -> miette::Result<ExitStatus> {
    let sources = [GitPath::parse(&args.old), GitPath::parse(&args.new)];
    let pull = super::pull_options(&args.registry)?;
    let (old, new) = rayon::join(
        || crate::source::catalog_or_revision(&args.old, pull),
        || crate::source::catalog_or_revision(&args.new, pull),
    );
    let (old, new) = (old?, new?);
    let (old_deprecations, new_deprecations) = (
        Deprecations::new(&old.deprecations),
        Deprecations::new(&new.deprecations),
    );
    let options = Options {
        old: args.old.clone(),
        new: args.new.clone(),
        semantics: super::semantics(args.semantics),
        allow: &args
            .allow
            .iter()
            .map(|rule| rule_of(*rule))
            .collect::<Vec<_>>(),
    };
    let revisions: Vec<&str> = sources
        .iter()
        .flatten()
        .map(|s| s.revision.as_str())
        .collect();
    let mut writer = match args.output {
        DiffFormat::Text => Writer::Text(text::TextReport::new().map_err(Failed::Write)?),
        DiffFormat::Markdown => {
            Writer::Markdown(markdown::MarkdownReport::new().map_err(Failed::Write)?)
        }
        DiffFormat::Json => Writer::Json(json::JsonReport::new().map_err(Failed::Write)?),
        DiffFormat::Gitlab => Writer::Gitlab(Vec::new()),
    };
    let totals = diff::compare(
        (&old, &new),
        (&old_deprecations, &new_deprecations),
        &options,
        |report| match &mut writer {
            Writer::Text(text) => text.package(report),
            Writer::Markdown(markdown) => markdown.package(report),
            Writer::Json(json) => json.package(report),
            Writer::Gitlab(issues) => {
                issues.extend(issues_of(report, &options.new, &revisions));
                Ok(())
            }
        },
    )?;
    // Nothing is written before the whole report is: a comparison that fails on
    // its way leaves stdout empty.
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let written = match writer {
        Writer::Text(text) => text.finish(&options, &totals, &mut out),
        Writer::Markdown(markdown) => markdown.finish(&options, &totals, &mut out),
        Writer::Json(json) => json.finish(&options, &totals, &mut out),
        Writer::Gitlab(issues) => gitlab::write(|| issues.iter().cloned(), &mut out),
    }
    .and_then(|()| out.flush());
    match written {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => {
            return Err(Failed::Write(error).into());
        }
        _ => {}
    }
    Ok(if totals.fails() {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    })
}

/// The rule an `--allow` value names.
fn rule_of(rule: DiffRule) -> Rule {
    match rule {
        DiffRule::PackageRemoved => Rule::PackageRemoved,
        DiffRule::ChannelRemoved => Rule::ChannelRemoved,
        DiffRule::InstallationStranded => Rule::InstallationStranded,
        DiffRule::InstallationStuck => Rule::InstallationStuck,
        DiffRule::HeadMovedBack => Rule::HeadMovedBack,
        DiffRule::HeadRemoved => Rule::HeadRemoved,
        DiffRule::BundleChanged => Rule::BundleChanged,
    }
}

/// The report being written, in the chosen format.
enum Writer {
    Text(text::TextReport),
    Markdown(markdown::MarkdownReport),
    Json(json::JsonReport),
    /// Issues are few (one per problem) and GitLab wants them in one array.
    Gitlab(Vec<gitlab::Issue>),
}

/// One Code Quality issue per problem of a package, at its blob in NEW (or in OLD
/// for what NEW no longer has).
fn issues_of<'r>(
    report: &'r PackageReport,
    new: &'r str,
    revisions: &'r [&str],
) -> impl Iterator<Item = gitlab::Issue> + 'r {
    report.problems.iter().map(move |problem| {
        let (path, line) = problem.location.as_ref().map_or_else(
            || (new.to_owned(), 1),
            |location| {
                (
                    repository_path(&location.file, revisions),
                    location.line as usize,
                )
            },
        );
        let subject = [
            Some(problem.package.as_str()),
            problem.channel.as_deref(),
            problem.bundle.as_deref(),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join("/");
        gitlab::Issue {
            description: problem.message.clone(),
            check_name: format!("fbc-diff/{}", problem.rule.as_str()),
            severity: match (problem.allowed, problem.rule.is_error()) {
                (true, _) => "info",
                (false, true) => "major",
                (false, false) => "minor",
            },
            path,
            line,
            identity: subject,
        }
    })
}

/// A file's path as GitLab wants it, relative to the repository: a file read from
/// git (`REV:PATH/FILE`) loses its `REV:`.
fn repository_path(file: &std::path::Path, revisions: &[&str]) -> String {
    let shown = crate::text::shown::path(file, Form::Data);
    revisions
        .iter()
        .find_map(|revision| shown.strip_prefix(&format!("{revision}:")))
        .map_or_else(|| shown.clone(), str::to_owned)
}
