//! Bundle versions read from `olm.package` properties, with opm's `property.Parse`
//! checks and message texts, and the release OLM v1 orders by.

use std::collections::HashMap;

use super::error::GraphError;
use crate::go::semver::{Release, Version};
use crate::model::Bundle;
use crate::validate::properties;

/// opm's `parseVersionProperty`: exactly one `olm.package` with a valid version.
pub(crate) fn bundle_version(bundle: &Bundle) -> Result<Version, GraphError> {
    let parsed = properties::parse(&bundle.properties).map_err(|error| GraphError::Properties {
        bundle: bundle.name.to_string(),
        error,
    })?;
    let [package] = &*parsed.packages else {
        return Err(GraphError::PackageCount {
            bundle: bundle.name.to_string(),
        });
    };
    Version::parse(&package.version).map_err(|error| GraphError::Version {
        bundle: bundle.name.to_string(),
        version: package.version.to_string(),
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
        if !versions.contains_key(bundle.name.as_str()) {
            versions.insert(bundle.name.to_string(), bundle_version(bundle)?);
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

/// A version as the catalog declares it: a release read from build metadata goes
/// back where it was written (`1.0.1+2`).
pub(crate) fn shown(version: &Version, release: &Release) -> String {
    if release.is_empty() {
        version.to_string()
    } else {
        format!("{version}+{release}")
    }
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
    use serde_json::{Value, json};

    use super::*;
    use crate::model::property::Property;

    const PACKAGE: &str = "olm.package";

    #[allow(clippy::needless_pass_by_value)] // tests write `Some(json!(...))`
    fn property(kind: &str, value: Option<Value>) -> Property {
        Property::new(kind, value.as_ref())
    }

    fn bundle(properties: Vec<Property>) -> Bundle {
        Bundle {
            name: "b.v1".into(),
            properties: properties.into(),
            ..Bundle::default()
        }
    }

    #[test]
    fn reads_the_package_property() {
        let value = json!({"packageName": "p", "Version": "1.2.3", "release": "2"});
        let version = bundle_version(&bundle(vec![property(PACKAGE, Some(value))]));
        assert_eq!(version.expect("valid").to_string(), "1.2.3");
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
        // Every known property type is decoded, as in validation.
        let metadata = bundle(vec![
            property(
                PACKAGE,
                Some(json!({"packageName": "a", "version": "1.0.0"})),
            ),
            property("olm.csv.metadata", Some(json!("x"))),
        ]);
        assert_eq!(
            bundle_version(&metadata).unwrap_err().to_string(),
            "parse properties for bundle \"b.v1\": parse property[1] of type \"olm.csv.metadata\": json: cannot unmarshal string into Go value of type property.CSVMetadata"
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
