//! opm's `model.Validate` (spec §3.3): the `invalid index` tree, built exactly as
//! opm would print it (siblings sorted by name), and a finding for each problem.
//! Problems of a bundle blob are found once per channel by opm; they become one
//! finding. Entries without a blob, and blobs that failed conversion, get tree
//! lines but no findings: their real problem is already reported.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use crate::catalog::Location;
use crate::go::fmt::quote;
use crate::go::semver::range::Range;
use crate::model::channel::ChannelEntry;

use super::chain;
use super::finding::{Collector, Finding, Rule};
use super::opm_model::{BundleBlob, Model, ModelChannel, ModelPackage};
use super::tree::{ErrorTree, StreamedRoot};

/// Validates the model of a group of packages; their problems join opm's tree
/// under `root`.
pub(crate) fn validate(model: &Model<'_>, collector: &mut Collector, root: &mut StreamedRoot) {
    for package in model.packages.values() {
        let mut checker = PackageChecker {
            package,
            collector: &mut *collector,
            reported: HashSet::new(),
        };
        if let Some(node) = checker.package_node() {
            root.push(node);
        }
    }
}

struct PackageChecker<'m, 'a> {
    package: &'m ModelPackage<'a>,
    collector: &'m mut Collector,
    /// Bundle-blob problems already turned into findings: (bundle, message).
    reported: HashSet<(&'a str, String)>,
}

impl<'a> PackageChecker<'_, 'a> {
    fn finding(&self, rule: Rule, message: &str) -> Finding {
        Finding::new(rule, message.to_owned()).package(self.package.name())
    }

    fn package_node(&mut self) -> Option<ErrorTree> {
        let package = self.package;
        let mut node = ErrorTree::node(format!("invalid package {}", quote(package.name())));
        let here = package.location();
        if !package.has_default {
            let message = "default channel must be set";
            node.push_leaf(message.to_owned());
            let finding = self
                .finding(Rule::PackageDefaultChannelMissing, message)
                .at(here);
            self.collector.push(finding);
        }
        if package.channels.is_empty() {
            let message = "package must contain at least one channel";
            node.push_leaf(message.to_owned());
            let finding = self.finding(Rule::PackageWithoutChannels, message).at(here);
            self.collector.push(finding);
        }
        for channel in package.channels.values() {
            if let Some(child) = self.channel_node(channel) {
                node.push(child);
            }
        }
        self.duplicate_versions(&mut node);
        if let Some(mark) = package.deprecation.filter(|mark| mark.message.is_empty()) {
            node.push_leaf("invalid deprecation: message must be set".to_owned());
            let finding = self
                .finding(
                    Rule::DeprecationMessageMissing,
                    "invalid deprecation: message must be set",
                )
                .at(mark.location);
            self.collector.push(finding);
        }
        node.or_none()
    }

    fn channel_node(&mut self, channel: &ModelChannel<'a>) -> Option<ErrorTree> {
        let mut node = ErrorTree::node(format!("invalid channel {}", quote(channel.name)));
        let here = channel.location_or(self.package.location());
        if channel.entries.is_empty() {
            let message = "channel must contain at least one bundle";
            node.push_leaf(message.to_owned());
            let finding = if channel.blob.is_some() {
                self.finding(Rule::ChannelEmpty, message)
            } else {
                self.finding(Rule::PackageDefaultChannelUndefined, message)
                    .help(
                        "the package's defaultChannel names no olm.channel blob of the package, \
                     so opm makes up an empty channel of that name; declare the channel or \
                     fix defaultChannel",
                    )
            };
            self.collector.push(finding.channel(channel.name).at(here));
        } else if let Some(problem) = chain::check(&channel.entries) {
            node.push_leaf(problem.message.clone());
            let mut finding = self
                .finding(problem.rule, &problem.message)
                .channel(channel.name)
                .at(here)
                .at_all(self.blob_locations(&problem.bundles));
            if problem.rule == Rule::ChannelMultipleHeads {
                finding = finding.help(
                    "a head is an entry that no other entry of the channel replaces or \
                     lists in skips (skipRange does not count); link the extra heads \
                     into the upgrade graph",
                );
            }
            self.collector.push(finding);
        }
        for (name, entry) in channel.entries.iter() {
            if let Some(child) = self.bundle_node(channel, name, entry) {
                node.push(child);
            }
        }
        if let Some(mark) = channel.deprecation.filter(|mark| mark.message.is_empty()) {
            node.push_leaf("invalid deprecation: message must be set".to_owned());
            let finding = self
                .finding(
                    Rule::DeprecationMessageMissing,
                    "invalid deprecation: message must be set",
                )
                .channel(channel.name)
                .at(mark.location);
            self.collector.push(finding);
        }
        node.or_none()
    }

    fn blob_locations(&self, bundles: &[&str]) -> Vec<&'a Location> {
        bundles
            .iter()
            .filter_map(|name| self.package.bundles.get(name))
            .map(|blob| &blob.blob.location)
            .collect()
    }

    fn bundle_node(
        &mut self,
        channel: &ModelChannel<'a>,
        name: &'a str,
        entry: &'a ChannelEntry,
    ) -> Option<ErrorTree> {
        let mut node = ErrorTree::node(format!("invalid bundle {}", quote(name)));
        let blob = self.package.bundles.get(name).map(AsRef::as_ref);
        let deprecation = channel.deprecated_bundles.get(name).copied();
        let problems = bundle_problems(self.package.name(), entry, blob, deprecation);
        for (rule, message, level) in problems {
            node.push_leaf(message.clone());
            let finding = self.finding(rule, &message).bundle(name);
            match level {
                Level::Entry => {
                    let finding = finding
                        .channel(channel.name)
                        .at(channel.location_or(self.package.location()))
                        .at_all(blob.map(|blob| &blob.blob.location));
                    self.collector.push(finding);
                }
                Level::Blob => {
                    let Some(blob) = blob.filter(|blob| blob.converted) else {
                        continue;
                    };
                    if self.reported.insert((name, message)) {
                        self.collector.push(finding.at(&blob.blob.location));
                    }
                }
                Level::Deprecation(location) => {
                    if self.reported.insert((name, message)) {
                        self.collector.push(finding.at(location));
                    }
                }
            }
        }
        node.or_none()
    }

    /// opm's duplicate-version check over every bundle of every channel.
    fn duplicate_versions(&mut self, node: &mut ErrorTree) {
        // Version string -> bundle names; entries without a blob are version 0.0.0.
        let mut all: BTreeMap<String, BTreeSet<&'a str>> = BTreeMap::new();
        let mut real: BTreeMap<String, BTreeSet<&'a str>> = BTreeMap::new();
        for channel in self.package.channels.values() {
            for name in channel.entries.keys() {
                let blob = self.package.bundles.get(name).map(AsRef::as_ref);
                let version = blob.map_or_else(|| "0.0.0".to_owned(), BundleBlob::version_string);
                all.entry(version.clone()).or_default().insert(name);
                if blob.is_some_and(|blob| blob.converted) {
                    real.entry(version).or_default().insert(name);
                }
            }
        }
        if let Some(message) = duplicate_message(&all) {
            node.push_leaf(message);
        }
        if let Some(message) = duplicate_message(&real) {
            let names: Vec<&str> = real
                .values()
                .filter(|names| names.len() > 1)
                .flatten()
                .copied()
                .collect();
            let finding = self
                .finding(Rule::PackageDuplicateVersions, &message)
                .at_all(self.blob_locations(&names));
            self.collector.push(finding);
        }
    }
}

/// `duplicate versions found in bundles: [{v: [a, b]} ...]`, versions sorted as text.
fn duplicate_message(versions: &BTreeMap<String, BTreeSet<&str>>) -> Option<String> {
    let groups: Vec<String> = versions
        .iter()
        .filter(|(_, names)| names.len() > 1)
        .map(|(version, names)| {
            let names: Vec<&str> = names.iter().copied().collect();
            format!("{{{version}: [{}]}}", names.join(", "))
        })
        .collect();
    (!groups.is_empty()).then(|| {
        format!(
            "duplicate versions found in bundles: [{}]",
            groups.join(" ")
        )
    })
}

/// Whose problem a bundle-node line is, which decides how it becomes a finding.
enum Level<'a> {
    /// The channel entry's (name, skips, skipRange): one finding per channel.
    Entry,
    /// The bundle blob's: one finding per bundle.
    Blob,
    /// The deprecation entry's.
    Deprecation(&'a Location),
}

/// The lines of opm's bundle node, in opm's order.
fn bundle_problems<'a>(
    package: &str,
    entry: &ChannelEntry,
    blob: Option<&BundleBlob<'_>>,
    deprecation: Option<super::opm_model::Mark<'a>>,
) -> Vec<(Rule, String, Level<'a>)> {
    let mut problems = Vec::new();
    let name = entry.name.as_str();
    if name.is_empty() {
        problems.push((
            Rule::BundleNameMissing,
            "name must be set".to_owned(),
            Level::Entry,
        ));
    }
    if let Some(blob) = blob.filter(|blob| !blob.release.is_empty()) {
        let normalized = format!("{package}-v{}", blob.version_string());
        if name != normalized {
            let message = format!(
                "name {} does not match normalized name {}",
                quote(name),
                quote(&normalized)
            );
            problems.push((Rule::BundleNameNotNormalized, message, Level::Blob));
        }
    }
    let packages = match blob.map(|blob| &blob.package_properties) {
        Some(Err(error)) => {
            problems.push((Rule::BundlePropertyInvalid, error.clone(), Level::Blob));
            None
        }
        Some(Ok(count)) => Some(*count),
        None => Some(0),
    };
    for (index, skip) in entry.skips.iter().enumerate() {
        if skip.is_empty() {
            problems.push((
                Rule::BundleSkipEmpty,
                format!("skip[{index}] is empty"),
                Level::Entry,
            ));
        }
    }
    if !entry.skip_range.is_empty()
        && let Err(error) = Range::parse(&entry.skip_range)
    {
        let message = format!("invalid skipRange {}: {error}", quote(&entry.skip_range));
        problems.push((Rule::BundleSkipRangeInvalid, message, Level::Entry));
    }
    if packages.is_some_and(|count| count != 1) {
        let message = "must be exactly one property with type \"olm.package\"".to_owned();
        problems.push((Rule::BundlePackagePropertyCount, message, Level::Blob));
    }
    if blob.is_none_or(|blob| blob.blob.item.image.is_empty() && !blob.has_objects()) {
        let message = "bundle image must be set".to_owned();
        problems.push((Rule::BundleImageMissing, message, Level::Blob));
    }
    if let Some(mark) = deprecation.filter(|mark| mark.message.is_empty()) {
        let message = "invalid deprecation: message must be set".to_owned();
        problems.push((
            Rule::DeprecationMessageMissing,
            message,
            Level::Deprecation(mark.location),
        ));
    }
    let build_and_release = blob.is_some_and(|blob| {
        !blob.release.is_empty() && blob.version.as_ref().is_some_and(|v| !v.build().is_empty())
    });
    if build_and_release {
        let message = "cannot use build metadata in version with a release version".to_owned();
        problems.push((Rule::BundleBuildMetadataWithRelease, message, Level::Blob));
    }
    problems
}
