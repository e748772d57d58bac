//! The directory walk: Go's `fs.WalkDir` order (lexical, depth-first), every file a
//! catalog file whatever its name, except `.indexignore` files and what they ignore.

use std::path::{Path, PathBuf};

use super::error::LoadError;
use super::ignore::IndexIgnore;

const IGNORE_FILE: &str = ".indexignore";

/// One file found by a walk, relative to the root: `relative` with `/` separators
/// for matching (a name that is not UTF-8 is matched lossily), `path` exact.
pub(crate) struct Entry {
    pub(crate) relative: String,
    pub(crate) path: PathBuf,
}

/// The catalog files below `root` in opm's order, relative to `root`.
pub(crate) fn catalog_files(root: &Path) -> Result<Vec<PathBuf>, LoadError> {
    let mut entries = Vec::new();
    walk(root, "", Path::new(""), &mut entries)?;
    select(entries, root, super::read_file)
}

/// The entries of a walk (in its order) that are catalog files: `.indexignore` files
/// and what they ignore are left out. `read` reads a file named `root` joined with
/// its path.
pub(crate) fn select(
    entries: Vec<Entry>,
    root: &Path,
    read: impl Fn(&Path) -> Result<Vec<u8>, LoadError>,
) -> Result<Vec<PathBuf>, LoadError> {
    let mut ignore = IndexIgnore::new();
    for entry in &entries {
        if file_name(&entry.relative) == IGNORE_FILE {
            let path = root.join(&entry.path);
            let bytes = read(&path)?;
            // opm reads the file with `bufio.Scanner`, whose lines hold at most 64 KiB
            // less one byte for the newline.
            if bytes
                .split(|&byte| byte == b'\n')
                .any(|line| line.len() >= 65_536)
            {
                return Err(LoadError::IgnoreLineTooLong { path });
            }
            ignore.add_file(parent(&entry.relative), &String::from_utf8_lossy(&bytes));
        }
    }
    Ok(entries
        .into_iter()
        .filter(|entry| file_name(&entry.relative) != IGNORE_FILE)
        .filter(|entry| !ignore.is_ignored(&entry.relative))
        .map(|entry| entry.path)
        .collect())
}

fn file_name(relative: &str) -> &str {
    relative.rsplit('/').next().unwrap_or(relative)
}

fn parent(relative: &str) -> &str {
    relative.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// Depth-first, names sorted byte-wise; symbolic links are files, never followed.
fn walk(root: &Path, relative: &str, path: &Path, out: &mut Vec<Entry>) -> Result<(), LoadError> {
    let dir = root.join(path);
    let io_error = |error| LoadError::Io {
        path: dir.clone(),
        error,
    };
    let mut children = Vec::new();
    for entry in std::fs::read_dir(&dir).map_err(io_error)? {
        let entry = entry.map_err(io_error)?;
        let file_type = entry.file_type().map_err(io_error)?;
        children.push((entry.file_name(), file_type.is_dir()));
    }
    children.sort_unstable_by(|a, b| a.0.as_encoded_bytes().cmp(b.0.as_encoded_bytes()));
    for (name, is_dir) in children {
        let shown = name.to_string_lossy();
        let child = if relative.is_empty() {
            shown.into_owned()
        } else {
            format!("{relative}/{shown}")
        };
        let child_path = path.join(&name);
        if is_dir {
            walk(root, &child, &child_path, out)?;
        } else {
            out.push(Entry {
                relative: child,
                path: child_path,
            });
        }
    }
    Ok(())
}
