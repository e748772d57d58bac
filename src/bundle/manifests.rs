//! The `manifests/` directory of a bundle: the first document of each regular,
//! non-hidden file that decodes to an object with a kind, in file name order, and
//! only the first CSV.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::decode;

/// The kept objects and the files they came from.
pub(crate) struct Manifests {
    pub(crate) objects: Vec<Map<String, Value>>,
    pub(crate) files: Vec<PathBuf>,
}

/// Reads `manifests/`; `Err` is opm's message when nothing is kept.
pub(crate) fn read(directory: &Path) -> Result<Manifests, String> {
    let mut names: Vec<OsString> = std::fs::read_dir(directory)
        .map_err(|error| format!("open {}: {error}", directory.display()))?
        .filter_map(Result::ok)
        .filter(|entry| !entry.file_type().is_ok_and(|kind| kind.is_dir()))
        .map(|entry| entry.file_name())
        .filter(|name| !name.to_string_lossy().starts_with('.'))
        .collect();
    names.sort();
    let mut manifests = Manifests {
        objects: Vec::new(),
        files: Vec::new(),
    };
    let mut csv_found = false;
    for name in names {
        let file = directory.join(&name);
        // Unreadable files (and links to directories) are skipped, as opm does.
        let Some(bytes) = super::read_file(&file)? else {
            continue;
        };
        let object =
            decode::first_object(&bytes).map_err(|error| format!("{}: {error}", file.display()))?;
        let Some(object) = object else {
            continue;
        };
        if decode::kind_of(&object) == Some(super::CSV_KIND) {
            if csv_found {
                continue;
            }
            csv_found = true;
        }
        manifests.objects.push(object);
        manifests.files.push(file);
    }
    if manifests.objects.is_empty() {
        return Err("no bundle objects found".to_owned());
    }
    Ok(manifests)
}
