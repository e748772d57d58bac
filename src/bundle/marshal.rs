//! Go's `json.Marshal` of decoded values, which opm uses for the manifests it embeds
//! and for raw property values read from YAML: compact, map keys sorted byte-wise,
//! `<`, `>` and `&` escaped as `\u003c`, `\u003e`, `\u0026`.

use serde_json::Value;

use crate::codec::node::Node;
use crate::go::number;

/// The compact JSON text `json.Marshal` writes for `value`.
pub(crate) fn marshal(value: &Value) -> String {
    let mut out = String::with_capacity(256);
    write_value(value, &mut out);
    out
}

fn write_value(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(number) => match number.as_i64() {
            Some(integer) => out.push_str(&integer.to_string()),
            None => out.push_str(&number::json(number.as_f64().unwrap_or(f64::NAN))),
        },
        Value::String(text) => write_string(text, out),
        Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_value(item, out);
            }
            out.push(']');
        }
        // serde_json's map iterates in byte-wise key order, which is Go's order.
        Value::Object(map) => {
            out.push('{');
            for (index, (key, item)) in map.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_string(key, out);
                out.push(':');
                write_value(item, out);
            }
            out.push('}');
        }
    }
}

/// The compact JSON text `json.Marshal` writes for a Go struct given as a node in
/// field order (raw values are written as they stand).
pub(crate) fn marshal_node(node: &Node<'_>) -> String {
    let mut out = String::with_capacity(1024);
    write_node(node, &mut out);
    out
}

fn write_node(node: &Node<'_>, out: &mut String) {
    fn list<'n>(out: &mut String, items: impl Iterator<Item = &'n Node<'n>>) {
        out.push('[');
        for (index, item) in items.enumerate() {
            if index > 0 {
                out.push(',');
            }
            write_node(item, out);
        }
        out.push(']');
    }
    match node {
        Node::Null => out.push_str("null"),
        Node::Bool(true) => out.push_str("true"),
        Node::Bool(false) => out.push_str("false"),
        Node::Number(number) => out.push_str(&number::json(*number)),
        Node::String(text) => write_string(text, out),
        Node::Chunks(chunks) => write_string(&chunks.text(), out),
        Node::Raw(text) => out.push_str(text),
        Node::Array(items) => list(out, items.iter()),
        Node::Items(items) => {
            out.push('[');
            let mut first = true;
            items.for_each(&mut |item| {
                if !first {
                    out.push(',');
                }
                first = false;
                write_node(item, out);
            });
            out.push(']');
        }
        Node::Object(fields) => {
            out.push('{');
            for (index, (key, item)) in fields.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_string(key, out);
                out.push(':');
                write_node(item, out);
            }
            out.push('}');
        }
    }
}

/// The bytes that may need an escape: controls, `"`, `\\`, `<`, `>`, `&`, and the
/// first byte of U+2028/U+2029.
const SPECIAL: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 0x20 {
        table[byte] = true;
        byte += 1;
    }
    table[b'"' as usize] = true;
    table[b'\\' as usize] = true;
    table[b'<' as usize] = true;
    table[b'>' as usize] = true;
    table[b'&' as usize] = true;
    table[0xE2] = true;
    table
};

/// Go's string encoding with HTML escaping on. Bytes are scanned, and the runs
/// between escapes copied whole: manifests are mostly plain text.
fn write_string(text: &str, out: &mut String) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut index = 0;
    while index < bytes.len() {
        let byte = bytes[index];
        if !SPECIAL[usize::from(byte)] {
            index += 1;
            continue;
        }
        let escape = match byte {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0C => "\\f",
            0x00..0x20 | b'<' | b'>' | b'&' => "",
            // U+2028 and U+2029 (E2 80 A8/A9).
            0xE2 if bytes.get(index + 1) == Some(&0x80)
                && matches!(bytes.get(index + 2), Some(0xA8 | 0xA9)) =>
            {
                ""
            }
            _ => {
                index += 1;
                continue;
            }
        };
        out.push_str(&text[start..index]);
        if escape.is_empty() {
            let code = if byte == 0xE2 {
                index += 2;
                if bytes[index] == 0xA8 { 0x2028 } else { 0x2029 }
            } else {
                u32::from(byte)
            };
            out.push_str("\\u");
            for shift in [12, 8, 4, 0] {
                out.push(char::from(HEX[((code >> shift) & 15) as usize]));
            }
        } else {
            out.push_str(escape);
        }
        index += 1;
        start = index;
    }
    out.push_str(&text[start..]);
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_like_go_marshal() {
        let value = serde_json::json!({
            "z": [1, 1.5, -0.0, 1e21, null, true],
            "a": "<a href=\"x\">&</a>\n\u{1}\u{2028}é",
        });
        assert_eq!(
            marshal(&value),
            r#"{"a":"\u003ca href=\"x\"\u003e\u0026\u003c/a\u003e\n\u0001\u2028é","z":[1,1.5,-0,1e+21,null,true]}"#
        );
    }

    #[test]
    fn big_integers_stay_exact() {
        let value = serde_json::json!(9_007_199_254_740_993_i64);
        assert_eq!(marshal(&value), "9007199254740993");
    }
}
