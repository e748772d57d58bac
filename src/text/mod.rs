//! Text and bytes: fast scans over long byte runs, file names as fbc shows them
//! in each output format, text inside markup, and times.

pub(crate) mod bytes;
pub(crate) mod markup;
pub(crate) mod shown;
pub(crate) mod time;
