//! One module per subcommand: arguments -> settings -> core -> output.

pub(crate) mod authoring;
pub(crate) mod build;
pub(crate) mod completions;
pub(crate) mod diff;
pub(crate) mod generate_dockerfile;
pub(crate) mod graph;
pub(crate) mod man;
pub(crate) mod render;
pub(crate) mod render_template;
pub(crate) mod resolve;
pub(crate) mod serve;
pub(crate) mod upgrade_path;
pub(crate) mod validate;
pub(crate) mod version;

/// A combination of registry flags opm refuses, in its words.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("invalid flag combination: {0}")]
#[diagnostic(code(fbc::flags))]
pub(crate) struct FlagsError(pub(crate) &'static str);

/// The pull options of the registry flags, after opm's checks of their
/// combination; the deprecated `--skip-tls` gets opm's notice on stderr.
pub(crate) fn pull_options(
    registry: &crate::cli::RegistryArgs,
) -> Result<crate::image::PullOptions, FlagsError> {
    match (
        registry.use_http,
        registry.skip_tls_verify,
        registry.skip_tls,
    ) {
        (true, _, true) => return Err(FlagsError("cannot use --use-http with --skip-tls")),
        (_, true, true) => return Err(FlagsError("cannot use --skip-tls-verify with --skip-tls")),
        (true, true, _) => {
            return Err(FlagsError(
                "--use-http and --skip-tls-verify cannot both be true",
            ));
        }
        _ => {}
    }
    if registry.skip_tls {
        eprintln!(
            "Flag --skip-tls has been deprecated, use --use-http and --skip-tls-verify instead"
        );
    }
    Ok(crate::image::PullOptions {
        use_http: registry.use_http || registry.skip_tls,
        skip_tls_verify: registry.skip_tls_verify,
        no_cache: registry.no_cache,
        offline: false,
        quiet: false,
    })
}

/// The semantics a `--semantics` flag asks for, classic first.
pub(crate) fn semantics(arg: crate::cli::SemanticsArg) -> Vec<crate::graph::upgrade::Semantics> {
    use crate::cli::SemanticsArg;
    use crate::graph::upgrade::Semantics;
    match arg {
        SemanticsArg::Classic => vec![Semantics::Classic],
        SemanticsArg::V1 => vec![Semantics::V1],
        SemanticsArg::Both => vec![Semantics::Classic, Semantics::V1],
    }
}

/// stdout could not be written.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("write <stdout>: {0}")]
#[diagnostic(code(fbc::write))]
pub(crate) struct StdoutError(pub(crate) std::io::Error);

/// Writes the whole output; a reader that stops early (`| head`) is not an error.
pub(crate) fn print(bytes: &[u8]) -> Result<crate::ExitStatus, StdoutError> {
    write_stdout(bytes).map_err(StdoutError)?;
    Ok(crate::ExitStatus::Success)
}

/// Writes what `write` gives a buffer to stdout as it comes (a report is never held
/// whole); a reader that stops early (`| head`) is not an error.
pub(crate) fn stream_stdout<T>(
    write: impl FnOnce(&mut crate::codec::sink::Spill<'_, std::io::StdoutLock<'static>>) -> T,
) -> std::io::Result<T> {
    let mut stdout = std::io::stdout().lock();
    let mut spill = crate::codec::sink::Spill::new(&mut stdout, 64 * 1024);
    let result = write(&mut spill);
    match spill
        .finish()
        .and_then(|()| std::io::Write::flush(&mut stdout))
    {
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => Ok(result),
        other => other.map(|()| result),
    }
}

/// Streams a catalog to stdout as it is encoded (nothing is written when YAML
/// output is refused); a reader that stops early (`| head`) is not an error.
pub(crate) fn stream_catalog(
    catalog: &crate::catalog::Catalog,
    format: crate::output::catalog::Format,
) -> Result<(), crate::output::catalog::WriteError> {
    use crate::output::catalog::WriteError;
    use std::io::Write as _;
    let mut stdout = std::io::stdout().lock();
    match crate::output::catalog::write_catalog(catalog, format, &mut stdout)
        .and_then(|()| stdout.flush().map_err(WriteError::Io))
    {
        Err(WriteError::Io(error)) if error.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

/// Writes `bytes` on stdout; a reader that stops early (`| head`) is not an error.
pub(crate) fn write_stdout(bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}
