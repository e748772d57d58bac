//! `fbc diff OLD NEW`: load both catalogs (directories, images or `REV:PATH` from
//! git), compare them, and write the report in the chosen format.

use std::path::PathBuf;

use crate::ExitStatus;
use crate::catalog::Catalog;
use crate::catalog::git::{self, GitPath};
use crate::cli::{DiffArgs, DiffFormat, RegistryArgs};
use crate::diff::{self, Options, Report, json, markdown, text};
use crate::graph::deprecations::Deprecations;
use crate::graph::upgrade::Semantics;
use crate::output::gitlab;
use crate::shown::Form;

use super::graph::{load_references, write_stdout};

pub(crate) fn run(args: &DiffArgs) -> miette::Result<ExitStatus> {
    let sources = [GitPath::parse(&args.old), GitPath::parse(&args.new)];
    let (old, new) = rayon::join(
        || load(&args.old, sources[0].as_ref(), &args.registry),
        || load(&args.new, sources[1].as_ref(), &args.registry),
    );
    let (old, new) = (old?, new?);
    let (old_deprecations, new_deprecations) = (
        Deprecations::new(&old.deprecations),
        Deprecations::new(&new.deprecations),
    );
    let options = Options {
        old: args.old.clone(),
        new: args.new.clone(),
        semantics: Semantics::chosen(args.semantics),
        allow: &args.allow,
    };
    let report = diff::compare(&old, &new, &old_deprecations, &new_deprecations, &options)
        .map_err(super::graph::InputError::from)?;
    let output = match args.output {
        DiffFormat::Text => text::write_text(&report),
        DiffFormat::Markdown => markdown::write_markdown(&report),
        DiffFormat::Json => json::write_json(&report),
        DiffFormat::Gitlab => {
            let revisions: Vec<&str> = sources
                .iter()
                .flatten()
                .map(|s| s.revision.as_str())
                .collect();
            let mut out = Vec::new();
            let issues = issues(&report, &revisions);
            gitlab::write(|| issues.iter().cloned(), &mut out).expect("writing to memory succeeds");
            String::from_utf8(out).expect("the report is UTF-8")
        }
    };
    write_stdout(output.as_bytes())?;
    Ok(if report.fails() {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    })
}

/// A catalog directory or image, or `REV:PATH` read from git.
fn load(
    reference: &str,
    git: Option<&GitPath>,
    registry: &RegistryArgs,
) -> miette::Result<Catalog> {
    if let Some(source) = git {
        return Ok(git::load(source)?);
    }
    if let Some(error) = GitPath::unknown_revision(reference) {
        return Err(error.into());
    }
    Ok(load_references(&[PathBuf::from(reference)], registry)?)
}

/// One Code Quality issue per problem, at its blob in NEW (or in OLD for what NEW
/// no longer has).
fn issues(report: &Report, revisions: &[&str]) -> Vec<gitlab::Issue> {
    report
        .problems()
        .map(|problem| {
            let (path, line) = problem.location.as_ref().map_or_else(
                || (report.new.clone(), 1),
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
        .collect()
}

/// A file's path as GitLab wants it, relative to the repository: a file read from
/// git (`REV:PATH/FILE`) loses its `REV:`.
fn repository_path(file: &std::path::Path, revisions: &[&str]) -> String {
    let shown = crate::shown::path(file, Form::Data);
    revisions
        .iter()
        .find_map(|revision| shown.strip_prefix(&format!("{revision}:")))
        .map_or_else(|| shown.clone(), str::to_owned)
}
