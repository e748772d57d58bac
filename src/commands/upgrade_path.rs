//! `fbc alpha upgrade-path` (placeholder while the core is written).
use crate::ExitStatus;
use crate::cli::UpgradePathArgs;
pub(crate) fn run(_args: &UpgradePathArgs) -> miette::Result<ExitStatus> {
    Ok(ExitStatus::Error)
}
