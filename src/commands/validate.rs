//! `fbc validate DIR...`: load each catalog directory (in parallel), validate it,
//! report the findings in the chosen format and exit with the worst status: 0
//! (valid), 1 (invalid) or 2 (not loadable). A catalog that cannot be loaded is
//! reported as findings in the machine formats, and as today's error in text.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::ExitStatus;
use crate::catalog::{self, Location};
use crate::cli::{ValidateArgs, ValidateFormat};
use crate::codec::node::{Each, Items, Node};
use crate::codec::sink::Spill;
use crate::output::diagnostics::print_report as report_error;
use crate::output::gitlab;
use crate::resolve::Unmet;
use crate::text::shown::Form;
use crate::validate::report::{self, Outcome, Settings, display_path};
use crate::validate::spool::{Spool, TextSpool};
use crate::validate::{Finding, Rule, Severity, validate_each};

#[derive(Debug, thiserror::Error, miette::Diagnostic)]
enum ValidateError {
    #[error(transparent)]
    #[diagnostic(transparent)]
    Load(#[from] catalog::LoadErrors),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Access(#[from] catalog::LoadError),
    #[error(
        "{} is a bundle directory (manifests/ and metadata/), not a catalog",
        crate::text::shown::path(.directory, Form::Text)
    )]
    #[diagnostic(
        code(fbc::validate::bundle_directory),
        help(
            "render the bundle into the catalog it belongs to and validate that: `fbc render {} > catalog/PACKAGE/BUNDLE.json && fbc validate catalog`",
            crate::text::shown::path(.directory, Form::Text)
        )
    )]
    BundleDirectory { directory: PathBuf },
    #[error("write <stdout>: {0}")]
    #[diagnostic(code(fbc::validate::write))]
    Write(#[source] std::io::Error),
    #[error("{0}")]
    #[diagnostic(
        code(fbc::validate::spool),
        help(
            "findings beyond FBC_FINDINGS_IN_MEMORY wait in a temporary file in $TMPDIR; raise it, or point TMPDIR at a working file system"
        )
    )]
    Spool(String),
    /// opm's words when its YAML writer refuses a string of the report; only a
    /// failed validation has strings that can hold such characters.
    #[error("failed to marshal output: {0}")]
    #[diagnostic(
        code(fbc::validate::yaml),
        help("the report holds a character YAML cannot carry; use `-o json`")
    )]
    Yaml(#[source] crate::output::yaml::YamlWriteError),
}

/// One catalog's result.
struct Checked {
    directory: PathBuf,
    outcome: Outcome,
    loaded: bool,
    /// Why the catalog could not be loaded (its findings are in `outcome`), until
    /// it is reported.
    failure: Option<ValidateError>,
}

impl Checked {
    fn status(&self) -> ExitStatus {
        match (self.loaded, self.outcome.passed) {
            (false, _) => ExitStatus::Error,
            (true, true) => ExitStatus::Success,
            (true, false) => ExitStatus::Failure,
        }
    }
}

pub(crate) fn run(args: &ValidateArgs) -> miette::Result<ExitStatus> {
    crate::model::property::check_at_load(crate::validate::sound_at_load);
    crate::catalog::locate_at_load(crate::validate::unpinned_images);
    let settings = Settings {
        strict: args.strict,
        allowed: args
            .allow
            .iter()
            .filter_map(|id| Rule::from_id(id))
            .collect(),
        opm_text: matches!(args.output, ValidateFormat::Json | ValidateFormat::Yaml),
    };
    let others = with_catalogs(args)?;
    let several = args.directories.len() > 1;
    if args.output == ValidateFormat::Text && !several {
        return check_text(
            &args.directories[0],
            &settings,
            others.as_deref(),
            args.quiet,
        );
    }
    let mut checked: Vec<Checked> = args
        .directories
        .par_iter()
        .map(|directory| check(directory, &settings, several, others.as_deref()))
        .collect();
    let status = checked
        .iter()
        .map(Checked::status)
        .max()
        .unwrap_or(ExitStatus::Success);
    if args.output == ValidateFormat::Text {
        if !several && let Some(failure) = checked[0].failure.take() {
            return Err(failure.into());
        }
        write_text(checked, args.quiet);
        return Ok(status);
    }
    // Machine formats: the load errors on stderr too, for people reading the log.
    for failure in checked.iter_mut().filter_map(|c| c.failure.take()) {
        report_error(&miette::Report::new(failure));
    }
    // Reports are written as they are made; several catalogs' findings one part
    // each.
    let parts: Vec<&Spool> = checked.iter().map(|c| &c.outcome.findings).collect();
    let written = super::stream_stdout(|out| match args.output {
        ValidateFormat::Text => unreachable!("written above"),
        ValidateFormat::Json if several => {
            let catalogs = catalogs_each(&checked);
            report::json::write_node(&several_node(&checked, &catalogs), out);
            Ok(())
        }
        ValidateFormat::Json => {
            report::json::write(&checked[0].outcome, out);
            Ok(())
        }
        ValidateFormat::Yaml if several => {
            let catalogs = catalogs_each(&checked);
            report::yaml::write_node(&several_node(&checked, &catalogs), out)
        }
        ValidateFormat::Yaml => report::yaml::write(&checked[0].outcome, out),
        ValidateFormat::Sarif => {
            report::sarif::write(&parts, out);
            Ok(())
        }
        ValidateFormat::Github => {
            let findings = parts.iter().flat_map(|part| part.iter());
            findings.for_each(|finding| report::github::write(&finding, out));
            Ok(())
        }
        ValidateFormat::Gitlab => {
            let issues = || {
                let findings = parts.iter().flat_map(|part| part.iter());
                findings.map(|finding| issue(&finding))
            };
            gitlab::write(issues, out).expect("a buffer takes every byte");
            Ok(())
        }
    });
    // Findings that could not be read back from their file: the report lacks them.
    let mut texts = checked
        .iter()
        .filter_map(|c| c.outcome.opm_message.as_ref());
    let text_failure = texts.find_map(TextSpool::failure);
    if let Some(failure) = parts
        .iter()
        .find_map(|part| part.failure())
        .or(text_failure)
    {
        return Err(ValidateError::Spool(failure).into());
    }
    if let Err(error) = written.map_err(ValidateError::Write)? {
        // Reported, with the verdict's exit code, as opm does.
        report_error(&miette::Report::new(ValidateError::Yaml(error)));
        return Ok(status.max(ExitStatus::Failure));
    }
    Ok(status)
}

/// The catalogs of `--with-catalog`, loaded once.
/// `None` when dependencies are not checked.
fn with_catalogs(args: &ValidateArgs) -> miette::Result<Option<Vec<(String, catalog::Catalog)>>> {
    if !args.check_dependencies && args.with_catalogs.is_empty() {
        return Ok(None);
    }
    args.with_catalogs
        .iter()
        .map(|flag| {
            let (name, reference) = crate::resolve::split_pair(flag).ok_or_else(|| {
                miette::miette!(
                    "--with-catalog {flag}: expected NAME=REF (a name and a catalog directory or image)"
                )
            })?;
            let pull = super::pull_options(&args.registry)?;
            let catalog = crate::source::catalog(Path::new(&reference), pull)?;
            Ok((name, catalog))
        })
        .collect::<miette::Result<_>>()
        .map(Some)
}

/// Lints `dependency-unsatisfiable` and `dependency-search-gave-up`: channel heads
/// OLM classic could not install with the `--with-catalog` catalogs beside this
/// one, and those whose search ran out of steps (never a silent pass).
fn dependency_findings(
    directory: &Path,
    catalog: &catalog::Catalog,
    others: &[(String, catalog::Catalog)],
) -> Vec<Finding> {
    let name = directory
        .canonicalize()
        .ok()
        .and_then(|path| path.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "catalog".to_owned());
    crate::resolve::unsatisfiable_heads(&name, catalog, others, "olm")
        .into_iter()
        .map(|unmet| {
            let failure = match unmet.verdict {
                Unmet::Fails(failure) => failure,
                Unmet::GaveUp { steps } => {
                    let message = format!(
                        "the dependency search for channel head {} of package {} (channel {}) gave up after {steps} steps: whether OLM classic can install it is unknown",
                        unmet.head, unmet.package, unmet.channel
                    );
                    return Finding::new(Rule::DependencySearchGaveUp, message)
                        .package(&unmet.package)
                        .channel(&unmet.channel)
                        .bundle(&unmet.head)
                        .at(&unmet.location)
                        .help("FBC_RESOLVE_STEPS raises the budget; `fbc alpha resolve` runs the same search");
                }
            };
            let message = format!(
                "channel head {} of package {} (channel {}) cannot be installed: {}",
                unmet.head, unmet.package, unmet.channel, failure.message
            );
            let help = if failure.conflict.is_empty() {
                format!(
                    "OLM classic would fail a Subscription to it ({}); `fbc alpha resolve` explains",
                    failure.reason.as_str()
                )
            } else {
                format!(
                    "OLM classic would fail a Subscription to it (ConstraintsNotSatisfiable); \
                     these cannot all hold: {}",
                    failure.conflict.join("; ")
                )
            };
            Finding::new(Rule::DependencyUnsatisfiable, message)
                .package(&unmet.package)
                .channel(&unmet.channel)
                .bundle(&unmet.head)
                .at(&unmet.location)
                .help(help)
        })
        .collect()
}

/// Validates a loaded catalog: each finding as the report shows it (`--allow`ed
/// ones dropped, errors under `--strict`), handed to `emit` in report order, the
/// `--with-catalog` and empty-catalog lints last. Returns opm's message (empty
/// unless `settings.opm_text`) and whether the catalog passed.
fn validate_catalog(
    directory: &Path,
    catalog: &catalog::Catalog,
    settings: &Settings,
    others: Option<&[(String, catalog::Catalog)]>,
    mut emit: impl FnMut(Finding),
) -> Result<(Option<TextSpool>, bool), ValidateError> {
    let mut errors = false;
    let mut add = |finding: Finding| {
        if let Some(finding) = settings.apply(finding) {
            errors |= finding.severity == Severity::Error;
            emit(finding);
        }
    };
    let opm_message = validate_each(catalog, settings.opm_text, |part| part.for_each(&mut add))
        .map_err(ValidateError::Spool)?;
    if let Some(others) = others {
        dependency_findings(directory, catalog, others)
            .into_iter()
            .for_each(&mut add);
    }
    if catalog.is_empty() {
        add(crate::validate::empty_catalog(&display_path(
            directory,
            Form::Text,
        )));
    }
    let passed = opm_message.is_none() && !errors;
    Ok((opm_message, passed))
}

/// One catalog in text: findings written as each group of packages is validated
/// (a catalog with a problem in every blob never holds them all).
fn check_text(
    directory: &Path,
    settings: &Settings,
    others: Option<&[(String, catalog::Catalog)]>,
    quiet: bool,
) -> miette::Result<ExitStatus> {
    let catalog = load(directory)?;
    let shown = report::text::Shown {
        fancy: crate::output::diagnostics::stderr_is_fancy(),
        quiet,
    };
    let mut stderr = std::io::stderr().lock();
    let mut out = Spill::new(&mut stderr, 64 * 1024);
    let mut report = report::text::Report::new(shown, &mut out);
    let (_, passed) = validate_catalog(directory, &catalog, settings, others, |finding| {
        report.add(&finding);
    })?;
    report.finish(passed);
    let _ = out.finish();
    Ok(if passed {
        ExitStatus::Success
    } else {
        ExitStatus::Failure
    })
}

/// A catalog directory loaded, or why not.
fn load(directory: &Path) -> Result<catalog::Catalog, ValidateError> {
    crate::source::require_directory(directory, false)?;
    if catalog::is_bundle_directory(directory) {
        return Err(ValidateError::BundleDirectory {
            directory: directory.to_path_buf(),
        });
    }
    Ok(catalog::load_directory(directory)?)
}

fn check(
    directory: &Path,
    settings: &Settings,
    several: bool,
    others: Option<&[(String, catalog::Catalog)]>,
) -> Checked {
    let name = several.then(|| display_path(directory, Form::Data));
    let named = |finding: Finding| match &name {
        Some(name) => finding.in_catalog(name),
        None => finding,
    };
    let mut findings = Spool::new(crate::validate::spool::budget());
    let validated = load(directory).and_then(|catalog| {
        validate_catalog(directory, &catalog, settings, others, |finding| {
            findings.push(named(finding));
        })
    });
    let (outcome, failure) = match validated {
        Ok((opm_message, passed)) => {
            let outcome = Outcome {
                findings,
                opm_message,
                passed,
            };
            (outcome, None)
        }
        Err(error) => (load_outcome(&error, named), Some(error)),
    };
    Checked {
        directory: directory.to_path_buf(),
        outcome,
        loaded: failure.is_none(),
        failure,
    }
}

/// A catalog that could not be loaded (or validated): one finding per file that
/// failed (or one for the directory itself), each made `named`.
fn load_outcome(error: &ValidateError, named: impl Fn(Finding) -> Finding) -> Outcome {
    let findings: Vec<Finding> = match error {
        ValidateError::Load(errors) => errors.errors.iter().map(file_finding).collect(),
        ValidateError::Access(error) => vec![file_finding(error)],
        ValidateError::BundleDirectory { .. } => vec![unreadable(error.to_string(), error)],
        ValidateError::Write(_) | ValidateError::Yaml(_) | ValidateError::Spool(_) => Vec::new(),
    };
    Outcome {
        findings: findings.into_iter().map(named).collect::<Vec<_>>().into(),
        opm_message: Some(error.to_string().into()),
        passed: false,
    }
}

/// A file that could not be loaded, where the loader stopped in it.
fn file_finding(error: &catalog::LoadError) -> Finding {
    let (path, position) = error.position();
    let (line, column) = position.unwrap_or((1, 1));
    let location = Location::new(&catalog::shared_path(path), line, column);
    unreadable(error.message(), error).at(&location)
}

/// A `catalog-file-unreadable` finding with the error's help.
fn unreadable(message: String, error: &dyn miette::Diagnostic) -> Finding {
    let finding = Finding::new(Rule::CatalogFileUnreadable, message);
    match error.help() {
        Some(help) => finding.help(help.to_string()),
        None => finding,
    }
}

/// Text on stderr: each catalog's findings under its name, then a verdict line per
/// catalog when there are several.
fn write_text(checked: Vec<Checked>, quiet: bool) {
    let shown = report::text::Shown {
        fancy: crate::output::diagnostics::stderr_is_fancy(),
        quiet,
    };
    let several = checked.len() > 1;
    let mut verdicts = Vec::new();
    for one in checked {
        if several {
            eprintln!("==> {} <==", display_path(&one.directory, Form::Text));
        }
        let status = one.status();
        if let Some(failure) = one.failure {
            report_error(&miette::Report::new(failure));
        } else {
            // As stderr takes it: a report of many errors is never held whole.
            let mut stderr = std::io::stderr().lock();
            let mut out = Spill::new(&mut stderr, 64 * 1024);
            report::text::write(&one.outcome, shown, &mut out);
            let _ = out.finish();
        }
        if several {
            eprintln!();
        }
        verdicts.push((one.directory, status, one.outcome));
    }
    if !several {
        return;
    }
    for (directory, status, outcome) in verdicts {
        let verdict = match (status, outcome.passed) {
            (ExitStatus::Error, _) => "could not be loaded".to_owned(),
            (_, passed) => format!(
                "{}: {} errors, {} warnings",
                if passed { "valid" } else { "invalid" },
                outcome.count(Severity::Error),
                outcome.count(Severity::Warning)
            ),
        };
        eprintln!("{}: {verdict}", display_path(&directory, Form::Text));
    }
}

/// `{"formatVersion": 1, "passed", "catalogs": [{"directory", "passed", "error",
/// "findings"}]}` (schemas/validate.schema.json), the catalogs made by `catalogs`,
/// one of [`catalogs_each`].
fn several_node<'a>(checked: &[Checked], catalogs: &'a Each<'a>) -> Node<'a> {
    Node::Object(vec![
        (
            "formatVersion".into(),
            Node::Number(report::json::FORMAT_VERSION),
        ),
        (
            "passed".into(),
            Node::Bool(checked.iter().all(|c| c.outcome.passed)),
        ),
        (
            "catalogs".into(),
            Node::Items(Items::new(checked.len(), catalogs)),
        ),
    ])
}

/// Hands each catalog's object to a visitor, its findings made as they are written.
fn catalogs_each(checked: &[Checked]) -> impl Fn(&mut dyn for<'n> FnMut(&Node<'n>)) + Sync + '_ {
    move |visit| {
        for one in checked {
            let findings = report::json::findings_each(&one.outcome.findings);
            let mut fields = vec![
                (
                    "directory".into(),
                    Node::String(display_path(&one.directory, Form::Data).into()),
                ),
                ("passed".into(), Node::Bool(one.outcome.passed)),
                ("loaded".into(), Node::Bool(one.loaded)),
            ];
            fields.extend(
                report::json::outcome_fields(&one.outcome, &findings)
                    .into_iter()
                    .skip(1),
            );
            visit(&Node::Object(fields));
        }
    }
}

/// A finding as a GitLab issue.
fn issue(finding: &Finding) -> gitlab::Issue {
    let (path, line) = finding.locations.first().map_or_else(
        || (finding.catalog().unwrap_or_default().to_owned(), 1),
        |location| {
            (
                display_path(&location.file, Form::Data),
                location.line as usize,
            )
        },
    );
    let about = report::subject(finding);
    let description = if about.is_empty() {
        finding.message().to_owned()
    } else {
        format!("{about}: {}", finding.message())
    };
    gitlab::Issue {
        identity: format!("{path}\0{description}"),
        description,
        check_name: format!("fbc-validate/{}", finding.rule.id()),
        severity: match finding.severity {
            Severity::Error => "major",
            Severity::Warning => "minor",
        },
        path,
        line,
    }
}
