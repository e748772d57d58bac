//! The registry API's messages made from the catalog's blobs: channel entries,
//! deprecations, custom-schema blobs as `google.protobuf.Struct`, and bundles
//! with their properties, dependencies and manifests (opm's
//! `ConvertModelBundleToAPIBundle`).

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::Value;

use super::{Entry, PackageDetails, Stored};
use crate::codec::json_write::write_compact;
use crate::codec::node::Node;
use crate::go::fmt::quote;
use crate::model::go_decode::match_field;
use crate::model::property::{BUNDLE_OBJECT, CSV_METADATA, Property};
use crate::serve::api;
use crate::validate::opm_model::{BundleBlob, ModelPackage};

pub(super) fn channel_entry(entry: &Entry, replaces: &str) -> api::ChannelEntry {
    api::ChannelEntry {
        package_name: entry.package.to_string(),
        channel_name: entry.channel.to_string(),
        bundle_name: entry.name.to_string(),
        replaces: replaces.to_owned(),
    }
}

pub(super) fn deprecation(message: Option<&str>) -> Option<api::Deprecation> {
    message.map(|message| api::Deprecation {
        message: message.to_owned(),
    })
}

/// opm's key for custom-schema blobs: names that could not be a path segment
/// are refused.
pub(super) fn meta_key(schema: &str, package: &str) -> Result<(Box<str>, Box<str>), String> {
    fn check(what: &str, value: &str) -> Result<(), String> {
        if value.is_empty() {
            return Err(format!("invalid {what}: must not be empty"));
        }
        let mut bytes = value.bytes();
        let first_ok = bytes.next().is_some_and(|b| b.is_ascii_alphanumeric());
        let rest_ok = bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
        if first_ok && rest_ok {
            Ok(())
        } else {
            Err(format!(
                "invalid {what} {}: must match ^[a-zA-Z0-9][a-zA-Z0-9._-]*$",
                quote(value)
            ))
        }
    }
    check("schema", schema)?;
    if !package.is_empty() {
        check("packageName", package)?;
    }
    Ok((schema.into(), package.into()))
}

/// A JSON object as `google.protobuf.Struct` (numbers become doubles, as in opm).
pub(super) fn to_struct(map: serde_json::Map<String, Value>) -> prost_types::Struct {
    prost_types::Struct {
        fields: map
            .into_iter()
            .map(|(key, value)| (key, to_value(value)))
            .collect(),
    }
}

pub(super) fn to_value(value: Value) -> prost_types::Value {
    use prost_types::value::Kind;
    let kind = match value {
        Value::Null => Kind::NullValue(0),
        Value::Bool(flag) => Kind::BoolValue(flag),
        Value::Number(number) => Kind::NumberValue(number.as_f64().unwrap_or(f64::NAN)),
        Value::String(text) => Kind::StringValue(text),
        Value::Array(items) => Kind::ListValue(prost_types::ListValue {
            values: items.into_iter().map(to_value).collect(),
        }),
        Value::Object(map) => Kind::StructValue(to_struct(map)),
    };
    prost_types::Value { kind: Some(kind) }
}

/// opm's `ConvertModelBundleToAPIBundle`, less the channel's part.
pub(super) fn convert_bundle(
    package: &ModelPackage<'_>,
    blob: &BundleBlob<'_>,
    details: &Arc<PackageDetails>,
) -> Stored {
    let bundle = &blob.blob.item;
    let mut out = api::Bundle {
        csv_name: bundle.name.to_string(),
        package_name: package.name().to_owned(),
        bundle_path: bundle.image.to_string(),
        ..api::Bundle::default()
    };
    let mut version = None;
    for property in &*bundle.properties {
        match &*property.kind {
            BUNDLE_OBJECT | CSV_METADATA => continue,
            "olm.package" if version.is_none() => {
                let [found] = string_fields(property, ["version"]);
                version = Some(found);
            }
            "olm.gvk" => out.provided_apis.push(gvk(property)),
            "olm.gvk.required" => {
                out.required_apis.push(gvk(property));
                out.dependencies.push(api::Dependency {
                    r#type: "olm.gvk".to_owned(),
                    value: property.value_text(),
                });
            }
            "olm.package.required" => out.dependencies.push(api::Dependency {
                r#type: "olm.package".to_owned(),
                value: {
                    let [name, range] = string_fields(property, ["packageName", "versionRange"]);
                    compact(&Node::Object(vec![
                        ("packageName".into(), Node::String(name.into())),
                        ("version".into(), Node::String(range.into())),
                    ]))
                },
            }),
            _ => {}
        }
        out.properties.push(api::Property {
            r#type: property.kind.to_string(),
            value: property.value_text(),
        });
    }
    out.version = version.unwrap_or_default();
    Stored {
        base: out,
        blob: blob.index,
        csv_version: blob
            .version
            .as_ref()
            .map_or_else(|| "0.0.0".to_owned(), ToString::to_string)
            .into(),
        package: Arc::clone(details),
    }
}

/// An `olm.bundle.object` as opm keeps it: its JSON as it stands, a YAML
/// manifest as JSON.
pub(super) fn object_json(property: &Property) -> Option<String> {
    let bytes = object_data(property)?;
    let starts_json = bytes
        .iter()
        .find(|byte| !byte.is_ascii_whitespace())
        .is_some_and(|&byte| byte == b'{');
    if starts_json {
        return Some(match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(error) => String::from_utf8_lossy(error.as_bytes()).into_owned(),
        });
    }
    crate::bundle::decode::embedded_object(&bytes)
        .map(|value| crate::bundle::marshal::marshal(&value))
}

/// The decoded `data` of an `olm.bundle.object`, read without copying the
/// base64 text first (it is most of a catalog of embedded manifests).
pub(super) fn object_data(property: &Property) -> Option<Vec<u8>> {
    let text = property.stored_text()?;
    let fields: BTreeMap<std::borrow::Cow<'_, str>, &serde_json::value::RawValue> =
        serde_json::from_str(&text).ok()?;
    let (_, data) = fields
        .iter()
        .rev()
        .find(|(key, _)| match_field(key, &["data"]).is_some())?;
    let data: std::borrow::Cow<'_, str> = serde_json::from_str(data.get()).ok()?;
    crate::go::base64::decode(data.as_bytes()).ok()
}

/// Whether a manifest's `kind` is `ClusterServiceVersion`.
pub(super) fn is_csv(object: &str) -> bool {
    #[derive(serde::Deserialize)]
    struct Kind<'a> {
        #[serde(borrow)]
        kind: Option<std::borrow::Cow<'a, str>>,
    }
    serde_json::from_str::<Kind<'_>>(object)
        .ok()
        .and_then(|kind| kind.kind)
        .is_some_and(|kind| kind == "ClusterServiceVersion")
}

/// The string fields of a property's value, as Go's decoder finds them (the
/// value is decoded once for all of them).
pub(super) fn string_fields<const N: usize>(
    property: &Property,
    fields: [&'static str; N],
) -> [String; N] {
    let value = property.value();
    fields.map(|field| {
        let Some(Value::Object(map)) = &value else {
            return String::new();
        };
        map.iter()
            .filter(|(key, _)| match_field(key, &[field]).is_some())
            .filter_map(|(_, value)| value.as_str())
            .next_back()
            .unwrap_or_default()
            .to_owned()
    })
}

pub(super) fn gvk(property: &Property) -> api::GroupVersionKind {
    let [group, version, kind] = string_fields(property, ["group", "version", "kind"]);
    api::GroupVersionKind {
        group,
        version,
        kind,
        plural: String::new(),
    }
}

/// Compact JSON as opm's property builder writes it (no HTML escapes).
pub(super) fn compact(node: &Node<'_>) -> String {
    let mut text = Vec::new();
    write_compact(node, &mut text);
    String::from_utf8(text).expect("JSON output is UTF-8")
}
