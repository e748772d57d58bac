//! opm's checks of `olm.deprecations` blobs (spec §3.2), run after the model is
//! built; valid entries attach their message to the package, channel or bundle.

use std::collections::{BTreeMap, BTreeSet};

use crate::catalog::{Catalog, Location};
use crate::go::fmt::quote;
use crate::model::deprecation::DeprecationEntry;

use super::finding::{Collector, Finding, Rule};
use super::group::Group;
use super::opm_model::{Mark, Model, ModelPackage};

/// Applies the deprecations of a group's packages to its model (opm applies every
/// deprecation of the catalog after converting it).
pub(crate) fn apply<'a>(
    catalog: &'a Catalog,
    group: &Group<'_>,
    model: &mut Model<'a>,
    collector: &mut Collector,
) {
    let mut seen: BTreeMap<&str, &Location> = BTreeMap::new();
    for &index in group.deprecations {
        let index = index as usize;
        let deprecation = &catalog.deprecations[index];
        let rank = (4, index, 0);
        let package_name = deprecation.item.package.as_str();
        let location = &deprecation.location;
        if package_name.is_empty() {
            collector.fail_fast(
                rank,
                Finding::new(
                    Rule::DeprecationPackageMissing,
                    format!("package name must be set for deprecation item {index}"),
                )
                .at(location),
            );
            continue;
        }
        let Some(package) = model.packages.get_mut(package_name) else {
            collector.fail_fast(
                rank,
                Finding::new(
                    Rule::DeprecationUnknownPackage,
                    format!(
                        "cannot apply deprecations to an unknown package {}",
                        quote(package_name)
                    ),
                )
                .package(package_name)
                .at(location),
            );
            continue;
        };
        if let Some(first) = seen.get(package_name) {
            collector.fail_fast(
                rank,
                Finding::new(
                    Rule::DeprecationDuplicate,
                    format!(
                        "expected a maximum of one deprecation per package: {}",
                        quote(package_name)
                    ),
                )
                .package(package_name)
                .at(location)
                .at(first),
            );
            continue;
        }
        seen.insert(package_name, location);
        let mut references = BTreeSet::new();
        for (entry_index, entry) in deprecation.item.entries.iter().flatten().enumerate() {
            let reference = (
                entry.reference_schema.as_str(),
                entry.reference_name.as_str(),
            );
            let problem = if entry.reference_schema.is_empty() {
                Some((
                    Rule::DeprecationSchemaMissing,
                    format!(
                        "schema must be set for deprecation entry [{entry_index}] for package {}",
                        quote(package_name)
                    ),
                ))
            } else if !references.insert(reference) {
                Some((
                    Rule::DeprecationEntryDuplicate,
                    format!(
                        "duplicate deprecation entry {} for package {}",
                        go_reference(entry),
                        quote(package_name)
                    ),
                ))
            } else {
                attach(package, entry, entry_index, location)
            };
            if let Some((rule, message)) = problem {
                let mut finding = Finding::new(rule, message)
                    .package(package_name)
                    .at(location);
                finding = match entry.reference_schema.as_str() {
                    "olm.bundle" => finding.bundle(&entry.reference_name),
                    "olm.channel" => finding.channel(&entry.reference_name),
                    _ => finding,
                };
                collector.fail_fast(rank, finding);
            }
        }
    }
}

/// Attaches one entry's message, or says why it cannot be.
fn attach<'a>(
    package: &mut ModelPackage<'a>,
    entry: &'a DeprecationEntry,
    index: usize,
    location: &'a Location,
) -> Option<(Rule, String)> {
    let mark = Mark {
        message: &entry.message,
        location,
    };
    let (name, package_name) = (entry.reference_name.as_str(), package.name());
    match entry.reference_schema.as_str() {
        "olm.bundle" => {
            if !package.bundles.contains_key(name) {
                return Some((
                    Rule::DeprecationUnknownBundle,
                    format!(
                        "cannot deprecate bundle {} for package {}: bundle not found",
                        quote(name),
                        quote(package_name)
                    ),
                ));
            }
            for channel in package.channels.values_mut() {
                if let Some((&entry_name, _)) = channel.entries.get_key_value(name) {
                    channel.deprecated_bundles.insert(entry_name, mark);
                }
            }
        }
        "olm.channel" => {
            let Some(channel) = package.channels.get_mut(name) else {
                return Some((
                    Rule::DeprecationUnknownChannel,
                    format!(
                        "cannot deprecate channel {} for package {}: channel not found",
                        quote(name),
                        quote(package_name)
                    ),
                ));
            };
            channel.deprecation = Some(mark);
        }
        "olm.package" => {
            if !name.is_empty() {
                return Some((
                    Rule::DeprecationPackageNameSet,
                    format!(
                        "package name must be empty for deprecated package {} (specified {})",
                        quote(package_name),
                        quote(name)
                    ),
                ));
            }
            package.deprecation = Some(mark);
        }
        _ => {
            return Some((
                Rule::DeprecationUnknownSchema,
                format!(
                    "cannot deprecate object {} referenced by entry {index} for package {}: object schema unknown",
                    go_reference(entry),
                    quote(package_name)
                ),
            ));
        }
    }
    None
}

/// Go's `%#v` of a `declcfg.PackageScopedReference`.
fn go_reference(entry: &DeprecationEntry) -> String {
    format!(
        "declcfg.PackageScopedReference{{Schema:{}, Name:{}}}",
        quote(&entry.reference_schema),
        quote(&entry.reference_name)
    )
}
