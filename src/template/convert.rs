//! `alpha convert-template` (spec §10.6): a stream of catalog blobs becomes a basic
//! template (bundles reduced to their image) or a substitutes template (every blob,
//! no substitutions yet), written as opm writes it: Go's `json.MarshalIndent`, HTML
//! characters escaped, or that JSON as YAML with a trailing empty line.

use serde_json::Value;

use super::TemplateType;
use crate::codec::json_write as json;
use crate::codec::node::Node;
use crate::model::Bundle;

/// Converts the blobs of `text`; the error is opm's, without `converting: `.
pub(crate) fn convert(kind: TemplateType, text: &str, yaml: bool) -> Result<Vec<u8>, String> {
    let documents = crate::catalog::meta_documents(text)?;
    let mut entries = Vec::with_capacity(documents.len());
    for document in &documents {
        let is_bundle = document.get("schema").and_then(Value::as_str) == Some("olm.bundle");
        if kind == TemplateType::Basic && is_bundle {
            let map = document.as_object().cloned().unwrap_or_default();
            let bundle = Bundle::decode(map).map_err(|error| format!("parse bundle: {error}"))?;
            entries.push(Node::Object(vec![
                ("schema".into(), Node::str(crate::model::bundle::SCHEMA)),
                (
                    "image".into(),
                    Node::String(String::from(bundle.image).into()),
                ),
            ]));
        } else {
            entries.push(Node::from_json(document));
        }
    }
    let schema = match kind {
        TemplateType::Basic => "olm.template.basic",
        TemplateType::Semver => "olm.semver",
        TemplateType::Substitutes => "olm.template.substitutes",
    };
    let mut fields = vec![
        ("schema".into(), Node::str(schema)),
        (
            "entries".into(),
            if entries.is_empty() {
                Node::Null
            } else {
                Node::Array(entries)
            },
        ),
    ];
    if kind == TemplateType::Substitutes {
        fields.push(("substitutions".into(), Node::Array(Vec::new())));
    }
    let template = Node::Object(fields);
    let mut out = Vec::new();
    if yaml {
        // `JSONToYAML` sorts keys; the writer takes them in the order given.
        let sorted = sort_keys(template);
        crate::output::yaml::write_document(&sorted, &mut out)
            .map_err(|error| error.to_string())?;
        out.push(b'\n');
    } else {
        json::write_pretty(&template, &mut out);
        out = escape_html(&out);
    }
    Ok(out)
}

/// Go's `json.Marshal` escapes `<`, `>` and `&` (they can only be inside strings).
fn escape_html(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for &byte in text {
        match byte {
            b'<' => out.extend_from_slice(b"\\u003c"),
            b'>' => out.extend_from_slice(b"\\u003e"),
            b'&' => out.extend_from_slice(b"\\u0026"),
            other => out.push(other),
        }
    }
    out
}

fn sort_keys(node: Node<'_>) -> Node<'_> {
    match node {
        Node::Object(mut fields) => {
            fields.sort_by(|a, b| a.0.cmp(&b.0));
            Node::Object(
                fields
                    .into_iter()
                    .map(|(key, value)| (key, sort_keys(value)))
                    .collect(),
            )
        }
        Node::Array(items) => Node::Array(items.into_iter().map(sort_keys).collect()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONV: &str = "schema: olm.package\nname: foo\ndefaultChannel: stable\ndescription: \"a <b> & c\"\n---\nschema: olm.bundle\nname: foo.v1.0.0\npackage: foo\nimage: quay.io/ex/foo:v1.0.0\nproperties:\n- type: olm.package\n  value: {packageName: foo, version: 1.0.0}\n";

    fn text(kind: TemplateType, yaml: bool) -> String {
        String::from_utf8(convert(kind, CONV, yaml).expect("converted")).expect("UTF-8")
    }

    #[test]
    fn basic_keeps_bundle_images_and_escapes_html() {
        assert_eq!(
            text(TemplateType::Basic, false),
            r#"{
    "schema": "olm.template.basic",
    "entries": [
        {
            "defaultChannel": "stable",
            "description": "a \u003cb\u003e \u0026 c",
            "name": "foo",
            "schema": "olm.package"
        },
        {
            "schema": "olm.bundle",
            "image": "quay.io/ex/foo:v1.0.0"
        }
    ]
}
"#
        );
    }

    #[test]
    fn substitutes_keep_every_blob_and_end_yaml_with_an_empty_line() {
        assert_eq!(
            text(TemplateType::Substitutes, true),
            "---\nentries:\n- defaultChannel: stable\n  description: a <b> & c\n  name: foo\n  schema: olm.package\n- image: quay.io/ex/foo:v1.0.0\n  name: foo.v1.0.0\n  package: foo\n  properties:\n  - type: olm.package\n    value:\n      packageName: foo\n      version: 1.0.0\n  schema: olm.bundle\nschema: olm.template.substitutes\nsubstitutions: []\n\n"
        );
    }

    #[test]
    fn empty_input_has_null_entries() {
        let out = String::from_utf8(convert(TemplateType::Basic, "", false).expect("converted"))
            .expect("UTF-8");
        assert_eq!(
            out,
            "{\n    \"schema\": \"olm.template.basic\",\n    \"entries\": null\n}\n"
        );
    }
}
