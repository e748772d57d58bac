//! `fbc diff OLD NEW`: what a catalog change does, package by package, and what it
//! does to the clusters that run OLD: every installation OLD allows is walked under
//! OLM classic's and OLM v1's rules in NEW, and the changes that take installations
//! off their way to the channel head are the problems that fail the check.

pub(crate) mod catalogs;
pub(crate) mod changes;
pub(crate) mod impact;
pub(crate) mod report;

use std::collections::BTreeSet;

use rayon::prelude::*;

use crate::catalog::{Catalog, Location};
use crate::go::fmt::quote;
use crate::go::semver::Version;
use crate::graph::deprecations::Deprecations;
use crate::graph::error::GraphError;
use crate::graph::upgrade::Semantics;
use crate::graph::upgrade::package::{PackageGraph, Packages};

use changes::{ChannelDiff, PackageDiff, Status, index, package_diff};
use impact::{Installation, Reach, Sides, installations};

/// A kind of change that can break installations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Rule {
    PackageRemoved,
    ChannelRemoved,
    InstallationStranded,
    InstallationStuck,
    HeadMovedBack,
    HeadRemoved,
    BundleChanged,
}

impl Rule {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::PackageRemoved => "package-removed",
            Self::ChannelRemoved => "channel-removed",
            Self::InstallationStranded => "installation-stranded",
            Self::InstallationStuck => "installation-stuck",
            Self::HeadMovedBack => "head-moved-back",
            Self::HeadRemoved => "head-removed",
            Self::BundleChanged => "bundle-changed",
        }
    }

    /// Whether the problem fails the check unless allowed.
    pub(crate) fn is_error(self) -> bool {
        self != Self::HeadRemoved
    }
}

/// One finding of the check.
#[derive(Debug)]
pub(crate) struct Problem {
    pub(crate) rule: Rule,
    pub(crate) package: String,
    pub(crate) channel: Option<String>,
    pub(crate) bundle: Option<String>,
    pub(crate) message: String,
    pub(crate) location: Option<Location>,
    /// Accepted with `--allow`: reported, but the check passes.
    pub(crate) allowed: bool,
}

impl Problem {
    pub(crate) fn fails(&self) -> bool {
        self.rule.is_error() && !self.allowed
    }

    /// What the reports call it: `error`, `warning`, or `allowed` (by `--allow`).
    pub(crate) fn level(&self) -> &'static str {
        if self.allowed {
            "allowed"
        } else if self.rule.is_error() {
            "error"
        } else {
            "warning"
        }
    }
}

/// A changed package with what it does to installations.
#[derive(Debug)]
pub(crate) struct PackageReport<'a> {
    pub(crate) diff: PackageDiff<'a>,
    pub(crate) installations: Vec<Installation<'a>>,
    pub(crate) problems: Vec<Problem>,
}

/// What the reports of all packages add up to: all that is kept of them once
/// each has been written.
#[derive(Debug, Default, Clone)]
pub(crate) struct Totals {
    pub(crate) packages: usize,
    pub(crate) added: usize,
    pub(crate) removed: usize,
    pub(crate) changed: usize,
    /// Installations checked, and those that no longer reach the head.
    pub(crate) checked: usize,
    pub(crate) broken: usize,
    /// Problems that fail the check, warnings, and problems allowed.
    pub(crate) failing: usize,
    pub(crate) warnings: usize,
    pub(crate) allowed: usize,
}

impl Totals {
    fn add(&mut self, report: &PackageReport) {
        self.packages += 1;
        match report.diff.status {
            Status::Added => self.added += 1,
            Status::Removed => self.removed += 1,
            Status::Changed => self.changed += 1,
        }
        // Installations are told apart by package, channel and bundle: those of
        // different packages never coincide, so the counts add up.
        let (checked, broken) = report.counts();
        self.checked += checked;
        self.broken += broken;
        for problem in &report.problems {
            if problem.fails() {
                self.failing += 1;
            }
            if problem.allowed {
                self.allowed += 1;
            } else if !problem.rule.is_error() {
                self.warnings += 1;
            }
        }
    }

    pub(crate) fn fails(&self) -> bool {
        self.failing > 0
    }
}

impl PackageReport<'_> {
    /// Installations (channel, bundle) checked, and those that lose their way to
    /// the head under some runtime.
    pub(crate) fn counts(&self) -> (usize, usize) {
        let mut all = BTreeSet::new();
        let mut broken = BTreeSet::new();
        for installation in &self.installations {
            let key = (installation.channel, installation.from);
            all.insert(key);
            if installation.broken() {
                broken.insert(key);
            }
        }
        (all.len(), broken.len())
    }
}

/// What became of one catalog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CatalogStatus {
    /// Compared, and some package differs.
    Changed,
    Unchanged,
    /// Only NEW has it.
    Added,
    /// Only OLD has it.
    Removed,
    /// One of its sides could not be read (the error is among the outcome's).
    Failed(String),
}

impl CatalogStatus {
    pub(crate) fn as_str(&self) -> &'static str {
        match self {
            CatalogStatus::Changed => "changed",
            CatalogStatus::Unchanged => "unchanged",
            CatalogStatus::Added => "added",
            CatalogStatus::Removed => "removed",
            CatalogStatus::Failed(_) => "failed",
        }
    }
}

/// What the comparison looks at.
pub(crate) struct Options<'o> {
    pub(crate) old: String,
    pub(crate) new: String,
    pub(crate) semantics: Vec<Semantics>,
    pub(crate) allow: &'o [Rule],
    /// The git revisions the sides were read from.
    pub(crate) revisions: Vec<String>,
}

/// How many packages are compared at once: enough to keep the cores busy, few
/// enough that their reports (every installation with its path) stay small.
const WINDOW: usize = 256;

/// Compares two catalogs and hands each differing package's report to `each`, in
/// name order; packages are compared (and their installations walked) in
/// parallel, a window at a time, and each report is dropped once handed over, so
/// memory does not grow with the number of packages that differ.
pub(crate) fn compare(
    (old, new): (&Catalog, &Catalog),
    (old_deprecations, new_deprecations): (&Deprecations, &Deprecations),
    options: &Options,
    mut each: impl FnMut(&PackageReport) -> std::io::Result<()>,
) -> Result<Totals, Failed> {
    let (before, after) = (index(old), index(new));
    let mut names: Vec<&str> = before
        .names()
        .iter()
        .chain(after.names())
        .copied()
        .collect();
    names.sort_unstable();
    names.dedup();
    let new_is_empty = new.bundles.is_empty();
    let (old_packages, new_packages) = (Packages::new(old), Packages::new(new));
    let mut totals = Totals::default();
    for window in names.chunks(WINDOW) {
        let reports = window
            .par_iter()
            .filter_map(|name| package_diff(name, before.get(name), after.get(name)))
            .map(|diff| {
                let old_graph = PackageGraph::indexed(&old_packages, diff.name, old_deprecations)?;
                let new_graph = PackageGraph::indexed(&new_packages, diff.name, new_deprecations)?;
                let installations = match &old_graph {
                    Some(graph) => {
                        let sides = Sides {
                            old: graph,
                            new: new_graph.as_ref(),
                            new_is_empty,
                        };
                        installations(&sides, &options.semantics)
                    }
                    None => Vec::new(),
                };
                let mut problems = problems(
                    &diff,
                    &installations,
                    old_graph.as_ref(),
                    new_graph.as_ref(),
                );
                for problem in &mut problems {
                    problem.allowed = options.allow.contains(&problem.rule);
                }
                Ok(PackageReport {
                    diff,
                    installations,
                    problems,
                })
            })
            .collect::<Result<Vec<_>, GraphError>>()?;
        for report in &reports {
            totals.add(report);
            each(report)?;
        }
    }
    Ok(totals)
}

/// Why a comparison stopped: a graph fbc cannot build, or its report could not be
/// written.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub(crate) enum Failed {
    #[error(transparent)]
    #[diagnostic(transparent)]
    Graph(#[from] GraphError),
    #[error("writing the report: {0}")]
    #[diagnostic(code(fbc::diff::write))]
    Write(#[from] std::io::Error),
}

/// The problems of one package as they are found.
struct Found<'p> {
    package: &'p str,
    problems: Vec<Problem>,
}

impl Found<'_> {
    fn push(
        &mut self,
        rule: Rule,
        (channel, bundle): (Option<&str>, Option<&str>),
        message: String,
        location: Option<&Location>,
    ) {
        self.problems.push(Problem {
            rule,
            package: self.package.to_owned(),
            channel: channel.map(str::to_owned),
            bundle: bundle.map(str::to_owned),
            message,
            location: location.cloned(),
            allowed: false,
        });
    }
}

/// The problems of one package: removals under installations, heads moved back or
/// removed, installations that lose their way to the head (one problem per bundle,
/// whichever runtime loses it), bundles changed in place.
fn problems(
    diff: &PackageDiff,
    installations: &[Installation],
    old: Option<&PackageGraph>,
    new: Option<&PackageGraph>,
) -> Vec<Problem> {
    let package = diff.name;
    let mut found = Found {
        package,
        problems: Vec::new(),
    };
    if diff.status == Status::Removed {
        if !installations.is_empty() {
            let entries: BTreeSet<(&str, &str)> =
                installations.iter().map(|i| (i.channel, i.from)).collect();
            found.push(
                Rule::PackageRemoved,
                (None, None),
                format!(
                    "package {} is removed while {} channel entries can be installed from it; their subscriptions fail to resolve (OLM keeps running the installed bundles)",
                    quote(package),
                    entries.len()
                ),
                diff.location.as_ref(),
            );
        }
        return found.problems;
    }
    for channel in &diff.channels {
        channel_problems(&mut found, channel, installations, (old, new));
    }
    lost_paths(&mut found, installations, diff);
    for bundle in &diff.bundles_changed {
        let mut what = Vec::new();
        if let Some((before, after)) = bundle.image {
            what.push(format!("image {before} -> {after}"));
        }
        if !bundle.properties.is_empty() {
            what.push(format!("properties {}", bundle.properties.join(", ")));
        }
        if bundle.related_images {
            what.push("related images".to_owned());
        }
        found.push(
            Rule::BundleChanged,
            (None, Some(bundle.name)),
            format!(
                "bundle {} changed under the same name ({}); clusters that run it keep the old one",
                bundle.name,
                what.join("; ")
            ),
            Some(&bundle.location),
        );
    }
    found.problems
}

/// A channel removed under installations, or whose head moved back or was removed.
fn channel_problems(
    found: &mut Found,
    channel: &ChannelDiff,
    installations: &[Installation],
    (old, new): (Option<&PackageGraph>, Option<&PackageGraph>),
) {
    let name = channel.name;
    if channel.status == Status::Removed {
        let bundles: BTreeSet<&str> = installations
            .iter()
            .filter(|i| i.channel == name)
            .map(|i| i.from)
            .collect();
        if !bundles.is_empty() {
            let message = format!(
                "channel {} of package {} is removed; subscriptions on it ({} bundle(s)) fail to resolve until they name another channel",
                quote(name),
                quote(found.package),
                bundles.len()
            );
            found.push(
                Rule::ChannelRemoved,
                (Some(name), None),
                message,
                channel.location.as_ref(),
            );
        }
        return;
    }
    let (Some(before), Some(after)) = (&channel.head_before, &channel.head_after) else {
        return;
    };
    if before == after {
        return;
    }
    let version = |graph: Option<&PackageGraph>, name: &str| -> Option<Version> {
        graph?.version(name).cloned()
    };
    if let (Some(b), Some(a)) = (version(old, before), version(new, after))
        && a < b
    {
        let message = format!(
            "the head of channel {} moves back from {before} to {after}, a lower version; OLM never downgrades the installations on newer bundles",
            quote(name)
        );
        found.push(
            Rule::HeadMovedBack,
            (Some(name), Some(after)),
            message,
            channel.location.as_ref(),
        );
    }
    if channel.removed.contains(&before.as_str()) {
        let message = format!(
            "the head {before} of channel {} is removed; the new head is {after}",
            quote(name)
        );
        found.push(
            Rule::HeadRemoved,
            (Some(name), Some(before)),
            message,
            channel.location.as_ref(),
        );
    }
}

/// Installations that reached the head in OLD and do not in NEW, one problem per
/// bundle and channel (channel and package removals are reported once, above), at
/// the channel in NEW.
fn lost_paths(found: &mut Found, installations: &[Installation], diff: &PackageDiff) {
    let mut keys: Vec<(&str, &str)> = installations
        .iter()
        .filter(|i| i.broken() && matches!(i.reaches_head, Reach::No))
        .map(|i| (i.channel, i.from))
        .collect();
    keys.sort_unstable();
    keys.dedup();
    for (channel, from) in keys {
        let runs: Vec<&Installation> = installations
            .iter()
            .filter(|i| i.channel == channel && i.from == from)
            .collect();
        let in_new = runs.iter().any(|i| i.in_new);
        let head = runs
            .iter()
            .find_map(|i| i.new_head.clone())
            .unwrap_or_default();
        let verdicts: Vec<String> = runs
            .iter()
            .map(|i| {
                let end = i.path.last();
                let how = match (&i.error, i.broken()) {
                    (Some(error), _) => format!("fails to resolve: {error}"),
                    (None, false) => "reaches it".to_owned(),
                    (None, true) if end == from => "stays on it without an error".to_owned(),
                    (None, true) => format!("stops at {end}"),
                };
                format!("OLM {}: {how}", i.semantics.as_str())
            })
            .collect();
        let (rule, state) = if in_new {
            (Rule::InstallationStuck, "is still in channel")
        } else {
            (Rule::InstallationStranded, "is no longer in channel")
        };
        let message = format!(
            "{from} {state} {} and no longer reaches its head {head}; {}",
            quote(channel),
            verdicts.join("; ")
        );
        let location = diff
            .channels
            .iter()
            .find(|c| c.name == channel)
            .and_then(|c| c.location.as_ref())
            .or(diff.location.as_ref());
        found.push(rule, (Some(channel), Some(from)), message, location);
    }
}
