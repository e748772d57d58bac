//! The substitutes template (`olm.template.substitutes`, spec §10.5): a valid
//! catalog plus substitutions, each a re-released bundle image that takes over the
//! channel edges of the bundle it substitutes for.

use std::collections::HashMap;

use serde_json::Value;

use super::decode::{self, Shape, Substitution};
use super::{BundleRenderer, Rendered, Source, TemplateError, load_entries};
use crate::catalog::{Catalog, Located};
use crate::go::fmt::quote;
use crate::go::semver::{Release, Version};
use crate::model::Bundle;
use crate::model::channel::ChannelEntry;
use crate::model::go_decode::{GoDecoder, match_field};
use crate::model::property::{BUNDLE_OBJECT, CSV_METADATA};

const SCHEMA: &str = "olm.template.substitutes";
const SUBSTITUTES_FOR: &str = "olm.substitutesFor";

pub(super) fn render(
    source: &Source<'_>,
    renderer: &dyn BundleRenderer,
) -> Result<Catalog, TemplateError> {
    let shape = Shape {
        go_struct: "SubstitutesTemplateData",
        go_package: "substitutes",
        substitutions: true,
    };
    let template = decode::entries_template(source.text, &shape)
        .and_then(|template| {
            if template.schema == SCHEMA {
                Ok(template)
            } else {
                Err(TemplateError::new(format!(
                    "template has unknown schema ({}), should be {}",
                    quote(&template.schema),
                    quote(SCHEMA)
                )))
            }
        })
        .map_err(|error| error.prefixed("render: unable to parse template: "))?;
    let mut catalog = load_entries(source, template.entries).map_err(|error| {
        error.prefixed("render: unable to create declarative config from entries: ")
    })?;
    if let Some(message) = invalid(&catalog) {
        return Err(TemplateError::new(format!(
            "render: entries are not valid FBC: {message}"
        )));
    }
    let references: Vec<&str> = template
        .substitutions
        .iter()
        .filter(|substitution| {
            !substitution.name.is_empty()
                && !substitution.base.is_empty()
                && substitution.name != substitution.base
        })
        .map(|substitution| substitution.name.as_str())
        .collect();
    let fetched = Rendered::fetch(renderer, &references);
    let mut bases_seen = std::collections::HashSet::new();
    let mut names_seen: HashMap<&str, &str> = HashMap::new();
    for substitution in &template.substitutions {
        if !bases_seen.insert(substitution.base.as_str()) {
            return Err(TemplateError::new(format!(
                "render: cannot reuse the same substitution base {}",
                quote(&substitution.base)
            )));
        }
        if let Some(earlier) = names_seen.insert(&substitution.name, &substitution.base) {
            return Err(TemplateError::new(format!(
                "render: cannot reuse the same substitution {} for different bases ({} and {})",
                quote(&substitution.name),
                quote(earlier),
                quote(&substitution.base)
            )));
        }
        substitute(&mut catalog, substitution, &fetched, source).map_err(|message| {
            TemplateError::new(format!(
                "render: error processing substitution {} -> {}: {message}",
                quote(&substitution.base),
                quote(&substitution.name)
            ))
            .at(source.find(&substitution.name))
        })?;
    }
    Ok(catalog)
}

/// opm's `ConvertToModel` verdict: its error text, if the catalog is not valid.
fn invalid(catalog: &Catalog) -> Option<String> {
    crate::validate::opm_message(catalog)
}

/// `processSubstitution`, after `validateSubstitution`.
fn substitute(
    catalog: &mut Catalog,
    substitution: &Substitution,
    rendered: &Rendered,
    source: &Source<'_>,
) -> Result<(), String> {
    let (name, base) = (&substitution.name, &substitution.base);
    if name.is_empty() {
        return Err("substitution name cannot be empty".to_owned());
    }
    if base.is_empty() {
        return Err("substitution base cannot be empty".to_owned());
    }
    if name == base {
        return Err("substitution name and base cannot be the same".to_owned());
    }
    let substitute = rendered.get(name).map_err(|error| {
        format!(
            "failed to render bundle image reference {}: {error}",
            quote(name)
        )
    })?;
    let substitute_release =
        version_release(&substitute.bundle, substitute.csv.as_ref()).map_err(|error| {
            format!(
                "failed to get VersionRelease for substitute bundle {}: {error}",
                quote(name)
            )
        })?;
    let Some(base_bundle) = catalog
        .bundles
        .iter()
        .find(|bundle| bundle.item.name == *base)
    else {
        return Err(format!(
            "base bundle {} does not exist in catalog",
            quote(base)
        ));
    };
    let base_release = version_release(&base_bundle.item, None).map_err(|error| {
        format!(
            "failed to get VersionRelease for base bundle {}: {error}",
            quote(base)
        )
    })?;
    if base_release >= substitute_release {
        return Err(format!(
            "base bundle {} is not less than substitute bundle {}",
            quote(base),
            quote(name)
        ));
    }
    let substitute_name = &substitute.bundle.name;
    for channel in &mut catalog.channels {
        let Some(entries) = channel.item.entries.take() else {
            continue;
        };
        let mut entries = entries.into_vec();
        take_over_edges(&mut entries, base, substitute_name);
        channel.item.entries = Some(entries.into_boxed_slice());
    }
    catalog.bundles.push(Located {
        item: substitute.bundle.clone(),
        location: source.location(source.find(name)),
    });
    match invalid(catalog) {
        Some(message) => Err(format!("resulting config is not valid FBC: {message}")),
        None => Ok(()),
    }
}

/// One channel's entries: every entry of `base` hands its edges to a new entry of
/// the substitute (appended, in reverse order of the base entries) that also skips
/// `base`; entries that replaced `base` replace the substitute and skip `base`,
/// entries that skipped `base` skip the substitute instead.
fn take_over_edges(entries: &mut Vec<ChannelEntry>, base: &str, substitute: &str) {
    let original = entries.len();
    let positions: Vec<usize> = (0..original).filter(|&i| entries[i].name == base).collect();
    for &position in positions.iter().rev() {
        let old = &mut entries[position];
        let mut skips = std::mem::take(&mut old.skips).into_vec();
        skips.push(base.into());
        let added = ChannelEntry {
            name: substitute.into(),
            replaces: std::mem::take(&mut old.replaces),
            skips: skips.into_boxed_slice(),
            skip_range: std::mem::take(&mut old.skip_range),
        };
        entries.push(added);
    }
    for entry in &mut entries[..original] {
        let mut skips = std::mem::take(&mut entry.skips).into_vec();
        if entry.replaces == base {
            entry.replaces = substitute.into();
            skips.push(base.into());
        } else if skips.iter().any(|skip| skip == base) {
            skips.push(substitute.into());
            skips.retain(|skip| skip != base);
        }
        entry.skips = skips.into_boxed_slice();
    }
}

/// `Bundle.VersionRelease`: the `olm.package` version and release; a version's
/// build metadata becomes the release when the CSV says it substitutes for
/// another (OLM's legacy release scheme).
fn version_release(bundle: &Bundle, csv: Option<&Value>) -> Result<(Version, Release), String> {
    let mut found = None;
    for property in bundle.properties.iter().filter(|p| p.kind == "olm.package") {
        if found.is_some() {
            return Err("must be exactly one property of type \"olm.package\"".to_owned());
        }
        let (version, release) = package_value(property.value()).map_err(|error| {
            format!(
                "unable to unmarshal \"olm.package\" property for bundle {}: {error}",
                quote(&bundle.name)
            )
        })?;
        let parsed = Version::parse(&version).map_err(|error| {
            format!(
                "invalid semver version {} in \"olm.package\" property for bundle {}: {error}",
                quote(&version),
                quote(&bundle.name)
            )
        })?;
        let release_parsed = Release::parse(&release).map_err(|error| {
            format!(
                "invalid release {} in \"olm.package\" property for bundle {}: {error}",
                quote(&release),
                quote(&bundle.name)
            )
        })?;
        found = Some((parsed, release_parsed));
    }
    let Some((version, release)) = found else {
        return Err(format!(
            "no \"olm.package\" property found for bundle {}",
            quote(&bundle.name)
        ));
    };
    if release.is_empty() && !version.build().is_empty() && substitutes_for(bundle, csv) {
        let release = Release::parse(&version.build().join(".")).map_err(|error| {
            format!(
                "unable to convert build metadata to release for bundle {}: {error}",
                quote(&bundle.name)
            )
        })?;
        return Ok((version.without_build(), release));
    }
    Ok((version, release))
}

/// An `olm.package` value decoded into `property.Package`: version and release.
fn package_value(value: Option<Value>) -> Result<(String, String), String> {
    let Some(value) = value else {
        return Err("unexpected end of JSON input".to_owned());
    };
    let mut decoder = GoDecoder::default();
    let (mut version, mut release) = (String::new(), String::new());
    if let Some(map) = decoder.object(value, "Package", "property.Package") {
        for (key, value) in map {
            match match_field(&key, &["packageName", "version", "release"]) {
                Some("version") => {
                    version = decoder.field("version", |d| d.string(value, "Package"));
                }
                Some("release") => {
                    release = decoder.field("release", |d| d.string(value, "Package"));
                }
                Some(field) => {
                    decoder.field(field, |d| d.string(value, "Package"));
                }
                None => {}
            }
        }
    }
    decoder.finish().map(|()| (version, release))
}

/// `usesLegacyReleaseVersion`: the CSV (rendered, or in the bundle's properties)
/// carries a non-empty `olm.substitutesFor` annotation.
fn substitutes_for(bundle: &Bundle, csv: Option<&Value>) -> bool {
    let annotation = |csv: &Value| {
        csv.pointer("/metadata/annotations")
            .and_then(|annotations| annotations.get(SUBSTITUTES_FOR))
            .and_then(Value::as_str)
            .is_some_and(|value| !value.is_empty())
    };
    if let Some(csv) = csv {
        return annotation(csv);
    }
    for property in &bundle.properties {
        let Some(value) = property.value() else {
            continue;
        };
        if property.kind == CSV_METADATA {
            if let Some(Value::String(text)) = value
                .pointer("/annotations")
                .and_then(|a| a.get(SUBSTITUTES_FOR))
                && !text.is_empty()
            {
                return true;
            }
        } else if property.kind == BUNDLE_OBJECT {
            let object = value
                .get("data")
                .and_then(Value::as_str)
                .and_then(|data| crate::go::base64::decode(data.as_bytes()).ok())
                .and_then(|bytes| serde_json::from_slice::<Value>(&bytes).ok());
            if let Some(object) = object
                && object.get("kind").and_then(Value::as_str) == Some("ClusterServiceVersion")
            {
                return annotation(&object);
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str, replaces: &str, skips: &[&str], range: &str) -> ChannelEntry {
        ChannelEntry {
            name: name.into(),
            replaces: replaces.into(),
            skips: skips.iter().map(|s| (*s).into()).collect(),
            skip_range: range.into(),
        }
    }

    fn bundle(values: &[serde_json::Value]) -> Bundle {
        Bundle {
            name: "x".into(),
            properties: values
                .iter()
                .map(|value| crate::model::property::Property::new("olm.package", Some(value)))
                .collect(),
            ..Bundle::default()
        }
    }

    #[test]
    fn version_releases_fail_with_opms_texts() {
        use serde_json::json;
        let error = |values: &[Value]| version_release(&bundle(values), None).expect_err("fails");
        assert_eq!(
            error(&[]),
            "no \"olm.package\" property found for bundle \"x\""
        );
        let one = json!({"packageName": "p", "version": "1.0.0"});
        assert_eq!(
            error(&[one.clone(), one.clone()]),
            "must be exactly one property of type \"olm.package\""
        );
        assert_eq!(
            error(&[json!({"version": 1})]),
            "unable to unmarshal \"olm.package\" property for bundle \"x\": json: cannot unmarshal number into Go struct field Package.version of type string"
        );
        assert_eq!(
            error(&[json!({"version": "v1"})]),
            "invalid semver version \"v1\" in \"olm.package\" property for bundle \"x\": No Major.Minor.Patch elements found"
        );
        assert!(
            error(&[json!({"version": "1.0.0", "release": "01"})])
                .starts_with("invalid release \"01\" in \"olm.package\" property for bundle \"x\": invalid release \"01\": segment 0: ")
        );
        // Build metadata is the release only for a CSV that substitutes for another.
        let legacy = bundle(&[json!({"version": "1.0.0+2"})]);
        let csv = json!({"metadata": {"annotations": {"olm.substitutesFor": "x.v1.0.0"}}});
        let (version, release) = version_release(&legacy, Some(&csv)).expect("read");
        assert_eq!(
            (version.to_string(), release.to_string()),
            ("1.0.0".to_owned(), "2".to_owned())
        );
        let (version, release) = version_release(&legacy, None).expect("read");
        assert_eq!(
            (version.to_string(), release.to_string()),
            ("1.0.0+2".to_owned(), String::new())
        );
    }

    #[test]
    fn a_substitute_takes_over_the_edges_of_its_base() {
        // The spec's second example, substitution by substitution.
        let mut stable = vec![
            entry("foo.v1.0.0", "", &[], ""),
            entry("foo.v1.0.1", "foo.v1.0.0", &[], ">=0.9.0 <1.0.1"),
            entry("foo.v1.1.0", "foo.v1.0.0", &["foo.v1.0.1"], ""),
        ];
        take_over_edges(&mut stable, "foo.v1.0.1", "foo-v1.0.1-1");
        take_over_edges(&mut stable, "foo-v1.0.1-1", "foo-v1.0.1-2");
        assert_eq!(
            stable,
            [
                entry("foo.v1.0.0", "", &[], ""),
                entry("foo.v1.0.1", "", &[], ""),
                entry("foo.v1.1.0", "foo.v1.0.0", &["foo-v1.0.1-2"], ""),
                entry("foo-v1.0.1-1", "", &[], ""),
                entry(
                    "foo-v1.0.1-2",
                    "foo.v1.0.0",
                    &["foo.v1.0.1", "foo-v1.0.1-1"],
                    ">=0.9.0 <1.0.1"
                ),
            ]
        );
        let mut fast = vec![entry("foo.v1.0.1", "", &[], "")];
        take_over_edges(&mut fast, "foo.v1.0.1", "foo-v1.0.1-1");
        take_over_edges(&mut fast, "foo-v1.0.1-1", "foo-v1.0.1-2");
        assert_eq!(
            fast,
            [
                entry("foo.v1.0.1", "", &[], ""),
                entry("foo-v1.0.1-1", "", &[], ""),
                entry("foo-v1.0.1-2", "", &["foo.v1.0.1", "foo-v1.0.1-1"], ""),
            ]
        );
    }
}
