//! `olm.package` blobs.

use serde_json::{Map, Value};

use super::go_decode::{GoDecoder, match_field};
use super::property::Property;
use super::text::Text;
use crate::codec::node::Node;
use crate::go::base64;

#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Package {
    // No `schema`: a blob is a `Package` only when it is `olm.package`, and
    // catalogs of many tiny packages would pay for the copy in every blob.
    pub(crate) name: Text,
    pub(crate) default_channel: Text,
    /// `None` when the blob has none of them: a package blob can be a few bytes.
    pub(crate) details: Option<Box<Details>>,
}

/// What a package blob holds beyond its names.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Details {
    pub(crate) icon: Option<Icon>,
    pub(crate) description: Text,
    pub(crate) properties: Box<[Property]>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Icon {
    /// Decoded bytes; `None` when `base64data` was absent or null (Go's nil slice).
    pub(crate) data: Option<Vec<u8>>,
    pub(crate) media_type: String,
}

/// The schema of every package blob.
pub(crate) const SCHEMA: &str = "olm.package";

impl Package {
    pub(crate) fn decode(map: Map<String, Value>) -> Result<Package, String> {
        let mut decoder = GoDecoder::rooted("Package");
        let mut package = Package::default();
        let mut details = Details::default();
        let fields = [
            "schema",
            "name",
            "defaultChannel",
            "icon",
            "description",
            "properties",
        ];
        for (key, value) in map {
            match match_field(&key, &fields) {
                Some("schema") => {
                    // Decoded for Go's errors; the value is always `olm.package`.
                    decoder.field("schema", |d| d.string(value, "Package"));
                }
                Some("name") => {
                    package.name = decoder.field("name", |d| d.string(value, "Package")).into();
                }
                Some("defaultChannel") => {
                    package.default_channel = decoder
                        .field("defaultChannel", |d| d.string(value, "Package"))
                        .into();
                }
                Some("icon") => {
                    details.icon = decoder.field("icon", |d| Icon::decode(d, value));
                }
                Some("description") => {
                    details.description = decoder
                        .field("description", |d| d.string(value, "Package"))
                        .into();
                }
                Some("properties") => {
                    details.properties = Property::decode_list(&mut decoder, value, "Package");
                }
                _ => {}
            }
        }
        decoder.finish()?;
        package.set_details(details);
        Ok(package)
    }

    pub(crate) fn icon(&self) -> Option<&Icon> {
        self.details.as_ref()?.icon.as_ref()
    }

    pub(crate) fn description(&self) -> &str {
        self.details
            .as_ref()
            .map_or("", |details| &details.description)
    }

    pub(crate) fn properties(&self) -> &[Property] {
        self.details
            .as_ref()
            .map_or(&[], |details| &details.properties)
    }

    /// Replaces the details (kept only when there are some).
    pub(crate) fn set_details(&mut self, details: Details) {
        self.details = (details != Details::default()).then(|| Box::new(details));
    }

    pub(crate) fn to_node(&self) -> Node<'_> {
        let mut fields = vec![
            ("schema".into(), Node::str(SCHEMA)),
            ("name".into(), Node::str(&self.name)),
            ("defaultChannel".into(), Node::str(&self.default_channel)),
        ];
        if let Some(icon) = self.icon() {
            let data = icon.data.as_ref().map_or(Node::Null, |bytes| {
                Node::String(base64::encode(bytes).into())
            });
            fields.push((
                "icon".into(),
                Node::Object(vec![
                    ("base64data".into(), data),
                    ("mediatype".into(), Node::str(&icon.media_type)),
                ]),
            ));
        }
        if !self.description().is_empty() {
            fields.push(("description".into(), Node::str(self.description())));
        }
        if !self.properties().is_empty() {
            fields.push(("properties".into(), Property::list_node(self.properties())));
        }
        Node::Object(fields)
    }
}

impl Icon {
    pub(crate) fn decode(decoder: &mut GoDecoder, value: Value) -> Option<Icon> {
        if value.is_null() {
            return None;
        }
        let map = decoder.object(value, "Package", "declcfg.Icon")?;
        let mut icon = Icon::default();
        for (key, value) in map {
            match match_field(&key, &["base64data", "mediatype"]) {
                Some("base64data") => {
                    icon.data = decoder.field("base64data", |d| decode_bytes(d, value));
                }
                Some("mediatype") => {
                    icon.media_type = decoder.field("mediatype", |d| d.string(value, "Icon"));
                }
                _ => {}
            }
        }
        Some(icon)
    }
}

/// A Go `[]byte` field: a base64 string, decoded with Go's rules.
fn decode_bytes(decoder: &mut GoDecoder, value: Value) -> Option<Vec<u8>> {
    match value {
        Value::String(text) => match base64::decode(text.as_bytes()) {
            Ok(bytes) => Some(bytes),
            Err(error) => {
                decoder.invalid_base64("Icon", &error);
                None
            }
        },
        Value::Null => None,
        other => {
            decoder.mismatch(&other, "Icon", "[]uint8");
            None
        }
    }
}
