//! A borrowed document tree that both writers consume. Typed blobs build one in their
//! opm field order; opaque blobs borrow their loaded JSON. Nothing large is copied.

use std::borrow::Cow;

/// One JSON value as opm would encode it. Numbers are `f64` because opm passes every
/// catalog number through Go's `float64`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node<'a> {
    Null,
    Bool(bool),
    Number(f64),
    String(Cow<'a, str>),
    Array(Vec<Node<'a>>),
    /// Fields in output order (the JSON writer keeps it; the YAML writer sorts).
    Object(Vec<(Cow<'a, str>, Node<'a>)>),
    /// A Go `json.RawMessage`, or a loaded value kept as text: JSON that the JSON
    /// writer copies as it stands (only whitespace changes), with its escapes, key
    /// order and number spelling; the YAML writer, which re-reads opm's JSON
    /// anyway, decodes it where it comes to it.
    Raw(Cow<'a, str>),
}

/// The value of a [`Node::Raw`]'s text, decoded as the catalog loader decodes JSON
/// (numbers as `f64`); the text is valid JSON, so `null` is never a stand-in.
pub(crate) fn decode_raw(text: &str) -> serde_json::Value {
    crate::catalog::parse_json(text).unwrap_or(serde_json::Value::Null)
}

impl<'a> Node<'a> {
    /// Borrows a loaded JSON value. Loaded numbers are already `f64`; any other
    /// number is converted the way Go's decoder would.
    pub(crate) fn from_json(value: &'a serde_json::Value) -> Self {
        match value {
            serde_json::Value::Null => Node::Null,
            serde_json::Value::Bool(b) => Node::Bool(*b),
            serde_json::Value::Number(n) => Node::Number(n.as_f64().unwrap_or(f64::NAN)),
            serde_json::Value::String(s) => Node::String(Cow::Borrowed(s)),
            serde_json::Value::Array(items) => {
                Node::Array(items.iter().map(Node::from_json).collect())
            }
            serde_json::Value::Object(map) => Node::from_map(map),
        }
    }

    /// Borrows a loaded JSON object (keys in their sorted order).
    pub(crate) fn from_map(map: &'a serde_json::Map<String, serde_json::Value>) -> Self {
        Node::Object(
            map.iter()
                .map(|(key, value)| (Cow::Borrowed(key.as_str()), Node::from_json(value)))
                .collect(),
        )
    }

    pub(crate) fn str(text: &'a str) -> Self {
        Node::String(Cow::Borrowed(text))
    }
}
