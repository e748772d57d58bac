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
    /// The value as opm writes it, when that is not `value` with sorted keys: opm
    /// encodes the properties it builds (`olm.package` with a release,
    /// `olm.csv.metadata`) from Go structs, in field order.
    pub(crate) ordered: Option<Node<'static>>,
}

impl Property {
    /// Decodes one element of a `properties` list (a `property.Property`).
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
                match &self.ordered {
                    Some(node) => node.clone(),
                    None => self.value.as_ref().map_or(Node::Null, Node::from_json),
                },
            ),
        ])
    }

    pub(crate) fn list_node(properties: &[Property]) -> Node<'_> {
        Node::Array(properties.iter().map(Property::to_node).collect())
    }
}
