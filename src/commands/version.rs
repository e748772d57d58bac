//! `fbc version`: what `--version` prints, as a subcommand like `opm version`, so
//! that scripts written for opm keep working.

use crate::ExitStatus;
use crate::commands::completions::WriteError;

pub(crate) fn run() -> miette::Result<ExitStatus> {
    let line = format!("fbc {}\n", crate::VERSION);
    super::write_stdout(line.as_bytes()).map_err(WriteError)?;
    Ok(ExitStatus::Success)
}
