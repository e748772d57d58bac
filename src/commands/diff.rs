//! `fbc diff OLD NEW [OLD NEW]...` and `fbc diff --base REV DIR...`: load each
//! pair of catalogs (directories, images or `REV:PATH` from git), compare them,
//! and write the report in the chosen format.

use std::io::Write as _;

use crate::ExitStatus;
use crate::catalog::git::{self, GitPath, Revision};
use crate::cli::{DiffArgs, DiffFormat, DiffRule};
use crate::diff::catalogs::{self, New, Old, Pair, Settings};
use crate::diff::report::many::Many;
use crate::diff::report::{Format, Report};
use crate::diff::{Failed, Rule};

pub(crate) fn run(args: &DiffArgs) -> miette::Result<ExitStatus> {
    let allow: Vec<Rule> = args.allow.iter().map(|rule| rule_of(*rule)).collect();
    let settings = Settings {
        semantics: super::semantics(args.semantics),
        allow: &allow,
        pull: super::pull_options(&args.registry)?,
    };
    let format = format_of(args.output);
    let Some(base) = &args.base else {
        if !args.catalogs.len().is_multiple_of(2) {
            return Err(ArgumentsError::Odd {
                count: args.catalogs.len(),
            }
            .into());
        }
        let pairs: Vec<Pair> = args
            .catalogs
            .chunks(2)
            .map(|pair| {
                let revisions = pair
                    .iter()
                    .filter_map(|side| GitPath::parse(side))
                    .map(|source| source.revision)
                    .collect();
                Pair {
                    old: Old::Reference(pair[0].clone()),
                    new: New::Reference(pair[1].clone()),
                    old_name: pair[0].clone(),
                    new_name: pair[1].clone(),
                    revisions,
                }
            })
            .collect();
        if let [pair] = &pairs[..] {
            return one(pair, &settings, format);
        }
        return many(&pairs, None, &settings, format);
    };
    let paths = git::repository_paths(&args.catalogs)?;
    let pairs: Vec<Pair> = args
        .catalogs
        .iter()
        .zip(&paths)
        .map(|(directory, path)| Pair {
            old: Old::Revision(path.clone()),
            new: New::Directory(directory.clone()),
            old_name: format!("{base}:{path}"),
            new_name: directory.clone(),
            revisions: vec![base.clone()],
        })
        .collect();
    git::verify_revision(base)?;
    let mut revision = Revision::list(base, &paths)?;
    many(&pairs, Some((base, &mut revision)), &settings, format)
}

/// One pair: its report as it has always been, and nothing on stdout when
/// either side cannot be read.
fn one(pair: &Pair, settings: &Settings, format: Format) -> miette::Result<ExitStatus> {
    let (old, new) = catalogs::load_pair(
        || (),
        |reuse| crate::source::catalog_or_revision(&pair.new_name, settings.pull, reuse),
        |(), reuse| crate::source::catalog_or_revision(&pair.old_name, settings.pull, reuse),
    );
    let (old, new) = (old?, new?);
    let options = pair.options(settings);
    let mut report = Report::new(format, "").map_err(Failed::Write)?;
    let totals = catalogs::compare(&old, &new, &options, |package| {
        report.package(package, &options)
    })?;
    // Nothing is written before the whole report is: a comparison that fails on
    // its way leaves stdout empty.
    write_out(|out| report.finish(&options, &totals, out))?;
    Ok(if totals.fails() {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    })
}

/// Several catalogs: one report, the exit status the worst of theirs. A catalog
/// that cannot be read is reported (and its errors printed); the others are
/// still compared.
fn many(
    pairs: &[Pair],
    base: Option<(&str, &mut Revision)>,
    settings: &Settings,
    format: Format,
) -> miette::Result<ExitStatus> {
    let (base, revision) = base.unzip();
    let mut report =
        Many::new(format, base.map(str::to_owned), &settings.semantics).map_err(Failed::Write)?;
    let outcome = catalogs::compare_all(pairs, revision, settings, &mut report)?;
    for error in outcome.errors {
        crate::report_error(&miette::Report::new(error));
    }
    let failed = report.failed();
    write_out(|out| report.finish(out))?;
    Ok(if failed {
        ExitStatus::Error
    } else if outcome.breaks {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    })
}

/// Writes the report to stdout; a reader that went away is no error.
fn write_out(
    write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> Result<(), Failed> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    match write(&mut out).and_then(|()| out.flush()) {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => Err(Failed::Write(error)),
        _ => Ok(()),
    }
}

#[derive(Debug, thiserror::Error, miette::Diagnostic)]
enum ArgumentsError {
    #[error("fbc diff compares OLD NEW pairs; {count} catalogs were given")]
    #[diagnostic(
        code(fbc::diff::arguments),
        help(
            "give OLD NEW pairs, or --base REV with the directories to compare with REV (`fbc diff --base origin/main catalogs/*`)"
        )
    )]
    Odd { count: usize },
}

fn format_of(format: DiffFormat) -> Format {
    match format {
        DiffFormat::Text => Format::Text,
        DiffFormat::Markdown => Format::Markdown,
        DiffFormat::Html => Format::Html,
        DiffFormat::Json => Format::Json,
        DiffFormat::Gitlab => Format::Gitlab,
    }
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
