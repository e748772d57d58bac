//! opm's `property.Parse`: known property types are decoded into their Go structs
//! with `encoding/json` rules, and the first failure is reported as
//! `parse property[<i>] of type "<t>": <json error>`. Only what validation needs
//! of the decoded values is kept.

mod fits;

use serde_json::Value;

use crate::bundle::migrate::schema;
use crate::go::fmt::quote;
use crate::model::Text;
use crate::model::go_decode::{GoDecoder, match_field};
use crate::model::property::Property;

/// An `olm.package` property value.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct PackageProperty {
    pub(crate) package_name: Text,
    pub(crate) version: Text,
    pub(crate) release: Text,
}

/// What validation needs of a bundle's parsed properties (kept for every bundle of
/// the catalog: small).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Parsed {
    pub(crate) packages: Box<[PackageProperty]>,
}

/// The Go type of a field of the small property structs, enough to reproduce
/// `encoding/json`'s errors.
#[derive(Debug, Clone, Copy)]
enum GoType {
    String,
    Bytes,
}

#[derive(Debug)]
struct GoStruct {
    /// The Go type name in messages (`property.Package`).
    qualified: &'static str,
    fields: &'static [(&'static str, GoType)],
}

impl GoStruct {
    fn short_name(&self) -> &'static str {
        self.qualified.rsplit('.').next().unwrap_or(self.qualified)
    }
}

const PACKAGE: GoStruct = GoStruct {
    qualified: "property.Package",
    fields: &[
        ("packageName", GoType::String),
        ("version", GoType::String),
        ("release", GoType::String),
    ],
};
const PACKAGE_REQUIRED: GoStruct = GoStruct {
    qualified: "property.PackageRequired",
    fields: &[
        ("packageName", GoType::String),
        ("versionRange", GoType::String),
    ],
};
const GVK_FIELDS: &[(&str, GoType)] = &[
    ("group", GoType::String),
    ("kind", GoType::String),
    ("version", GoType::String),
];
const GVK: GoStruct = GoStruct {
    qualified: "property.GVK",
    fields: GVK_FIELDS,
};
const GVK_REQUIRED: GoStruct = GoStruct {
    qualified: "property.GVKRequired",
    fields: GVK_FIELDS,
};
const BUNDLE_OBJECT: GoStruct = GoStruct {
    qualified: "property.BundleObject",
    fields: &[("data", GoType::Bytes)],
};
const CHANNEL: GoStruct = GoStruct {
    qualified: "property.Channel",
    fields: &[("channelName", GoType::String)],
};

/// What a known property type decodes into.
enum Known {
    Struct(&'static GoStruct),
    /// `property.CSVMetadata`, described once for decoding and for the migration
    /// that writes it.
    CsvMetadata,
}

/// The Go type a known property type decodes into; `None` for "other" types.
fn known(kind: &str) -> Option<Known> {
    Some(Known::Struct(match kind {
        "olm.package" => &PACKAGE,
        "olm.package.required" => &PACKAGE_REQUIRED,
        "olm.gvk" => &GVK,
        "olm.gvk.required" => &GVK_REQUIRED,
        "olm.bundle.object" => &BUNDLE_OBJECT,
        "olm.channel" => &CHANNEL,
        "olm.csv.metadata" => return Some(Known::CsvMetadata),
        _ => return None,
    }))
}

/// Whether `text` certainly decodes into the Go type of the known property type
/// `kind` (`false` for other types, and whenever unsure): the check `parse` makes
/// first, for values kept out of memory (`model::property::spill`).
pub(crate) fn fits_known(kind: &str, text: &str) -> bool {
    known(kind).is_some() && fits_text(kind, text)
}

/// Whether a value's JSON text certainly decodes into the Go type of the property
/// type `kind` (`true` for "other" types, which have none; `false` also where
/// unsure).
pub(crate) fn fits_text(kind: &str, text: &str) -> bool {
    known(kind).is_none_or(|known| fits::fits(&known, text))
}

/// `property.Parse`: every property in order, stopping at the first failure.
pub(crate) fn parse(properties: &[Property]) -> Result<Parsed, String> {
    let mut packages = Vec::new();
    for (index, property) in properties.iter().enumerate() {
        let fail = |error: String| {
            format!(
                "parse property[{index}] of type {}: {error}",
                quote(&property.kind)
            )
        };
        // A missing `value` is an empty raw message, which no decoder accepts.
        if !property.has_value() {
            return Err(fail("unexpected end of JSON input".to_owned()));
        }
        let Some(known) = known(&property.kind) else {
            continue;
        };
        // `olm.package` values are kept, and small; the others are only checked
        // (perhaps at load already).
        if property.kind != "olm.package"
            && (property.passed_load_check() || property.fits(|text| fits::fits(&known, text)))
        {
            continue;
        }
        let Some(value) = &property.value() else {
            continue;
        };
        let mut decoder = GoDecoder::default();
        match known {
            Known::Struct(go_struct) => decode_struct(&mut decoder, value, go_struct),
            Known::CsvMetadata => {
                schema::decode_fields(&mut decoder, value, &schema::CSV_METADATA, "");
            }
        }
        decoder.finish().map_err(fail)?;
        if property.kind == "olm.package" {
            packages.push(package_property(value));
        }
    }
    Ok(Parsed {
        packages: packages.into_boxed_slice(),
    })
}

/// The string fields of an `olm.package` value that decoded without error.
fn package_property(value: &Value) -> PackageProperty {
    let mut package = PackageProperty::default();
    if let Value::Object(map) = value {
        for (key, value) in map {
            let text = Text::from(value.as_str().unwrap_or_default());
            match match_field(key, &["packageName", "version", "release"]) {
                Some("packageName") => package.package_name = text,
                Some("version") => package.version = text,
                Some("release") => package.release = text,
                _ => {}
            }
        }
    }
    package
}

/// A top-level struct value: an object, or null (the zero value).
fn decode_struct(decoder: &mut GoDecoder, value: &Value, go_struct: &GoStruct) {
    match value {
        Value::Null => {}
        Value::Object(map) => decode_fields(decoder, map, go_struct),
        other => decoder.mismatch(other, "", go_struct.qualified),
    }
}

fn decode_fields(
    decoder: &mut GoDecoder,
    map: &serde_json::Map<String, Value>,
    go_struct: &GoStruct,
) {
    let names: Vec<&'static str> = go_struct.fields.iter().map(|(name, _)| *name).collect();
    for (key, value) in map {
        let Some(name) = match_field(key, &names) else {
            continue;
        };
        let go_type = go_struct
            .fields
            .iter()
            .find(|(field, _)| *field == name)
            .map(|(_, go_type)| *go_type)
            .expect("the name came from this list");
        decoder.field(name, |d| {
            decode_value(d, value, go_type, go_struct.short_name());
        });
    }
}

/// One field value; `owner` is the struct that declares the field, as Go names it.
fn decode_value(decoder: &mut GoDecoder, value: &Value, go_type: GoType, owner: &str) {
    // Loading already decoded every `olm.bundle.object` (the one `[]byte` field)
    // and refused the catalog if one failed; decoding megabytes of manifests
    // again would only cost time, so a string is all a `[]byte` needs here.
    if value.is_null() || value.is_string() {
        return;
    }
    let go_name = match go_type {
        GoType::String => "string",
        GoType::Bytes => "[]uint8",
    };
    decoder.mismatch(value, owner, go_name);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[allow(clippy::needless_pass_by_value)] // tests write `Some(json!(...))`
    fn property(kind: &str, value: Option<Value>) -> Property {
        Property::new(kind, value.as_ref())
    }

    #[test]
    fn package_properties_are_kept() {
        let parsed = parse(&[
            property(
                "olm.gvk",
                Some(json!({"group": "g", "kind": "K", "version": "v1"})),
            ),
            property(
                "olm.package",
                Some(json!({"packageName": "foo", "Version": "1.0.0", "extra": 1})),
            ),
        ])
        .expect("valid properties");
        assert_eq!(
            parsed.packages,
            [PackageProperty {
                package_name: "foo".into(),
                version: "1.0.0".into(),
                release: Text::default()
            }]
            .into()
        );
    }

    #[test]
    fn errors_read_as_opm() {
        let cases = [
            (
                property(
                    "olm.package",
                    Some(json!({"packageName": "foo", "version": 1})),
                ),
                "parse property[0] of type \"olm.package\": json: cannot unmarshal number into Go struct field Package.version of type string",
            ),
            (
                property("custom", None),
                "parse property[0] of type \"custom\": unexpected end of JSON input",
            ),
            (
                property("olm.gvk", Some(json!("x"))),
                "parse property[0] of type \"olm.gvk\": json: cannot unmarshal string into Go value of type property.GVK",
            ),
            (
                property(
                    "olm.csv.metadata",
                    Some(json!({"provider": {"name": true}})),
                ),
                "parse property[0] of type \"olm.csv.metadata\": json: cannot unmarshal bool into Go struct field AppLink.provider.name of type string",
            ),
            (
                property("olm.csv.metadata", Some(json!({"keywords": "a"}))),
                "parse property[0] of type \"olm.csv.metadata\": json: cannot unmarshal string into Go struct field CSVMetadata.keywords of type []string",
            ),
        ];
        for (property, expected) in cases {
            assert_eq!(parse(&[property]), Err(expected.to_owned()));
        }
    }

    #[test]
    fn null_values_decode_to_zero_values() {
        let parsed = parse(&[property("olm.package", Some(Value::Null))]).expect("null is fine");
        assert_eq!(*parsed.packages, [PackageProperty::default()]);
        assert!(parse(&[property("custom", Some(Value::Null))]).is_ok());
    }

    #[test]
    fn catalog_numbers_that_are_integers_fit_int32_fields() {
        // Catalog numbers are float64, so a port reads as 8080.0; Go takes it.
        let port = |number: f64| {
            let services = json!({"owned": [{"name": "a", "containerPort": number}]});
            parse(&[property(
                "olm.csv.metadata",
                Some(json!({"apiServiceDefinitions": services})),
            )])
        };
        assert!(port(8080.0).is_ok());
        // Go names the number as the catalog's float64 normalisation wrote it.
        for (number, shown) in [(1.5, "1.5"), (1e10, "10000000000"), (-1e30, "-1e+30")] {
            assert_eq!(
                port(number).expect_err("not an int32"),
                format!(
                    "parse property[0] of type \"olm.csv.metadata\": json: cannot unmarshal number {shown} into Go struct field APIServiceDescription.apiServiceDefinitions.owned.containerPort of type int32"
                )
            );
        }
    }

    #[test]
    fn install_mode_types_are_named_in_type_errors() {
        let modes = json!({"installModes": [{"type": 5, "supported": true}]});
        assert_eq!(
            parse(&[property("olm.csv.metadata", Some(modes))]).expect_err("a number"),
            "parse property[0] of type \"olm.csv.metadata\": json: cannot unmarshal number into Go struct field InstallMode.installModes.type of type v1alpha1.InstallModeType"
        );
    }

    #[test]
    fn the_index_is_the_failing_property() {
        let error = parse(&[
            property("a", Some(json!(1))),
            property("olm.channel", Some(json!({"channelName": []}))),
        ])
        .expect_err("array into string");
        assert!(
            error.starts_with("parse property[1] of type \"olm.channel\": "),
            "{error}"
        );
    }
}
