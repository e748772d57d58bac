//! `olm.bundle` blobs, and the check opm makes of their `olm.bundle.object`s at load.

use serde_json::{Map, Value};

use super::go_decode::{GoDecoder, match_field};
use super::property::{Inspected, Property};
use super::text::Text;
use crate::codec::node::Node;
use crate::go::{base64, fmt::quote};

#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Bundle {
    // No `schema` (always `olm.bundle`), boxed strings and slices: catalogs of many
    // small bundles hold one of these per blob.
    pub(crate) name: Text,
    pub(crate) package: Text,
    pub(crate) image: Text,
    pub(crate) properties: Box<[Property]>,
    pub(crate) related_images: Box<[RelatedImage]>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct RelatedImage {
    pub(crate) name: Text,
    pub(crate) image: Text,
}

/// The schema of every bundle blob.
pub(crate) const SCHEMA: &str = "olm.bundle";

impl Bundle {
    /// Decodes a bundle blob as opm's `Bundle` struct.
    pub(crate) fn decode(map: Map<String, Value>) -> Result<Bundle, String> {
        Bundle::decode_with(map, false, false).map_err(|error| match error {
            BundleDecodeError::Parse(message) | BundleDecodeError::Objects(message) => message,
        })
    }

    /// Decodes a bundle blob and makes opm's `readBundleObjects` check of it: every
    /// `olm.bundle.object` must hold base64 data that is JSON or convertible YAML.
    /// With `captured`, the values of the `properties` list are their compact text
    /// (see `Document::captured`).
    pub(crate) fn decode_checked(
        map: Map<String, Value>,
        captured: bool,
    ) -> Result<Bundle, BundleDecodeError> {
        Bundle::decode_with(map, true, captured)
    }

    fn decode_with(
        map: Map<String, Value>,
        check: bool,
        captured: bool,
    ) -> Result<Bundle, BundleDecodeError> {
        let mut decoder = GoDecoder::rooted("Bundle");
        let mut bundle = Bundle::default();
        let mut object_error = None;
        let fields = [
            "schema",
            "name",
            "package",
            "image",
            "properties",
            "relatedImages",
        ];
        for (key, value) in map {
            match match_field(&key, &fields) {
                Some("schema") => {
                    // Decoded for Go's errors; the value is always `olm.bundle`.
                    decoder.field("schema", |d| d.string(value, "Bundle"));
                }
                Some("name") => {
                    bundle.name = decoder.field("name", |d| d.string(value, "Bundle")).into();
                }
                Some("package") => {
                    bundle.package = decoder
                        .field("package", |d| d.string(value, "Bundle"))
                        .into();
                }
                Some("image") => {
                    bundle.image = decoder.field("image", |d| d.string(value, "Bundle")).into();
                }
                Some("properties") => {
                    // Objects are checked while their values are decoded: as text
                    // they would have to be decoded again. A later `properties` key
                    // replaces an earlier one, and so do its errors.
                    object_error = None;
                    let mut inspect = |index: usize, value: Inspected<'_>| {
                        if check && object_error.is_none() {
                            let checked = match value {
                                Inspected::Value(value) => check_object(value),
                                Inspected::Text(text) => check_object_text(text),
                            };
                            object_error = checked.err().map(|error| (index, error));
                        }
                    };
                    bundle.properties = Property::decode_list_inspecting(
                        &mut decoder,
                        value,
                        "Bundle",
                        captured && key == "properties",
                        &mut inspect,
                    );
                }
                Some("relatedImages") => {
                    bundle.related_images = decoder
                        .field("relatedImages", |d| {
                            d.slice(
                                value,
                                "Bundle",
                                "[]declcfg.RelatedImage",
                                RelatedImage::decode,
                            )
                        })
                        .unwrap_or_default()
                        .into_boxed_slice();
                }
                _ => {}
            }
        }
        decoder.finish().map_err(BundleDecodeError::Parse)?;
        match object_error {
            None => Ok(bundle),
            Some((index, error)) => {
                let context = format!(
                    "package {}, bundle {}",
                    quote(&bundle.package),
                    quote(&bundle.name)
                );
                let message = match error {
                    ObjectError::Shape(error) => {
                        format!("parse property at index {index} as bundle object: {error}")
                    }
                    ObjectError::Convert(error) => {
                        format!("convert bundle object property at index {index} to JSON: {error}")
                    }
                };
                Err(BundleDecodeError::Objects(format!("{context}: {message}")))
            }
        }
    }

    pub(crate) fn to_node(&self) -> Node<'_> {
        let mut fields = vec![("schema".into(), Node::str(SCHEMA))];
        if !self.name.is_empty() {
            fields.push(("name".into(), Node::str(&self.name)));
        }
        if !self.package.is_empty() {
            fields.push(("package".into(), Node::str(&self.package)));
        }
        fields.push(("image".into(), Node::str(&self.image)));
        if !self.properties.is_empty() {
            fields.push(("properties".into(), Property::list_node(&self.properties)));
        }
        if !self.related_images.is_empty() {
            let images = self.related_images.iter().map(|related| {
                Node::Object(vec![
                    ("name".into(), Node::str(&related.name)),
                    ("image".into(), Node::str(&related.image)),
                ])
            });
            fields.push(("relatedImages".into(), Node::Array(images.collect())));
        }
        Node::Object(fields)
    }
}

/// Why a bundle blob does not load, in opm's words without its prefix.
#[derive(Debug)]
pub(crate) enum BundleDecodeError {
    /// The blob does not decode into opm's `Bundle` (`parse bundle: `).
    Parse(String),
    /// An `olm.bundle.object` is not a manifest (`read bundle objects: `).
    Objects(String),
}

impl std::fmt::Display for BundleDecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BundleDecodeError::Parse(message) => write!(f, "parse bundle: {message}"),
            BundleDecodeError::Objects(message) => write!(f, "read bundle objects: {message}"),
        }
    }
}

impl RelatedImage {
    fn decode(decoder: &mut GoDecoder, value: Value) -> RelatedImage {
        let mut related = RelatedImage::default();
        let Some(map) = decoder.object(value, "Bundle", "declcfg.RelatedImage") else {
            return related;
        };
        for (key, value) in map {
            match match_field(&key, &["name", "image"]) {
                Some("name") => {
                    related.name = decoder
                        .field("name", |d| d.string(value, "RelatedImage"))
                        .into();
                }
                Some("image") => {
                    related.image = decoder
                        .field("image", |d| d.string(value, "RelatedImage"))
                        .into();
                }
                _ => {}
            }
        }
        related
    }
}

enum ObjectError {
    Shape(String),
    Convert(String),
}

/// Whether an `olm.bundle.object` value passes the loader's check: base64 data
/// that is JSON or convertible YAML.
pub(crate) fn object_is_valid(value: &Value) -> bool {
    check_object(Some(value)).is_ok()
}

/// Checks one `olm.bundle.object` value without keeping the decoded manifest.
fn check_object(value: Option<&Value>) -> Result<(), ObjectError> {
    let data = match value {
        None => {
            return Err(ObjectError::Shape(
                "unexpected end of JSON input".to_owned(),
            ));
        }
        Some(Value::Object(map)) => map
            .iter()
            .rev()
            .find(|(key, _)| super::go_decode::field_matches(key, "data")),
        Some(Value::Null) => None,
        Some(other) => {
            let mut decoder = GoDecoder::default();
            decoder.mismatch(other, "", "property.BundleObject");
            return Err(ObjectError::Shape(
                decoder.finish().err().unwrap_or_default(),
            ));
        }
    };
    match data {
        Some((_, Value::String(text))) => check_data(text),
        None | Some((_, Value::Null)) => check_data(""),
        Some((_, other)) => {
            let mut decoder = GoDecoder::default();
            decoder.field("data", |d| d.mismatch(other, "BundleObject", "[]uint8"));
            Err(ObjectError::Shape(
                decoder.finish().err().unwrap_or_default(),
            ))
        }
    }
}

/// [`check_object`] of a value's compact text. The usual `{"data":"…"}` is not
/// decoded into a tree: that would copy its data, mostly a large manifest.
fn check_object_text(text: &str) -> Result<(), ObjectError> {
    let plain_data = text
        .strip_prefix(r#"{"data":""#)
        .and_then(|rest| rest.strip_suffix(r#""}"#))
        .filter(|data| memchr::memchr2(b'"', b'\\', data.as_bytes()).is_none());
    match plain_data {
        Some(data) => check_data(data),
        None => check_object(crate::codec::json_read::parse_json(text).as_ref()),
    }
}

/// The check of an `olm.bundle.object`'s `data`: base64 of JSON or of YAML that
/// converts.
fn check_data(text: &str) -> Result<(), ObjectError> {
    let bytes = text.as_bytes();
    // Manifests that start with `{` are taken as JSON without a check; anything
    // else is converted from YAML, which can fail. A prefix tells which, so the
    // large common case is never decoded in full.
    let decoded = if base64_is_canonical(bytes) {
        let prefix =
            base64::decode(&bytes[..bytes.len().min(64)]).expect("canonical base64 decodes");
        if String::from_utf8_lossy(&prefix)
            .trim_start()
            .starts_with('{')
        {
            return Ok(());
        }
        base64::decode(bytes).expect("canonical base64 decodes")
    } else {
        base64::decode(bytes).map_err(|error| {
            let mut decoder = GoDecoder::default();
            decoder.field("data", |d| d.invalid_base64("BundleObject", &error));
            ObjectError::Shape(decoder.finish().err().unwrap_or_default())
        })?
    };
    if String::from_utf8_lossy(&decoded)
        .trim_start()
        .starts_with('{')
    {
        return Ok(());
    }
    let yaml = String::from_utf8(decoded)
        .map_err(|_| ObjectError::Convert("invalid UTF-8 in manifest".to_owned()))?;
    // opm converts with `ToJSON` (sigs.k8s.io/yaml's `YAMLToJSON`), which returns
    // yaml.v2's error as it is: without the prefix its `Unmarshal` adds.
    crate::codec::yaml::to_json(&yaml)
        .map(|_| ())
        .map_err(|error| {
            ObjectError::Convert(
                error
                    .strip_prefix(crate::codec::yaml::PREFIX)
                    .map_or_else(|| error.clone(), str::to_owned),
            )
        })
}

/// A fast check for the common case: unbroken standard base64 with correct padding.
fn base64_is_canonical(data: &[u8]) -> bool {
    if !data.len().is_multiple_of(4) {
        return false;
    }
    let body_end = data.len().saturating_sub(2);
    let alphabet = |byte: &u8| crate::text::bytes::all_base64(std::slice::from_ref(byte));
    crate::text::bytes::all_base64(&data[..body_end])
        && match &data[body_end..] {
            [a, b] => (alphabet(a) && (alphabet(b) || *b == b'=')) || (*a == b'=' && *b == b'='),
            _ => true,
        }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(checked: Result<(), ObjectError>) -> Option<(bool, String)> {
        match checked {
            Ok(()) => None,
            Err(ObjectError::Shape(message)) => Some((true, message)),
            Err(ObjectError::Convert(message)) => Some((false, message)),
        }
    }

    /// A value's compact text gets the verdict its decoded value gets.
    #[test]
    fn objects_are_checked_alike_as_text_and_as_values() {
        let encode = |text: &str| crate::go::base64::encode(text.as_bytes());
        let json = encode("{\"kind\": \"ConfigMap\"}");
        let yaml = encode("kind: ConfigMap\n");
        let broken = encode("kind: [\n");
        for text in [
            format!(r#"{{"data":"{json}"}}"#),
            format!(r#"{{"data":"{yaml}"}}"#),
            format!(r#"{{"data":"{broken}"}}"#),
            r#"{"data":"not base64!"}"#.to_owned(),
            r#"{"data":"a\/b"}"#.to_owned(),
            r#"{"data":""}"#.to_owned(),
            r#"{"data":null}"#.to_owned(),
            r#"{"data":1}"#.to_owned(),
            format!(r#"{{"Data":"{yaml}"}}"#),
            format!(r#"{{"data":"{json}","other":1}}"#),
            "{}".to_owned(),
            "null".to_owned(),
            "1".to_owned(),
            r#""text""#.to_owned(),
        ] {
            let value = crate::codec::json_read::parse_json(&text).expect("JSON");
            assert_eq!(
                verdict(check_object_text(&text)),
                verdict(check_object(Some(&value))),
                "{text}"
            );
        }
        assert!(verdict(check_object_text(&format!(r#"{{"data":"{broken}"}}"#))).is_some());
    }
}
