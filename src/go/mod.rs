//! Go standard-library behaviour that leaks into opm's output and messages:
//! string quoting, `fmt` value printing, JSON indentation, base64 decoding.

pub(crate) mod base64;
pub(crate) mod fmt;
