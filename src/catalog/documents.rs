//! Catalog files read as opm's `WalkMetasFS` reads them for catalogd: each
//! document's schema, package and name and its blob as Go re-encodes it (OLM v1's
//! HTTP view, `fbc serve`'s snapshot), and the documents of a stream as opm's
//! decoders split them.

use std::ops::ControlFlow;
use std::path::Path;

use rayon::prelude::*;
use serde_json::Value;

use super::meta::Origin;
use super::{decode, line_and_column, meta, read_file, walk};

/// A document as opm's `WalkMetasFS` hands it to catalogd: its schema, package
/// and name (read case-insensitively) and its blob as Go re-encodes it (keys
/// sorted, numbers through float64, no HTML escaping), with a newline.
pub(crate) struct Meta {
    pub(crate) schema: String,
    pub(crate) package: String,
    pub(crate) name: String,
    pub(crate) blob: String,
}

/// The schema, package and name of a document's top-level object, read as opm's
/// `Meta` decoder reads them (keys case-insensitive).
pub(crate) fn meta_fields(
    object: serde_json::Map<String, Value>,
) -> Result<(String, String, String), String> {
    meta::fields(&Value::Object(object))
}

/// When a catalog file below `root` last changed, the newest of them.
pub(crate) fn newest_change(root: &Path) -> Option<std::time::SystemTime> {
    walk::catalog_files(root)
        .ok()?
        .iter()
        .filter_map(|file| std::fs::metadata(root.join(file)).ok()?.modified().ok())
        .max()
}

/// One catalog file's documents, in file order, and when the file last changed.
pub(crate) struct FileMetas {
    pub(crate) modified: Option<std::time::SystemTime>,
    pub(crate) metas: Vec<Meta>,
}

/// Every catalog file below `root` in the walk's order, to `each`: files are
/// decoded in parallel, one per thread at a time, so that only those files'
/// documents exist at once beside what `each` keeps. The first failure is told
/// in words naming the file (a catalog checked before is read again: only a
/// file changed in between fails).
pub(crate) fn walk_metas(
    root: &Path,
    mut each: impl FnMut(FileMetas) -> Result<(), String>,
) -> Result<(), String> {
    // A file per thread at a time: the documents of a catalog of a few large
    // files never all exist at once beside the catalog a server holds.
    let chunk = rayon::current_num_threads().max(1);
    let files = walk::catalog_files(root).map_err(|error| error.to_string())?;
    for chunk in files.chunks(chunk) {
        let decoded: Vec<Result<FileMetas, String>> = chunk
            .par_iter()
            .map(|file| file_metas(&root.join(file)))
            .collect();
        for file in decoded {
            each(file?)?;
        }
    }
    Ok(())
}

fn file_metas(path: &Path) -> Result<FileMetas, String> {
    let failed = |why: &str| format!("{}: {why}", path.display());
    let modified = std::fs::metadata(path)
        .and_then(|metadata| metadata.modified())
        .ok();
    let bytes = read_file(path).map_err(|error| error.to_string())?;
    let text = String::from_utf8(bytes).map_err(|_| failed("not UTF-8"))?;
    let mut metas = Vec::new();
    let mut refusal = None;
    let error = decode::decode_file(&text, &mut |document| match document
        .value
        .as_ref()
        .map(meta::fields)
    {
        Some(Ok((schema, package, name))) => {
            let value = document.value.as_ref().expect("a value was read");
            let mut blob = meta::compact(value);
            blob.push('\n');
            metas.push(Meta {
                schema,
                package,
                name,
                blob,
            });
            ControlFlow::Continue(())
        }
        Some(Err(message)) => {
            refusal = Some(message);
            ControlFlow::Break(())
        }
        None => {
            refusal = Some("a document without content".to_owned());
            ControlFlow::Break(())
        }
    });
    match refusal.or(error.map(|error| error.message)) {
        Some(message) => Err(failed(&message)),
        None => Ok(FileMetas { modified, metas }),
    }
}

/// Every document of a stream read as opm's `WalkMetasReader` reads them into
/// `Meta`s, in order; the first failure in opm's words.
pub(crate) fn meta_documents(text: &str) -> Result<Vec<Value>, String> {
    let mut values = Vec::new();
    let mut refusal = None;
    let error = decode::decode_file(text, &mut |document| {
        let Some(value) = document.value else {
            refusal =
                Some("a document holds nothing but comments, which opm cannot convert".to_owned());
            return ControlFlow::Break(());
        };
        if meta::decoder_rejects(Some(&value)) {
            let raw = document
                .raw_json
                .map_or_else(|| meta::compact(&value), str::to_owned);
            refusal = Some(
                meta::blob_from_document(Some(value), &Origin::Json(&raw))
                    .err()
                    .unwrap_or_default(),
            );
            return ControlFlow::Break(());
        }
        values.push(value);
        ControlFlow::Continue(())
    });
    match refusal.or(error.map(|error| error.message)) {
        Some(message) => Err(message),
        None => Ok(values),
    }
}

/// Every document of a YAML or JSON stream of Kubernetes manifests (empty ones
/// left out); an error gives its message with the line and column it points at.
pub(crate) fn manifest_documents(text: &str) -> Result<Vec<Value>, (String, (usize, usize))> {
    let mut values = Vec::new();
    let error = decode::decode_file(text, &mut |document| {
        if let Some(value) = document.value {
            values.push(value);
        }
        ControlFlow::Continue(())
    });
    match error {
        Some(error) => Err((error.message, line_and_column(text, error.position))),
        None => Ok(values),
    }
}

/// Whether opm's `Meta.UnmarshalJSON` fails on this value (not an object, or its
/// `schema`, `package` or `name` is not a string).
pub(crate) fn meta_decoder_rejects(value: &Value) -> bool {
    meta::decoder_rejects(Some(value))
}
