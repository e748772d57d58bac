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
    /// A Go `json.RawMessage`: JSON text that opm copies into its output as it
    /// stands (only whitespace changes), with its escapes, key order and number
    /// spelling. The JSON writer writes `text`; the YAML writer, which re-reads
    /// opm's JSON anyway, writes `value` (the same JSON, decoded).
    Raw {
        text: Cow<'a, str>,
        value: Box<Node<'a>>,
    },
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

    /// An owned copy of a JSON value.
    pub(crate) fn owned(value: &serde_json::Value) -> Node<'static> {
        match value {
            serde_json::Value::Null => Node::Null,
            serde_json::Value::Bool(b) => Node::Bool(*b),
            serde_json::Value::Number(n) => Node::Number(n.as_f64().unwrap_or(f64::NAN)),
            serde_json::Value::String(s) => Node::String(Cow::Owned(s.clone())),
            serde_json::Value::Array(items) => Node::Array(items.iter().map(Node::owned).collect()),
            serde_json::Value::Object(map) => Node::Object(
                map.iter()
                    .map(|(key, item)| (Cow::Owned(key.clone()), Node::owned(item)))
                    .collect(),
            ),
        }
    }

    pub(crate) fn str(text: &'a str) -> Self {
        Node::String(Cow::Borrowed(text))
    }
}
