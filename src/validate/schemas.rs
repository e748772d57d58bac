//! The JSON Schemas of `schemas/`, embedded in the binary, applied to the values of
//! the bundle properties opm knows. opm decodes those values leniently (missing
//! fields are empty, unknown fields are dropped, constraints are not checked at all),
//! so a schema finding is a warning: the verdict stays opm's. A bundle that already
//! has an error gets no schema findings, so that one problem is reported once.
//!
//! The blob schemas (`olm.package`, `olm.channel`, `olm.bundle`, `olm.deprecations`,
//! `fbc.schema.json`) are for editors: fbc's own checks of those blobs are opm's rules,
//! with exact locations.

use std::sync::LazyLock;

use rayon::prelude::*;
use serde_json::Value;

use crate::catalog::{Catalog, Located};
use crate::model::Bundle;

use super::finding::{Collector, Finding, Rule};
use super::json_schema::Schema;

/// Property type and schema text.
pub(super) const PROPERTY_SCHEMAS: [(&str, &str); 7] = [
    (
        "olm.package",
        include_str!("../../schemas/property.olm.package.schema.json"),
    ),
    (
        "olm.gvk",
        include_str!("../../schemas/property.olm.gvk.schema.json"),
    ),
    (
        "olm.gvk.required",
        include_str!("../../schemas/property.olm.gvk.required.schema.json"),
    ),
    (
        "olm.package.required",
        include_str!("../../schemas/property.olm.package.required.schema.json"),
    ),
    (
        "olm.bundle.object",
        include_str!("../../schemas/property.olm.bundle.object.schema.json"),
    ),
    (
        "olm.csv.metadata",
        include_str!("../../schemas/property.olm.csv.metadata.schema.json"),
    ),
    (
        "olm.constraint",
        include_str!("../../schemas/property.olm.constraint.schema.json"),
    ),
];

/// Each property schema, compiled once.
static VALIDATORS: LazyLock<Vec<(&'static str, Schema)>> = LazyLock::new(|| {
    PROPERTY_SCHEMAS
        .iter()
        .map(|(kind, text)| {
            let schema: Value = serde_json::from_str(text).expect("the embedded schemas are JSON");
            let schema = Schema::compile(&schema).expect("the embedded schemas compile");
            (*kind, schema)
        })
        .collect()
});

fn validator(kind: &str) -> Option<&'static Schema> {
    VALIDATORS
        .iter()
        .find(|(known, _)| *known == kind)
        .map(|(_, validator)| validator)
}

/// Whether a value's JSON text certainly matches the schema of the property type
/// `kind` (`true` for types without one; `false` also where unsure).
pub(crate) fn matches_text(kind: &str, text: &str) -> bool {
    validator(kind).is_none_or(|validator| validator.matches_text(text))
}

/// Checks the property values of the bundles at `bundles` (indices into the
/// catalog's list), skipping those the collector already has an error for.
pub(crate) fn check(catalog: &Catalog, bundles: &[u32], collector: &mut Collector) {
    let failed = collector.failed_bundles();
    // Bundles are checked in parallel (each decodes its values); findings keep
    // the bundles' order.
    let findings: Vec<Finding> = bundles
        .par_iter()
        .map(|index| &catalog.bundles[*index as usize])
        .filter(|bundle| {
            let item = &bundle.item;
            !failed.contains(&item.package, &item.name)
        })
        .flat_map_iter(bundle_findings)
        .collect();
    drop(failed);
    collector.extend(findings);
}

/// The schema findings of one bundle's property values.
fn bundle_findings(bundle: &Located<Bundle>) -> Vec<Finding> {
    let item = &bundle.item;
    let mut findings = Vec::new();
    for (index, property) in item.properties.iter().enumerate() {
        let Some(validator) = validator(&property.kind) else {
            continue;
        };
        if property.passed_load_check() {
            continue;
        }
        let Some(value) = property.value() else {
            continue;
        };
        for error in validator.errors(&value) {
            let message = format!(
                "{} property at /properties/{index}/value{}: {}",
                property.kind, error.path, error.message
            );
            let help = format!(
                "opm reads this value without complaint, but it does not match \
                     schemas/property.{}.schema.json",
                property.kind
            );
            findings.push(
                Finding::new(Rule::SchemaProperty, message)
                    .package(&item.package)
                    .bundle(&item.name)
                    .at(&bundle.location)
                    .help(help),
            );
        }
    }
    findings
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn errors(kind: &str, value: &Value) -> Vec<String> {
        let validator = validator(kind).expect("a known property type");
        let mut errors: Vec<String> = validator
            .errors(value)
            .into_iter()
            .map(|error| format!("{}: {}", error.path, error.message))
            .collect();
        errors.sort();
        errors
    }

    /// On every property of the corpus's catalogs, the check of the value's text
    /// says what the check of its tree says.
    #[test]
    fn the_text_check_agrees_on_the_corpus() {
        let Some(catalogs) = crate::catalog::corpus_catalogs() else {
            return;
        };
        let mut checked = 0;
        for catalog in &catalogs {
            for bundle in &catalog.bundles {
                for property in &*bundle.item.properties {
                    let (Some(text), Some(value)) = (property.stored_text(), property.value())
                    else {
                        continue;
                    };
                    let matches = validator(&property.kind)
                        .is_none_or(|validator| validator.errors(&value).is_empty());
                    assert_eq!(matches_text(&property.kind, &text), matches, "{text}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000, "{checked} values checked");
    }

    #[test]
    fn every_embedded_schema_compiles() {
        assert_eq!(VALIDATORS.len(), PROPERTY_SCHEMAS.len());
    }

    #[test]
    fn property_values_are_checked_against_their_schema() {
        assert!(
            errors(
                "olm.package",
                &json!({"packageName": "foo", "version": "1.0.0"})
            )
            .is_empty()
        );
        assert_eq!(
            errors(
                "olm.package",
                &json!({"packageName": "foo", "verison": "1.0.0"})
            ),
            [
                ": \"version\" is a required property",
                ": Additional properties are not allowed ('verison' was unexpected)"
            ]
        );
        assert_eq!(
            errors("olm.gvk", &json!({"group": "g", "kind": "K"})),
            [": \"version\" is a required property"]
        );
        let cel = json!({"cel": {"rule": "true"}, "failureMessage": "no"});
        assert!(errors("olm.constraint", &cel).is_empty());
        let nested = json!({"all": {"constraints": [{"gvk": {"group": "g", "version": "v1", "kind": "K"}}, {"not": {"constraints": [{"package": {"packageName": "p"}}]}}]}});
        assert_eq!(
            errors("olm.constraint", &nested),
            [
                "/all/constraints/1/not/constraints/0/package: \"versionRange\" is a required property"
            ]
        );
        assert_eq!(errors("olm.constraint", &json!({})).len(), 1);
    }
}
