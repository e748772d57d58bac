//! Entry points for the fuzz targets in `fuzz/` (cargo-fuzz, libFuzzer). Each takes
//! arbitrary bytes and drives one parser the way a command would, including what
//! the command does next with a success; none may panic, hang or write outside its
//! temporary directory. The regression inputs under `testdata/fuzz/` run through the
//! same functions in the unit tests.

use std::path::Path;

use crate::catalog;
use crate::catalog::ignore::IndexIgnore;
use crate::output::catalog::{Format, write_catalog};
use crate::output::diagnostics::render;

/// One catalog file (JSON, YAML or a mix): decoded, and if it loads, written in
/// both formats and validated; if not, its error is rendered with its snippet.
pub fn catalog_file(data: &[u8]) {
    match catalog::decode_bytes(Path::new("fuzz/catalog.yaml"), data.to_vec()) {
        Ok(catalog) => {
            for format in [Format::Json, Format::Yaml] {
                let _ = write_catalog(&catalog, format, &mut Vec::new());
            }
            let _ = crate::validate::opm_message(&catalog);
        }
        Err(error) => {
            let mut text = String::new();
            render(&error, false, "", &mut text);
            render(&error, true, "  ", &mut text);
        }
    }
}

/// `.indexignore` patterns and a path: the first line is the path, the rest is the
/// ignore file, applied at the root and in a sub-directory.
pub fn index_ignore(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (path, patterns) = text.split_once('\n').unwrap_or((&text, ""));
    let mut ignore = IndexIgnore::new();
    ignore.add_file("", patterns);
    ignore.add_file("sub/dir", patterns);
    let _ = ignore.is_ignored(path);
    let _ = ignore.is_ignored(&format!("sub/dir/{path}"));
}

/// A skipRange on the first line and a version on the second: parsed as blang does,
/// and the version tested against the range.
pub fn skip_range(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (range, version) = text.split_once('\n').unwrap_or((&text, "1.0.0"));
    let parsed = crate::go::semver::range::Range::parse(range);
    if let (Ok(range), Ok(version)) = (parsed, crate::go::semver::Version::parse(version)) {
        let _ = range.contains(&version);
    }
}

/// A bundle directory: the input is split at lines `%%` into
/// `metadata/annotations.yaml`, then `metadata/dependencies.yaml`,
/// `metadata/properties.yaml`, then one manifest each; rendered as `fbc render`
/// would, with and without the CSV-metadata migration.
pub fn bundle_directory(data: &[u8]) {
    let Ok(root) = tempfile::tempdir() else {
        return;
    };
    let dir = root.path();
    if std::fs::create_dir(dir.join("metadata")).is_err()
        || std::fs::create_dir(dir.join("manifests")).is_err()
    {
        return;
    }
    let mut parts = split_parts(data).into_iter();
    for name in ["annotations.yaml", "dependencies.yaml", "properties.yaml"] {
        if let Some(part) = parts.next() {
            let _ = std::fs::write(dir.join("metadata").join(name), part);
        }
    }
    for (index, part) in parts.enumerate() {
        let _ = std::fs::write(dir.join("manifests").join(format!("{index}.yaml")), part);
    }
    let template = crate::bundle::ImageTemplate::parse("quay.io/fuzz/{{.Package}}:{{.Version}}");
    for migrating in [false, true] {
        let image = crate::bundle::BundleImage::Template(template.as_ref().ok());
        let _ = crate::bundle::render_directory(dir, "fuzz", image, migrating);
    }
}

/// Splits at lines that are exactly `%%`.
fn split_parts(data: &[u8]) -> Vec<&[u8]> {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut line_start = 0;
    while line_start <= data.len() {
        let line_end = memchr::memchr(b'\n', &data[line_start..])
            .map_or(data.len(), |offset| line_start + offset);
        if &data[line_start..line_end] == b"%%" {
            parts.push(&data[start..line_start]);
            start = (line_end + 1).min(data.len());
        }
        line_start = line_end + 1;
    }
    parts.push(&data[start..]);
    parts
}

/// One image layer (gzip or plain tar) unpacked into a directory three levels down
/// a fresh temporary directory, with a 64 MiB budget; nothing may appear beside it.
pub fn image_layer(data: &[u8]) {
    let Ok(scratch) = tempfile::tempdir() else {
        return;
    };
    let root = scratch.path().join("a/b/root");
    if std::fs::create_dir_all(&root).is_err() {
        return;
    }
    let mut budget = crate::image::Budget::new(64 << 20);
    let _ = crate::image::unpack_layer(
        "application/vnd.oci.image.layer.v1.tar",
        data,
        &root,
        &mut budget,
    );
    let escaped = |dir: &Path, expected: &str| {
        std::fs::read_dir(dir).map_or(0, |entries| {
            entries
                .filter_map(Result::ok)
                .filter(|entry| entry.file_name() != expected)
                .count()
        })
    };
    assert_eq!(escaped(scratch.path(), "a"), 0, "a layer entry escaped");
    assert_eq!(
        escaped(&scratch.path().join("a"), "b"),
        0,
        "a layer entry escaped"
    );
    assert_eq!(
        escaped(&scratch.path().join("a/b"), "root"),
        0,
        "a layer entry escaped"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every input kept under `testdata/fuzz/<target>/` (crashes found by fuzzing,
    /// and seeds) runs through its target.
    #[test]
    fn regression_inputs_run_clean() {
        type Target = (&'static str, fn(&[u8]));
        let targets: [Target; 5] = [
            ("catalog_file", catalog_file),
            ("index_ignore", index_ignore),
            ("skip_range", skip_range),
            ("bundle_directory", bundle_directory),
            ("image_layer", image_layer),
        ];
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/fuzz");
        for (target, run) in targets {
            let dir = root.join(target);
            let mut inputs: Vec<_> = std::fs::read_dir(&dir)
                .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
                .map(|entry| entry.expect("an entry").path())
                .collect();
            inputs.sort();
            assert!(!inputs.is_empty(), "{target} has no inputs");
            for input in inputs {
                run(&std::fs::read(&input).expect("readable"));
            }
        }
    }

    #[test]
    fn parts_split_at_percent_lines() {
        assert_eq!(split_parts(b"a\n%%\nb\n%%\n"), [&b"a\n"[..], b"b\n", b""]);
        assert_eq!(split_parts(b"%%"), [&b""[..], b""]);
        assert_eq!(split_parts(b"no marks %%"), [&b"no marks %%"[..]]);
    }
}
