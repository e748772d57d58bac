//! JSON as the catalog loader reads it and the writers write it, below both: the
//! reader (Go's syntax and messages, numbers as `f64`), the output tree (`Node`),
//! the JSON writer (Go's encoder: escaping, indentation; numbers are `go::number`'s),
//! and the byte sinks the writers fill.

pub(crate) mod json_read;
pub(crate) mod json_walk;
pub(crate) mod json_write;
pub(crate) mod node;
pub(crate) mod sink;
pub(crate) mod yaml;
