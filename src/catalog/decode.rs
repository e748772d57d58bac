//! One catalog file -> its documents, following opm's decoder (apimachinery's
//! `YAMLOrJSONDecoder`): JSON mode when the first non-space byte is `{`, a JSON stream
//! with a fallback to YAML while at most one object was read, and YAML documents split
//! on `---` lines. Problems come back with a byte position so they can be located.

use std::borrow::Cow;
use std::ops::ControlFlow;

use serde_json::Value;

use crate::codec::json_read::{JsonError, JsonStream};
use crate::codec::yaml::{self, Implicit, YamlError};

/// How far opm peeks to decide between JSON and YAML.
const SNIFF_LENGTH: usize = 4096;

/// A decoded document: a JSON value, or `None` for an empty YAML document.
#[derive(Debug)]
pub(crate) struct Document<'a> {
    /// Byte offset in the file where the document's content starts.
    pub(crate) start: usize,
    pub(crate) value: Option<Value>,
    /// The raw JSON text of the value in JSON mode (opm shows it in some errors).
    pub(crate) raw_json: Option<&'a str>,
    /// Plain booleans and numbers under string fields (YAML documents only).
    pub(crate) implicit: Vec<Implicit>,
    /// For the first YAML document read after a failed JSON stream: the JSON error,
    /// which opm reports instead when this document does not decode into its `Meta`.
    pub(crate) json_error: Option<DecodeError>,
    /// A YAML document's text as it was read (none when its line ends were
    /// rewritten, or in JSON mode).
    pub(crate) text: Option<&'a str>,
    /// The document was not read: the caller knows its text (see
    /// [`decode_file_knowing`]); `value` and `implicit` are empty.
    pub(crate) known: bool,
    /// The values of the items of the value's `properties` list are their compact
    /// JSON text (see `yaml::catalog_document_capturing`).
    pub(crate) captured: bool,
}

/// A file that opm would not load, or that fbc refuses because opm would drop data.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DecodeError {
    pub(crate) message: String,
    /// Byte offset in the file of the problem.
    pub(crate) position: usize,
    pub(crate) help: Option<String>,
}

impl DecodeError {
    fn new(message: impl Into<String>, position: usize) -> Self {
        DecodeError {
            message: message.into(),
            position,
            help: None,
        }
    }
}

/// What receives each document as it is decoded; `Break` stops the decoding (the
/// receiver has found a reason to refuse the file). Documents are handed over one at
/// a time so that a file's decoded values never all exist at once.
pub(crate) type Receiver<'r, 'a> = dyn FnMut(Document<'a>) -> ControlFlow<()> + 'r;

/// Decodes `text` document by document; the error that ended it, if any (none when
/// the receiver stopped it).
pub(crate) fn decode_file<'a>(
    text: &'a str,
    receive: &mut Receiver<'_, 'a>,
) -> Option<DecodeError> {
    decode_file_knowing(text, None, false, receive)
}

/// [`decode_file`] for the catalog loader: with `capture`, YAML documents' property
/// values come as their compact text where they can ([`Document::captured`]), and a
/// YAML document whose text `known` knows is handed over unread (`known` set), for
/// the caller to take its blob from where it knows it.
pub(crate) fn decode_file_knowing<'a>(
    text: &'a str,
    known: Option<&dyn Fn(&str) -> bool>,
    capture: bool,
    receive: &mut Receiver<'_, 'a>,
) -> Option<DecodeError> {
    if reads_as_json(text) {
        decode_json(text, receive)
    } else {
        decode_yaml(text, 0, receive, None, known, capture)
    }
}

/// Whether opm reads a file starting with `text` (its first 4 KiB at least) as a
/// JSON stream: the first character past white space in what it peeks at is `{`.
pub(super) fn reads_as_json(text: &str) -> bool {
    let sniff_end = floor_char_boundary(text, SNIFF_LENGTH.min(text.len()));
    text[..sniff_end].trim_start().starts_with('{')
}

fn floor_char_boundary(text: &str, mut index: usize) -> usize {
    while !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}

fn decode_json<'a>(text: &'a str, receive: &mut Receiver<'_, 'a>) -> Option<DecodeError> {
    let mut stream = JsonStream::new(text);
    let mut last_end = 0;
    let mut count = 0;
    loop {
        match stream.next_value() {
            None => return None,
            Some(Ok((start, value))) => {
                let raw_json = &text[start..stream.position()];
                count += 1;
                last_end = stream.position();
                let document = Document {
                    start,
                    value: Some(value),
                    raw_json: Some(raw_json),
                    implicit: Vec::new(),
                    json_error: None,
                    text: None,
                    known: false,
                    captured: false,
                };
                if receive(document).is_break() {
                    return None;
                }
            }
            Some(Err(error @ JsonError::OutOfMemory { .. })) => {
                return Some(json_error(&error, false));
            }
            Some(Err(error)) => {
                if count > 1 {
                    // Two objects make it an unambiguous JSON stream: Go's raw error.
                    return Some(json_error(&error, false));
                }
                // Still ambiguous: opm rewinds after the last object, eats white space up
                // to and including a newline and reads the rest as YAML. When that fails
                // at once, the JSON error is the one reported.
                let error = json_error(&error, true);
                return match skip_line_space(text, last_end) {
                    Some(rest) => decode_yaml(text, rest, receive, Some(error), None, false),
                    None => Some(error),
                };
            }
        }
    }
}

/// opm's `consumeWhitespace`: skips white space up to and including the first newline.
/// `None` where it gives up, so that no YAML is read: it reads four bytes at a time and
/// stops at the end of the input when fewer remain, and at a U+FFFD (Go's marker for
/// bytes that are not UTF-8).
fn skip_line_space(text: &str, from: usize) -> Option<usize> {
    let mut position = from;
    loop {
        if text.len() - position < 4 {
            return None;
        }
        let character = text[position..].chars().next()?;
        if character == char::REPLACEMENT_CHARACTER {
            return None;
        }
        if !character.is_whitespace() {
            return Some(position);
        }
        position += character.len_utf8();
        if character == '\n' {
            return Some(position);
        }
    }
}

fn json_error(error: &JsonError, with_offset: bool) -> DecodeError {
    let position = error.position();
    match error {
        JsonError::Syntax { message, offset } if with_offset => {
            DecodeError::new(format!("json: offset {offset}: {message}"), position)
        }
        JsonError::Syntax { message, .. } => DecodeError::new(message.clone(), position),
        JsonError::UnexpectedEof { .. } => DecodeError::new("unexpected EOF", position),
        JsonError::NumberOutOfRange { literal, .. } => DecodeError::new(
            format!("json: cannot unmarshal number {literal} into Go value of type float64"),
            position,
        ),
        JsonError::OutOfMemory { .. } => DecodeError::new(crate::files::limits::OUT_OF_MEMORY, position),
        JsonError::LoneSurrogate { .. } => DecodeError {
            message: "a \\u escape is half of a UTF-16 surrogate pair".to_owned(),
            position,
            help: Some(
                "opm would silently replace it with U+FFFD; write the character itself or a full surrogate pair"
                    .to_owned(),
            ),
        },
    }
}

/// A YAML document as opm's line reader assembles it.
struct YamlChunk<'a> {
    /// Byte offset of the chunk's first line.
    start: usize,
    /// The chunk's text; CRLF line ends become LF and the last line ends in LF, as
    /// opm's line reader makes them. Borrowed from the file when that changes nothing.
    text: Cow<'a, str>,
}

/// Splits `text[from..]` into documents with opm's rules, one at a time: a line
/// starting with `---` followed by nothing but white space or a comment ends a
/// non-empty document; one that starts a document stays in it; anything else after
/// `---` is an error, returned after the document it ends.
struct Chunks<'a> {
    text: &'a str,
    line_start: usize,
    error: Option<DecodeError>,
}

impl<'a> Iterator for Chunks<'a> {
    type Item = Result<YamlChunk<'a>, DecodeError>;

    fn next(&mut self) -> Option<Self::Item> {
        let text = self.text;
        let start = self.line_start;
        // Whether a line of the chunk ends in CR LF or without a line break.
        let mut rewritten = false;
        while self.line_start < text.len() {
            let line_start = self.line_start;
            let line_end = memchr::memchr(b'\n', &text.as_bytes()[line_start..])
                .map_or(text.len(), |i| line_start + i);
            let line = &text[line_start..line_end];
            let crlf = line.ends_with('\r');
            let line = line.strip_suffix('\r').unwrap_or(line);
            if let Some(after) = line.strip_prefix("---") {
                let rest = after.trim();
                if !rest.is_empty() && !rest.starts_with('#') {
                    self.line_start = text.len();
                    let error = DecodeError::new(
                        format!("invalid Yaml document separator: {rest}"),
                        line_start,
                    );
                    if line_start == start {
                        return Some(Err(error));
                    }
                    self.error = Some(error);
                    return Some(chunk(text, start, line_start, rewritten));
                }
                if line_start > start {
                    // The separator ends this document and starts no other.
                    self.line_start = line_end + 1;
                    return Some(chunk(text, start, line_start, rewritten));
                }
            }
            // A separator's own CR LF does not make the document it ends owned.
            rewritten |= crlf || line_end == text.len();
            self.line_start = line_end + 1;
        }
        if start < text.len() {
            return Some(chunk(text, start, text.len(), rewritten));
        }
        self.error.take().map(Err)
    }
}

/// The documents of a YAML file, split as opm splits them (for the benchmark).
pub(crate) fn split_documents(text: &str) -> Vec<Cow<'_, str>> {
    let chunks = Chunks {
        text,
        line_start: 0,
        error: None,
    };
    chunks
        .map_while(Result::ok)
        .map(|chunk| chunk.text)
        .collect()
}

/// The chunk of the lines in `text[start..end]`: borrowed, or with its line ends
/// made LF when `rewritten`.
fn chunk(
    text: &str,
    start: usize,
    end: usize,
    rewritten: bool,
) -> Result<YamlChunk<'_>, DecodeError> {
    let lines = &text[start..end];
    if !rewritten {
        return Ok(YamlChunk {
            start,
            text: Cow::Borrowed(lines),
        });
    }
    let mut owned = String::new();
    if crate::files::limits::room_for(&mut owned, lines.len() + 1).is_err() {
        return Err(DecodeError::new(crate::files::limits::OUT_OF_MEMORY, start));
    }
    for line in lines.split_inclusive('\n') {
        let line = line.strip_suffix('\n').unwrap_or(line);
        owned.push_str(line.strip_suffix('\r').unwrap_or(line));
        owned.push('\n');
    }
    Ok(YamlChunk {
        start,
        text: Cow::Owned(owned),
    })
}

fn decode_yaml<'a>(
    text: &'a str,
    from: usize,
    receive: &mut Receiver<'_, 'a>,
    json_error: Option<DecodeError>,
    known: Option<&dyn Fn(&str) -> bool>,
    capture: bool,
) -> Option<DecodeError> {
    let chunks = Chunks {
        text,
        line_start: from,
        error: None,
    };
    let mut pending_json_error = json_error;
    for chunk in chunks {
        let chunk = match chunk {
            Ok(chunk) => chunk,
            Err(split_error) => return Some(pending_json_error.unwrap_or(split_error)),
        };
        let borrowed = match chunk.text {
            Cow::Borrowed(text) => Some(text.strip_prefix('\u{feff}').unwrap_or(text)),
            Cow::Owned(_) => None,
        };
        if let (Some(text), Some(known), None) = (borrowed, known, &pending_json_error)
            && known(text)
        {
            let document = Document {
                start: chunk.start,
                value: None,
                raw_json: None,
                implicit: Vec::new(),
                json_error: None,
                text: Some(text),
                known: true,
                captured: false,
            };
            if receive(document).is_break() {
                return None;
            }
            continue;
        }
        let body = chunk.text.strip_prefix('\u{feff}').unwrap_or(&chunk.text);
        let converted = if capture {
            yaml::catalog_document_capturing(body)
        } else {
            yaml::catalog_document(body).map(|converted| (converted, false))
        };
        match converted {
            Ok(((value, implicit), captured)) => {
                let document = Document {
                    start: chunk.start,
                    value,
                    raw_json: None,
                    implicit,
                    json_error: pending_json_error.take(),
                    text: borrowed,
                    known: false,
                    captured,
                };
                if receive(document).is_break() {
                    return None;
                }
            }
            Err(error) => {
                // fbc's refusal of a document that opm would cut short stands on its
                // own; any other failure of the first YAML read is opm's JSON error.
                // A flow collection at the root is never cut short: yaml.v2 fails on
                // what follows it, so opm reports its JSON error there too.
                let own = matches!(error, YamlError::TrailingContent { .. }) && !flow_root(body);
                return Some(match pending_json_error {
                    Some(json_error) if !own => json_error,
                    _ => yaml_error(&error, &chunk),
                });
            }
        }
    }
    pending_json_error
}

/// Whether a YAML document's root node is a flow collection (`{` or `[` before
/// anything but white space and comments).
fn flow_root(document: &str) -> bool {
    document
        .lines()
        .map(str::trim_start)
        .find(|line| !line.is_empty() && !line.starts_with('#'))
        .is_some_and(|line| line.starts_with(['{', '[']))
}

fn yaml_error(error: &YamlError, chunk: &YamlChunk) -> DecodeError {
    let (line, column) = error.position().unwrap_or((1, 1));
    let position = chunk.start + line_offset(&chunk.text, line, column);
    match error {
        YamlError::TrailingContent { .. } => DecodeError {
            message: "this YAML document holds more than one node; opm would keep only the first and silently drop the rest"
                .to_owned(),
            position,
            help: Some(
                "put each object in its own document (separated by `---` lines), or write them as a JSON stream of valid objects that starts with `{`"
                    .to_owned(),
            ),
        },
        YamlError::TooDeep { limit, .. } => DecodeError {
            message: error.to_string(),
            position,
            help: Some(format!(
                "opm accepts up to 10000 levels; fbc stops at {limit} to keep its stack safe"
            )),
        },
        YamlError::Invalid { .. } => DecodeError::new(error.to_string(), position),
    }
}

/// Byte offset of a 1-based line and column inside a chunk (clamped to the chunk).
pub(super) fn line_offset(text: &str, line: usize, column: usize) -> usize {
    let mut offset = 0;
    for _ in 1..line {
        match text[offset..].find('\n') {
            Some(i) => offset += i + 1,
            None => break,
        }
    }
    let line_text = text[offset..].split('\n').next().unwrap_or_default();
    offset
        + line_text
            .char_indices()
            .nth(column.saturating_sub(1))
            .map_or(line_text.len(), |(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split_documents(text: &str, from: usize) -> (Vec<String>, Option<DecodeError>) {
        let mut found = Vec::new();
        let chunks = Chunks {
            text,
            line_start: from,
            error: None,
        };
        for chunk in chunks {
            match chunk {
                Ok(chunk) => found.push(chunk.text.into_owned()),
                Err(error) => return (found, Some(error)),
            }
        }
        (found, None)
    }

    fn chunks(text: &str) -> Vec<String> {
        split_documents(text, 0).0
    }

    /// Every document of `text` and the error that ended the decoding.
    fn decode_all(text: &str) -> (Vec<Document<'_>>, Option<DecodeError>) {
        let mut documents = Vec::new();
        let error = decode_file(text, &mut |document| {
            documents.push(document);
            ControlFlow::Continue(())
        });
        (documents, error)
    }

    #[test]
    fn separators_follow_opm_line_rules() {
        assert_eq!(chunks("a: 1\n---\nb: 2\n"), ["a: 1\n", "b: 2\n"]);
        assert_eq!(chunks("---\na: 1\n"), ["---\na: 1\n"]);
        assert_eq!(chunks("a: 1\n---\n"), ["a: 1\n"]);
        assert_eq!(chunks("a: 1\n---\n\n"), ["a: 1\n", "\n"]);
        assert_eq!(chunks("a: 1\n---\n---\nb: 2"), ["a: 1\n", "---\nb: 2\n"]);
        assert_eq!(chunks("---\n---\n"), ["---\n"]);
        assert_eq!(
            chunks("a: 1\r\n--- # next\r\nb: 2\r\n"),
            ["a: 1\n", "b: 2\n"]
        );
    }

    #[test]
    fn bad_separator_is_reported_at_its_line() {
        let (found, error) = split_documents("a: 1\n----\nb: 2\n", 0);
        assert_eq!(found.len(), 1);
        assert_eq!(
            error,
            Some(DecodeError::new("invalid Yaml document separator: -", 5))
        );
        let (_, error) = split_documents("--- {a: b}\n", 0);
        assert_eq!(
            error.map(|e| e.message),
            Some("invalid Yaml document separator: {a: b}".to_owned())
        );
    }

    #[test]
    fn json_streams_decode_in_json_mode() {
        let (documents, error) = decode_all("{\"a\":1}{\"b\":2}\n{\"c\":3}\n");
        assert_eq!(documents.len(), 3);
        assert_eq!(error, None);
        assert_eq!(documents[2].raw_json, Some("{\"c\":3}"));
    }

    #[test]
    fn json_errors_after_two_objects_are_raw() {
        let (documents, error) = decode_all("{\"a\":1}\n{\"b\":2}\n{\"c\":3,}\n");
        assert_eq!(documents.len(), 2);
        let error = error.expect("an error");
        assert_eq!(
            error.message,
            "invalid character '}' looking for beginning of object key string"
        );
        assert_eq!(
            &"{\"a\":1}\n{\"b\":2}\n{\"c\":3,}\n"[error.position..=error.position],
            "}"
        );
    }

    #[test]
    fn line_offsets_are_clamped() {
        assert_eq!(line_offset("ab\ncd\n", 2, 2), 4);
        assert_eq!(line_offset("ab\n", 9, 1), 3);
    }
}
