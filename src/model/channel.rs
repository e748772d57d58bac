//! `olm.channel` blobs and their entries.

use serde_json::{Map, Value};

use super::go_decode::{GoDecoder, match_field};
use super::property::Property;
use super::text::Text;
use crate::codec::node::Node;

#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Channel {
    // No `schema` (always `olm.channel`), boxed strings and slices: catalogs of many
    // small channels hold one of these per blob.
    pub(crate) name: Text,
    pub(crate) package: Text,
    /// `None` when the blob had no (or a null) `entries` list: opm prints `null`.
    pub(crate) entries: Option<Box<[ChannelEntry]>>,
    pub(crate) properties: Box<[Property]>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct ChannelEntry {
    pub(crate) name: Text,
    pub(crate) replaces: Text,
    pub(crate) skips: Box<[Text]>,
    pub(crate) skip_range: Text,
}

/// The schema of every channel blob.
pub(crate) const SCHEMA: &str = "olm.channel";

impl Channel {
    pub(crate) fn decode(map: Map<String, Value>) -> Result<Channel, String> {
        let mut decoder = GoDecoder::rooted("Channel");
        let mut channel = Channel::default();
        for (key, value) in map {
            match match_field(
                &key,
                &["schema", "name", "package", "entries", "properties"],
            ) {
                Some("schema") => {
                    // Decoded for Go's errors; the value is always `olm.channel`.
                    decoder.field("schema", |d| d.string(value, "Channel"));
                }
                Some("name") => {
                    channel.name = decoder.field("name", |d| d.string(value, "Channel")).into();
                }
                Some("package") => {
                    channel.package = decoder
                        .field("package", |d| d.string(value, "Channel"))
                        .into();
                }
                Some("entries") => {
                    channel.entries = decoder
                        .field("entries", |d| {
                            d.slice(
                                value,
                                "Channel",
                                "[]declcfg.ChannelEntry",
                                ChannelEntry::decode,
                            )
                        })
                        .map(Vec::into_boxed_slice);
                }
                Some("properties") => {
                    channel.properties = Property::decode_list(&mut decoder, value, "Channel");
                }
                _ => {}
            }
        }
        decoder.finish().map(|()| channel)
    }

    pub(crate) fn to_node(&self) -> Node<'_> {
        let entries = self.entries.as_ref().map_or(Node::Null, |entries| {
            Node::Array(entries.iter().map(ChannelEntry::to_node).collect())
        });
        let mut fields = vec![
            ("schema".into(), Node::str(SCHEMA)),
            ("name".into(), Node::str(&self.name)),
            ("package".into(), Node::str(&self.package)),
            ("entries".into(), entries),
        ];
        if !self.properties.is_empty() {
            fields.push(("properties".into(), Property::list_node(&self.properties)));
        }
        Node::Object(fields)
    }
}

impl ChannelEntry {
    fn decode(decoder: &mut GoDecoder, value: Value) -> ChannelEntry {
        let mut entry = ChannelEntry::default();
        let Some(map) = decoder.object(value, "Channel", "declcfg.ChannelEntry") else {
            return entry;
        };
        for (key, value) in map {
            match match_field(&key, &["name", "replaces", "skips", "skipRange"]) {
                Some("name") => {
                    entry.name = decoder
                        .field("name", |d| d.string(value, "ChannelEntry"))
                        .into();
                }
                Some("replaces") => {
                    entry.replaces = decoder
                        .field("replaces", |d| d.string(value, "ChannelEntry"))
                        .into();
                }
                Some("skips") => {
                    entry.skips = decoder
                        .field("skips", |d| {
                            d.slice(value, "ChannelEntry", "[]string", |d, item| {
                                Text::from(d.string(item, "ChannelEntry"))
                            })
                        })
                        .unwrap_or_default()
                        .into_boxed_slice();
                }
                Some("skipRange") => {
                    entry.skip_range = decoder
                        .field("skipRange", |d| d.string(value, "ChannelEntry"))
                        .into();
                }
                _ => {}
            }
        }
        entry
    }

    fn to_node(&self) -> Node<'_> {
        let mut fields = vec![("name".into(), Node::str(&self.name))];
        if !self.replaces.is_empty() {
            fields.push(("replaces".into(), Node::str(&self.replaces)));
        }
        if !self.skips.is_empty() {
            fields.push((
                "skips".into(),
                Node::Array(self.skips.iter().map(|s| Node::str(s)).collect()),
            ));
        }
        if !self.skip_range.is_empty() {
            fields.push(("skipRange".into(), Node::str(&self.skip_range)));
        }
        Node::Object(fields)
    }
}
