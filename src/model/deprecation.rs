//! `olm.deprecations` blobs.

use serde_json::{Map, Value};

use super::go_decode::{GoDecoder, match_field};
use crate::codec::node::Node;

#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Deprecation {
    pub(crate) schema: String,
    pub(crate) package: String,
    /// `None` for an absent or null list, which opm prints as `null`.
    pub(crate) entries: Option<Vec<DeprecationEntry>>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct DeprecationEntry {
    pub(crate) reference_schema: String,
    pub(crate) reference_name: String,
    pub(crate) message: String,
}

impl Deprecation {
    pub(crate) fn decode(map: Map<String, Value>) -> Result<Deprecation, String> {
        let mut decoder = GoDecoder::rooted("Deprecation");
        let mut deprecation = Deprecation::default();
        for (key, value) in map {
            match match_field(&key, &["schema", "package", "entries"]) {
                Some("schema") => {
                    deprecation.schema =
                        decoder.field("schema", |d| d.string(value, "Deprecation"));
                }
                Some("package") => {
                    deprecation.package =
                        decoder.field("package", |d| d.string(value, "Deprecation"));
                }
                Some("entries") => {
                    deprecation.entries = decoder.field("entries", |d| {
                        d.slice(
                            value,
                            "Deprecation",
                            "[]declcfg.DeprecationEntry",
                            DeprecationEntry::decode,
                        )
                    });
                }
                _ => {}
            }
        }
        decoder.finish().map(|()| deprecation)
    }

    pub(crate) fn to_node(&self) -> Node<'_> {
        let entries = self.entries.as_ref().map_or(Node::Null, |entries| {
            Node::Array(entries.iter().map(DeprecationEntry::to_node).collect())
        });
        Node::Object(vec![
            ("schema".into(), Node::str(&self.schema)),
            ("package".into(), Node::str(&self.package)),
            ("entries".into(), entries),
        ])
    }
}

impl DeprecationEntry {
    fn decode(decoder: &mut GoDecoder, value: Value) -> DeprecationEntry {
        let mut entry = DeprecationEntry::default();
        let Some(map) = decoder.object(value, "Deprecation", "declcfg.DeprecationEntry") else {
            return entry;
        };
        for (key, value) in map {
            match match_field(&key, &["reference", "message"]) {
                Some("reference") => decoder.field("reference", |d| {
                    let Some(reference) =
                        d.object(value, "DeprecationEntry", "declcfg.PackageScopedReference")
                    else {
                        return;
                    };
                    for (key, value) in reference {
                        match match_field(&key, &["schema", "name"]) {
                            Some("schema") => {
                                entry.reference_schema = d
                                    .field("schema", |d| d.string(value, "PackageScopedReference"));
                            }
                            Some("name") => {
                                entry.reference_name =
                                    d.field("name", |d| d.string(value, "PackageScopedReference"));
                            }
                            _ => {}
                        }
                    }
                }),
                Some("message") => {
                    entry.message =
                        decoder.field("message", |d| d.string(value, "DeprecationEntry"));
                }
                _ => {}
            }
        }
        entry
    }

    fn to_node(&self) -> Node<'_> {
        let mut reference = vec![("schema".into(), Node::str(&self.reference_schema))];
        if !self.reference_name.is_empty() {
            reference.push(("name".into(), Node::str(&self.reference_name)));
        }
        Node::Object(vec![
            ("reference".into(), Node::Object(reference)),
            ("message".into(), Node::str(&self.message)),
        ])
    }
}
