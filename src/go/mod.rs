//! Go standard-library behaviour that leaks into opm's output and messages:
//! string quoting, `fmt` value printing, JSON indentation, base64 decoding, and
//! `sort.Slice`'s order of equal elements.

pub(crate) mod base64;
pub(crate) mod fmt;
pub(crate) mod sort;
pub(crate) mod tabwriter;
