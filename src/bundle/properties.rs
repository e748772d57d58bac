//! A bundle directory's properties, built as opm builds them: the parser's list
//! (properties file, then the annotation package, the CSV's `olm.properties` and the
//! provided APIs, de-duplicated), then `ObjectsAndPropertiesFromBundle`'s final list
//! sorted by type and raw value text.

use std::borrow::Cow;
use std::collections::BTreeSet;

use serde_json::Value;

use serde_json::Map;

use super::apis::ApiSet;
use super::marshal::marshal;
use super::raw::{self, RawValue};
use crate::codec::json_write::write_compact;
use crate::codec::node::Node;
use crate::model::go_decode::{GoDecoder, match_field};
use crate::model::property::{BUNDLE_OBJECT, Property};

pub(crate) const PACKAGE: &str = "olm.package";
const PACKAGE_REQUIRED: &str = "olm.package.required";
const GVK: &str = "olm.gvk";
const GVK_REQUIRED: &str = "olm.gvk.required";

/// A property as opm holds it: a type and the raw JSON text of its value, which
/// opm compares, de-duplicates and sorts by.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct RawProperty {
    pub(crate) kind: String,
    /// `None` when the entry had no value (an empty raw message).
    pub(crate) value: Option<Value>,
    pub(crate) raw: String,
    /// The value in opm's field order, for values opm encodes from Go structs.
    ordered: Option<Node<'static>>,
}

impl RawProperty {
    /// Takes a decoded value; its raw text is what `json.Marshal` wrote for it.
    pub(crate) fn set_value(&mut self, value: &Value) {
        self.raw = marshal(value);
        self.value = Some(value.clone());
    }

    /// Takes a value's raw text as it stands (Go's `json.RawMessage`).
    pub(crate) fn set_raw(&mut self, raw: &str) {
        raw.clone_into(&mut self.raw);
        self.value = serde_json::from_str(raw).ok();
    }

    /// A property opm encodes from a struct of strings (`property.MustBuild`):
    /// compact, fields in struct order, HTML characters unescaped.
    pub(crate) fn built(kind: &str, fields: Vec<(&'static str, String)>) -> Self {
        let node = Node::Object(
            fields
                .into_iter()
                .map(|(key, text)| (Cow::Borrowed(key), Node::String(Cow::Owned(text))))
                .collect(),
        );
        let mut raw = Vec::new();
        write_compact(&node, &mut raw);
        let raw = String::from_utf8(raw).expect("the JSON writer writes UTF-8");
        let value = serde_json::from_str(&raw).ok();
        // Fields already in sorted order print the same from `value`; only other
        // orders need the node (and bundle objects are spared a copy of their data).
        let Node::Object(fields) = &node else {
            unreachable!("built as an object")
        };
        let sorted = fields.windows(2).all(|pair| pair[0].0 < pair[1].0);
        RawProperty {
            kind: kind.to_owned(),
            value,
            raw,
            ordered: (!sorted).then_some(node),
        }
    }

    /// An `olm.bundle.object` holding base64 `data` (which needs no escaping).
    pub(crate) fn bundle_object(data: String) -> Self {
        RawProperty {
            kind: BUNDLE_OBJECT.to_owned(),
            raw: format!("{{\"data\":\"{data}\"}}"),
            value: Some(Value::Object(Map::from_iter([(
                "data".to_owned(),
                Value::String(data),
            )]))),
            ordered: None,
        }
    }

    fn key(&self) -> (&str, &str) {
        (&self.kind, &self.raw)
    }

    /// The catalog model's property: opm prints the raw text it holds, or the
    /// struct it built.
    pub(crate) fn into_property(self) -> Property {
        match self.ordered {
            Some(node) => Property::ordered(self.kind, node),
            None if self.raw.is_empty() || self.kind == BUNDLE_OBJECT => {
                Property::new(self.kind, self.value.as_ref())
            }
            None => Property::raw(self.kind, self.raw),
        }
    }
}

/// opm's `propertySet`: the first of each type and raw value.
pub(crate) fn deduplicate(properties: Vec<RawProperty>) -> Vec<RawProperty> {
    let mut seen = BTreeSet::new();
    properties
        .into_iter()
        .filter(|property| seen.insert((property.kind.clone(), property.raw.clone())))
        .collect()
}

/// A package property with `release` omitted when empty.
pub(crate) fn package(name: &str, version: &str, release: &str) -> RawProperty {
    let mut fields = vec![
        ("packageName", name.to_owned()),
        ("version", version.to_owned()),
    ];
    if !release.is_empty() {
        fields.push(("release", release.to_owned()));
    }
    RawProperty::built(PACKAGE, fields)
}

fn gvk(kind: &str, group: &str, api_kind: &str, version: &str) -> RawProperty {
    RawProperty::built(
        kind,
        vec![
            ("group", group.to_owned()),
            ("kind", api_kind.to_owned()),
            ("version", version.to_owned()),
        ],
    )
}

/// The CSV's `olm.properties` annotation, decoded as Go decodes it into
/// `[]Property`: nothing when the text is not valid JSON or not an array; elements
/// of the wrong type become empty properties; values keep their own text.
pub(crate) fn annotation_properties(text: &str) -> Vec<RawProperty> {
    let Some(RawValue::Array(_, items)) = raw::parse(text) else {
        return Vec::new();
    };
    items
        .iter()
        .map(|item| {
            let mut property = RawProperty::default();
            let RawValue::Object(_, members) = item else {
                return property;
            };
            for (key, value) in members {
                let key = raw::decode_string(key).unwrap_or_default();
                match match_field(&key, &["type", "value"]) {
                    // A `type` of another type is a type error: the field keeps
                    // what it had.
                    Some("type") => {
                        if let Some(kind) = value.as_string() {
                            property.kind = kind;
                        }
                    }
                    Some(_) => property.set_raw(value.text()),
                    None => {}
                }
            }
            property
        })
        .collect()
}

/// The parser's derived properties: the annotation package (when named), the CSV's
/// `olm.properties`, one `olm.gvk` per provided API.
pub(crate) fn derived(
    package_name: &str,
    version_and_release: Option<(String, String)>,
    csv_properties: Vec<RawProperty>,
    provided: &ApiSet,
) -> Vec<RawProperty> {
    let mut list = Vec::new();
    if let Some((version, release)) = version_and_release {
        // The parser marshals with HTML escaping on, which only changes the raw text.
        list.push(html_escaped(package(package_name, &version, &release)));
    }
    list.extend(csv_properties);
    for api in provided {
        list.push(html_escaped(gvk(GVK, &api.group, &api.kind, &api.version)));
    }
    deduplicate(list)
}

/// The raw text `json.Marshal` would write: `<`, `>` and `&` only occur inside
/// strings, where it escapes them.
fn html_escaped(mut property: RawProperty) -> RawProperty {
    if property.raw.contains(['<', '>', '&']) {
        property.raw = property
            .raw
            .replace('<', "\\u003c")
            .replace('>', "\\u003e")
            .replace('&', "\\u0026");
    }
    property
}

/// Decodes a property value into a Go struct of string fields, in `fields` order.
fn decode_strings(
    value: Option<&Value>,
    struct_name: &str,
    fields: &[&'static str],
) -> Result<Vec<String>, String> {
    let Some(value) = value else {
        return Err("unexpected end of JSON input".to_owned());
    };
    let mut strings = vec![String::new(); fields.len()];
    let map = match value {
        Value::Object(map) => map,
        Value::Null => return Ok(strings),
        other => {
            return Err(format!(
                "json: cannot unmarshal {} into Go value of type property.{struct_name}",
                crate::go::json_kind(other)
            ));
        }
    };
    let mut decoder = GoDecoder::default();
    for (key, item) in map {
        if let Some(field) = match_field(key, fields) {
            let index = fields
                .iter()
                .position(|f| *f == field)
                .expect("a listed field");
            strings[index] = decoder.field(field, |d| d.string(item.clone(), struct_name));
        }
    }
    decoder.finish().map(|()| strings)
}

/// The `olm.package` value's fields: package name, version, release.
pub(crate) fn decode_package(value: Option<&Value>) -> Result<Vec<String>, String> {
    decode_strings(value, "Package", &["packageName", "version", "release"])
}

fn parse_error(index: usize, kind: &str, error: &str) -> String {
    format!(
        "parse property[{index}] of type {}: {error}",
        crate::go::fmt::quote(kind)
    )
}

/// Where a value that failed came from: the parser's property list (by index), the
/// dependencies, or the CSV.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Origin {
    Property(usize),
    Dependency,
    Csv,
}

/// What `ObjectsAndPropertiesFromBundle` needs besides the property lists.
pub(crate) struct BundleFacts<'a> {
    pub(crate) package: &'a str,
    pub(crate) version: Result<String, String>,
    pub(crate) release: Result<String, String>,
    pub(crate) provided: Result<ApiSet, String>,
    pub(crate) required: Result<ApiSet, String>,
    /// The compact JSON of each manifest object, in bundle order.
    pub(crate) objects: Vec<String>,
}

/// opm's final property list of a bundle, sorted by type and raw value.
pub(crate) fn final_properties(
    properties: &[RawProperty],
    dependencies: &[RawProperty],
    facts: BundleFacts<'_>,
) -> Result<Vec<RawProperty>, (String, Origin)> {
    let gvk_fields = ["group", "kind", "version"];
    let mut provided_gvks = BTreeSet::new();
    let mut package_property = None;
    let mut others = Vec::new();
    for (index, property) in properties.iter().enumerate() {
        match property.kind.as_str() {
            GVK => {
                let fields = decode_strings(property.value.as_ref(), "GVK", &gvk_fields)
                    .map_err(|error| (parse_error(index, GVK, &error), Origin::Property(index)))?;
                provided_gvks.insert((fields[0].clone(), fields[1].clone(), fields[2].clone()));
            }
            PACKAGE => {
                let fields = decode_package(property.value.as_ref()).map_err(|error| {
                    (parse_error(index, PACKAGE, &error), Origin::Property(index))
                })?;
                package_property = Some(package(&fields[0], &fields[1], &fields[2]));
            }
            _ => others.push(property.clone()),
        }
    }
    let mut required_gvks = BTreeSet::new();
    let mut packages_required = Vec::new();
    for (index, dependency) in dependencies.iter().enumerate() {
        match dependency.kind.as_str() {
            GVK => {
                let fields = decode_strings(dependency.value.as_ref(), "GVK", &gvk_fields)
                    .map_err(|error| (parse_error(index, GVK, &error), Origin::Dependency))?;
                required_gvks.insert((fields[0].clone(), fields[1].clone(), fields[2].clone()));
            }
            PACKAGE => {
                let fields = decode_package(dependency.value.as_ref())
                    .map_err(|error| (parse_error(index, PACKAGE, &error), Origin::Dependency))?;
                packages_required.push(RawProperty::built(
                    PACKAGE_REQUIRED,
                    vec![
                        ("packageName", fields[0].clone()),
                        ("versionRange", fields[1].clone()),
                    ],
                ));
            }
            _ => others.push(dependency.clone()),
        }
    }
    let version = facts
        .version
        .map_err(|error| (format!("get version: {error}"), Origin::Csv))?;
    let release = facts
        .release
        .map_err(|error| (format!("get release: {error}"), Origin::Csv))?;
    let provided = facts
        .provided
        .map_err(|error| (format!("get provided apis: {error}"), Origin::Csv))?;
    for api in provided {
        provided_gvks.insert((api.group, api.kind, api.version));
    }
    let required = facts
        .required
        .map_err(|error| (format!("get required apis: {error}"), Origin::Csv))?;
    for api in required {
        required_gvks.insert((api.group, api.kind, api.version));
    }
    let mut list: Vec<RawProperty> = facts
        .objects
        .iter()
        .map(|object| RawProperty::bundle_object(crate::go::base64::encode(object.as_bytes())))
        .collect();
    list.push(package_property.unwrap_or_else(|| package(facts.package, &version, &release)));
    list.extend(provided_gvks.iter().map(|(g, k, v)| gvk(GVK, g, k, v)));
    list.extend(
        required_gvks
            .iter()
            .map(|(g, k, v)| gvk(GVK_REQUIRED, g, k, v)),
    );
    list.extend(packages_required);
    list.extend(others);
    list.sort_by(|a, b| a.key().cmp(&b.key()));
    Ok(list)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn built_values_keep_struct_order_and_html() {
        let property = package("a&b", "1.0.0", "2");
        assert_eq!(
            property.raw,
            r#"{"packageName":"a&b","version":"1.0.0","release":"2"}"#
        );
        assert_eq!(
            package("a", "1.0.0", "").raw,
            r#"{"packageName":"a","version":"1.0.0"}"#
        );
    }

    fn label() -> RawProperty {
        RawProperty {
            kind: "olm.label".into(),
            ..RawProperty::default()
        }
    }

    #[test]
    fn deduplicates_on_type_and_raw_text() {
        let mut first = label();
        first.set_value(&json!({"label": "x"}));
        let list = deduplicate(vec![first.clone(), first.clone(), package("a", "1", "")]);
        assert_eq!(list.len(), 2);
    }

    #[test]
    fn annotation_properties_survive_type_errors() {
        let list =
            annotation_properties(r#"[{"type": "olm.maxOpenShiftVersion", "value": "4.9"}, 3]"#);
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].raw, r#""4.9""#);
        assert_eq!(list[1].kind, "");
        assert!(annotation_properties("{").is_empty());
    }

    #[test]
    fn final_list_is_sorted_and_reports_bad_values() {
        let facts = || BundleFacts {
            package: "foo",
            version: Ok("1.0.0".into()),
            release: Ok(String::new()),
            provided: Ok(ApiSet::new()),
            required: Ok(ApiSet::new()),
            objects: vec![r#"{"kind":"A"}"#.into()],
        };
        let mut label = label();
        label.set_value(&json!({"label": "x"}));
        let list = final_properties(&[label], &[], facts()).expect("builds");
        let kinds: Vec<&str> = list.iter().map(|p| p.kind.as_str()).collect();
        assert_eq!(kinds, ["olm.bundle.object", "olm.label", "olm.package"]);
        let mut bad = RawProperty {
            kind: GVK.into(),
            ..RawProperty::default()
        };
        bad.set_value(&json!("text"));
        assert_eq!(
            final_properties(&[bad], &[], facts()).map(|_| ()),
            Err(("parse property[0] of type \"olm.gvk\": json: cannot unmarshal string into Go value of type property.GVK".to_owned(), Origin::Property(0)))
        );
    }
}
