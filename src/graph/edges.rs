//! Upgrade edges of a channel: `replaces`, `skips` and `skipRange`, each pointing
//! from the bundle one upgrades from to the entry that declares the edge.

use std::collections::{HashMap, HashSet};

use crate::go::fmt::quote;
use crate::go::semver::Version;
use crate::go::semver::range::Range;
use crate::model::channel::ChannelEntry;

/// How an entry declares that it upgrades another bundle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) enum EdgeKind {
    Replaces,
    Skips,
    SkipRange,
}

/// One edge `from` -> `to` in a channel; `to` is the entry that declares it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Edge<'a> {
    pub(crate) from: &'a str,
    pub(crate) to: &'a str,
    pub(crate) kind: EdgeKind,
    /// The declaring entry's range, for `SkipRange` edges.
    pub(crate) skip_range: Option<&'a str>,
}

/// The edges of a channel in entry order (per entry: replaces, skips, skipRange).
/// A skipRange covers the other entries of the channel whose bundle version is
/// known and in range; a range that does not parse gives a warning and no edges.
pub(crate) fn channel_edges<'a>(
    package: &str,
    entries: &'a [ChannelEntry],
    versions: &HashMap<String, Version>,
    warnings: &mut Vec<String>,
) -> Vec<Edge<'a>> {
    let mut edges = Vec::new();
    for entry in entries {
        let edge = |from: &'a str, kind, skip_range| Edge {
            from,
            to: &entry.name,
            kind,
            skip_range,
        };
        if !entry.replaces.is_empty() {
            edges.push(edge(&entry.replaces, EdgeKind::Replaces, None));
        }
        for skip in &entry.skips {
            edges.push(edge(skip, EdgeKind::Skips, None));
        }
        if entry.skip_range.is_empty() {
            continue;
        }
        match Range::parse(&entry.skip_range) {
            Ok(range) => {
                let covered = entries.iter().filter(|other| {
                    other.name != entry.name
                        && versions
                            .get(other.name.as_str())
                            .is_some_and(|v| range.contains(v))
                });
                for other in covered {
                    edges.push(edge(
                        &other.name,
                        EdgeKind::SkipRange,
                        Some(&entry.skip_range),
                    ));
                }
            }
            Err(error) => warnings.push(format!(
                "warning: ignoring invalid SkipRange for package/edge {}/{}: {error}",
                quote(package),
                quote(&entry.name)
            )),
        }
    }
    edges
}

/// Which edge of `entry` lets a bundle named `name` at `version` upgrade to it, in
/// the order replaces, skips, skipRange. An unparsable range covers nothing.
pub(crate) fn covering_edge(
    entry: &ChannelEntry,
    name: &str,
    version: Option<&Version>,
) -> Option<EdgeKind> {
    if entry.name == name {
        return None;
    }
    if !name.is_empty() && entry.replaces == name {
        return Some(EdgeKind::Replaces);
    }
    if !name.is_empty() && entry.skips.iter().any(|skip| skip == name) {
        return Some(EdgeKind::Skips);
    }
    let in_range = |version: &Version| {
        !entry.skip_range.is_empty()
            && Range::parse(&entry.skip_range).is_ok_and(|range| range.contains(version))
    };
    version.is_some_and(in_range).then_some(EdgeKind::SkipRange)
}

/// The bundles a channel's drawing shows: its entries newest first (by version,
/// then name), then the bundles only its edges name, in edge order.
pub(crate) fn drawn_names<'a>(
    entries: &'a [ChannelEntry],
    edges: &[Edge<'a>],
    versions: &HashMap<String, Version>,
) -> Vec<&'a str> {
    let mut names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
    names.sort_by(|a, b| {
        versions
            .get(*b)
            .cmp(&versions.get(*a))
            .then_with(|| a.cmp(b))
    });
    let mut seen: HashSet<&str> = names.iter().copied().collect();
    for edge in edges {
        if seen.insert(edge.from) {
            names.push(edge.from);
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str, replaces: &str, skips: &[&str], skip_range: &str) -> ChannelEntry {
        ChannelEntry {
            name: name.into(),
            replaces: replaces.into(),
            skips: skips.iter().map(|s| (*s).into()).collect(),
            skip_range: skip_range.into(),
        }
    }

    fn version(text: &str) -> Version {
        Version::parse(text).expect("valid version")
    }

    #[test]
    fn lists_every_kind_of_edge() {
        let entries = vec![
            entry("e.v0.9.0", "", &[], ""),
            entry("e.v0.9.1", "", &[], ""),
            entry("e.v0.9.2", "e.v0.9.0", &["e.v0.9.1"], ">=0.9.0 <0.9.2"),
        ];
        let versions: HashMap<String, Version> = [
            ("e.v0.9.0", "0.9.0"),
            ("e.v0.9.1", "0.9.1"),
            ("e.v0.9.2", "0.9.2"),
        ]
        .into_iter()
        .map(|(name, v)| (name.to_owned(), version(v)))
        .collect();
        let mut warnings = Vec::new();
        let edges = channel_edges("e", &entries, &versions, &mut warnings);
        let kinds: Vec<(&str, EdgeKind)> = edges.iter().map(|e| (e.from, e.kind)).collect();
        assert_eq!(
            kinds,
            [
                ("e.v0.9.0", EdgeKind::Replaces),
                ("e.v0.9.1", EdgeKind::Skips),
                ("e.v0.9.0", EdgeKind::SkipRange),
                ("e.v0.9.1", EdgeKind::SkipRange),
            ]
        );
        assert!(edges.iter().all(|e| e.to == "e.v0.9.2"));
        assert!(warnings.is_empty());
    }

    #[test]
    fn covering_edge_prefers_replaces_then_skips_then_range() {
        let candidate = entry("x.v2", "x.v1", &["x.v1b"], "<2.0.0");
        let v1 = version("1.0.0");
        assert_eq!(
            covering_edge(&candidate, "x.v1", Some(&v1)),
            Some(EdgeKind::Replaces)
        );
        assert_eq!(
            covering_edge(&candidate, "x.v1b", Some(&v1)),
            Some(EdgeKind::Skips)
        );
        assert_eq!(
            covering_edge(&candidate, "other", Some(&v1)),
            Some(EdgeKind::SkipRange)
        );
        assert_eq!(
            covering_edge(&candidate, "other", Some(&version("2.0.0"))),
            None
        );
        assert_eq!(
            covering_edge(&candidate, "x.v2", Some(&v1)),
            None,
            "not itself"
        );
    }
}
