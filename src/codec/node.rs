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
    /// An array whose items are made one at a time as a writer comes to them: a
    /// report of many findings never holds every finding's tree at once.
    Items(Items<'a>),
    /// A string handed over in pieces (the JSON writers write it as it comes; the
    /// YAML writer, whose style depends on the whole, joins it).
    Chunks(Chunks<'a>),
}

/// A text read in pieces of whole characters.
pub(crate) trait TextSource: Sync {
    fn chunks(&self, visit: &mut dyn FnMut(&str));
}

/// The text of a [`Node::Chunks`].
#[derive(Clone, Copy)]
pub(crate) struct Chunks<'a>(pub(crate) &'a dyn TextSource);

impl Chunks<'_> {
    pub(crate) fn for_each(&self, visit: &mut dyn FnMut(&str)) {
        self.0.chunks(visit);
    }

    /// The pieces joined.
    pub(crate) fn text(&self) -> String {
        let mut text = String::new();
        self.for_each(&mut |chunk| text.push_str(chunk));
        text
    }
}

impl std::fmt::Debug for Chunks<'_> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(formatter, "Chunks({:?})", self.text())
    }
}

impl PartialEq for Chunks<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.text() == other.text()
    }
}

/// The items of a [`Node::Items`]: how many there are, and a function that hands
/// each to a visitor in order (the visitor takes nodes of any lifetime, so an item
/// may borrow what the function builds for it).
#[derive(Clone, Copy)]
pub(crate) struct Items<'a> {
    len: usize,
    each: &'a Each<'a>,
}

/// Hands every item to the visitor, in order.
pub(crate) type Each<'a> = dyn Fn(&mut dyn for<'n> FnMut(&Node<'n>)) + Sync + 'a;

impl<'a> Items<'a> {
    /// `each` must hand `len` items to its visitor.
    pub(crate) fn new(len: usize, each: &'a Each<'a>) -> Self {
        Items { len, each }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub(crate) fn for_each(&self, visit: &mut dyn for<'n> FnMut(&Node<'n>)) {
        (self.each)(visit);
    }

    /// Each item's `Debug` form, which shows every difference (for tests).
    fn shown(&self) -> Vec<String> {
        let mut shown = Vec::with_capacity(self.len);
        self.for_each(&mut |item| shown.push(format!("{item:?}")));
        shown
    }
}

impl std::fmt::Debug for Items<'_> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(formatter, "Items[{}]", self.shown().join(", "))
    }
}

impl PartialEq for Items<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.shown() == other.shown()
    }
}

/// The value of a [`Node::Raw`]'s text, decoded as the catalog loader decodes JSON
/// (numbers as `f64`); the text is valid JSON, so `null` is never a stand-in.
pub(crate) fn decode_raw(text: &str) -> serde_json::Value {
    crate::codec::json_read::parse_json(text).unwrap_or(serde_json::Value::Null)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Objects with long, multi-line and empty values, as report findings have.
    fn item(index: usize) -> Node<'static> {
        Node::Object(vec![
            ("rule".into(), Node::str("package-without-channels")),
            (
                "message".into(),
                Node::String(format!("{index} {}", "word ".repeat(30)).into()),
            ),
            ("help".into(), Node::str("line one\nline two")),
            ("locations".into(), Node::Array(Vec::new())),
            (
                "nested".into(),
                Node::Array(vec![Node::Number(1.5), Node::Null, Node::Bool(true)]),
            ),
        ])
    }

    /// Items made one at a time are written as the same array held whole, in
    /// every writer, alone and nested.
    #[test]
    fn items_are_written_as_the_array() {
        for count in [0, 1, 3] {
            let whole = Node::Array((0..count).map(item).collect());
            let each = |visit: &mut dyn for<'n> FnMut(&Node<'n>)| {
                (0..count).for_each(|index| visit(&item(index)));
            };
            let made = Node::Items(Items::new(count, &each));
            for (made, whole) in [
                (made.clone(), whole.clone()),
                (
                    Node::Object(vec![("findings".into(), made)]),
                    Node::Object(vec![("findings".into(), whole)]),
                ),
            ] {
                let writers: [fn(&Node<'_>) -> Vec<u8>; 3] = [
                    |node| {
                        let mut out = Vec::new();
                        crate::codec::json_write::write_pretty(node, &mut out);
                        out
                    },
                    |node| {
                        let mut out = Vec::new();
                        crate::validate::report::json::write_node(node, &mut out);
                        out
                    },
                    |node| {
                        let mut out = Vec::new();
                        crate::output::yaml::write_value(node, &mut out).expect("writable");
                        out
                    },
                ];
                for write in writers {
                    assert_eq!(
                        String::from_utf8(write(&made)),
                        String::from_utf8(write(&whole))
                    );
                }
            }
        }
    }
}
