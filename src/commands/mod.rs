//! One module per subcommand: arguments -> settings -> core -> output.

pub(crate) mod authoring;
pub(crate) mod completions;
pub(crate) mod diff;
pub(crate) mod generate_dockerfile;
pub(crate) mod graph;
pub(crate) mod man;
pub(crate) mod render;
pub(crate) mod render_template;
pub(crate) mod resolve;
pub(crate) mod upgrade_path;
pub(crate) mod validate;
pub(crate) mod version;

/// Writes what `write` gives a buffer to stdout as it comes (a report is never held
/// whole); a reader that stops early (`| head`) is not an error.
pub(crate) fn stream_stdout<T>(
    write: impl FnOnce(&mut crate::output::sink::Spill<'_, std::io::StdoutLock<'static>>) -> T,
) -> std::io::Result<T> {
    let mut stdout = std::io::stdout().lock();
    let mut spill = crate::output::sink::Spill::new(&mut stdout, 64 * 1024);
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
