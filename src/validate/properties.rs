//! opm's `property.Parse`: known property types are decoded into their Go structs
//! with `encoding/json` rules, and the first failure is reported as
//! `parse property[<i>] of type "<t>": <json error>`. Only what validation needs
//! of the decoded values is kept.

use serde_json::Value;

use crate::go::fmt::quote;
use crate::model::go_decode::{GoDecoder, match_field};
use crate::model::property::Property;

/// An `olm.package` property value.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct PackageProperty {
    pub(crate) package_name: String,
    pub(crate) version: String,
    pub(crate) release: String,
}

/// What validation needs of a bundle's parsed properties.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Parsed {
    pub(crate) packages: Vec<PackageProperty>,
}

/// The Go type of a struct field, enough to reproduce `encoding/json`'s errors.
#[derive(Debug, Clone, Copy)]
enum GoType {
    String,
    Bool,
    Int32,
    /// `json.RawMessage`: anything goes.
    Raw,
    Bytes,
    StringMap,
    Slice(&'static GoType, &'static str),
    Struct(&'static GoStruct),
}

#[derive(Debug)]
struct GoStruct {
    /// The Go type name in messages (`property.Package`, `v1alpha1.AppLink`).
    qualified: &'static str,
    fields: &'static [(&'static str, GoType)],
}

impl GoStruct {
    fn short_name(&self) -> &'static str {
        self.qualified.rsplit('.').next().unwrap_or(self.qualified)
    }
}

const STRING_LIST: GoType = GoType::Slice(&GoType::String, "[]string");

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
const APP_LINK: GoStruct = GoStruct {
    qualified: "v1alpha1.AppLink",
    fields: &[("name", GoType::String), ("url", GoType::String)],
};
const MAINTAINER: GoStruct = GoStruct {
    qualified: "v1alpha1.Maintainer",
    fields: &[("name", GoType::String), ("email", GoType::String)],
};
const INSTALL_MODE: GoStruct = GoStruct {
    qualified: "v1alpha1.InstallMode",
    fields: &[("type", GoType::String), ("supported", GoType::Bool)],
};
const GROUP_VERSION_KIND: GoStruct = GoStruct {
    qualified: "v1.GroupVersionKind",
    fields: &[
        ("group", GoType::String),
        ("version", GoType::String),
        ("kind", GoType::String),
    ],
};
const RESOURCE_REFERENCE: GoStruct = GoStruct {
    qualified: "v1alpha1.APIResourceReference",
    fields: &[
        ("name", GoType::String),
        ("kind", GoType::String),
        ("version", GoType::String),
    ],
};
const DESCRIPTOR_FIELDS: &[(&str, GoType)] = &[
    ("path", GoType::String),
    ("displayName", GoType::String),
    ("description", GoType::String),
    ("x-descriptors", STRING_LIST),
    ("value", GoType::Raw),
];
const STATUS_DESCRIPTOR: GoStruct = GoStruct {
    qualified: "v1alpha1.StatusDescriptor",
    fields: DESCRIPTOR_FIELDS,
};
const SPEC_DESCRIPTOR: GoStruct = GoStruct {
    qualified: "v1alpha1.SpecDescriptor",
    fields: DESCRIPTOR_FIELDS,
};
const ACTION_DESCRIPTOR: GoStruct = GoStruct {
    qualified: "v1alpha1.ActionDescriptor",
    fields: DESCRIPTOR_FIELDS,
};
const RESOURCES: GoType = GoType::Slice(
    &GoType::Struct(&RESOURCE_REFERENCE),
    "[]v1alpha1.APIResourceReference",
);
const STATUS_DESCRIPTORS: GoType = GoType::Slice(
    &GoType::Struct(&STATUS_DESCRIPTOR),
    "[]v1alpha1.StatusDescriptor",
);
const SPEC_DESCRIPTORS: GoType = GoType::Slice(
    &GoType::Struct(&SPEC_DESCRIPTOR),
    "[]v1alpha1.SpecDescriptor",
);
const ACTION_DESCRIPTORS: GoType = GoType::Slice(
    &GoType::Struct(&ACTION_DESCRIPTOR),
    "[]v1alpha1.ActionDescriptor",
);
const CRD_DESCRIPTION: GoStruct = GoStruct {
    qualified: "v1alpha1.CRDDescription",
    fields: &[
        ("name", GoType::String),
        ("version", GoType::String),
        ("kind", GoType::String),
        ("displayName", GoType::String),
        ("description", GoType::String),
        ("resources", RESOURCES),
        ("statusDescriptors", STATUS_DESCRIPTORS),
        ("specDescriptors", SPEC_DESCRIPTORS),
        ("actionDescriptors", ACTION_DESCRIPTORS),
    ],
};
const API_SERVICE_DESCRIPTION: GoStruct = GoStruct {
    qualified: "v1alpha1.APIServiceDescription",
    fields: &[
        ("name", GoType::String),
        ("group", GoType::String),
        ("version", GoType::String),
        ("kind", GoType::String),
        ("deploymentName", GoType::String),
        ("containerPort", GoType::Int32),
        ("displayName", GoType::String),
        ("description", GoType::String),
        ("resources", RESOURCES),
        ("statusDescriptors", STATUS_DESCRIPTORS),
        ("specDescriptors", SPEC_DESCRIPTORS),
        ("actionDescriptors", ACTION_DESCRIPTORS),
    ],
};
const CRD_DESCRIPTIONS: GoType = GoType::Slice(
    &GoType::Struct(&CRD_DESCRIPTION),
    "[]v1alpha1.CRDDescription",
);
const API_SERVICE_DESCRIPTIONS: GoType = GoType::Slice(
    &GoType::Struct(&API_SERVICE_DESCRIPTION),
    "[]v1alpha1.APIServiceDescription",
);
const CUSTOM_RESOURCE_DEFINITIONS: GoStruct = GoStruct {
    qualified: "v1alpha1.CustomResourceDefinitions",
    fields: &[("owned", CRD_DESCRIPTIONS), ("required", CRD_DESCRIPTIONS)],
};
const API_SERVICE_DEFINITIONS: GoStruct = GoStruct {
    qualified: "v1alpha1.APIServiceDefinitions",
    fields: &[
        ("owned", API_SERVICE_DESCRIPTIONS),
        ("required", API_SERVICE_DESCRIPTIONS),
    ],
};
const CSV_METADATA: GoStruct = GoStruct {
    qualified: "property.CSVMetadata",
    fields: &[
        ("annotations", GoType::StringMap),
        (
            "apiServiceDefinitions",
            GoType::Struct(&API_SERVICE_DEFINITIONS),
        ),
        (
            "crdDescriptions",
            GoType::Struct(&CUSTOM_RESOURCE_DEFINITIONS),
        ),
        ("description", GoType::String),
        ("displayName", GoType::String),
        (
            "installModes",
            GoType::Slice(&GoType::Struct(&INSTALL_MODE), "[]v1alpha1.InstallMode"),
        ),
        ("keywords", STRING_LIST),
        ("labels", GoType::StringMap),
        (
            "links",
            GoType::Slice(&GoType::Struct(&APP_LINK), "[]v1alpha1.AppLink"),
        ),
        (
            "maintainers",
            GoType::Slice(&GoType::Struct(&MAINTAINER), "[]v1alpha1.Maintainer"),
        ),
        ("maturity", GoType::String),
        ("minKubeVersion", GoType::String),
        (
            "nativeAPIs",
            GoType::Slice(
                &GoType::Struct(&GROUP_VERSION_KIND),
                "[]v1.GroupVersionKind",
            ),
        ),
        ("provider", GoType::Struct(&APP_LINK)),
    ],
};

/// The Go struct a known property type decodes into; `None` for "other" types.
fn struct_for(kind: &str) -> Option<&'static GoStruct> {
    Some(match kind {
        "olm.package" => &PACKAGE,
        "olm.package.required" => &PACKAGE_REQUIRED,
        "olm.gvk" => &GVK,
        "olm.gvk.required" => &GVK_REQUIRED,
        "olm.bundle.object" => &BUNDLE_OBJECT,
        "olm.csv.metadata" => &CSV_METADATA,
        "olm.channel" => &CHANNEL,
        _ => return None,
    })
}

/// `property.Parse`: every property in order, stopping at the first failure.
pub(crate) fn parse(properties: &[Property]) -> Result<Parsed, String> {
    let mut parsed = Parsed::default();
    for (index, property) in properties.iter().enumerate() {
        let fail = |error: String| {
            format!(
                "parse property[{index}] of type {}: {error}",
                quote(&property.kind)
            )
        };
        // A missing `value` is an empty raw message, which no decoder accepts.
        let Some(value) = &property.value else {
            return Err(fail("unexpected end of JSON input".to_owned()));
        };
        let Some(go_struct) = struct_for(&property.kind) else {
            continue;
        };
        let mut decoder = GoDecoder::default();
        decode_struct(&mut decoder, value, go_struct);
        decoder.finish().map_err(fail)?;
        if property.kind == "olm.package" {
            parsed.packages.push(package_property(value));
        }
    }
    Ok(parsed)
}

/// The string fields of an `olm.package` value that decoded without error.
fn package_property(value: &Value) -> PackageProperty {
    let mut package = PackageProperty::default();
    if let Value::Object(map) = value {
        for (key, value) in map {
            let text = value.as_str().unwrap_or_default().to_owned();
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
    if value.is_null() {
        return;
    }
    // Loading already decoded every `olm.bundle.object` (the one `[]byte` field)
    // and refused the catalog if one failed; decoding megabytes of manifests
    // again would only cost time, so a string is all a `[]byte` needs here.
    let accepted = match go_type {
        GoType::Raw => true,
        GoType::String | GoType::Bytes => value.is_string(),
        GoType::Bool => value.is_boolean(),
        _ => false,
    };
    if accepted {
        return;
    }
    match go_type {
        GoType::Raw => {}
        GoType::String => decoder.mismatch(value, owner, "string"),
        GoType::Bool => decoder.mismatch(value, owner, "bool"),
        GoType::Int32 => decode_int32(decoder, value, owner),
        GoType::Bytes => decoder.mismatch(value, owner, "[]uint8"),
        GoType::StringMap => match value {
            Value::Object(map) => {
                for item in map
                    .values()
                    .filter(|item| !item.is_string() && !item.is_null())
                {
                    decoder.mismatch(item, owner, "string");
                }
            }
            other => decoder.mismatch(other, owner, "map[string]string"),
        },
        GoType::Slice(element, name) => match value {
            Value::Array(items) => {
                for item in items {
                    decode_value(decoder, item, *element, owner);
                }
            }
            other => decoder.mismatch(other, owner, name),
        },
        GoType::Struct(inner) => match value {
            Value::Object(map) => decode_fields(decoder, map, inner),
            other => decoder.mismatch(other, owner, inner.qualified),
        },
    }
}

/// Go accepts integers that fit; others are mismatches (Go's text adds the
/// number itself, `number 1.5`, which this message leaves out).
fn decode_int32(decoder: &mut GoDecoder, value: &Value, owner: &str) {
    let fits = value.as_f64().is_some_and(|number| {
        number.fract() == 0.0 && (f64::from(i32::MIN)..=f64::from(i32::MAX)).contains(&number)
    });
    if !fits {
        decoder.mismatch(value, owner, "int32");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn property(kind: &str, value: Option<Value>) -> Property {
        Property::new(kind, value)
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
                package_name: "foo".to_owned(),
                version: "1.0.0".to_owned(),
                release: String::new()
            }]
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
        assert_eq!(parsed.packages, [PackageProperty::default()]);
        assert!(parse(&[property("custom", Some(Value::Null))]).is_ok());
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
