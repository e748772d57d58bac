//! Entry points for `benches/yaml.rs`: the steps of reading a catalog's YAML, one at
//! a time, so that each can be timed against the floor (reading the bytes and
//! finding the document boundaries).

use std::borrow::Cow;

/// A file's documents, split as opm splits them.
#[must_use]
pub fn documents(text: &str) -> Vec<Cow<'_, str>> {
    crate::catalog::split_documents(text)
}

/// Whether the direct reader reads the document (the value is dropped).
#[must_use]
pub fn read_directly(document: &str) -> bool {
    crate::catalog::yaml::read_directly(document)
}

/// Whether saphyr's reader (the one the direct reader falls back to) reads it.
#[must_use]
pub fn read_fully(document: &str) -> bool {
    crate::catalog::yaml::read_with_saphyr(document)
}
