//! `fbc render`: load each reference and write its blobs in opm's order and format.

use crate::ExitStatus;
use crate::cli::RenderArgs;

pub(crate) fn run(args: &RenderArgs) -> miette::Result<ExitStatus> {
    miette::bail!(
        "rendering {} reference(s) is not built yet",
        args.references.len()
    )
}
