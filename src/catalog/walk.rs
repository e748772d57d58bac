//! The directory walk: Go's `fs.WalkDir` order (lexical, depth-first), every file a
//! catalog file whatever its name, except `.indexignore` files and what they ignore.

use std::path::{Path, PathBuf};

use super::error::LoadError;
use super::ignore::IndexIgnore;

const IGNORE_FILE: &str = ".indexignore";

/// One entry found by the walk, relative to the root with `/` separators.
struct Entry {
    relative: String,
    is_dir: bool,
}

/// The catalog files below `root` in opm's order, relative to `root`.
pub(crate) fn catalog_files(root: &Path) -> Result<Vec<PathBuf>, LoadError> {
    let mut entries = Vec::new();
    walk(root, "", &mut entries)?;
    let mut ignore = IndexIgnore::new();
    for entry in &entries {
        if !entry.is_dir && file_name(&entry.relative) == IGNORE_FILE {
            let path = root.join(&entry.relative);
            let contents =
                std::fs::read_to_string(&path).map_err(|source| LoadError::Io { path, source })?;
            ignore.add_file(parent(&entry.relative), &contents);
        }
    }
    Ok(entries
        .into_iter()
        .filter(|entry| !entry.is_dir && file_name(&entry.relative) != IGNORE_FILE)
        .filter(|entry| !ignore.is_ignored(&entry.relative))
        .map(|entry| PathBuf::from(entry.relative))
        .collect())
}

fn file_name(relative: &str) -> &str {
    relative.rsplit('/').next().unwrap_or(relative)
}

fn parent(relative: &str) -> &str {
    relative.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// Depth-first, names sorted byte-wise; symbolic links are entries, never followed.
fn walk(root: &Path, relative: &str, out: &mut Vec<Entry>) -> Result<(), LoadError> {
    let dir = if relative.is_empty() {
        root.to_path_buf()
    } else {
        root.join(relative)
    };
    let io_error = |source| LoadError::Io {
        path: dir.clone(),
        source,
    };
    let mut children = Vec::new();
    for entry in std::fs::read_dir(&dir).map_err(io_error)? {
        let entry = entry.map_err(io_error)?;
        let file_type = entry.file_type().map_err(io_error)?;
        let name = entry.file_name().to_string_lossy().into_owned();
        children.push((name, file_type.is_dir()));
    }
    children.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    for (name, is_dir) in children {
        let child = if relative.is_empty() {
            name
        } else {
            format!("{relative}/{name}")
        };
        out.push(Entry {
            relative: child.clone(),
            is_dir,
        });
        if is_dir {
            walk(root, &child, out)?;
        }
    }
    Ok(())
}
