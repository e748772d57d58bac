//! Reading a template's first document into the Go structs opm decodes it into,
//! with `encoding/json`'s rules and message texts (spec §10.1, §10.3-§10.5).

use serde_json::{Map, Value};

use super::TemplateError;
use crate::catalog::FirstDocument;
use crate::model::go_decode::{GoDecoder, match_field};

/// Go's text for a decoder that met the end of its input.
const EOF: &str = "EOF";
/// Go's text for `json.Unmarshal` of no bytes at all.
const NO_JSON: &str = "unexpected end of JSON input";

/// The first document as opm's `YAMLOrJSONDecoder` + `json.Unmarshal` sees it: the
/// value, or the decoder's error (`decode_prefix`) or the unmarshaller's
/// (`unmarshal_prefix`).
fn first_value(
    text: &str,
    decode_prefix: &str,
    unmarshal_prefix: &str,
) -> Result<Value, TemplateError> {
    match crate::catalog::first_document(text) {
        FirstDocument::Value(value) => Ok(value),
        FirstDocument::Empty => Err(TemplateError::new(format!("{unmarshal_prefix}{NO_JSON}"))),
        FirstDocument::Eof => Err(TemplateError::new(format!("{decode_prefix}{EOF}"))),
        FirstDocument::Error { message, position } => Err(TemplateError {
            message: format!("{decode_prefix}{message}"),
            at: Some(position),
        }),
    }
}

/// The `schema` of the first document (`alpha/template/schema.go`).
pub(super) fn detect_schema(text: &str) -> Result<String, TemplateError> {
    let value = first_value(
        text,
        "decoding template input: ",
        "unmarshalling template schema: ",
    )?;
    let mut decoder = GoDecoder::default();
    let mut schema = String::new();
    let type_name = r#"struct { Schema string "json:\"schema\"" }"#;
    if let Some(map) = top_level(&mut decoder, value, type_name) {
        for (key, value) in map {
            if match_field(&key, &["schema"]).is_some() {
                schema = decoder.field("schema", |d| d.string(value, ""));
            }
        }
    }
    decoder
        .finish()
        .map_err(|error| TemplateError::new(format!("unmarshalling template schema: {error}")))?;
    if schema.is_empty() {
        return Err(TemplateError::new(
            "template input missing required 'schema' field",
        ));
    }
    Ok(schema)
}

/// A document that must be a Go struct: its fields, or `None` after recording Go's
/// error for a value of another kind (`null` is the zero struct).
fn top_level(decoder: &mut GoDecoder, value: Value, type_name: &str) -> Option<Map<String, Value>> {
    match value {
        Value::Object(map) => Some(map),
        Value::Null => Some(Map::new()),
        other => {
            decoder.mismatch(&other, "", type_name);
            None
        }
    }
}

/// The shared shape of the basic and substitutes templates: `schema`, `entries`
/// (each a `*declcfg.Meta`: `None` is Go's nil pointer) and, for substitutes, the
/// substitutions.
pub(super) struct EntriesTemplate {
    pub(super) schema: String,
    pub(super) entries: Vec<Option<Value>>,
    pub(super) substitutions: Vec<Substitution>,
}

#[derive(Debug, Clone, Default)]
pub(super) struct Substitution {
    pub(super) name: String,
    pub(super) base: String,
}

/// Which entries template: the Go struct's name and package, and whether it has
/// `substitutions`.
pub(super) struct Shape {
    pub(super) go_struct: &'static str,
    pub(super) go_package: &'static str,
    pub(super) substitutions: bool,
}

/// `parseSpec` of the basic and substitutes templates: errors read as opm's,
/// without the caller's prefix.
pub(super) fn entries_template(
    text: &str,
    shape: &Shape,
) -> Result<EntriesTemplate, TemplateError> {
    let value = first_value(
        text,
        "decoding template schema: ",
        "unmarshalling template: ",
    )?;
    let mut template = EntriesTemplate {
        schema: String::new(),
        entries: Vec::new(),
        substitutions: Vec::new(),
    };
    let mut decoder = GoDecoder::default();
    let qualified = format!("{}.{}", shape.go_package, shape.go_struct);
    let mut fields = vec!["schema", "entries"];
    if shape.substitutions {
        fields.push("substitutions");
    }
    let map = top_level(&mut decoder, value, &qualified).unwrap_or_default();
    // A `Meta` that cannot be read stops Go's decoder at once, before type errors
    // it had saved are reported.
    for (key, value) in &map {
        if match_field(key, &fields) == Some("entries")
            && let Value::Array(items) = value
            && let Some(error) = items.iter().find_map(meta_error)
        {
            return Err(TemplateError::new(format!(
                "unmarshalling template: {error}"
            )));
        }
    }
    for (key, value) in map {
        match match_field(&key, &fields) {
            Some("schema") => {
                template.schema = decoder.field("schema", |d| d.string(value, shape.go_struct));
            }
            Some("entries") => {
                template.entries = decoder
                    .field("entries", |d| {
                        d.slice(value, shape.go_struct, "[]*declcfg.Meta", |_, item| {
                            (!item.is_null()).then_some(item)
                        })
                    })
                    .unwrap_or_default();
            }
            Some("substitutions") => {
                template.substitutions = decoder
                    .field("substitutions", |d| {
                        d.slice(
                            value,
                            shape.go_struct,
                            "[]substitutes.Substitute",
                            substitution,
                        )
                    })
                    .unwrap_or_default();
            }
            _ => {}
        }
    }
    decoder
        .finish()
        .map_err(|error| TemplateError::new(format!("unmarshalling template: {error}")))?;
    Ok(template)
}

/// The error of `Meta.UnmarshalJSON` for one entry, if it fails.
fn meta_error(entry: &Value) -> Option<String> {
    if entry.is_null() || !crate::catalog::meta_decoder_rejects(entry) {
        return None;
    }
    let mut probe = crate::catalog::Catalog::default();
    let location = crate::catalog::Location::start_of("");
    probe.push_value(entry.clone(), location).err()
}

fn substitution(decoder: &mut GoDecoder, value: Value) -> Substitution {
    let mut substitution = Substitution::default();
    let Some(map) = decoder.object(value, "Substitute", "substitutes.Substitute") else {
        return substitution;
    };
    for (key, value) in map {
        match match_field(&key, &["name", "base"]) {
            Some("name") => {
                substitution.name = decoder.field("name", |d| d.string(value, "Substitute"));
            }
            Some("base") => {
                substitution.base = decoder.field("base", |d| d.string(value, "Substitute"));
            }
            _ => {}
        }
    }
    substitution
}

/// The semver template (`SemverTemplateData`), read as `yaml.UnmarshalStrict` reads
/// it: unknown fields are errors.
#[derive(Debug, Default)]
pub(super) struct SemverTemplate {
    pub(super) schema: String,
    pub(super) generate_major: bool,
    pub(super) generate_minor: bool,
    pub(super) preference: String,
    /// Image references per archetype: candidate, fast, stable.
    pub(super) archetypes: [Vec<String>; 3],
}

pub(super) fn semver_template(text: &str) -> Result<SemverTemplate, TemplateError> {
    if let Some((line, key)) = duplicate_key(text) {
        return Err(TemplateError::new(format!(
            "error converting YAML to JSON: yaml: unmarshal errors:\n  line {line}: key {} already set in map",
            crate::go::fmt::quote(&key)
        )));
    }
    let value = match crate::catalog::first_document(text) {
        FirstDocument::Value(value) => value,
        FirstDocument::Empty | FirstDocument::Eof => Value::Null,
        FirstDocument::Error { message, position } => {
            return Err(TemplateError {
                message: format!("error converting YAML to JSON: {}", yaml_message(&message)),
                at: Some(position),
            });
        }
    };
    let mut decoder = GoDecoder::default();
    let mut template = SemverTemplate::default();
    let fields = [
        "schema",
        "generateMajorChannels",
        "generateMinorChannels",
        "defaultChannelTypePreference",
        "candidate",
        "fast",
        "stable",
    ];
    let map = top_level(&mut decoder, value, "semver.SemverTemplateData").unwrap_or_default();
    for (key, value) in map {
        let Some(field) = match_field(&key, &fields) else {
            decoder.fail(format!(
                "json: unknown field {}",
                crate::go::fmt::quote(&key)
            ));
            continue;
        };
        decoder.field(field, |d| match field {
            "schema" => template.schema = d.string(value, ""),
            "generateMajorChannels" => template.generate_major = boolean(d, value),
            "generateMinorChannels" => template.generate_minor = boolean(d, value),
            "defaultChannelTypePreference" => match value {
                Value::String(text) => template.preference = text,
                Value::Null => {}
                other => d.mismatch(&other, "", "semver.StreamType"),
            },
            archetype => {
                let index = match archetype {
                    "candidate" => 0,
                    "fast" => 1,
                    _ => 2,
                };
                template.archetypes[index] = channel_bundles(d, value);
            }
        });
    }
    decoder.finish().map_err(|error| {
        TemplateError::new(format!(
            "error unmarshaling JSON: while decoding JSON: {error}"
        ))
    })?;
    Ok(template)
}

/// The first key of the first document that a mapping repeats, with its line, as
/// `yaml.UnmarshalStrict` refuses it (`key "x" already set in map`). Keys compare as
/// written; a document the scanner cannot read is left to the decoder.
fn duplicate_key(text: &str) -> Option<(usize, String)> {
    use saphyr_parser::{Event, Parser};
    /// Per open collection: the keys of a mapping (and whether a key comes next).
    enum Open {
        Mapping(std::collections::HashSet<String>, bool),
        Sequence,
    }
    let mut open: Vec<Open> = Vec::new();
    let mut documents = 0;
    // A value ends: the mapping around it expects a key again.
    let value_done = |open: &mut Vec<Open>| {
        if let Some(Open::Mapping(_, expecting_key)) = open.last_mut() {
            *expecting_key = true;
        }
    };
    for event in Parser::new_from_str(text) {
        let (event, span) = event.ok()?;
        match event {
            Event::DocumentStart(_) => {
                documents += 1;
                if documents > 1 {
                    return None;
                }
            }
            Event::MappingStart(..) | Event::SequenceStart(..) => {
                if let Some(Open::Mapping(_, expecting_key)) = open.last_mut() {
                    *expecting_key = false;
                }
                open.push(if matches!(event, Event::MappingStart(..)) {
                    Open::Mapping(std::collections::HashSet::new(), true)
                } else {
                    Open::Sequence
                });
            }
            Event::MappingEnd | Event::SequenceEnd => {
                open.pop();
                value_done(&mut open);
            }
            Event::Scalar(value, ..) => match open.last_mut() {
                Some(Open::Mapping(keys, expecting_key)) if *expecting_key => {
                    if !keys.insert(value.clone().into_owned()) {
                        return Some((span.start.line(), value.into_owned()));
                    }
                    *expecting_key = false;
                }
                _ => value_done(&mut open),
            },
            Event::Alias(_) => value_done(&mut open),
            Event::StreamEnd => return None,
            _ => {}
        }
    }
    None
}

/// A YAML error as sigs.k8s.io/yaml words it inside its conversion error.
fn yaml_message(message: &str) -> &str {
    message
        .strip_prefix("error converting YAML to JSON: ")
        .unwrap_or(message)
}

fn boolean(decoder: &mut GoDecoder, value: Value) -> bool {
    match value {
        Value::Bool(value) => value,
        Value::Null => false,
        other => {
            decoder.mismatch(&other, "", "bool");
            false
        }
    }
}

/// `channelBundles`: `{bundles: [{image}]}`, unknown fields refused.
fn channel_bundles(decoder: &mut GoDecoder, value: Value) -> Vec<String> {
    let Some(map) = decoder.object(value, "", "semver.channelBundles") else {
        return Vec::new();
    };
    let mut images = Vec::new();
    for (key, value) in map {
        if match_field(&key, &["bundles"]).is_none() {
            decoder.fail(format!(
                "json: unknown field {}",
                crate::go::fmt::quote(&key)
            ));
            continue;
        }
        images = decoder
            .field("bundles", |d| {
                d.slice(value, "", "[]semver.bundleEntry", |d, entry| {
                    let Some(map) = d.object(entry, "", "semver.bundleEntry") else {
                        return String::new();
                    };
                    let mut image = String::new();
                    for (key, value) in map {
                        if match_field(&key, &["image"]).is_some() {
                            image = d.field("image", |d| d.string(value, ""));
                        } else {
                            d.fail(format!(
                                "json: unknown field {}",
                                crate::go::fmt::quote(&key)
                            ));
                        }
                    }
                    image
                })
            })
            .unwrap_or_default();
    }
    images
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detection_reads_like_opm() {
        let detect = |text: &str| detect_schema(text).map_err(|error| error.message);
        assert_eq!(detect("schema: olm.semver\n"), Ok("olm.semver".to_owned()));
        assert_eq!(detect("---\nSCHEMA: x\n"), Ok("x".to_owned()));
        assert_eq!(detect(""), Err("decoding template input: EOF".to_owned()));
        assert_eq!(
            detect("# c\n---\nschema: x\n"),
            Err("unmarshalling template schema: unexpected end of JSON input".to_owned())
        );
        assert_eq!(
            detect("schema: 1\n"),
            Err("unmarshalling template schema: json: cannot unmarshal number into Go struct field .schema of type string".to_owned())
        );
        assert_eq!(
            detect("- a\n"),
            Err(r#"unmarshalling template schema: json: cannot unmarshal array into Go value of type struct { Schema string "json:\"schema\"" }"#.to_owned())
        );
        for text in ["a: b\n", "schema: null\n", "schema: \"\"\n"] {
            assert_eq!(
                detect(text),
                Err("template input missing required 'schema' field".to_owned())
            );
        }
    }

    #[test]
    fn semver_fields_are_strict() {
        let read = |text: &str| {
            semver_template(text)
                .map(|_| ())
                .map_err(|error| error.message)
        };
        assert_eq!(
            read("schema: olm.semver\nfoo: 1\n"),
            Err(
                r#"error unmarshaling JSON: while decoding JSON: json: unknown field "foo""#
                    .to_owned()
            )
        );
        assert_eq!(
            read("schema: olm.semver\ngenerateMajorChannels: x\n"),
            Err("error unmarshaling JSON: while decoding JSON: json: cannot unmarshal string into Go struct field .generateMajorChannels of type bool".to_owned())
        );
        assert_eq!(
            read("schema: olm.semver\nstable: []\n"),
            Err("error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go struct field .stable of type semver.channelBundles".to_owned())
        );
        assert_eq!(
            read("schema: olm.semver\nstable:\n  bundles:\n  - image: a\n    image: b\nschema: x\n"),
            Err("error converting YAML to JSON: yaml: unmarshal errors:\n  line 5: key \"image\" already set in map".to_owned())
        );
        assert_eq!(
            read("schema: olm.semver\nfast: {bundles: [{image: a}, {image: a}]}\n"),
            Ok(())
        );
        let template = semver_template(
            "Schema: olm.semver\nGenerateMajorChannels: true\nStable:\n  Bundles:\n  - Image: a\n",
        )
        .expect("capitalised keys decode");
        assert!(template.generate_major);
        assert_eq!(template.archetypes[2], ["a"]);
    }

    #[test]
    fn entries_templates_keep_null_entries_and_read_substitutions() {
        let shape = Shape {
            go_struct: "SubstitutesTemplateData",
            go_package: "substitutes",
            substitutions: true,
        };
        let template = entries_template(
            "schema: s\nentries: [null, {schema: a}]\nsubstitutions: [{name: img, base: old}]\n",
            &shape,
        )
        .expect("decoded");
        assert!(template.entries[0].is_none());
        assert_eq!(template.substitutions[0].base, "old");
        let error = entries_template("schema: s\nsubstitutions: {}\n", &shape)
            .map(|_| ())
            .expect_err("not a list");
        assert_eq!(
            error.message,
            "unmarshalling template: json: cannot unmarshal object into Go struct field SubstitutesTemplateData.substitutions of type []substitutes.Substitute"
        );
    }
}
