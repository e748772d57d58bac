//! The `bundle-object-to-csv-metadata` migration: a bundle with an image and an
//! embedded CSV loses its `olm.bundle.object`s and gains one `olm.csv.metadata`,
//! built from the CSV decoded into operator-framework/api's v1alpha1 types.

use std::borrow::Cow;

use serde_json::Value;

use super::schema::{
    self, API_SERVICE_DEFINITIONS, APP_LINK, CRD_DEFINITIONS, Field, GROUP_VERSION_KIND,
    INSTALL_MODE, Kind, MAINTAINER, Schema, Slot,
};
use crate::bundle::decode;
use crate::codec::node::Node;
use crate::go::semver::{Prerelease, Version};
use crate::model::Bundle;
use crate::model::go_decode::{GoDecoder, field_matches, match_field};
use crate::model::property::{BUNDLE_OBJECT, CSV_METADATA, Property};

const fn field(name: &'static str, kind: Kind) -> Field {
    Field {
        name,
        kind,
        omit_empty: true,
    }
}

static OBJECT_META: Schema = Schema {
    name: "ObjectMeta",
    go_type: "v1.ObjectMeta",
    slice_type: "[]v1.ObjectMeta",
    fields: &[
        field("name", Kind::Str),
        field("generateName", Kind::Str),
        field("namespace", Kind::Str),
        field("labels", Kind::StringMap),
        field("annotations", Kind::StringMap),
    ],
};

/// The spec fields that `olm.csv.metadata` takes (the others are not decoded).
static SPEC: Schema = Schema {
    name: "ClusterServiceVersionSpec",
    go_type: "v1alpha1.ClusterServiceVersionSpec",
    slice_type: "[]v1alpha1.ClusterServiceVersionSpec",
    fields: &[
        field("maturity", Kind::Str),
        field("customresourcedefinitions", Kind::Struct(&CRD_DEFINITIONS)),
        field(
            "apiservicedefinitions",
            Kind::Struct(&API_SERVICE_DEFINITIONS),
        ),
        field("nativeAPIs", Kind::List(&GROUP_VERSION_KIND)),
        field("minKubeVersion", Kind::Str),
        field("displayName", Kind::Str),
        field("description", Kind::Str),
        field("keywords", Kind::Strings),
        field("maintainers", Kind::List(&MAINTAINER)),
        field("provider", Kind::Struct(&APP_LINK)),
        field("links", Kind::List(&APP_LINK)),
        field("installModes", Kind::List(&INSTALL_MODE)),
    ],
};

/// Runs the migration on one bundle, finding its CSV among its objects.
pub(crate) fn migrate_bundle(bundle: &mut Bundle) -> Result<(), String> {
    if bundle.image.is_empty() {
        return Ok(());
    }
    let Some(csv) = embedded_csv(bundle) else {
        return Ok(());
    };
    migrate_with_csv(bundle, &csv)
}

/// Runs the migration on one bundle whose CSV is known (a bundle directory's).
pub(crate) fn migrate_with_csv(bundle: &mut Bundle, csv: &Value) -> Result<(), String> {
    if bundle.image.is_empty() {
        return Ok(());
    }
    // opm decodes the CSV before it looks for an existing `olm.csv.metadata`.
    let node = csv_metadata(csv)?;
    if bundle.properties.iter().any(|p| p.kind == CSV_METADATA) {
        return Ok(());
    }
    let mut properties = std::mem::take(&mut bundle.properties).into_vec();
    properties.retain(|p| p.kind != BUNDLE_OBJECT);
    properties.push(Property::ordered(CSV_METADATA.to_owned(), node));
    bundle.properties = properties.into_boxed_slice();
    Ok(())
}

/// The first embedded object whose kind is `ClusterServiceVersion`.
fn embedded_csv(bundle: &Bundle) -> Option<Value> {
    bundle
        .properties
        .iter()
        .filter(|property| property.kind == BUNDLE_OBJECT)
        .find_map(|property| {
            let Some(Value::Object(map)) = property.value() else {
                return None;
            };
            let data = map
                .iter()
                .rev()
                .find(|(key, _)| field_matches(key, "data"))?;
            let bytes = crate::go::base64::decode(data.1.as_str()?.as_bytes()).ok()?;
            let object = decode::embedded_object(&bytes)?;
            (object.get("kind").and_then(Value::as_str) == Some("ClusterServiceVersion"))
                .then_some(object)
        })
}

/// `property.MustBuildCSVMetadata` of the CSV decoded as `v1alpha1.ClusterServiceVersion`.
pub(crate) fn csv_metadata(csv: &Value) -> Result<Node<'static>, String> {
    let Value::Object(top) = csv else {
        return Err(crate::bundle::csv::value_mismatch(
            csv,
            "v1alpha1.ClusterServiceVersion",
        ));
    };
    let spec = top
        .iter()
        .filter(|(key, _)| match_field(key, &["spec"]).is_some());
    // Custom decoders (version, release) stop Go's decoding at once, so their
    // errors win over type errors.
    for (_, value) in spec.clone() {
        for (key, item) in value.as_object().into_iter().flatten() {
            match match_field(key, &["release", "version"]) {
                Some("release") => check_release(item)?,
                Some(_) => check_version(item)?,
                None => {}
            }
        }
    }
    let mut decoder = GoDecoder::default();
    let mut metadata: Vec<Slot> = OBJECT_META
        .fields
        .iter()
        .map(|f| schema::zero(f.kind))
        .collect();
    let mut spec_slots: Vec<Slot> = SPEC.fields.iter().map(|f| schema::zero(f.kind)).collect();
    for (key, value) in top {
        match match_field(key, &["kind", "apiVersion", "metadata", "spec"]) {
            Some("metadata") => {
                metadata = decoder.field("metadata", |d| {
                    schema::decode_fields(d, value, &OBJECT_META, "ClusterServiceVersion")
                });
            }
            Some("spec") => {
                spec_slots = decoder.field("spec", |d| {
                    schema::decode_fields(d, value, &SPEC, "ClusterServiceVersion")
                });
            }
            Some(name) => {
                decoder.field(name, |d| d.string(value.clone(), "ClusterServiceVersion"));
            }
            None => {}
        }
    }
    decoder.finish()?;
    Ok(assemble(&metadata, &spec_slots))
}

/// The `CSVMetadata` struct in field order.
fn assemble(metadata: &[Slot], spec: &[Slot]) -> Node<'static> {
    let take_meta = |name: &str| slot_of(&OBJECT_META, metadata, name);
    let take_spec = |name: &str| slot_of(&SPEC, spec, name);
    let fields: [(&'static str, Option<Node<'static>>, bool); 14] = [
        ("annotations", take_meta("annotations"), true),
        (
            "apiServiceDefinitions",
            take_spec("apiservicedefinitions"),
            false,
        ),
        (
            "crdDescriptions",
            take_spec("customresourcedefinitions"),
            false,
        ),
        ("description", take_spec("description"), true),
        ("displayName", take_spec("displayName"), true),
        ("installModes", take_spec("installModes"), true),
        ("keywords", take_spec("keywords"), true),
        ("labels", take_meta("labels"), true),
        ("links", take_spec("links"), true),
        ("maintainers", take_spec("maintainers"), true),
        ("maturity", take_spec("maturity"), true),
        ("minKubeVersion", take_spec("minKubeVersion"), true),
        ("nativeAPIs", take_spec("nativeAPIs"), true),
        ("provider", take_spec("provider"), false),
    ];
    Node::Object(
        fields
            .into_iter()
            .filter_map(|(name, node, omit_empty)| {
                let node = node?;
                (!(omit_empty && schema::is_empty(&node))).then_some((Cow::Borrowed(name), node))
            })
            .collect(),
    )
}

fn slot_of(schema: &Schema, slots: &[Slot], name: &str) -> Option<Node<'static>> {
    let index = schema.fields.iter().position(|f| f.name == name)?;
    slots[index].clone()
}

/// `OperatorVersion.UnmarshalJSON`: a string that blang's `ParseTolerant` accepts.
fn check_version(value: &Value) -> Result<(), String> {
    let text = string_for_custom(value, "version")?;
    Version::parse_tolerant(&text).map(|_| ())
}

/// `OperatorRelease.UnmarshalJSON`: dot-separated pre-release identifiers.
fn check_release(value: &Value) -> Result<(), String> {
    let text = string_for_custom(value, "release")?;
    for segment in text.split('.') {
        Prerelease::parse(segment).map_err(|error| error.to_string())?;
    }
    Ok(())
}

/// The string a custom decoder reads (`null` reads as `""`).
fn string_for_custom(value: &Value, field: &str) -> Result<String, String> {
    match value {
        Value::String(text) => Ok(text.clone()),
        Value::Null => Ok(String::new()),
        other => Err(format!(
            "json: cannot unmarshal {} into Go struct field ClusterServiceVersionSpec.spec.{field} of type string",
            crate::go::json_kind(other)
        )),
    }
}
