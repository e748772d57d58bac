//! Properties: `{"type": ..., "value": <any JSON>}` with the value kept as loaded.

use serde_json::Value;

use super::go_decode::{GoDecoder, match_field};
use crate::output::node::Node;

pub(crate) const BUNDLE_OBJECT: &str = "olm.bundle.object";
pub(crate) const CSV_METADATA: &str = "olm.csv.metadata";

#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Property {
    pub(crate) kind: String,
    /// `None` when the blob had no `value` key: opm keeps an empty raw message,
    /// which prints as `null` but fails to parse for every property type.
    pub(crate) value: Option<Value>,
    /// The value as opm writes it, when that is not `value` with sorted keys.
    pub(crate) encoded: Option<Encoded>,
}

/// How opm holds a property value that fbc cannot write from `value` alone.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Encoded {
    /// Raw JSON text (compact), written as it stands: the values of bundle
    /// directories' metadata files (HTML-escaped by Go's `json.Marshal`) and of the
    /// CSV's `olm.properties` annotation (the annotation's own text).
    Raw(String),
    /// A value opm encodes from a Go struct, in field order (`olm.package` with a
    /// release, `olm.csv.metadata`).
    Ordered(Node<'static>),
}

impl Property {
    /// Decodes one element of a `properties` list (a `property.Property`).
    /// A property as a catalog file would hold it (tests build their inputs this way).
    #[cfg(test)]
    pub(crate) fn new(kind: &str, value: Option<Value>) -> Property {
        Property {
            kind: kind.to_owned(),
            value,
            encoded: None,
        }
    }

    pub(crate) fn decode(decoder: &mut GoDecoder, value: Value, parent: &str) -> Property {
        let mut property = Property::default();
        let Some(map) = decoder.object(value, parent, "property.Property") else {
            return property;
        };
        for (key, value) in map {
            match match_field(&key, &["type", "value"]) {
                Some("type") => {
                    property.kind = decoder.field("type", |d| d.string(value, "Property"));
                }
                Some("value") => property.value = Some(value),
                _ => {}
            }
        }
        property
    }

    /// Decodes a `properties` field of a typed blob.
    pub(crate) fn decode_list(
        decoder: &mut GoDecoder,
        value: Value,
        parent: &str,
    ) -> Vec<Property> {
        decoder
            .field("properties", |d| {
                d.slice(value, parent, "[]property.Property", |d, item| {
                    Property::decode(d, item, parent)
                })
            })
            .unwrap_or_default()
    }

    pub(crate) fn to_node(&self) -> Node<'_> {
        Node::Object(vec![
            ("type".into(), Node::str(&self.kind)),
            (
                "value".into(),
                match &self.encoded {
                    Some(Encoded::Ordered(node)) => node.clone(),
                    Some(Encoded::Raw(text)) => Node::Raw {
                        text: text.as_str().into(),
                        value: Box::new(self.value.as_ref().map_or(Node::Null, Node::from_json)),
                    },
                    None => self.value.as_ref().map_or(Node::Null, Node::from_json),
                },
            ),
        ])
    }

    /// The value as opm writes it, compact, and the property rebuilt from that text
    /// (a round trip that keeps every byte of the output).
    pub(crate) fn value_text(&self) -> String {
        let Node::Object(mut fields) = self.to_node() else {
            unreachable!("a property is an object");
        };
        let (_, value) = fields.pop().expect("a property has a value");
        let mut text = Vec::new();
        crate::output::json::write_compact(&value, &mut text);
        String::from_utf8(text).expect("JSON output is UTF-8")
    }

    pub(crate) fn from_value_text(kind: String, text: String) -> Option<Property> {
        let value = serde_json::from_str(&text).ok()?;
        Some(Property {
            kind,
            value: Some(value),
            encoded: Some(Encoded::Raw(text)),
        })
    }

    pub(crate) fn list_node(properties: &[Property]) -> Node<'_> {
        Node::Array(properties.iter().map(Property::to_node).collect())
    }
}
