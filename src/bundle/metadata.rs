//! The `metadata/` directory of a bundle: every entry, in name order, is tried as an
//! annotations file, a dependencies file and a properties file; for each kind the
//! first file that decodes to something non-empty wins, whatever its name.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::decode;
use super::properties::RawProperty;
use super::raw::{self, RawValue};
use crate::model::go_decode::match_field;

const PACKAGE: &str = "operators.operatorframework.io.bundle.package.v1";
const CHANNELS: &str = "operators.operatorframework.io.bundle.channels.v1";
const DEFAULT_CHANNEL: &str = "operators.operatorframework.io.bundle.channel.default.v1";

/// What the bundle parser takes from `metadata/`.
#[derive(Debug, Default)]
pub(crate) struct Metadata {
    /// The annotations file's package (possibly empty).
    pub(crate) package: String,
    pub(crate) dependencies: Vec<RawProperty>,
    pub(crate) properties: Vec<RawProperty>,
    /// The files the dependencies and properties came from, for messages.
    pub(crate) dependencies_file: Option<PathBuf>,
    pub(crate) properties_file: Option<PathBuf>,
}

/// Reads `metadata/`. `Err` is opm's message: no annotations file was found.
pub(crate) fn read(directory: &Path) -> Result<Metadata, String> {
    let mut names: Vec<_> = std::fs::read_dir(directory)
        .map_err(|error| format!("open {}: {error}", directory.display()))?
        .filter_map(Result::ok)
        .map(|entry| entry.file_name())
        .collect();
    names.sort();
    let mut annotations: Option<Annotations> = None;
    let mut dependencies: Option<(Vec<RawProperty>, PathBuf)> = None;
    let mut properties: Option<(Vec<RawProperty>, PathBuf)> = None;
    for name in names {
        if annotations.is_some() && dependencies.is_some() && properties.is_some() {
            break;
        }
        // Directories and unreadable entries fail to decode, as in opm.
        let Some(bytes) = super::read_file(&directory.join(&name))? else {
            continue;
        };
        let document = decode::first_document(&bytes)
            .map_err(|error| format!("{}: {error}", directory.join(&name).display()))?;
        let Some(document) = document else {
            continue;
        };
        let raw = decode::first_json_text(&bytes).and_then(raw::parse);
        if annotations.is_none() {
            annotations = decode_annotations(&document).filter(|found| !found.is_empty());
        }
        let file = || directory.join(&name);
        if dependencies.is_none() {
            dependencies = decode_list(&document, "dependencies")
                .map(|list| with_raw_values(list, raw.as_ref(), "dependencies"))
                .filter(|list| !list.is_empty())
                .map(|list| (list, file()));
        }
        if properties.is_none() {
            properties = decode_list(&document, "properties")
                .map(|list| with_raw_values(list, raw.as_ref(), "properties"))
                .filter(|list| !list.is_empty())
                .map(|list| (list, file()));
        }
    }
    let Some(annotations) = annotations else {
        return Err("Could not find annotations file".to_owned());
    };
    let (dependencies, dependencies_file) = dependencies.unzip();
    let (properties, properties_file) = properties.unzip();
    Ok(Metadata {
        package: annotations.package,
        dependencies: dependencies.unwrap_or_default(),
        properties: properties.unwrap_or_default(),
        dependencies_file,
        properties_file,
    })
}

/// The three annotations opm reads; the others are ignored.
#[derive(Debug, Default)]
struct Annotations {
    package: String,
    channels: String,
    default_channel: String,
}

impl Annotations {
    fn is_empty(&self) -> bool {
        self.package.is_empty() && self.channels.is_empty() && self.default_channel.is_empty()
    }
}

/// A value Go's decoder refuses for the field's type.
struct TypeError;

/// The fields of a Go struct, matched like `encoding/json`; `Ok(None)` for null.
fn struct_fields(value: &Value) -> Result<Option<&Map<String, Value>>, TypeError> {
    match value {
        Value::Object(map) => Ok(Some(map)),
        Value::Null => Ok(None),
        _ => Err(TypeError),
    }
}

/// Decodes an `AnnotationsFile`; `None` when Go's decoder would fail.
fn decode_annotations(document: &Value) -> Option<Annotations> {
    let mut found = Annotations::default();
    let Some(top) = struct_fields(document).ok()? else {
        return Some(found);
    };
    for (key, value) in top {
        if match_field(key, &["annotations"]).is_none() {
            continue;
        }
        let Some(map) = struct_fields(value).ok()? else {
            continue;
        };
        for (key, value) in map {
            let slot = match match_field(key, &[PACKAGE, CHANNELS, DEFAULT_CHANNEL]) {
                Some(PACKAGE) => &mut found.package,
                Some(CHANNELS) => &mut found.channels,
                Some(_) => &mut found.default_channel,
                None => continue,
            };
            if let Some(text) = string_field(value).ok()? {
                *slot = text;
            }
        }
    }
    Some(found)
}

/// Decodes the `dependencies` or `properties` list of a file; `None` on a type error.
fn decode_list(document: &Value, field: &'static str) -> Option<Vec<RawProperty>> {
    let mut list = Vec::new();
    let Some(top) = struct_fields(document).ok()? else {
        return Some(list);
    };
    for (key, value) in top {
        if match_field(key, &[field]).is_none() {
            continue;
        }
        list = match value {
            Value::Array(items) => items.iter().map(decode_entry).collect::<Option<_>>()?,
            Value::Null => Vec::new(),
            _ => return None,
        };
    }
    Some(list)
}

/// One `{type, value}` entry; the value is kept as the raw JSON text opm would see.
fn decode_entry(item: &Value) -> Option<RawProperty> {
    let mut entry = RawProperty::default();
    let Some(map) = struct_fields(item).ok()? else {
        return Some(entry);
    };
    for (key, value) in map {
        match match_field(key, &["type", "value"]) {
            Some("type") => {
                if let Some(text) = string_field(value).ok()? {
                    entry.kind = text;
                }
            }
            Some(_) => entry.set_value(value),
            None => {}
        }
    }
    Some(entry)
}

/// In a file read as JSON, each entry's value keeps its text as written (Go's
/// `json.RawMessage`), which opm de-duplicates and sorts on and prints with its own
/// key order and number spelling. Go decodes fields in document order, so the last
/// key that matches wins.
fn with_raw_values(
    mut list: Vec<RawProperty>,
    document: Option<&RawValue<'_>>,
    field: &'static str,
) -> Vec<RawProperty> {
    let Some(RawValue::Array(_, items)) =
        document.and_then(|document| last_member(document, field))
    else {
        return list;
    };
    if items.len() == list.len() {
        for (entry, item) in list.iter_mut().zip(items) {
            if let Some(value) = last_member(item, "value") {
                entry.set_raw(value.text());
            }
        }
    }
    list
}

/// The value of the last member of an object whose key matches the Go field `name`.
fn last_member<'v, 'a>(value: &'v RawValue<'a>, name: &'static str) -> Option<&'v RawValue<'a>> {
    let RawValue::Object(_, members) = value else {
        return None;
    };
    members
        .iter()
        .rev()
        .find(|(key, _)| {
            raw::decode_string(key).is_some_and(|key| match_field(&key, &[name]).is_some())
        })
        .map(|(_, value)| value)
}

/// A Go `string` field read through sigs.k8s.io/yaml, which turns YAML numbers and
/// booleans into strings for string fields. `Ok(None)` is null (no change).
fn string_field(value: &Value) -> Result<Option<String>, TypeError> {
    match value {
        Value::String(text) => Ok(Some(text.clone())),
        Value::Null => Ok(None),
        Value::Bool(flag) => Ok(Some(flag.to_string())),
        Value::Number(number) => Ok(Some(match number.as_i64() {
            Some(integer) => integer.to_string(),
            None => format_float32(number.as_f64().unwrap_or_default()),
        })),
        _ => Err(TypeError),
    }
}

/// Go's `strconv.FormatFloat(value, 'g', -1, 32)` for the common cases: shortest
/// float32 digits, exponent form from 1e6 or below 1e-4.
fn format_float32(value: f64) -> String {
    #[allow(clippy::cast_possible_truncation)]
    let single = value as f32;
    let magnitude = single.abs();
    if magnitude != 0.0 && !(1e-4..1e6).contains(&magnitude) {
        let text = format!("{single:e}");
        let (mantissa, exponent) = text.split_once('e').expect("`{:e}` has an exponent");
        let exponent: i32 = exponent.parse().expect("decimal exponent");
        let sign = if exponent < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exponent.unsigned_abs())
    } else {
        format!("{single}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn annotations_match_keys_like_go() {
        let document = json!({"Annotations": {
            "operators.operatorframework.io.bundle.package.v1": "etcd",
            "OPERATORS.operatorframework.io.bundle.channels.v1": "alpha,beta",
            "other": 1,
        }});
        let found = decode_annotations(&document).expect("decodes");
        assert_eq!(found.package, "etcd");
        assert_eq!(found.channels, "alpha,beta");
        assert!(decode_annotations(&json!({"annotations": []})).is_none());
        assert!(decode_annotations(&json!("text")).is_none());
        assert!(
            decode_annotations(&json!({"other": 1}))
                .expect("decodes")
                .is_empty()
        );
    }

    #[test]
    fn lists_keep_raw_values() {
        let document = json!({"dependencies": [
            {"type": "olm.constraint", "value": {"cel": {"rule": "a && b"}}},
            {"type": "olm.label"},
        ]});
        let list = decode_list(&document, "dependencies").expect("decodes");
        assert_eq!(list[0].kind, "olm.constraint");
        assert_eq!(list[0].raw, r#"{"cel":{"rule":"a \u0026\u0026 b"}}"#);
        assert_eq!(list[1].raw, "");
        assert!(
            decode_list(&document, "properties")
                .expect("decodes")
                .is_empty()
        );
        assert!(decode_list(&json!({"properties": [1]}), "properties").is_none());
    }

    #[test]
    fn yaml_scalars_become_strings() {
        assert_eq!(string_field(&json!(4.8)).ok(), Some(Some("4.8".to_owned())));
        assert_eq!(string_field(&json!(7)).ok(), Some(Some("7".to_owned())));
        assert_eq!(
            string_field(&json!(true)).ok(),
            Some(Some("true".to_owned()))
        );
        assert!(string_field(&json!([])).is_err());
    }
}
