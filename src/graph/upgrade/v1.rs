//! OLM v1 (a ClusterExtension): every bundle of the selected channels whose entry
//! replaces, skips or skipRange-covers the installed bundle is a successor, and so
//! is the installed version itself; non-deprecated first, then the highest version
//! and release win (operator-controller `resolve/catalog.go`,
//! `filter/successors.go`; spec §6.4).

use std::collections::HashMap;

use crate::go::semver::{Release, Version};
use crate::model::Channel;
use crate::model::channel::ChannelEntry;

use super::package::{BundleInfo, PackageGraph, entries, heads};
use super::reason::{Channels, Reason};
use super::{Next, Position, Rules, Step, cover_of};

pub(crate) struct V1<'a> {
    graph: &'a PackageGraph<'a>,
    /// The selected channels, or every channel of the package.
    channels: Vec<&'a Channel>,
    /// The entries of those channels by bundle name, in channel then entry order.
    entries: HashMap<&'a str, Vec<(&'a Channel, &'a ChannelEntry)>>,
    selected: bool,
    /// The target of the path: candidates are capped at its version (a
    /// `ClusterExtension` with `version: "<=T"`), and once the target itself is a
    /// successor it is taken (the version pinned to T).
    target: Option<(&'a str, Version)>,
    /// Where to look for candidates without reading every bundle (positions in
    /// `graph.bundles`): those whose entries replace or skip a name, those whose
    /// entries have a skipRange, and those of a version and release.
    upgrading: HashMap<&'a str, Vec<usize>>,
    ranged: Vec<usize>,
    by_version: HashMap<(&'a Version, &'a Release), Vec<usize>>,
}

/// A bundle that can be picked, with the edge that offers it (none when it is
/// offered only for having the installed version and release).
struct Candidate<'a> {
    bundle: &'a BundleInfo<'a>,
    step: Option<Step<'a>>,
    deprecated: bool,
}

impl<'a> V1<'a> {
    pub(crate) fn new(
        graph: &'a PackageGraph<'a>,
        selected: Vec<&'a Channel>,
        target: Option<(&'a str, Version)>,
    ) -> Self {
        let is_selected = !selected.is_empty();
        let channels = if is_selected {
            selected
        } else {
            graph.channels.clone()
        };
        let mut by_bundle: HashMap<&str, Vec<_>> = HashMap::new();
        for &channel in &channels {
            for entry in entries(channel) {
                by_bundle
                    .entry(entry.name.as_str())
                    .or_default()
                    .push((channel, entry));
            }
        }
        let mut upgrading: HashMap<&str, Vec<usize>> = HashMap::new();
        let mut ranged = Vec::new();
        let mut by_version: HashMap<_, Vec<usize>> = HashMap::new();
        for (index, bundle) in graph.bundles.iter().enumerate() {
            by_version
                .entry((&bundle.version, &bundle.release))
                .or_default()
                .push(index);
            let Some(entries) = by_bundle.get(bundle.name) else {
                continue;
            };
            let mut with_range = false;
            for (_, entry) in entries {
                let targets = std::iter::once(&entry.replaces).chain(entry.skips.iter());
                for target in targets.filter(|target| !target.is_empty()) {
                    upgrading.entry(target.as_str()).or_default().push(index);
                }
                with_range |= !entry.skip_range.is_empty();
            }
            if with_range {
                ranged.push(index);
            }
        }
        Self {
            graph,
            channels,
            entries: by_bundle,
            selected: is_selected,
            target,
            upgrading,
            ranged,
            by_version,
        }
    }

    /// Positions of the bundles that may succeed `at` (a superset of the
    /// candidates), in catalog order.
    fn maybe_successors(&self, at: &Position) -> Vec<usize> {
        let mut positions: Vec<usize> = self.ranged.clone();
        if let Some(found) = self.upgrading.get(at.name.as_str()) {
            positions.extend_from_slice(found);
        }
        if let Some(version) = &at.version
            && let Some(found) = self.by_version.get(&(version, &at.release))
        {
            positions.extend_from_slice(found);
        }
        positions.sort_unstable();
        positions.dedup();
        positions
    }

    pub(crate) fn channel_names(&self) -> Vec<&'a str> {
        self.channels.iter().map(|c| c.name.as_str()).collect()
    }

    fn in_channels(&self, name: &str) -> bool {
        self.entries.contains_key(name)
    }

    /// The first edge (channel order, then replaces, skips, skipRange) by which
    /// `bundle` succeeds `at`.
    fn edge(&self, bundle: &str, at: &Position) -> Option<Step<'a>> {
        self.entries
            .get(bundle)?
            .iter()
            .find_map(|&(channel, entry)| {
                let kind = cover_of(entry, at)?;
                Some(Step::new(self.graph, at, entry, channel, kind))
            })
    }

    /// Candidates in OLM v1's order: not deprecated first, then highest version and
    /// release; ties keep catalog order (a stable sort).
    fn candidates(&self, at: &Position) -> Vec<Candidate<'a>> {
        let mut candidates: Vec<Candidate<'a>> = Vec::new();
        for bundle in self
            .maybe_successors(at)
            .into_iter()
            .map(|index| &self.graph.bundles[index])
        {
            if self.selected && !self.in_channels(bundle.name) {
                continue;
            }
            if self
                .target
                .as_ref()
                .is_some_and(|(_, ceiling)| bundle.version > *ceiling)
            {
                continue;
            }
            let step = self.edge(bundle.name, at);
            let same = at.version.as_ref() == Some(&bundle.version) && at.release == bundle.release;
            if step.is_some() || same {
                candidates.push(Candidate {
                    bundle,
                    step,
                    deprecated: self.graph.is_deprecated(bundle.name),
                });
            }
        }
        candidates.sort_by(|a, b| {
            a.deprecated
                .cmp(&b.deprecated)
                .then_with(|| b.bundle.version.cmp(&a.bundle.version))
                .then_with(|| b.bundle.release.cmp(&a.bundle.release))
        });
        candidates
    }

    fn channels(&self) -> Channels {
        if self.selected {
            Channels::Named(self.channel_names().iter().map(|&c| c.to_owned()).collect())
        } else {
            Channels::All
        }
    }
}

impl<'a> Rules<'a> for V1<'a> {
    fn next(&self, at: &Position) -> Next<'a> {
        let mut candidates = self.candidates(at);
        if let Some((target, _)) = self.target
            && let Some(index) = candidates
                .iter()
                .position(|c| c.bundle.name == target && c.step.is_some())
        {
            // Pinning the version to the target leaves it the only candidate.
            let pinned = candidates.remove(index);
            candidates.insert(0, pinned);
        }
        let mut ranked = candidates.into_iter();
        let Some(first) = ranked.next() else {
            return Next::Stay;
        };
        // The installed version itself ranking first means: stay.
        let Some(mut step) = first.step.filter(|_| first.bundle.name != at.name) else {
            return Next::Stay;
        };
        for other in ranked.filter(|other| other.step.is_some()) {
            step.offer(other.bundle.name);
        }
        Next::Step(step)
    }

    fn is_head(&self, name: &str) -> bool {
        self.channels
            .iter()
            .any(|channel| heads(channel).contains(&name))
    }

    fn successors(&self, at: &Position) -> Vec<&'a str> {
        self.candidates(at)
            .into_iter()
            .map(|candidate| candidate.bundle.name)
            .filter(|&name| name != at.name)
            .collect()
    }

    fn explain(&self, at: &Position) -> Vec<Reason> {
        let successors: Vec<String> = self
            .candidates(at)
            .into_iter()
            .filter(|candidate| candidate.step.is_some() && candidate.bundle.name != at.name)
            .map(|candidate| {
                let deprecated = if candidate.deprecated {
                    ", deprecated"
                } else {
                    ""
                };
                format!(
                    "{} ({}{deprecated})",
                    candidate.bundle.name, candidate.bundle.version
                )
            })
            .collect();
        let mut reasons = Vec::new();
        if !self.in_channels(&at.name) {
            reasons.push(Reason::NotInChannels {
                bundle: at.label(),
                channels: self.channels(),
            });
        }
        if successors.is_empty() {
            reasons.push(Reason::NoEdge {
                bundle: at.label(),
                version: at.version.clone(),
                channels: self.channels(),
            });
        } else {
            reasons.push(Reason::Stays {
                bundle: at.label(),
                successors,
            });
        }
        reasons
    }
}
