//! The first document of a bundle file, read the way opm's bundle parser reads it
//! (apimachinery's `YAMLOrJSONDecoder` with a 30-byte sniff): JSON when the first
//! non-space byte in that window is `{`, falling back to YAML when the JSON does not
//! decode, and YAML documents split on `---` lines. Numbers keep Kubernetes'
//! unstructured typing: integers stay integers, everything else is a `float64`.

use std::borrow::Cow;

use serde_json::{Number, Value};

/// How far opm's bundle parser peeks to decide between JSON and YAML.
const SNIFF_LENGTH: usize = 30;

/// A document nested deeper than fbc reads (opm reads JSON 10,000 levels deep and
/// YAML deeper still): refused, naming it, rather than left out of the bundle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TooDeep;

impl std::fmt::Display for TooDeep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(
            "the document is nested deeper than fbc reads (128 levels of JSON, 255 of YAML); opm would read it, so fbc refuses the bundle rather than leave the file out",
        )
    }
}

/// The first document of `bytes` as a JSON value, or `None` where opm's decoder
/// fails (the caller then skips the file, as opm does with a warning).
pub(crate) fn first_document(bytes: &[u8]) -> Result<Option<Value>, TooDeep> {
    // Go's JSON decoder replaces invalid UTF-8 with U+FFFD rather than failing.
    let text = String::from_utf8_lossy(bytes);
    let window = &bytes[..bytes.len().min(SNIFF_LENGTH)];
    let sniffed = String::from_utf8_lossy(window);
    if sniffed.trim_start().starts_with('{') {
        let mut stream = serde_json::Deserializer::from_str(&text).into_iter::<Value>();
        match stream.next() {
            Some(Ok(value)) => return Ok(Some(normalize_json_numbers(value))),
            Some(Err(error)) if error.to_string().starts_with("recursion limit exceeded") => {
                return Err(TooDeep);
            }
            // A stream that is not JSON after all is read again from the start as YAML.
            _ => {}
        }
    }
    let Some(document) = first_yaml_document(&text) else {
        return Ok(None);
    };
    // yaml.v2 refuses invalid UTF-8 (the replacement character marks where it was).
    if matches!(text, Cow::Owned(_)) && document.contains('\u{FFFD}') {
        return Ok(None);
    }
    match crate::codec::yaml::to_json(&document) {
        Ok(value) => Ok(Some(normalize_yaml_numbers(value))),
        Err(error) if error.contains("nesting deeper than") => Err(TooDeep),
        Err(_) => Ok(None),
    }
}

/// The text of the first document of `bytes` when opm reads it as JSON (the sniff
/// window starts with `{` and the first value decodes): Go's `json.RawMessage`
/// fields then keep their bytes as written.
pub(crate) fn first_json_text(bytes: &[u8]) -> Option<&str> {
    let window = &bytes[..bytes.len().min(SNIFF_LENGTH)];
    if !String::from_utf8_lossy(window)
        .trim_start()
        .starts_with('{')
    {
        return None;
    }
    let text = std::str::from_utf8(bytes).ok()?;
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<serde::de::IgnoredAny>();
    stream.next()?.ok()?;
    Some(&text[..stream.byte_offset()])
}

/// An object embedded in a catalog's `olm.bundle.object` as opm reads it
/// (`yaml.ToJSON`, then Go's decoder): JSON when it starts with `{`, YAML otherwise.
pub(crate) fn embedded_object(bytes: &[u8]) -> Option<Value> {
    let text = String::from_utf8_lossy(bytes);
    if text.trim_start().starts_with('{') {
        serde_json::from_str(&text).ok().map(normalize_json_numbers)
    } else {
        crate::codec::yaml::to_json(&text)
            .ok()
            .map(normalize_yaml_numbers)
    }
}

/// The first document of a stream for a decoder that needs an object with a
/// `kind` (Kubernetes' unstructured objects): anything else is skipped.
pub(crate) fn first_object(
    bytes: &[u8],
) -> Result<Option<serde_json::Map<String, Value>>, TooDeep> {
    Ok(match first_document(bytes)? {
        Some(Value::Object(map)) if kind_of(&map).is_some_and(|kind| !kind.is_empty()) => Some(map),
        _ => None,
    })
}

/// An object's `kind`, when it is a string (what `Unstructured.GetKind` reads).
pub(crate) fn kind_of(object: &serde_json::Map<String, Value>) -> Option<&str> {
    object.get("kind").and_then(Value::as_str)
}

/// apimachinery's `YAMLReader.Read` for the first document: lines are read without
/// their `\n`/`\r\n` ending and given back a `\n`; a line starting with `---` ends a
/// non-empty document (and is kept when nothing came before it); anything but a
/// comment after such a separator is an error.
fn first_yaml_document(text: &str) -> Option<Cow<'_, str>> {
    if text.is_empty() {
        return None;
    }
    // Most manifests are one document with `\n` line ends: the document is the
    // text itself, which need not be copied line by line.
    if !text.contains('\r') && !text.starts_with("---") && !text.contains("\n---") {
        return Some(if text.ends_with('\n') {
            Cow::Borrowed(text)
        } else {
            Cow::Owned(format!("{text}\n"))
        });
    }
    let mut document = String::new();
    let mut lines = text.split('\n').peekable();
    while let Some(line) = lines.next() {
        let at_end = lines.peek().is_none();
        if at_end && line.is_empty() {
            break;
        }
        let line = line.strip_suffix('\r').unwrap_or(line);
        if let Some(rest) = line.strip_prefix("---") {
            let rest = rest.trim();
            if !rest.is_empty() && !rest.starts_with('#') {
                return None;
            }
            if !document.is_empty() {
                return Some(Cow::Owned(document));
            }
        }
        document.push_str(line);
        document.push('\n');
    }
    (!document.is_empty()).then_some(Cow::Owned(document))
}

/// JSON integers that do not fit an `int64` are `float64`s for Kubernetes.
fn normalize_json_numbers(value: Value) -> Value {
    map_numbers(value, &|number| {
        if number.is_u64() && number.as_i64().is_none() {
            number.as_f64().and_then(Number::from_f64)
        } else {
            None
        }
    })
}

/// YAML numbers reach Kubernetes as JSON text written by Go's `json.Marshal`; any
/// whole number in `int64` range is then read back as an integer (`-0` as `0`),
/// and integers beyond it as a `float64`.
fn normalize_yaml_numbers(value: Value) -> Value {
    map_numbers(value, &|number| {
        let float = number.as_f64()?;
        if number.is_u64() && number.as_i64().is_none() {
            return Number::from_f64(float);
        }
        // The exclusive bound is 2^63: every float below it converts exactly.
        #[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
        let whole = float.fract() == 0.0 && float.abs() < 9_223_372_036_854_775_808.0;
        (number.is_f64() && whole).then(|| Number::from(float as i64))
    })
}

/// Rewrites the numbers of a value where `replace` says so.
fn map_numbers(value: Value, replace: &dyn Fn(&Number) -> Option<Number>) -> Value {
    match value {
        Value::Number(number) => Value::Number(replace(&number).unwrap_or(number)),
        Value::Array(items) => Value::Array(
            items
                .into_iter()
                .map(|item| map_numbers(item, replace))
                .collect(),
        ),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(key, item)| (key, map_numbers(item, replace)))
                .collect(),
        ),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_keeps_integers_and_big_ones_become_floats() {
        let value = first_document(br#"  {"a": 1, "b": 1.0, "c": 18446744073709551615}"#)
            .expect("read")
            .expect("decodes");
        assert!(value["a"].is_i64());
        assert!(value["b"].is_f64());
        assert!(value["c"].is_f64());
    }

    #[test]
    fn invalid_utf8_fails_in_yaml_only() {
        assert_eq!(first_document(b"kind: A\nname: \xff\n"), Ok(None));
        let value = first_document(b"{\"kind\": \"A\", \"name\": \"\xff\"}")
            .expect("read")
            .expect("decodes");
        assert_eq!(value["name"], "\u{FFFD}");
    }

    #[test]
    fn documents_too_deep_to_read_are_refused_not_skipped() {
        let json = format!(
            "{{\"kind\":\"A\",\"x\":{}1{}}}",
            "[".repeat(300),
            "]".repeat(300)
        );
        assert_eq!(first_document(json.as_bytes()), Err(TooDeep));
        let mut yaml = String::from("kind: A\nx:\n");
        for depth in 1..300 {
            yaml.push_str(&"  ".repeat(depth));
            yaml.push_str("a:\n");
        }
        assert_eq!(first_document(yaml.as_bytes()), Err(TooDeep));
        assert_eq!(first_document(b"kind: [\n"), Ok(None));
    }

    #[test]
    fn only_the_first_json_value_counts() {
        let value = first_document(b"{\"kind\": \"A\"}\n{\"kind\": \"B\"}")
            .expect("read")
            .expect("decodes");
        assert_eq!(value["kind"], "A");
    }

    #[test]
    fn sniffing_looks_at_thirty_bytes() {
        // Past the window, the brace is not seen and the text goes to the YAML reader.
        let padded = format!("{}{{\"kind\": \"A\"}}", " ".repeat(31));
        assert!(first_yaml_document(&padded).is_some());
        assert_eq!(first_yaml_document("\n\n").as_deref(), Some("\n\n"));
    }

    #[test]
    fn yaml_documents_split_like_apimachinery() {
        assert_eq!(
            first_yaml_document("---\na: 1\n---\nb: 2\n").as_deref(),
            Some("---\na: 1\n")
        );
        assert_eq!(
            first_yaml_document("a: 1\r\nb: 2").as_deref(),
            Some("a: 1\nb: 2\n")
        );
        assert_eq!(
            first_yaml_document("# licence\n--- # first\na: 1\n").as_deref(),
            Some("# licence\n")
        );
        assert_eq!(first_yaml_document("a: 1\n--- x\n"), None);
        assert_eq!(first_yaml_document(""), None);
        assert_eq!(first_yaml_document("---\n").as_deref(), Some("---\n"));
        assert_eq!(first_yaml_document("a: 1").as_deref(), Some("a: 1\n"));
        assert_eq!(
            first_yaml_document("a: |\n  ---\n").as_deref(),
            Some("a: |\n  ---\n")
        );
    }

    #[test]
    fn yaml_integers_stay_exact() {
        let value =
            first_document(b"kind: A\nbig: 9007199254740993\nhuge: 18446744073709551615\nf: 2.0\n")
                .expect("read")
                .expect("decodes");
        assert_eq!(value["big"].as_i64(), Some(9_007_199_254_740_993));
        assert!(value["huge"].is_f64());
        assert_eq!(value["f"].as_i64(), Some(2));
    }

    #[test]
    fn yaml_whole_numbers_become_integers() {
        let value = serde_json::json!({"a": 2.0, "b": -0.0, "c": 1.5, "d": [1e20]});
        let value = normalize_yaml_numbers(value);
        assert!(value["a"].is_i64());
        assert_eq!(value["b"].as_i64(), Some(0));
        assert!(value["c"].is_f64());
        assert!(value["d"][0].is_f64());
    }

    #[test]
    fn objects_need_a_kind() {
        assert!(
            first_object(br#"{"kind": "Service"}"#)
                .expect("read")
                .is_some()
        );
        assert!(first_object(br#"{"kind": ""}"#).expect("read").is_none());
        assert!(first_object(br#"{"kind": 1}"#).expect("read").is_none());
        assert!(
            first_object(br#"{"apiVersion": "v1"}"#)
                .expect("read")
                .is_none()
        );
    }
}
