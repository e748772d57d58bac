//! Which channels and entries a graph draws: opm `render-graph`'s preparation
//! (channels sorted by name, the version map) and its `--minimum-edge` and
//! `--package-name` filters, quirks included (spec §6.1, §6.2).

use std::collections::HashMap;

use crate::catalog::Catalog;
use crate::go::semver::Version;
use crate::go::semver::range::Range;
use crate::model::channel::ChannelEntry;

use super::error::GraphError;
use super::versions::version_map;

/// The graph filters, free of clap. Empty strings mean "no filter", as in opm.
#[derive(Debug, Clone, Default)]
pub(crate) struct Filters {
    pub(crate) minimum_edge: String,
    pub(crate) package: String,
}

/// A channel as it will be drawn, entries possibly filtered.
#[derive(Debug, Clone)]
pub(crate) struct DrawnChannel {
    pub(crate) package: String,
    pub(crate) name: String,
    pub(crate) entries: Vec<ChannelEntry>,
}

/// The drawn channels in opm's processing order (by channel name) and the version
/// of every bundle name.
#[derive(Debug)]
pub(crate) struct Selection {
    pub(crate) channels: Vec<DrawnChannel>,
    pub(crate) versions: HashMap<String, Version>,
}

impl Selection {
    /// A name's version; names without a bundle are `0.0.0`, as in opm.
    pub(crate) fn version(&self, name: &str) -> Version {
        self.versions.get(name).cloned().unwrap_or_else(zero)
    }
}

pub(crate) fn zero() -> Version {
    Version::parse("0.0.0").expect("0.0.0 is a version")
}

/// opm's `WriteChannels` preparation and `filterChannel`. The error text is opm's.
pub(crate) fn select(catalog: &Catalog, filters: &Filters) -> Result<Selection, GraphError> {
    let mut channels: Vec<&crate::model::Channel> = catalog
        .channels
        .iter()
        .map(|located| &located.item)
        .collect();
    // opm's sort is unstable and its input order is not deterministic (files load
    // concurrently), so same-named channels have no fixed order there; a stable
    // sort keeps load order here.
    channels.sort_by(|a, b| a.name.cmp(&b.name));
    let versions = version_map(catalog.bundles.iter().map(|located| &located.item))?;
    let mut selection = Selection {
        channels: Vec::new(),
        versions,
    };
    let minimum = if filters.minimum_edge.is_empty() {
        None
    } else {
        let Some(version) = selection.versions.get(&filters.minimum_edge) else {
            return Err(GraphError::UnknownMinimumEdge {
                name: filters.minimum_edge.clone(),
            });
        };
        let package = channels
            .iter()
            .find(|channel| {
                entries(channel)
                    .iter()
                    .any(|e| e.name == filters.minimum_edge)
            })
            .map(|channel| channel.package.to_string())
            .unwrap_or_default();
        Some((version.clone(), package))
    };
    for channel in channels {
        let drawn = filter_channel(channel, filters, minimum.as_ref(), &selection);
        selection.channels.extend(drawn);
    }
    Ok(selection)
}

fn entries(channel: &crate::model::Channel) -> &[ChannelEntry] {
    channel.entries.as_deref().unwrap_or_default()
}

fn filter_channel(
    channel: &crate::model::Channel,
    filters: &Filters,
    minimum: Option<&(Version, String)>,
    selection: &Selection,
) -> Option<DrawnChannel> {
    let drawn = |entries| DrawnChannel {
        package: channel.package.to_string(),
        name: channel.name.to_string(),
        entries,
    };
    if minimum.is_none() && filters.package.is_empty() {
        return Some(drawn(entries(channel).to_vec()));
    }
    if !filters.package.is_empty() && channel.package != filters.package {
        return None;
    }
    if let Some((_, package)) = minimum
        && !package.is_empty()
        && channel.package != *package
    {
        return None;
    }
    let kept: Vec<ChannelEntry> = entries(channel)
        .iter()
        .filter_map(|entry| match minimum {
            None => Some(entry.clone()),
            Some((version, _)) => filter_entry(entry, &filters.minimum_edge, version, selection),
        })
        .collect();
    (!kept.is_empty()).then(|| drawn(kept))
}

/// One entry under `--minimum-edge`: the floor entry loses its edges, other entries
/// keep the edges at or above the floor, and are dropped when none is left unless
/// they never had any and are themselves at or above it.
fn filter_entry(
    entry: &ChannelEntry,
    floor_name: &str,
    floor: &Version,
    selection: &Selection,
) -> Option<ChannelEntry> {
    let mut kept = ChannelEntry {
        name: entry.name.clone(),
        ..ChannelEntry::default()
    };
    if entry.name == floor_name {
        return Some(kept);
    }
    if !entry.replaces.is_empty() && selection.version(&entry.replaces) >= *floor {
        kept.replaces.clone_from(&entry.replaces);
    }
    kept.skips = entry
        .skips
        .iter()
        .filter(|skip| selection.version(skip) >= *floor)
        .cloned()
        .collect();
    if !entry.skip_range.is_empty()
        && Range::parse(&entry.skip_range).is_ok_and(|range| range.contains(floor))
    {
        kept.skip_range.clone_from(&entry.skip_range);
    }
    let has_edges = |e: &ChannelEntry| {
        !e.replaces.is_empty() || !e.skips.is_empty() || !e.skip_range.is_empty()
    };
    if has_edges(&kept) || (!has_edges(entry) && selection.version(&entry.name) >= *floor) {
        Some(kept)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::testing::catalog;

    const CATALOG: &str = r#"
{"schema":"olm.channel","package":"p","name":"stable","entries":[{"name":"p.v3","replaces":"p.v2","skips":["p.v1"]},{"name":"p.v2","replaces":"p.v1"},{"name":"p.v1"}]}
{"schema":"olm.channel","package":"q","name":"alpha","entries":[{"name":"q.v1"}]}
{"schema":"olm.bundle","package":"p","name":"p.v1","properties":[{"type":"olm.package","value":{"packageName":"p","version":"1.0.0"}}]}
{"schema":"olm.bundle","package":"p","name":"p.v2","properties":[{"type":"olm.package","value":{"packageName":"p","version":"2.0.0"}}]}
{"schema":"olm.bundle","package":"p","name":"p.v3","properties":[{"type":"olm.package","value":{"packageName":"p","version":"3.0.0"}}]}
{"schema":"olm.bundle","package":"q","name":"q.v1","properties":[{"type":"olm.package","value":{"packageName":"q","version":"1.0.0"}}]}
"#;

    fn names(selection: &Selection) -> Vec<String> {
        selection
            .channels
            .iter()
            .map(|channel| format!("{}/{}", channel.package, channel.name))
            .collect()
    }

    #[test]
    fn channels_are_sorted_by_name() {
        let selection = select(&catalog(CATALOG), &Filters::default()).expect("valid");
        assert_eq!(names(&selection), ["q/alpha", "p/stable"]);
    }

    #[test]
    fn minimum_edge_drops_edges_below_the_floor() {
        let filters = Filters {
            minimum_edge: "p.v2".to_owned(),
            ..Filters::default()
        };
        let selection = select(&catalog(CATALOG), &filters).expect("valid");
        assert_eq!(names(&selection), ["p/stable"]);
        let entries = &selection.channels[0].entries;
        assert_eq!(entries.len(), 2, "p.v1 is below the floor: {entries:?}");
        assert_eq!(entries[0].replaces, "p.v2");
        assert!(entries[0].skips.is_empty());
        assert!(entries[1].replaces.is_empty(), "the floor keeps no edges");
    }

    #[test]
    fn unknown_minimum_edge_is_opm_error() {
        let filters = Filters {
            minimum_edge: "nope".to_owned(),
            ..Filters::default()
        };
        let error = select(&catalog(CATALOG), &filters).unwrap_err();
        assert_eq!(error.to_string(), "unknown minimum edge name: \"nope\"");
    }

    #[test]
    fn package_filter_keeps_one_package() {
        let filters = Filters {
            package: "q".to_owned(),
            ..Filters::default()
        };
        let selection = select(&catalog(CATALOG), &filters).expect("valid");
        assert_eq!(names(&selection), ["q/alpha"]);
    }
}
