//! Writers: JSON and YAML in opm's exact formatting, and diagnostics for humans.

pub(crate) mod catalog;
pub(crate) mod diagnostics;
pub(crate) mod gitlab;
pub(crate) mod spool;
pub(crate) mod yaml;
