//! Large JSON catalog files read a block at a time, so that a file's text is not
//! held whole beside the blobs decoded from it (a file of many small blobs would
//! otherwise need its size again in memory). Only the regular case is handled
//! here: a file that opm reads as a JSON stream of objects that all decode. At the
//! first thing that is not (a syntax error, a value that is not a blob, invalid
//! UTF-8, a file growing past the limit), `None` sends the file to the whole-file
//! reader, which gives opm's verdict and message for it.

use std::io::Read as _;
use std::path::Path;

use super::meta::{self, Origin};
use super::{Catalog, LineCursor, Location};
use crate::codec::json_read::{JsonError, JsonStream};

/// Files from this size on are read a block at a time. The unit tests use smaller
/// sizes, so that files of many blocks are quick to make in a debug build.
#[cfg(not(test))]
pub(super) const STREAM_FROM: u64 = 4 << 20;
#[cfg(test)]
pub(super) const STREAM_FROM: u64 = 64 << 10;

/// How much is read at a time (more while one value does not fit).
#[cfg(not(test))]
const BLOCK: usize = 1 << 20;
#[cfg(test)]
const BLOCK: usize = 16 << 10;

/// The catalog of a large JSON file, `None` when the file is not a JSON stream of
/// blobs that all decode (or cannot be read): the caller reads it whole.
pub(super) fn load_large_json(path: &Path, shown: &Path, size: u64) -> Option<Catalog> {
    let limit = crate::files::limits::get().max_file_size;
    if size < STREAM_FROM || size > limit {
        return None;
    }
    let mut file = crate::files::limits::open_regular(path).ok()?;
    let shared = super::shared_path(shown);
    let mut catalog = Catalog::default();
    let mut buffer: Vec<u8> = Vec::with_capacity(2 * BLOCK);
    let mut cursor = LineCursor::default();
    let mut read_total: u64 = 0;
    let mut end_of_file = false;
    let mut sniffed = None;
    loop {
        // Read until a block beyond what is left over (or the end of the file).
        let wanted = buffer.len() + BLOCK.max(buffer.len());
        while !end_of_file && buffer.len() < wanted {
            let before = buffer.len();
            let read = (&mut file)
                .take((wanted - before) as u64)
                .read_to_end(&mut buffer)
                .ok()?;
            read_total += read as u64;
            end_of_file = read == 0;
            if read_total > limit {
                return None;
            }
        }
        let valid = match std::str::from_utf8(&buffer) {
            Ok(text) => text.len(),
            // A character cut by the block's end is completed by the next read.
            Err(error) if error.error_len().is_none() && !end_of_file => error.valid_up_to(),
            Err(_) => return None,
        };
        let text = std::str::from_utf8(&buffer[..valid]).ok()?;
        let expected = (*sniffed.get_or_insert_with(|| first_block(text, size)))?;
        let mut stream = JsonStream::new(text);
        let mut consumed = 0;
        loop {
            match stream.next_value() {
                None => {
                    consumed = text.len();
                    break;
                }
                Some(Ok((start, value))) => {
                    if !value.is_object() {
                        return None;
                    }
                    let raw = &text[start..stream.position()];
                    let blob = meta::blob_from_document(Some(value), &Origin::Json(raw)).ok()?;
                    let (line, column) = cursor.advance(text, start);
                    catalog.push_expecting(blob, Location::new(&shared, line, column), expected);
                    consumed = stream.position();
                }
                // The value goes on past what was read.
                Some(Err(JsonError::UnexpectedEof { .. })) if !end_of_file => break,
                Some(Err(_)) => return None,
            }
        }
        if end_of_file {
            // Everything read was taken, or the whole-file reader reports what was not.
            return (consumed == buffer.len()).then(|| {
                catalog.shrink_to_fit();
                catalog
            });
        }
        // Keep only the value in progress, with the line count up to it.
        cursor.rebase(text, consumed);
        buffer.drain(..consumed);
    }
}

/// From the start of the file: `None` unless opm would read it as JSON, else about
/// how many blobs the file holds.
fn first_block(text: &str, size: u64) -> Option<usize> {
    super::decode::reads_as_json(text).then(|| super::blob_estimate(text, size))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write as _;

    /// A file of `text` in a temporary directory.
    fn file_with(text: &[u8]) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().expect("a directory");
        let path = dir.path().join("catalog.json");
        std::fs::write(&path, text).expect("written");
        (dir, path)
    }

    fn streamed(path: &Path) -> Option<Catalog> {
        let size = std::fs::metadata(path).expect("metadata").len();
        load_large_json(path, path, size)
    }

    /// Over `STREAM_FROM`: small blobs on one line, blobs over several lines with
    /// characters of several bytes (some cut by a block's end), and a blob larger
    /// than a block.
    fn large_stream() -> String {
        let mut text = String::from("  \n");
        for number in 0..1_000 {
            write!(text, r#"{{"schema":"olm.package","name":"p{number}"}}"#).expect("written");
        }
        text.push('\n');
        let big = "é€😀".repeat(2 * BLOCK / 9);
        write!(
            text,
            "{{\"schema\":\"x.y\",\"package\":\"p1\",\"name\":\"big\",\"v\":\"{big}\"}}\r\n"
        )
        .expect("written");
        for number in 0..1_500 {
            write!(
                text,
                "{{\n  \"schema\": \"olm.bundle\",\n  \"package\": \"p{}\",\n  \"name\": \"b{number}-ü\",\n  \"properties\": [{{\"type\": \"olm.package\", \"value\": {{\"packageName\": \"p\", \"version\": \"1.0.{number}\"}}}}]\n}}\t",
                number % 40
            )
            .expect("written");
        }
        assert!(text.len() as u64 > STREAM_FROM + 2 * BLOCK as u64);
        text
    }

    #[test]
    fn a_large_json_stream_loads_as_when_read_whole() {
        let text = large_stream();
        let (_dir, path) = file_with(text.as_bytes());
        let streamed = streamed(&path).expect("streamed");
        let whole = super::super::decode_bytes(&path, text.into_bytes()).expect("loaded");
        assert_eq!(streamed.packages.len(), 1_000);
        assert_eq!(streamed.bundles.len(), 1_500);
        assert_eq!(format!("{streamed:?}"), format!("{whole:?}"));
    }

    #[test]
    fn other_large_files_are_left_to_the_whole_file_reader() {
        let text = large_stream();
        let yaml = format!("{}\n", "---\nschema: olm.package\nname: p\n".repeat(4_000));
        let mut invalid_utf8 = text.clone().into_bytes();
        invalid_utf8[3 * BLOCK] = 0xff;
        let cases: Vec<(&str, Vec<u8>)> = vec![
            ("YAML", yaml.into_bytes()),
            (
                "a syntax error at the end",
                format!("{text}{{\"schema\":").into_bytes(),
            ),
            (
                "a value that is not a blob",
                format!("{text}[1]").into_bytes(),
            ),
            (
                "a blob without a schema",
                format!("{text}{{\"name\":\"x\"}}").into_bytes(),
            ),
            ("bytes that are not UTF-8", invalid_utf8),
            (
                "a small file",
                b"{\"schema\":\"olm.package\",\"name\":\"p\"}".to_vec(),
            ),
        ];
        for (what, bytes) in cases {
            let (_dir, path) = file_with(&bytes);
            assert!(streamed(&path).is_none(), "{what}");
        }
    }

    /// The whole-file reader reports what streaming leaves to it, at its line.
    #[test]
    fn errors_in_large_files_are_reported_as_when_read_whole() {
        let text = format!("{}\n{{\"schema\":\"olm.package\",\"name\":", large_stream());
        let (_dir, path) = file_with(text.as_bytes());
        let loaded =
            super::super::load_file(&path, super::super::Reuse::Nothing).expect_err("refused");
        let whole = super::super::decode_bytes(&path, text.into_bytes()).expect_err("refused");
        assert_eq!(loaded.to_string(), whole.to_string());
        assert_eq!(loaded.position(), whole.position());
    }
}
