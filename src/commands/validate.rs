//! `fbc validate`: load a catalog directory, validate it, report the findings in
//! the chosen format and exit 0 (valid), 1 (invalid) or 2 (not loadable).

use std::path::Path;

use crate::ExitStatus;
use crate::catalog;
use crate::cli::{ValidateArgs, ValidateFormat};
use crate::validate::report::{self, Outcome, Settings};
use crate::validate::{Rule, validate};

#[derive(Debug, thiserror::Error, miette::Diagnostic)]
enum ValidateError {
    #[error(transparent)]
    #[diagnostic(transparent)]
    Load(#[from] catalog::LoadErrors),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Access(#[from] catalog::LoadError),
    #[error("write <stdout>: {0}")]
    #[diagnostic(code(fbc::validate::write))]
    Write(#[source] std::io::Error),
    /// opm's words when its YAML writer refuses a string of the report; only a
    /// failed validation has strings that can hold such characters.
    #[error("failed to marshal output: {0}")]
    #[diagnostic(
        code(fbc::validate::yaml),
        help("the report holds a character YAML cannot carry; use `-o json`")
    )]
    Yaml(#[source] crate::output::yaml::YamlWriteError),
}

pub(crate) fn run(args: &ValidateArgs) -> miette::Result<ExitStatus> {
    let settings = Settings {
        strict: args.strict,
        allowed: args
            .allow
            .iter()
            .filter_map(|id| Rule::from_id(id))
            .collect(),
    };
    let outcome = check(&args.directory, &settings)?;
    let text = match args.output {
        ValidateFormat::Text => {
            let fancy = crate::output::diagnostics::stderr_is_fancy();
            eprint!("{}", report::text::write(&outcome, fancy));
            String::new()
        }
        ValidateFormat::Json => report::json::write(&outcome),
        ValidateFormat::Yaml => match report::yaml::write(&outcome) {
            Ok(text) => text,
            Err(error) => {
                // Reported, with the verdict's exit code, as opm does.
                eprintln!("{:?}", miette::Report::new(ValidateError::Yaml(error)));
                return Ok(ExitStatus::Failure);
            }
        },
        ValidateFormat::Sarif => report::sarif::write(&outcome),
        ValidateFormat::Github => report::github::write(&outcome),
    };
    super::write_stdout(text.as_bytes()).map_err(ValidateError::Write)?;
    Ok(if outcome.passed {
        ExitStatus::Success
    } else {
        ExitStatus::Failure
    })
}

fn check(directory: &Path, settings: &Settings) -> Result<Outcome, ValidateError> {
    catalog::require_directory(directory, false)?;
    let loaded = catalog::load_directory(directory)?;
    Ok(Outcome::new(validate(&loaded), settings))
}
