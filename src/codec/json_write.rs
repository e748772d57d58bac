//! JSON exactly as Go's `encoding/json` writes it for opm: 4-space indentation (or
//! compact), HTML characters kept, Go's string escapes and float formatting.

use super::node::{Chunks, Node};
use super::sink::Sink;
use crate::go::number;
use crate::text::bytes;

/// Appends `node` as Go's `json.Encoder` with `SetIndent("", "    ")` and HTML
/// escaping off writes it, followed by a newline.
pub(crate) fn write_pretty(node: &Node<'_>, out: &mut impl Sink) {
    write_node(node, out, Some(0));
    out.push(b'\n');
}

/// Appends `node` in compact form, as Go's `json.Marshal` with HTML escaping off.
pub(crate) fn write_compact(node: &Node<'_>, out: &mut impl Sink) {
    write_node(node, out, None);
}

/// Appends a loaded value in compact form, as [`write_compact`] writes
/// `Node::from_json(value)` (keys in the map's sorted order, numbers as float64),
/// without building the node tree first.
pub(crate) fn write_compact_value(value: &serde_json::Value, out: &mut impl Sink) {
    use serde_json::Value;
    match value {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        Value::Number(value) => {
            let value = value.as_f64().unwrap_or(f64::NAN);
            out.extend_from_slice(number::json(value).as_bytes());
        }
        Value::String(text) => write_string(text, out),
        Value::Array(items) => {
            out.push(b'[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(b',');
                }
                write_compact_value(item, out);
            }
            out.push(b']');
        }
        Value::Object(fields) => {
            out.push(b'{');
            for (index, (key, item)) in fields.iter().enumerate() {
                if index > 0 {
                    out.push(b',');
                }
                write_string(key, out);
                out.push(b':');
                write_compact_value(item, out);
            }
            out.push(b'}');
        }
    }
}

/// A line break and the indentation of `depth` levels, in one piece up to
/// [`INDENTED`]'s depth.
fn newline(out: &mut impl Sink, depth: usize) {
    if let Some(line) = INDENTED.get(..1 + 4 * depth) {
        out.extend_from_slice(line);
        return;
    }
    out.extend_from_slice(INDENTED);
    for _ in (INDENTED.len() - 1) / 4..depth {
        out.extend_from_slice(b"    ");
    }
}

/// A line break and 32 levels of indentation.
const INDENTED: &[u8; 129] = b"\n                                                                                                                                ";

fn write_node(node: &Node<'_>, out: &mut impl Sink, indent: Option<usize>) {
    match node {
        Node::Null => out.extend_from_slice(b"null"),
        Node::Bool(true) => out.extend_from_slice(b"true"),
        Node::Bool(false) => out.extend_from_slice(b"false"),
        Node::Number(value) => out.extend_from_slice(number::json(*value).as_bytes()),
        Node::String(text) => write_string(text, out),
        Node::Chunks(chunks) => write_chunks(chunks, out),
        Node::Raw(text) => write_raw(text, out, indent),
        Node::Array(items) => write_array(
            items.is_empty(),
            |visit| items.iter().for_each(visit),
            out,
            indent,
        ),
        Node::Items(items) => {
            write_array(items.is_empty(), |visit| items.for_each(visit), out, indent);
        }
        Node::Object(fields) => {
            out.push(b'{');
            for (index, (key, value)) in fields.iter().enumerate() {
                if index > 0 {
                    out.push(b',');
                }
                if let Some(depth) = indent {
                    newline(out, depth + 1);
                }
                write_string(key, out);
                out.push(b':');
                if indent.is_some() {
                    out.push(b' ');
                }
                write_node(value, out, indent.map(|depth| depth + 1));
            }
            if let (Some(depth), false) = (indent, fields.is_empty()) {
                newline(out, depth);
            }
            out.push(b'}');
        }
    }
}

/// An array whose items `each` hands over one at a time.
fn write_array(
    empty: bool,
    each: impl FnOnce(&mut dyn for<'n> FnMut(&Node<'n>)),
    out: &mut impl Sink,
    indent: Option<usize>,
) {
    out.push(b'[');
    let mut first = true;
    each(&mut |item| {
        if !std::mem::take(&mut first) {
            out.push(b',');
        }
        if let Some(depth) = indent {
            newline(out, depth + 1);
        }
        write_node(item, out, indent.map(|depth| depth + 1));
    });
    if let (Some(depth), false) = (indent, empty) {
        newline(out, depth);
    }
    out.push(b']');
}

/// Appends `text`, a value serde's pretty printer wrote, nested below `indent`
/// (an element of an array written a value at a time): its strings hold no raw
/// line break, so every line takes the indentation.
pub(crate) fn push_nested(out: &mut String, text: &str, indent: &str) {
    for (index, line) in text.lines().enumerate() {
        if index > 0 {
            out.push('\n');
        }
        out.push_str(indent);
        out.push_str(line);
    }
}

/// Go's string encoding with HTML escaping off.
pub(crate) fn write_string(text: &str, out: &mut impl Sink) {
    out.push(b'"');
    write_escaped(text, out);
    out.push(b'"');
}

/// A string given in pieces of whole characters, encoded as [`write_string`]
/// encodes it whole.
pub(crate) fn write_chunks(chunks: &Chunks<'_>, out: &mut impl Sink) {
    out.push(b'"');
    chunks.for_each(&mut |chunk| write_escaped(chunk, out));
    out.push(b'"');
}

/// The inside of [`write_string`]'s quotes.
pub(crate) fn write_escaped(text: &str, out: &mut impl Sink) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let bytes = text.as_bytes();
    let mut start = 0;
    while let Some(index) = next_escape(bytes, start) {
        out.extend_from_slice(&bytes[start..index]);
        let byte = bytes[index];
        let (escape, len): (&[u8], usize) = match byte {
            b'"' => (b"\\\"", 1),
            b'\\' => (b"\\\\", 1),
            b'\n' => (b"\\n", 1),
            b'\r' => (b"\\r", 1),
            b'\t' => (b"\\t", 1),
            0x08 => (b"\\b", 1),
            0x0C => (b"\\f", 1),
            0xE2 if bytes[index + 2] == 0xA8 => (b"\\u2028", 3),
            0xE2 => (b"\\u2029", 3),
            _ => (&[], 1),
        };
        if escape.is_empty() {
            let hex = [HEX[usize::from(byte >> 4)], HEX[usize::from(byte & 15)]];
            out.extend_from_slice(b"\\u00");
            out.extend_from_slice(&hex);
        } else {
            out.extend_from_slice(escape);
        }
        start = index + len;
    }
    out.extend_from_slice(&bytes[start..]);
}

/// Where the next byte Go's encoder escapes starts, from `from` on: C0 controls,
/// `"`, `\`, and U+2028/U+2029 (E2 80 A8/A9), escaped for JavaScript's sake.
/// Eight bytes at a time, straight to the first candidate in them: the long strings
/// of catalogs are text with a line break every few dozen bytes, or JSON with a
/// quote every few bytes.
#[inline]
fn next_escape(bytes: &[u8], mut from: usize) -> Option<usize> {
    let escaped = |at: usize| match bytes[at] {
        0x00..0x20 | b'"' | b'\\' => true,
        0xE2 => bytes.get(at + 1) == Some(&0x80) && matches!(bytes.get(at + 2), Some(0xA8 | 0xA9)),
        _ => false,
    };
    while let Some(word) = bytes.get(from..from + 8) {
        let word = u64::from_le_bytes(word.try_into().expect("eight bytes"));
        let marks = bytes::below(word, 0x20)
            | bytes::equal(word, b'"')
            | bytes::equal(word, b'\\')
            | bytes::equal(word, 0xE2);
        if marks == 0 {
            from += 8;
            continue;
        }
        let at = from + bytes::first_marked(marks);
        if escaped(at) {
            return Some(at);
        }
        from = at + 1;
    }
    (from..bytes.len()).find(|&at| escaped(at))
}

/// Writes valid JSON text as it stands (a Go `json.RawMessage`): compacted, or
/// re-indented from `indent` as Go's encoder does; strings and numbers are copied
/// byte for byte, so their escapes and spelling are the text's own.
fn write_raw(source: &str, out: &mut impl Sink, indent: Option<usize>) {
    let bytes = source.as_bytes();
    let mut depth = indent.unwrap_or_default();
    let mut pending_open = false;
    let mut position = 0;
    while position < bytes.len() {
        let byte = bytes[position];
        position += 1;
        if matches!(byte, b' ' | b'\t' | b'\n' | b'\r') {
            continue;
        }
        let closes = matches!(byte, b'}' | b']');
        if pending_open {
            pending_open = false;
            if closes {
                // An empty container stays on one line.
                depth -= 1;
                out.push(byte);
                continue;
            }
            newline(out, depth);
        }
        match byte {
            b'"' => {
                // A string is copied whole, up to its closing quote.
                let end = string_end(bytes, position);
                out.extend_from_slice(&bytes[position - 1..end]);
                position = end;
            }
            _ if indent.is_none() => out.push(byte),
            b'{' | b'[' => {
                out.push(byte);
                depth += 1;
                pending_open = true;
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                newline(out, depth);
                out.push(byte);
            }
            b',' => {
                out.push(b',');
                newline(out, depth);
            }
            b':' => out.extend_from_slice(b": "),
            other => out.push(other),
        }
    }
}

/// The index just past the closing quote of a string whose content starts at
/// `from` (the end of the text if it has none).
fn string_end(bytes: &[u8], from: usize) -> usize {
    let mut position = from;
    while let Some(offset) = memchr::memchr2(b'"', b'\\', &bytes[position..]) {
        let found = position + offset;
        if bytes[found] == b'"' {
            return found + 1;
        }
        position = found + 2;
        if position >= bytes.len() {
            break;
        }
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::borrow::Cow;

    fn object(fields: Vec<(&'static str, Node<'static>)>) -> Node<'static> {
        Node::Object(
            fields
                .into_iter()
                .map(|(k, v)| (Cow::Borrowed(k), v))
                .collect(),
        )
    }

    #[test]
    fn pretty_matches_go_encoder() {
        let entry = object(vec![
            ("name", Node::str("anakin.v0.1.1")),
            ("replaces", Node::str("anakin.v0.0.1")),
            ("skips", Node::Array(vec![Node::str("anakin.v0.1.0")])),
        ]);
        let channel = object(vec![
            ("schema", Node::str("olm.channel")),
            ("name", Node::str("dark")),
            ("package", Node::str("anakin")),
            ("entries", Node::Array(vec![entry])),
            ("empty", Node::Array(vec![])),
            ("none", object(vec![])),
        ]);
        let mut out = Vec::new();
        write_pretty(&channel, &mut out);
        let expected = "{\n    \"schema\": \"olm.channel\",\n    \"name\": \"dark\",\n    \"package\": \"anakin\",\n    \"entries\": [\n        {\n            \"name\": \"anakin.v0.1.1\",\n            \"replaces\": \"anakin.v0.0.1\",\n            \"skips\": [\n                \"anakin.v0.1.0\"\n            ]\n        }\n    ],\n    \"empty\": [],\n    \"none\": {}\n}\n";
        assert_eq!(String::from_utf8(out).expect("utf-8"), expected);
    }

    #[test]
    fn indentation_goes_deeper_than_the_prepared_line() {
        let mut node = Node::Null;
        for _ in 0..40 {
            node = Node::Array(vec![node]);
        }
        let mut out = Vec::new();
        write_pretty(&node, &mut out);
        let mut expected = String::new();
        for depth in 0..40 {
            expected.push_str(&"    ".repeat(depth));
            expected.push_str("[\n");
        }
        expected.push_str(&"    ".repeat(40));
        expected.push_str("null\n");
        for depth in (0..40).rev() {
            expected.push_str(&"    ".repeat(depth));
            expected.push_str("]\n");
        }
        assert_eq!(String::from_utf8(out).expect("utf-8"), expected);
    }

    #[test]
    fn values_write_as_their_nodes() {
        let value = serde_json::json!({
            "b": [1, 1.5, -0.0, 1e21, null, true, false, "x\u{1}<>&\u{2028}"],
            "a": {"": {}, "z": []},
        });
        let mut direct = Vec::new();
        write_compact_value(&value, &mut direct);
        let mut through = Vec::new();
        write_compact(&Node::from_json(&value), &mut through);
        assert_eq!(String::from_utf8(direct), String::from_utf8(through));
    }

    #[test]
    fn strings_escape_like_go() {
        let mut out = Vec::new();
        write_string("<a&b> \"q\" \\ \n\t\u{1}\u{8}\u{7f}\u{2028}é😀", &mut out);
        assert_eq!(
            String::from_utf8(out).expect("utf-8"),
            "\"<a&b> \\\"q\\\" \\\\ \\n\\t\\u0001\\b\u{7f}\\u2028é😀\""
        );
    }

    #[test]
    fn escapes_are_found_at_every_position() {
        fn one_by_one(text: &str) -> String {
            use std::fmt::Write as _;
            let mut out = String::new();
            for c in text.chars() {
                match c {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    '\r' => out.push_str("\\r"),
                    '\t' => out.push_str("\\t"),
                    '\u{8}' => out.push_str("\\b"),
                    '\u{c}' => out.push_str("\\f"),
                    c if c < ' ' || c == '\u{2028}' || c == '\u{2029}' => {
                        write!(out, "\\u{:04x}", u32::from(c)).expect("a String takes it");
                    }
                    c => out.push(c),
                }
            }
            out
        }
        let specials = [
            "\"",
            "\\",
            "\n",
            "\r",
            "\u{1}",
            "\u{1f}",
            "\u{7f}",
            "\u{2028}",
            "\u{2029}",
            "\u{2027}",
            "\u{20ac}",
            "\u{2028}\u{2029}",
            "\"\"",
            "é",
        ];
        for special in specials {
            for len in 0..20 {
                for at in 0..=len {
                    let text = format!("{}{special}{}", "a".repeat(at), "b".repeat(len - at));
                    let mut out = Vec::new();
                    write_escaped(&text, &mut out);
                    assert_eq!(String::from_utf8(out).expect("utf-8"), one_by_one(&text));
                }
            }
        }
    }

    #[test]
    fn numbers_use_go_forms() {
        let mut out = Vec::new();
        write_compact(
            &Node::Array(vec![
                Node::Number(1.0),
                Node::Number(1e21),
                Node::Number(0.5),
            ]),
            &mut out,
        );
        assert_eq!(String::from_utf8(out).expect("utf-8"), "[1,1e+21,0.5]");
    }

    #[test]
    fn raw_text_is_kept_and_reindented() {
        let raw = Node::Raw(Cow::Borrowed(r#"{"a":["\u003e1",{}],"b":1.0}"#));
        let mut out = Vec::new();
        write_pretty(&Node::Array(vec![raw.clone()]), &mut out);
        assert_eq!(
            String::from_utf8(out).expect("utf-8"),
            "[\n    {\n        \"a\": [\n            \"\\u003e1\",\n            {}\n        ],\n        \"b\": 1.0\n    }\n]\n"
        );
        let mut out = Vec::new();
        write_compact(&raw, &mut out);
        assert_eq!(
            String::from_utf8(out).expect("utf-8"),
            r#"{"a":["\u003e1",{}],"b":1.0}"#
        );
    }
}
