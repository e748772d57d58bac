//! Text and bytes: fast scans over long byte runs, and file names as fbc shows
//! them in each output format.

pub(crate) mod bytes;
pub(crate) mod shown;
