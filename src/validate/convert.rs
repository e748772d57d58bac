//! opm's `ConvertToModel` checks (spec §3.1), in opm's order. opm stops at the
//! first problem; here each problem becomes a finding, the blob at fault is left
//! out of the model (or kept, where leaving it out would only cause more noise),
//! and the checks go on.

use super::small_map::SmallMap;
use std::collections::BTreeSet;

use rayon::prelude::*;

use crate::catalog::{Catalog, Located};
use crate::go::fmt::quote;
use crate::go::semver::{Release, Version};
use crate::model::{Bundle, Channel, Package};

use super::dns::label_errors;
use super::finding::{Collector, Finding, Rule};
use super::group::Group;
use super::image::pull_spec_error;
use super::opm_model::{BundleBlob, Model, ModelChannel, ModelPackage};
use super::properties;

/// Builds the model of a group of packages, recording every conversion problem
/// with the rank opm would meet it at (it converts every package, then every
/// channel, then every bundle of the catalog).
pub(crate) fn convert<'a>(
    catalog: &'a Catalog,
    group: &Group<'_>,
    collector: &mut Collector,
) -> Model<'a> {
    let mut model = Model::default();
    for &index in group.packages {
        let index = index as usize;
        add_package(&mut model, &catalog.packages[index], index, collector);
    }
    for &index in group.channels {
        let index = index as usize;
        add_channel(&mut model, &catalog.channels[index], index, collector);
    }
    // Reading the properties decodes their values: done for a few thousand
    // bundles of the group at once, in parallel, before they are added in order
    // (one package can have hundreds of thousands).
    for bundles in group.bundles.chunks(4096) {
        let parsed: Vec<_> = bundles
            .par_iter()
            .map(|&index| properties::parse(&catalog.bundles[index as usize].item.properties))
            .collect();
        for (&index, parsed) in bundles.iter().zip(parsed) {
            let index = index as usize;
            add_bundle(
                &mut model,
                &catalog.bundles[index],
                index,
                parsed,
                collector,
            );
        }
    }
    check_entries_have_bundles(&model, group.number, collector);
    add_missing_default_channels(&mut model);
    model
}

fn add_package<'a>(
    model: &mut Model<'a>,
    package: &'a Located<Package>,
    index: usize,
    collector: &mut Collector,
) {
    let rank = (0, index, 0);
    let name = &*package.item.name;
    if name.is_empty() {
        collector.fail_fast(
            rank,
            Finding::new(
                Rule::PackageNameMissing,
                "config contains package with no name".into(),
            )
            .at(&package.location),
        );
        return;
    }
    if let Some(first) = model.packages.get(name) {
        collector.fail_fast(
            rank,
            Finding::new(
                Rule::PackageDuplicate,
                format!("duplicate package {}", quote(name)),
            )
            .package(name)
            .at(&package.location)
            .at(first.location()),
        );
        return;
    }
    let errors = label_errors(name);
    if !errors.is_empty() {
        // Kept in the model: its channels and bundles are still worth checking.
        collector.fail_fast(
            rank,
            Finding::new(
                Rule::PackageNameInvalid,
                format!(
                    "invalid package name {}: [{}]",
                    quote(name),
                    errors.join(" ")
                ),
            )
            .package(name)
            .at(&package.location),
        );
    }
    model.packages.insert(
        name,
        Box::new(ModelPackage {
            blob: package,
            has_default: false,
            channels: SmallMap::new(),
            bundles: SmallMap::new(),
            deprecation: None,
        }),
    );
}

fn add_channel<'a>(
    model: &mut Model<'a>,
    channel: &'a Located<Channel>,
    index: usize,
    collector: &mut Collector,
) {
    let rank = (1, index, 0);
    let (name, package_name) = (channel.item.name.as_str(), channel.item.package.as_str());
    let Some(package) = model.packages.get_mut(package_name) else {
        collector.fail_fast(
            rank,
            Finding::new(
                Rule::ChannelUnknownPackage,
                format!(
                    "unknown package {} for channel {}",
                    quote(package_name),
                    quote(name)
                ),
            )
            .channel(name)
            .at(&channel.location),
        );
        return;
    };
    let finding = |rule, message| {
        Finding::new(rule, message)
            .package(package_name)
            .channel(name)
            .at(&channel.location)
    };
    if name.is_empty() {
        let message = format!(
            "package {} contains channel with no name",
            quote(package_name)
        );
        collector.fail_fast(rank, finding(Rule::ChannelNameMissing, message));
        return;
    }
    if let Some(first) = package.channels.get(name) {
        let message = format!(
            "package {} has duplicate channel {}",
            quote(package_name),
            quote(name)
        );
        let first = first.location_or(package.location());
        collector.fail_fast(rank, finding(Rule::ChannelDuplicate, message).at(first));
        return;
    }
    let mut entries = SmallMap::new();
    let mut seen = std::collections::HashMap::new();
    for entry in channel.item.entries.iter().flatten() {
        entries.insert(entry.name.as_str(), entry);
        let seen: &mut usize = seen.entry(entry.name.as_str()).or_default();
        *seen += 1;
        if *seen > 1 {
            let message = format!(
                "invalid package {}, channel {}: duplicate entry {}",
                quote(package_name),
                quote(name),
                quote(&entry.name)
            );
            // At the duplicate itself, then its channel.
            let duplicate =
                crate::catalog::locate::entry(&channel.location, &entry.name, *seen - 1);
            let located = Finding::new(Rule::ChannelEntryDuplicate, message)
                .package(package_name)
                .channel(name)
                .bundle(&entry.name)
                .at_all(duplicate.iter())
                .at(&channel.location);
            collector.fail_fast(rank, located);
        }
    }
    // Go keeps the last entry of a duplicated name; only the error matters there.
    if &*package.blob.item.default_channel == name {
        package.has_default = true;
    }
    package.channels.insert(
        name,
        Box::new(ModelChannel {
            name,
            blob: Some(channel),
            entries,
            deprecation: None,
            deprecated_bundles: SmallMap::new(),
        }),
    );
}

fn add_bundle<'a>(
    model: &mut Model<'a>,
    bundle: &'a Located<Bundle>,
    index: usize,
    parsed: Result<properties::Parsed, String>,
    collector: &mut Collector,
) {
    let rank = (2, index, 0);
    let (name, package_name) = (bundle.item.name.as_str(), bundle.item.package.as_str());
    let finding = |rule, message| {
        Finding::new(rule, message)
            .package(package_name)
            .bundle(name)
            .at(&bundle.location)
    };
    if package_name.is_empty() {
        let message = format!("package name must be set for bundle {}", quote(name));
        collector.fail_fast(rank, finding(Rule::BundlePackageMissing, message));
        return;
    }
    let Some(package) = model.packages.get_mut(package_name) else {
        let message = format!(
            "unknown package {} for bundle {}",
            quote(package_name),
            quote(name)
        );
        collector.fail_fast(rank, finding(Rule::BundleUnknownPackage, message));
        return;
    };
    if let Some(first) = package.bundles.get(name) {
        let message = format!(
            "package {} has duplicate bundle {}",
            quote(package_name),
            quote(name)
        );
        let first = &first.blob.location;
        collector.fail_fast(rank, finding(Rule::BundleDuplicate, message).at(first));
        return;
    }
    let mut blob = BundleBlob {
        blob: bundle,
        index,
        package_properties: Ok(0),
        version: None,
        release: Release::default(),
        converted: true,
    };
    for (rule, message) in bundle_problems(&mut blob, &parsed) {
        blob.converted = false;
        collector.fail_fast(rank, finding(rule, message));
    }
    // Only their count is read later: the values themselves are not kept.
    blob.package_properties = parsed.map(|parsed| parsed.packages.len());
    let found = package
        .channels
        .values()
        .any(|channel| channel.entries.contains_key(name));
    if !found {
        let message = format!(
            "package {}, bundle {} not found in any channel entries",
            quote(package_name),
            quote(name)
        );
        collector.fail_fast(rank, finding(Rule::BundleNotInChannel, message));
    }
    package.bundles.insert(name, Box::new(blob));
}

/// The checks of one bundle blob in opm's order, given its parsed properties;
/// fills in version and release.
fn bundle_problems(
    blob: &mut BundleBlob<'_>,
    parsed: &Result<properties::Parsed, String>,
) -> Vec<(Rule, String)> {
    let bundle = &blob.blob.item;
    let (name, package) = (bundle.name.as_str(), bundle.package.as_str());
    let mut problems = Vec::new();
    let mut package_property = None;
    match parsed {
        Err(error) => problems.push((
            Rule::BundlePropertyInvalid,
            format!("parse properties for bundle {}: {error}", quote(name)),
        )),
        Ok(parsed) if parsed.packages.len() != 1 => problems.push((
            Rule::BundlePackagePropertyCount,
            format!(
                "package {} bundle {} must have exactly 1 \"olm.package\" property, found {}",
                quote(package),
                quote(name),
                parsed.packages.len()
            ),
        )),
        Ok(parsed) => {
            let property = &parsed.packages[0];
            if property.package_name != package {
                problems.push((
                    Rule::BundlePackagePropertyMismatch,
                    format!(
                        "package {} does not match \"olm.package\" property {}",
                        quote(package),
                        quote(&property.package_name)
                    ),
                ));
            }
            package_property = Some(property.clone());
        }
    }
    if let Some(error) = (!bundle.image.is_empty())
        .then(|| pull_spec_error(&bundle.image))
        .flatten()
    {
        let message = format!(
            "package {} bundle {} image: {error}",
            quote(package),
            quote(name)
        );
        problems.push((Rule::BundleImageInvalid, message));
    }
    for (index, related) in bundle.related_images.iter().enumerate() {
        if let Some(error) = (!related.image.is_empty())
            .then(|| pull_spec_error(&related.image))
            .flatten()
        {
            let message = format!(
                "package {} bundle {} relatedImages[{index}].image: {error}",
                quote(package),
                quote(name)
            );
            problems.push((Rule::BundleRelatedImageInvalid, message));
        }
    }
    if let Some(property) = package_property {
        match Version::parse(&property.version) {
            Ok(version) => blob.version = Some(version),
            Err(error) => problems.push((
                Rule::BundleVersionInvalid,
                format!(
                    "error parsing bundle {} version {}: {error}",
                    quote(name),
                    quote(&property.version)
                ),
            )),
        }
        match Release::parse(&property.release) {
            Ok(release) => blob.release = release,
            Err(error) => problems.push((
                Rule::BundleReleaseInvalid,
                format!(
                    "error parsing bundle {} release version {}: {error}",
                    quote(name),
                    quote(&property.release)
                ),
            )),
        }
    }
    problems
}

/// opm's check that every channel entry has a bundle blob. opm only looks at the
/// last channel of each package (its set of entries is overwritten per channel);
/// every channel is checked here, and only the last channel's finding counts as
/// the one opm stops at.
fn check_entries_have_bundles(model: &Model<'_>, group: usize, collector: &mut Collector) {
    for (position, package) in model.packages.values().enumerate() {
        let mut channels: Vec<&ModelChannel<'_>> = package
            .channels
            .values()
            .filter(|channel| channel.blob.is_some())
            .map(AsRef::as_ref)
            .collect();
        channels.sort_by_key(|channel| channel.blob.map(|blob| &blob.location));
        let last = channels.last().map(|channel| channel.name);
        for channel in channels {
            let missing: BTreeSet<&str> = channel
                .entries
                .keys()
                .copied()
                .filter(|entry| !package.bundles.contains_key(entry))
                .collect();
            if missing.is_empty() {
                continue;
            }
            let names: Vec<&str> = missing.iter().copied().collect();
            let mut finding = Finding::new(
                Rule::ChannelEntryWithoutBundle,
                format!(
                    "no olm.bundle blobs found in package {} for olm.channel entries [{}]",
                    quote(package.name()),
                    names.join(" ")
                ),
            )
            .package(package.name())
            .channel(channel.name)
            .at(channel.location_or(package.location()));
            if Some(channel.name) == last {
                collector.fail_fast((3, group, position), finding);
            } else {
                finding = finding.help(
                    "opm checks only the last channel of a package for this; for other \
                     channels it reports the entries as bundles without an image or an \
                     olm.package property",
                );
                collector.push(finding);
            }
        }
    }
}

/// opm makes up an empty channel for a default channel no blob declares.
fn add_missing_default_channels(model: &mut Model<'_>) {
    for package in model.packages.values_mut() {
        let name = &*package.blob.item.default_channel;
        if name.is_empty() || package.has_default {
            continue;
        }
        package.has_default = true;
        package.channels.insert(
            name,
            Box::new(ModelChannel {
                name,
                blob: None,
                entries: SmallMap::new(),
                deprecation: None,
                deprecated_bundles: SmallMap::new(),
            }),
        );
    }
}
