//! Bundle versions read from `olm.package` properties, with opm's `property.Parse`
//! checks and message texts, and the release OLM v1 orders by.

use std::collections::HashMap;

use serde_json::Value;

use super::error::GraphError;
use crate::go::fmt::quote;
use crate::model::Bundle;
use crate::model::go_decode::{GoDecoder, match_field};
use crate::model::property::Property;
use crate::semver::{Release, Version};

const PACKAGE: &str = "olm.package";

/// The value of an `olm.package` property (opm's `property.Package`).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct PackageProperty {
    pub(crate) package_name: String,
    pub(crate) version: String,
    pub(crate) release: String,
}

/// The `olm.package` values of a bundle, after opm's `property.Parse` of the whole
/// list: the first property whose value does not decode is the error.
pub(crate) fn package_properties(properties: &[Property]) -> Result<Vec<PackageProperty>, String> {
    let mut packages = Vec::new();
    for (index, property) in properties.iter().enumerate() {
        let Some(value) = &property.value else {
            return Err(parse_error(index, property, "unexpected end of JSON input"));
        };
        let fields: &[&'static str] = match property.kind.as_str() {
            PACKAGE => &["packageName", "version", "release"],
            "olm.package.required" => &["packageName", "versionRange"],
            "olm.gvk" | "olm.gvk.required" => &["group", "kind", "version"],
            "olm.channel" => &["channelName"],
            // Other values are any JSON, and `olm.bundle.object` data is checked at load.
            _ => continue,
        };
        let decoded = decode_strings(value, fields, struct_name(&property.kind))
            .map_err(|error| parse_error(index, property, &error))?;
        if property.kind == PACKAGE {
            let field = |name: &str| decoded.get(name).cloned().unwrap_or_default();
            packages.push(PackageProperty {
                package_name: field("packageName"),
                version: field("version"),
                release: field("release"),
            });
        }
    }
    Ok(packages)
}

fn parse_error(index: usize, property: &Property, error: &str) -> String {
    format!(
        "parse property[{index}] of type {}: {error}",
        quote(&property.kind)
    )
}

/// The Go struct each known property type decodes into, as its messages name it.
fn struct_name(kind: &str) -> &'static str {
    match kind {
        PACKAGE => "Package",
        "olm.package.required" => "PackageRequired",
        "olm.gvk" => "GVK",
        "olm.gvk.required" => "GVKRequired",
        _ => "Channel",
    }
}

/// Decodes an object of string fields with Go's rules (case-insensitive names,
/// null is the zero value, the first type mismatch is the error).
fn decode_strings(
    value: &Value,
    fields: &[&'static str],
    struct_name: &str,
) -> Result<HashMap<&'static str, String>, String> {
    let mut decoder = GoDecoder::default();
    let mut strings = HashMap::new();
    let go_type = format!("property.{struct_name}");
    if let Some(map) = decoder.object(value.clone(), struct_name, &go_type) {
        for (key, value) in map {
            if let Some(field) = match_field(&key, fields) {
                let text = decoder.field(field, |d| d.string(value, struct_name));
                strings.insert(field, text);
            }
        }
    }
    decoder.finish().map(|()| strings)
}

/// opm's `parseVersionProperty`: exactly one `olm.package` with a valid version.
pub(crate) fn bundle_version(bundle: &Bundle) -> Result<Version, GraphError> {
    let packages =
        package_properties(&bundle.properties).map_err(|error| GraphError::Properties {
            bundle: bundle.name.clone(),
            error,
        })?;
    let [package] = packages.as_slice() else {
        return Err(GraphError::PackageCount {
            bundle: bundle.name.clone(),
        });
    };
    Version::parse(&package.version).map_err(|error| GraphError::Version {
        bundle: bundle.name.clone(),
        version: package.version.clone(),
        error,
    })
}

/// Bundle name -> version over every bundle, the first bundle of a name winning, as
/// opm's `getBundleVersions` builds it.
pub(crate) fn version_map<'a>(
    bundles: impl IntoIterator<Item = &'a Bundle>,
) -> Result<HashMap<String, Version>, GraphError> {
    let mut versions = HashMap::new();
    for bundle in bundles {
        if !versions.contains_key(&bundle.name) {
            versions.insert(bundle.name.clone(), bundle_version(bundle)?);
        }
    }
    Ok(versions)
}

/// A version and release as OLM v1 compares them with its default feature gates
/// (`BundleReleaseSupport` off): build metadata that parses as a release is the
/// release, whatever `olm.package` declares.
pub(crate) fn version_release(bundle: &Bundle) -> Result<(Version, Release), GraphError> {
    Ok(legacy_release(bundle_version(bundle)?))
}

/// OLM v1's legacy reading of a version alone: build metadata that parses as a
/// release is the release, and leaves the version.
pub(crate) fn legacy_release(version: Version) -> (Version, Release) {
    if !version.build().is_empty()
        && let Ok(release) = Release::parse(&version.build().join("."))
    {
        return (version.without_build(), release);
    }
    (version, Release::default())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn property(kind: &str, value: Option<Value>) -> Property {
        Property::new(kind, value)
    }

    fn bundle(properties: Vec<Property>) -> Bundle {
        Bundle {
            name: "b.v1".to_owned(),
            properties,
            ..Bundle::default()
        }
    }

    #[test]
    fn reads_the_package_property() {
        let value = json!({"packageName": "p", "Version": "1.2.3", "release": "2"});
        let packages = package_properties(&[property(PACKAGE, Some(value))]).expect("valid");
        assert_eq!(packages[0].version, "1.2.3");
        assert_eq!(packages[0].release, "2");
    }

    #[test]
    fn reports_opm_parse_errors() {
        let missing = bundle(vec![property("custom", None)]);
        assert_eq!(
            bundle_version(&missing).unwrap_err().to_string(),
            "parse properties for bundle \"b.v1\": parse property[0] of type \"custom\": unexpected end of JSON input"
        );
        let mistyped = bundle(vec![property(PACKAGE, Some(json!({"version": 1})))]);
        assert_eq!(
            bundle_version(&mistyped).unwrap_err().to_string(),
            "parse properties for bundle \"b.v1\": parse property[0] of type \"olm.package\": json: cannot unmarshal number into Go struct field Package.version of type string"
        );
        let array = bundle(vec![property("olm.gvk", Some(json!([])))]);
        assert!(
            bundle_version(&array)
                .unwrap_err()
                .to_string()
                .ends_with("json: cannot unmarshal array into Go value of type property.GVK")
        );
    }

    #[test]
    fn needs_exactly_one_valid_version() {
        assert_eq!(
            bundle_version(&bundle(vec![])).unwrap_err().to_string(),
            "bundle \"b.v1\" has multiple \"olm.package\" properties, expected exactly 1"
        );
        let bad = bundle(vec![property(PACKAGE, Some(json!({"version": "1.0"})))]);
        assert_eq!(
            bundle_version(&bad).unwrap_err().to_string(),
            "bundle \"b.v1\" has invalid version \"1.0\": No Major.Minor.Patch elements found"
        );
    }

    #[test]
    fn build_metadata_can_be_the_release() {
        let built = bundle(vec![property(PACKAGE, Some(json!({"version": "1.0.0+2"})))]);
        let (version, release) = version_release(&built).expect("valid");
        assert_eq!(version.to_string(), "1.0.0");
        assert_eq!(release.to_string(), "2");
        let declared = bundle(vec![property(
            PACKAGE,
            Some(json!({"version": "1.0.0+01", "release": "3"})),
        )]);
        let (version, release) = version_release(&declared).expect("valid");
        assert_eq!(
            version.to_string(),
            "1.0.0+01",
            "01 is no release: the build stays"
        );
        assert!(
            release.is_empty(),
            "a declared release needs a feature gate in OLM v1"
        );
    }
}
