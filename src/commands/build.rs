//! `fbc build DIR`: the command line into `build::Options`; the catalog is
//! validated first, as `fbc validate` validates it, and nothing is built when it
//! is invalid.

use crate::ExitStatus;
use crate::build::{self, Output};
use crate::cli::{BuildArgs, RegistryArgs, ValidateArgs, ValidateFormat};

#[derive(Debug, thiserror::Error, miette::Diagnostic)]
enum BuildArgsError {
    #[error("{0}")]
    #[diagnostic(code(fbc::build::output))]
    Output(String),
    #[error("--label {0}: a label is KEY=VALUE")]
    #[diagnostic(code(fbc::build::label))]
    Label(String),
    #[error("nothing to do: give --tag REF, --output DEST or --print-digest")]
    #[diagnostic(code(fbc::build::nothing))]
    Nothing,
}

pub(crate) fn run(args: &BuildArgs) -> miette::Result<ExitStatus> {
    let pull = super::pull_options(&args.registry)?;
    let outputs = args
        .output
        .iter()
        .map(|text| Output::parse(text))
        .collect::<Result<Vec<_>, _>>()
        .map_err(BuildArgsError::Output)?;
    let labels = args
        .label
        .iter()
        .map(|text| {
            text.split_once('=')
                .filter(|(key, _)| !key.is_empty())
                .map(|(key, value)| (key.to_owned(), value.to_owned()))
                .ok_or_else(|| BuildArgsError::Label(text.clone()))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if args.tag.is_none() && outputs.is_empty() && !args.print_digest {
        return Err(BuildArgsError::Nothing.into());
    }
    let checked = super::validate::run(&ValidateArgs {
        directories: vec![args.directory.clone()],
        output: ValidateFormat::Text,
        strict: false,
        quiet: true,
        allow: Vec::new(),
        check_dependencies: false,
        with_catalogs: Vec::new(),
        registry: RegistryArgs {
            use_http: false,
            skip_tls_verify: false,
            skip_tls: false,
            no_cache: false,
        },
    })?;
    if checked != ExitStatus::Success {
        eprintln!("fbc build: the catalog is not valid: no image was built");
        return Ok(checked);
    }
    let built = build::build(&build::Options {
        directory: args.directory.clone(),
        base: args.base.clone(),
        labels,
        cache: args.cache,
        pull,
    })?;
    for output in &outputs {
        output.write(&built)?;
    }
    if let Some(tag) = &args.tag {
        let digest = built.push(tag, pull)?;
        eprintln!("pushed {tag} ({digest})");
    }
    if args.print_digest {
        println!("{}", built.digest());
    }
    Ok(ExitStatus::Success)
}
