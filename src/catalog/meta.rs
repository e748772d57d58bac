//! A decoded document -> a typed blob, as opm's `Meta.UnmarshalJSON` and
//! `fbcBuilder.addMeta` do it, with their message texts.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use crate::codec::json_write::write_compact;
use crate::codec::node::Node;
use crate::codec::sink::exact_text;
use crate::go::fmt::{bool_verb, quote, value as go_value};
use crate::model::{Bundle, Channel, Deprecation, Package};

/// A blob whose schema fbc does not interpret, kept as loaded: its schema, package
/// and name, then the blob as compact JSON (as fbc's writer writes it), in one
/// string. A decoded tree of small maps would cost many times its text, and
/// catalogs can hold many small blobs of their own schemas.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Other {
    data: Box<str>,
    /// Where the schema, the package and the name end in `data` (32 bits: a blob
    /// of a catalog of small ones costs 48 bytes with its location, not 56).
    ends: [u32; 3],
}

impl Other {
    /// `None` when schema, package and name together take 4 GiB or more.
    pub(crate) fn new(
        schema: &str,
        package: &str,
        name: &str,
        blob: &Map<String, Value>,
    ) -> Option<Other> {
        let mut ends = [0; 3];
        let mut length = 0;
        for (end, part) in ends.iter_mut().zip([schema, package, name]) {
            length += part.len();
            *end = u32::try_from(length).ok()?;
        }
        let data = exact_text(|data| {
            for part in [schema, package, name] {
                data.extend_from_slice(part.as_bytes());
            }
            write_compact(&Node::from_map(blob), data);
        });
        Some(Other { data, ends })
    }

    fn part(&self, index: usize) -> &str {
        let start = index.checked_sub(1).map_or(0, |before| self.ends[before]);
        let end = self
            .ends
            .get(index)
            .map_or(self.data.len(), |&end| end as usize);
        &self.data[start as usize..end]
    }

    pub(crate) fn schema(&self) -> &str {
        self.part(0)
    }

    pub(crate) fn package(&self) -> &str {
        self.part(1)
    }

    pub(crate) fn name(&self) -> &str {
        self.part(2)
    }

    /// The blob as compact JSON.
    pub(crate) fn json(&self) -> &str {
        self.part(3)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Blob {
    Package(Package),
    Channel(Channel),
    Bundle(Bundle),
    Deprecation(Deprecation),
    Other(Other),
}

/// Where a document came from, which decides how opm words its errors.
pub(crate) enum Origin<'a> {
    /// JSON mode, with the raw text of the value.
    Json(&'a str),
    Yaml,
}

/// The schema, package and name fields read case-insensitively.
#[derive(Default)]
struct Keys {
    schema: String,
    package: String,
    name: String,
}

pub(crate) fn blob_from_document(
    value: Option<Value>,
    origin: &Origin<'_>,
) -> Result<Blob, String> {
    blob_from_captured(value, origin, false)
}

/// [`blob_from_document`] for a document whose property values may be their
/// compact text (`captured`, see `Document::captured`).
pub(crate) fn blob_from_captured(
    value: Option<Value>,
    origin: &Origin<'_>,
    captured: bool,
) -> Result<Blob, String> {
    let Some(value) = value else {
        // An empty YAML document leaves opm's Meta empty.
        return Err("object '' is missing root schema field".to_owned());
    };
    let map = match value {
        Value::Object(map) => map,
        // A YAML null never reaches opm's `Meta` (the empty one fails); a JSON null
        // does, with its raw text.
        Value::Null if matches!(origin, Origin::Yaml) => {
            return Err("object '' is missing root schema field".to_owned());
        }
        Value::Null => return Err("object 'null\n' is missing root schema field".to_owned()),
        other => return Err(wrap(origin, &not_an_object(&other, origin))),
    };
    let keys = extract_keys(&map).map_err(|message| wrap(origin, &message))?;
    dispatch(&keys, map, captured)
}

/// The schema, package and name of a document that opm's decoder reads into a
/// `Meta`, or its message.
pub(crate) fn fields(value: &Value) -> Result<(String, String, String), String> {
    let Value::Object(map) = value else {
        return Err("not an object".to_owned());
    };
    let keys = extract_keys(map)?;
    Ok((keys.schema, keys.package, keys.name))
}

/// Whether opm's decoder itself fails on this YAML document (it is not a mapping, or
/// its `schema`, `package` and `name` keys are unusable), as opposed to the later
/// schema dispatch.
pub(crate) fn decoder_rejects(value: Option<&Value>) -> bool {
    match value {
        None | Some(Value::Null) => false,
        Some(Value::Object(map)) => extract_keys(map).is_err(),
        Some(_) => true,
    }
}

fn wrap(origin: &Origin<'_>, message: &str) -> String {
    match origin {
        Origin::Json(_) => message.to_owned(),
        Origin::Yaml => format!("error unmarshaling JSON: while decoding JSON: {message}"),
    }
}

pub(crate) fn compact(value: &Value) -> String {
    let mut out = Vec::new();
    write_compact(&Node::from_json(value), &mut out);
    String::from_utf8(out).expect("JSON output is UTF-8")
}

/// opm's pretty error for a document that is not an object: Go's message and the
/// offset, then the value with a `<==` marker at the offset. opm prints the value
/// re-indented; fbc shows its shape only (`[ <== … ]`, `"…" <==`), so that a token
/// file linked into a catalog is not echoed.
fn not_an_object(value: &Value, origin: &Origin<'_>) -> String {
    let (kind, shape) = match value {
        Value::Array(items) if items.is_empty() => ("array", "[ <== ]"),
        Value::Array(_) => ("array", "[ <== … ]"),
        Value::String(_) => ("string", "\"…\" <=="),
        Value::Number(_) => ("number", "… <=="),
        Value::Bool(true) => ("bool", "true <=="),
        _ => ("bool", "false <=="),
    };
    // Go reports arrays just after their `[`, literals just after their end.
    let offset = match (value, origin) {
        (Value::Array(_), _) => 1,
        (_, Origin::Json(raw)) => raw.len(),
        (_, Origin::Yaml) => compact(value).len(),
    };
    format!(
        "json: cannot unmarshal {kind} into Go value of type map[string]interface {{}} \
         at offset {offset} (indicated by <==)\n{shape}"
    )
}

/// opm's message for an object without a schema quotes the whole object; fbc names
/// its top-level keys only (`object '{"auths":…}\n' is missing root schema field`),
/// so that a credentials file linked into a catalog is not echoed.
fn missing_schema(map: &Map<String, Value>) -> String {
    let mut keys: Vec<&String> = map.keys().collect();
    keys.sort_unstable();
    let mut shown = String::from("{");
    for (index, key) in keys.iter().enumerate() {
        if index > 0 {
            shown.push(',');
        }
        shown.push_str(&compact(&Value::String((*key).clone())));
        shown.push_str(":…");
    }
    shown.push_str("}\n");
    format!("object '{}' is missing root schema field", quoted(shown))
}

/// Most characters of a document quoted in a message: a broken file of hundreds of
/// megabytes, or a credentials file linked into a catalog, is not echoed whole.
const QUOTED_CHARACTERS: usize = 200;

/// `text`, or its first [`QUOTED_CHARACTERS`] characters, an ellipsis and its size.
pub(crate) fn quoted(text: String) -> String {
    match text.char_indices().nth(QUOTED_CHARACTERS) {
        None => text,
        Some((cut, _)) => format!("{}… ({} bytes in all)", &text[..cut], text.len()),
    }
}

fn fold(key: &str) -> String {
    if key.is_ascii() {
        key.to_ascii_lowercase()
    } else {
        caseless::default_case_fold_str(key)
    }
}

/// opm's `extractUniqueMetaKeys`: top-level keys that fold to the same text are an
/// error; `schema`, `package` and `name` in any case must be strings.
fn extract_keys(map: &Map<String, Value>) -> Result<Keys, String> {
    let mut groups: BTreeMap<String, BTreeSet<&str>> = BTreeMap::new();
    for key in map.keys() {
        groups.entry(fold(key)).or_default().insert(key);
    }
    let duplicates: Vec<String> = groups
        .iter()
        .filter(|(_, keys)| keys.len() > 1)
        .map(|(folded, keys)| {
            let keys: Vec<&str> = keys.iter().copied().collect();
            format!(
                "duplicate keys for key {}: [{}]",
                quote(folded),
                keys.join(" ")
            )
        })
        .collect();
    match duplicates.len() {
        0 => {}
        1 => return Err(duplicates.into_iter().next().expect("one message")),
        _ => return Err(format!("[{}]", duplicates.join(", "))),
    }
    let mut keys = Keys::default();
    for (field, slot) in [
        ("schema", &mut keys.schema),
        ("package", &mut keys.package),
        ("name", &mut keys.name),
    ] {
        let Some(original) = groups.get(field).and_then(|group| group.first()) else {
            continue;
        };
        match &map[*original] {
            Value::String(text) => slot.clone_from(text),
            other => {
                return Err(format!(
                    "expected value for key {} to be a string, got {}: {}",
                    quote(original),
                    bool_verb(other),
                    go_value(other)
                ));
            }
        }
    }
    Ok(keys)
}

fn dispatch(keys: &Keys, mut map: Map<String, Value>, captured: bool) -> Result<Blob, String> {
    if captured && keys.schema != "olm.bundle" {
        decode_captured(&mut map);
    }
    match keys.schema.as_str() {
        "olm.package" => Package::decode(map)
            .map(Blob::Package)
            .map_err(|e| format!("parse package: {e}")),
        "olm.channel" => Channel::decode(map)
            .map(Blob::Channel)
            .map_err(|e| format!("parse channel: {e}")),
        "olm.bundle" => Bundle::decode_checked(map, captured)
            .map(Blob::Bundle)
            .map_err(|e| e.to_string()),
        "olm.deprecations" => Deprecation::decode(map)
            .map(Blob::Deprecation)
            .map_err(|e| format!("parse deprecation: {e}")),
        "" => Err(missing_schema(&map)),
        _ => Other::new(&keys.schema, &keys.package, &keys.name, &map)
            .map(Blob::Other)
            .ok_or_else(|| {
                "the schema, package and name of this blob take 4 GiB or more, which fbc \
                 does not load"
                    .to_owned()
            }),
    }
}

/// Decodes the property values of a blob that were captured as text, for the
/// schemas that do not take them as text: the value as the reader would have given
/// it.
fn decode_captured(map: &mut Map<String, Value>) {
    let Some(Value::Array(items)) = map.get_mut("properties") else {
        return;
    };
    for item in items {
        if let Value::Object(item) = item
            && let Some(value) = item.get_mut("value")
            && let Value::String(text) = value
            && let Some(decoded) = crate::codec::json_read::parse_json(text)
        {
            *value = decoded;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn load(value: Value) -> Result<Blob, String> {
        blob_from_document(Some(value), &Origin::Yaml)
    }

    #[test]
    fn keys_are_case_insensitive() {
        let blob = load(json!({"Schema": "olm.package", "NAME": "foo"})).expect("valid");
        assert!(matches!(blob, Blob::Package(ref p) if &*p.name == "foo"));
        let blob = load(json!({"ſchema": "custom", "pacKage": "p"})).expect("valid");
        assert!(matches!(blob, Blob::Other(ref o) if o.schema() == "custom" && o.package() == "p"));
    }

    #[test]
    fn key_errors_read_like_opm() {
        assert_eq!(
            load(json!({"schema": "a", "Schema": "b"})),
            Err("error unmarshaling JSON: while decoding JSON: duplicate keys for key \"schema\": [Schema schema]".to_owned())
        );
        assert_eq!(
            blob_from_document(
                Some(json!({"schema": 5.0})),
                &Origin::Json("{\"schema\":5}")
            ),
            Err(
                "expected value for key \"schema\" to be a string, got %!t(float64=5): 5"
                    .to_owned()
            )
        );
    }

    #[test]
    fn objects_without_schema_show_their_keys_only() {
        let secret = json!({"auths": {"quay.io": {"auth": "c2VjcmV0"}}, "<k>": 1});
        assert_eq!(
            load(secret),
            Err("object '{\"<k>\":…,\"auths\":…}\n' is missing root schema field".to_owned())
        );
        let many: Map<String, Value> = (0..100).map(|i| (format!("key{i:03}"), json!(i))).collect();
        let message = load(Value::Object(many))
            .map(|_| ())
            .expect_err("no schema");
        assert!(message.contains("bytes in all)' is missing"), "{message}");
        assert_eq!(
            blob_from_document(None, &Origin::Yaml),
            Err("object '' is missing root schema field".to_owned())
        );
    }

    #[test]
    fn non_objects_show_their_shape_only() {
        assert_eq!(
            blob_from_document(Some(json!([])), &Origin::Json("[]")),
            Err("json: cannot unmarshal array into Go value of type map[string]interface {} at offset 1 (indicated by <==)\n[ <== ]".to_owned())
        );
        assert_eq!(
            blob_from_document(Some(json!(["ghp_token"])), &Origin::Yaml),
            Err("error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go value of type map[string]interface {} at offset 1 (indicated by <==)\n[ <== … ]".to_owned())
        );
        assert_eq!(
            blob_from_document(Some(json!("ghp_token")), &Origin::Json("\"ghp_token\"")),
            Err("json: cannot unmarshal string into Go value of type map[string]interface {} at offset 11 (indicated by <==)\n\"…\" <==".to_owned())
        );
    }

    #[test]
    fn typed_decode_errors_are_prefixed() {
        assert_eq!(
            load(json!({"schema": "olm.bundle", "relatedImages": {}})),
            Err("parse bundle: json: cannot unmarshal object into Go struct field Bundle.relatedImages of type []declcfg.RelatedImage".to_owned())
        );
        assert_eq!(
            load(json!({"schema": "olm.package", "icon": {"base64data": "!!"}})),
            Err("parse package: json: cannot unmarshal string into Go struct field Package.icon.base64data of type []uint8: illegal base64 data at input byte 0".to_owned())
        );
        assert_eq!(
            load(json!({"schema": "olm.bundle", "name": "b", "package": "p", "properties": [{"type": "olm.bundle.object", "value": {"data": "@@@@"}}]})),
            Err("read bundle objects: package \"p\", bundle \"b\": parse property at index 0 as bundle object: json: cannot unmarshal string into Go struct field BundleObject.data of type []uint8: illegal base64 data at input byte 0".to_owned())
        );
    }
}
