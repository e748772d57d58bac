//! Properties: `{"type": ..., "value": <any JSON>}` with the value kept as text.

pub(crate) mod spill;

use std::borrow::Cow;
use std::sync::OnceLock;

use serde_json::Value;

use super::go_decode::{GoDecoder, match_field};
use super::text::Text;
use crate::codec::json_write::{write_compact, write_compact_value};
use crate::codec::node::Node;
use crate::codec::sink::exact_text;

pub(crate) const BUNDLE_OBJECT: &str = "olm.bundle.object";
pub(crate) const CSV_METADATA: &str = "olm.csv.metadata";

#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Property {
    pub(crate) kind: Text,
    stored: Stored,
}

/// A property value as text, decoded only where it is read: a catalog's values are
/// mostly written back out as they are, and decoded trees of small maps would cost
/// many times their text.
#[derive(Debug, Clone, PartialEq, Default)]
enum Stored {
    /// The blob had no `value` key: opm keeps an empty raw message, which prints
    /// as `null` but fails to parse for every property type.
    #[default]
    Missing,
    /// A loaded value, compact as fbc's writer writes it (sorted keys, Go's
    /// escapes and numbers); decoded again with the catalog loader's rules.
    Loaded(Text),
    /// Raw JSON text (compact) that opm writes as it stands: the values of bundle
    /// directories' metadata files (HTML-escaped by Go's `json.Marshal`) and of the
    /// CSV's `olm.properties` annotation (the annotation's own text).
    Raw(Text),
    /// A value opm encodes from a Go struct, in field order (`olm.package` with a
    /// release, `olm.csv.metadata`).
    Ordered(Box<Node<'static>>),
    /// A large loaded value in the spill file (`fbc serve`); it equals only itself.
    Spilled(spill::Spilled),
    /// A loaded value that passed the caller's check as it was loaded (see
    /// [`check_at_load`]). Only commands that install the check before loading
    /// anything make these, so a `Loaded` value never meets its equal here.
    Sound(Text),
}

/// An `olm.bundle.object` value as the loader hands it to an inspector: decoded
/// (`None` without a value), or its compact text, which was never decoded.
pub(crate) enum Inspected<'v> {
    Value(Option<&'v Value>),
    Text(&'v str),
}

impl Stored {
    /// A loaded value's compact text: in the spill file when it is large and
    /// spilling is on, else kept, marked when it passed the check made at load.
    fn loaded(kind: &str, text: String) -> Stored {
        match spill::keep(kind, text) {
            Ok(spilled) => Stored::Spilled(spilled),
            Err(text) if LOAD_CHECK.get().is_some_and(|check| check(kind, &text)) => {
                Stored::Sound(text.into())
            }
            Err(text) => Stored::Loaded(text.into()),
        }
    }
}

/// Whether a loaded value (its compact text) of the property type named first is
/// sound: validation's check (the type's JSON Schema and Go type), handed over by
/// the caller; one-sided, `false` when unsure.
pub(crate) type LoadCheck = fn(&str, &str) -> bool;

static LOAD_CHECK: OnceLock<LoadCheck> = OnceLock::new();

/// Checks every property value loaded from now on, as its compact text is kept,
/// so that `fbc validate` never decodes a value only to find it sound (which was
/// a fifth of its time on a community catalog); a value that fails is decoded and
/// reported as before.
pub(crate) fn check_at_load(check: LoadCheck) {
    let _ = LOAD_CHECK.set(check);
}

impl Property {
    /// A property holding a decoded value (`None`: no `value` key).
    pub(crate) fn new(kind: impl Into<Text>, value: Option<&Value>) -> Property {
        let kind = kind.into();
        Property {
            stored: value.map_or(Stored::Missing, |value| {
                let text = String::from(exact_text(|out| write_compact_value(value, out)));
                Stored::loaded(&kind, text)
            }),
            kind,
        }
    }

    /// A property whose value opm writes as the raw JSON text it was given (valid
    /// JSON).
    pub(crate) fn raw(kind: String, text: String) -> Property {
        Property {
            kind: kind.into(),
            stored: Stored::Raw(text.into()),
        }
    }

    /// A property whose value opm encodes from a Go struct, in the node's order.
    pub(crate) fn ordered(kind: String, node: Node<'static>) -> Property {
        Property {
            kind: kind.into(),
            stored: Stored::Ordered(Box::new(node)),
        }
    }

    /// Whether the value passed the check made at load ([`check_at_load`];
    /// `false` when it was not checked then).
    pub(crate) fn passed_load_check(&self) -> bool {
        matches!(self.stored, Stored::Sound(_))
    }

    /// Whether the blob had a `value` key.
    pub(crate) fn has_value(&self) -> bool {
        !matches!(self.stored, Stored::Missing)
    }

    /// The value, decoded (`None` when there was no `value` key). Each call decodes
    /// the text again: read it once where it is needed.
    pub(crate) fn value(&self) -> Option<Value> {
        match &self.stored {
            Stored::Missing => None,
            Stored::Loaded(text) | Stored::Sound(text) => crate::codec::json_read::parse_json(text),
            Stored::Spilled(spilled) => crate::codec::json_read::parse_json(&spilled.read()?),
            Stored::Raw(text) => serde_json::from_str(text).ok(),
            Stored::Ordered(node) => serde_json::from_str(&compact_text(node)).ok(),
        }
    }

    /// A property whose value came as the compact text [`Property::new`] would
    /// keep.
    fn captured(kind: Text, text: String) -> Property {
        Property {
            stored: Stored::loaded(&kind, text),
            kind,
        }
    }

    /// Decodes one element of a `properties` list (a `property.Property`), whose
    /// value is its compact text when `captured`; `inspect` sees the value of an
    /// `olm.bundle.object`.
    fn decode(
        decoder: &mut GoDecoder,
        value: Value,
        parent: &str,
        captured: bool,
        inspect: &mut dyn FnMut(Inspected<'_>),
    ) -> Property {
        let Some(map) = decoder.object(value, parent, "property.Property") else {
            return Property::default();
        };
        let mut kind = String::new();
        let mut found = None;
        for (key, value) in map {
            match match_field(&key, &["type", "value"]) {
                Some("type") => kind = decoder.field("type", |d| d.string(value, "Property")),
                // Only a key spelled `value` holds a captured text.
                Some("value") => found = Some((value, captured && key == "value")),
                _ => {}
            }
        }
        let (found, text) = match found {
            // A captured marker is decoded to be recognised.
            Some((Value::String(text), true)) => {
                let marker = spill::may_be_marker(&text);
                let parsed = marker.then(|| crate::codec::json_read::parse_json(&text));
                (parsed.flatten(), Some(text))
            }
            Some((value, _)) => (Some(value), None),
            None => (None, None),
        };
        // A marker of the server's cache stands for a value that was checked
        // when the cache was written, and is not read at all.
        if let Some(spilled) = found.as_ref().and_then(spill::adopted) {
            return Property {
                kind: kind.into(),
                stored: Stored::Spilled(spilled),
            };
        }
        if kind == BUNDLE_OBJECT {
            inspect(match &text {
                Some(text) => Inspected::Text(text),
                None => Inspected::Value(found.as_ref()),
            });
        }
        match text {
            Some(text) => Property::captured(kind.into(), text),
            None => Property::new(kind, found.as_ref()),
        }
    }

    /// Decodes a `properties` field of a typed blob.
    pub(crate) fn decode_list(
        decoder: &mut GoDecoder,
        value: Value,
        parent: &str,
    ) -> Box<[Property]> {
        Property::decode_list_inspecting(decoder, value, parent, false, &mut |_, _| {})
    }

    /// [`Property::decode_list`], for a list whose values are their compact text
    /// when `captured`, with `inspect` seeing the value of each
    /// `olm.bundle.object` (with its index) that was not adopted from a server's
    /// cache.
    pub(crate) fn decode_list_inspecting(
        decoder: &mut GoDecoder,
        value: Value,
        parent: &str,
        captured: bool,
        inspect: &mut dyn FnMut(usize, Inspected<'_>),
    ) -> Box<[Property]> {
        let mut index = 0;
        decoder
            .field("properties", |d| {
                d.slice(value, parent, "[]property.Property", |d, item| {
                    let property = Property::decode(d, item, parent, captured, &mut |value| {
                        inspect(index, value);
                    });
                    index += 1;
                    property
                })
            })
            .unwrap_or_default()
            .into_boxed_slice()
    }

    pub(crate) fn to_node(&self) -> Node<'_> {
        Node::Object(vec![
            ("type".into(), Node::str(&self.kind)),
            ("value".into(), self.value_node()),
        ])
    }

    /// The value as it is written (`null` without a value).
    fn value_node(&self) -> Node<'_> {
        match &self.stored {
            Stored::Missing => Node::Null,
            Stored::Loaded(text) | Stored::Sound(text) | Stored::Raw(text) => {
                Node::Raw(text.as_ref().into())
            }
            // A value that cannot be read back is reported by `spill::failure`.
            Stored::Spilled(spilled) => spilled
                .read()
                .map_or(Node::Null, |text| Node::Raw(text.into())),
            Stored::Ordered(node) => (**node).clone(),
        }
    }

    /// About the length of the value's compact text, without writing it:
    /// [`Property::value_len`], but a Go struct's value is not written out to be
    /// measured.
    pub(crate) fn size_hint(&self) -> usize {
        match &self.stored {
            // A small Go struct (`olm.package`, `olm.csv.metadata`).
            Stored::Ordered(_) => 256,
            _ => self.value_len(),
        }
    }

    /// The length of the stored value's text (0 without a value).
    pub(crate) fn value_len(&self) -> usize {
        match &self.stored {
            Stored::Missing => 0,
            Stored::Loaded(text) | Stored::Sound(text) | Stored::Raw(text) => text.len(),
            Stored::Spilled(spilled) => spilled.len(),
            Stored::Ordered(node) => compact_text(node).len(),
        }
    }

    /// Whether the value certainly decodes into its type's Go struct: `check`
    /// reads the stored text; a spilled value has the verdict of the check made
    /// before it was spilled. `false` for a value not kept as text.
    pub(crate) fn fits(&self, check: impl FnOnce(&str) -> bool) -> bool {
        match &self.stored {
            Stored::Loaded(text) | Stored::Sound(text) | Stored::Raw(text) => check(text),
            Stored::Spilled(spilled) => spilled.fits(),
            Stored::Missing | Stored::Ordered(_) => false,
        }
    }

    /// The value's stored JSON text, when it is kept as text (`None` too for a
    /// spilled value that cannot be read back).
    pub(crate) fn stored_text(&self) -> Option<Cow<'_, str>> {
        match &self.stored {
            Stored::Loaded(text) | Stored::Sound(text) | Stored::Raw(text) => {
                Some(Cow::Borrowed(text))
            }
            Stored::Spilled(spilled) => spilled.read().map(Cow::Owned),
            Stored::Missing | Stored::Ordered(_) => None,
        }
    }

    /// The value as opm writes it, compact (`Property::raw` takes it back and
    /// keeps every byte of the output).
    pub(crate) fn value_text(&self) -> String {
        compact_text(&self.value_node())
    }

    pub(crate) fn list_node(properties: &[Property]) -> Node<'_> {
        Node::Array(properties.iter().map(Property::to_node).collect())
    }
}

fn compact_text(node: &Node<'_>) -> String {
    exact_text(|out| write_compact(node, out)).into()
}
