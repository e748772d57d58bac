//! Entry points for `benches/yaml.rs`: the steps of reading a catalog's YAML, one at
//! a time, so that each can be timed against the floor (reading the bytes and
//! finding the document boundaries).

use std::borrow::Cow;
use std::path::{Path, PathBuf};

/// A file's documents, split as opm splits them.
#[must_use]
pub fn documents(text: &str) -> Vec<Cow<'_, str>> {
    crate::catalog::split_documents(text)
}

/// Whether the direct reader reads the document (the value is dropped).
#[must_use]
pub fn read_directly(document: &str) -> bool {
    crate::codec::yaml::read_directly(document)
}

/// [`read_directly`] as the catalog loader reads: property values written straight
/// to their compact text.
#[must_use]
pub fn read_capturing(document: &str) -> bool {
    crate::codec::yaml::read_capturing(document)
}

/// Whether saphyr's reader (the one the direct reader falls back to) reads it.
#[must_use]
pub fn read_fully(document: &str) -> bool {
    crate::codec::yaml::read_with_saphyr(document)
}

/// The `.yaml` and `.yml` files under a directory, sorted.
///
/// # Panics
/// When the directory cannot be read.
#[must_use]
pub fn yaml_files(directory: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![directory.to_path_buf()];
    while let Some(directory) = pending.pop() {
        let entries = std::fs::read_dir(&directory)
            .unwrap_or_else(|error| panic!("{}: {error}", directory.display()));
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path
                .extension()
                .is_some_and(|ext| ext == "yaml" || ext == "yml")
            {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}
