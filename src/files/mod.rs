//! The files fbc reads and writes: reads bounded in size and kind, outputs written
//! whole or not at all, and temporary files named after the process that made them.

pub(crate) mod atomic;
pub(crate) mod limits;
pub(crate) mod stale;
