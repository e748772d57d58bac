//! One package of a catalog as both OLMs read it: its channels, and its bundles
//! with the version and release they are compared by.

use std::collections::{HashMap, HashSet};

use crate::catalog::Catalog;
use crate::go::semver::{Release, Version};
use crate::model::channel::ChannelEntry;
use crate::model::{Bundle, Channel, Package};

use super::super::deprecations::Deprecations;
use super::super::error::GraphError;
use super::super::versions::version_release;

/// A bundle of the package.
#[derive(Debug)]
pub(crate) struct BundleInfo<'a> {
    pub(crate) name: &'a str,
    pub(crate) version: Version,
    pub(crate) release: Release,
}

impl BundleInfo<'_> {
    /// The version as the catalog declares it (build metadata included).
    pub(crate) fn shown_version(&self) -> String {
        super::super::versions::shown(&self.version, &self.release)
    }
}

/// A package's channels and bundles in catalog order, and its deprecations.
#[derive(Debug)]
pub(crate) struct PackageGraph<'a> {
    pub(crate) name: &'a str,
    pub(crate) default_channel: &'a str,
    pub(crate) channels: Vec<&'a Channel>,
    pub(crate) bundles: Vec<BundleInfo<'a>>,
    /// Index of each bundle in `bundles` by name.
    by_name: HashMap<&'a str, usize>,
    pub(crate) deprecations: &'a Deprecations,
}

/// Where each package's blobs are in a catalog, for code that looks up many
/// packages: blob numbers sorted by package name, in catalog order within a
/// package (four bytes a blob), so that a lookup does not read the catalog.
pub(crate) struct Packages<'a> {
    catalog: &'a Catalog,
    blobs: Vec<u32>,
    channels: Vec<u32>,
    bundles: Vec<u32>,
}

impl<'a> Packages<'a> {
    pub(crate) fn new(catalog: &'a Catalog) -> Self {
        Packages {
            catalog,
            blobs: by_name(&catalog.packages, |p| &p.item.name),
            channels: by_name(&catalog.channels, |c| &c.item.package),
            bundles: by_name(&catalog.bundles, |b| &b.item.package),
        }
    }
}

/// The numbers of `items`, sorted stably by `name`.
fn by_name<T>(items: &[T], name: impl Fn(&T) -> &str) -> Vec<u32> {
    let count = u32::try_from(items.len()).expect("fewer than 2^32 blobs");
    let mut order: Vec<u32> = (0..count).collect();
    order.sort_by(|&a, &b| name(&items[a as usize]).cmp(name(&items[b as usize])));
    order
}

/// The items of `order` (see [`by_name`]) named `wanted`, in catalog order.
fn named<'i, T>(
    items: &'i [T],
    order: &[u32],
    name: impl Fn(&T) -> &str,
    wanted: &str,
) -> impl Iterator<Item = &'i T> {
    let at = |index: &u32| &items[*index as usize];
    let start = order.partition_point(|index| name(at(index)) < wanted);
    let count = order[start..].partition_point(|index| name(at(index)) == wanted);
    order[start..start + count]
        .iter()
        .map(move |index| &items[*index as usize])
}

impl<'a> PackageGraph<'a> {
    /// `None` when the catalog has nothing of that package. The first bundle of a
    /// name wins, as everywhere in opm. Reads the whole catalog: for many
    /// packages, see [`PackageGraph::indexed`].
    pub(crate) fn new(
        catalog: &'a Catalog,
        package: &'a str,
        deprecations: &'a Deprecations,
    ) -> Result<Option<Self>, GraphError> {
        Self::of(
            package,
            catalog
                .packages
                .iter()
                .map(|p| &p.item)
                .find(|p| &*p.name == package),
            catalog
                .channels
                .iter()
                .map(|c| &c.item)
                .filter(|c| c.package == package),
            catalog
                .bundles
                .iter()
                .map(|b| &b.item)
                .filter(|b| b.package == package),
            deprecations,
        )
    }

    /// [`PackageGraph::new`] through an index of the catalog's packages.
    pub(crate) fn indexed(
        packages: &Packages<'a>,
        package: &'a str,
        deprecations: &'a Deprecations,
    ) -> Result<Option<Self>, GraphError> {
        let catalog = packages.catalog;
        let blob = named(
            &catalog.packages,
            &packages.blobs,
            |p| &p.item.name,
            package,
        );
        let channels = named(
            &catalog.channels,
            &packages.channels,
            |c| &c.item.package,
            package,
        );
        let bundles = named(
            &catalog.bundles,
            &packages.bundles,
            |b| &b.item.package,
            package,
        );
        Self::of(
            package,
            blob.map(|p| &p.item).next(),
            channels.map(|c| &c.item),
            bundles.map(|b| &b.item),
            deprecations,
        )
    }

    /// The package's graph from its blob, channels and bundles in catalog order.
    fn of(
        package: &'a str,
        blob: Option<&'a Package>,
        channels: impl Iterator<Item = &'a Channel>,
        all_bundles: impl Iterator<Item = &'a Bundle>,
        deprecations: &'a Deprecations,
    ) -> Result<Option<Self>, GraphError> {
        let channels: Vec<&Channel> = channels.collect();
        let mut bundles: Vec<BundleInfo> = Vec::new();
        let mut by_name = HashMap::new();
        for bundle in all_bundles {
            if by_name.contains_key(bundle.name.as_str()) {
                continue;
            }
            by_name.insert(bundle.name.as_str(), bundles.len());
            let (version, release) = version_release(bundle)?;
            bundles.push(BundleInfo {
                name: &bundle.name,
                version,
                release,
            });
        }
        if blob.is_none() && channels.is_empty() && bundles.is_empty() {
            return Ok(None);
        }
        Ok(Some(Self {
            name: package,
            default_channel: blob.map_or("", |p| &*p.default_channel),
            channels,
            bundles,
            by_name,
            deprecations,
        }))
    }

    pub(crate) fn bundle(&self, name: &str) -> Option<&BundleInfo<'a>> {
        self.by_name.get(name).map(|&index| &self.bundles[index])
    }

    pub(crate) fn channel(&self, name: &str) -> Option<&'a Channel> {
        self.channels
            .iter()
            .copied()
            .find(|channel| channel.name == name)
    }

    pub(crate) fn version(&self, name: &str) -> Option<&Version> {
        self.bundle(name).map(|bundle| &bundle.version)
    }

    pub(crate) fn is_deprecated(&self, bundle: &str) -> bool {
        self.deprecations.bundle(self.name, bundle).is_some()
    }
}

pub(crate) fn entries(channel: &Channel) -> &[ChannelEntry] {
    channel.entries.as_deref().unwrap_or_default()
}

/// opm's channel heads: entries that no other entry of the channel replaces or skips.
/// (An entry that replaces or skips itself does not count.) Linear: the names
/// replaced or skipped are gathered once.
pub(crate) fn heads(channel: &Channel) -> Vec<&str> {
    let entries = entries(channel);
    let mut upgraded: HashSet<&str> = HashSet::new();
    for entry in entries {
        let targets = std::iter::once(&entry.replaces).chain(entry.skips.iter());
        upgraded.extend(
            targets
                .filter(|target| **target != entry.name)
                .map(crate::model::text::Text::as_str),
        );
    }
    entries
        .iter()
        .filter(|entry| !upgraded.contains(entry.name.as_str()))
        .map(|entry| entry.name.as_str())
        .collect()
}

#[cfg(test)]
mod index_tests {
    use super::*;

    /// A package looked up through the index is the package read from the whole
    /// catalog: blobs of several packages interleaved, a second blob of a name,
    /// a package without a blob, and one the catalog does not have.
    #[test]
    fn indexed_graphs_equal_graphs_read_whole() {
        let catalog = crate::graph::testing::catalog(
            r#"
{"schema":"olm.package","name":"b","defaultChannel":"s"}
{"schema":"olm.channel","package":"b","name":"s","entries":[{"name":"b.v1"},{"name":"b.v2","replaces":"b.v1"}]}
{"schema":"olm.channel","package":"a","name":"z","entries":[{"name":"a.v1"}]}
{"schema":"olm.bundle","package":"b","name":"b.v2","properties":[{"type":"olm.package","value":{"packageName":"b","version":"2.0.0"}}]}
{"schema":"olm.package","name":"a","defaultChannel":"z"}
{"schema":"olm.bundle","package":"a","name":"a.v1","properties":[{"type":"olm.package","value":{"packageName":"a","version":"1.0.0"}}]}
{"schema":"olm.bundle","package":"b","name":"b.v1","properties":[{"type":"olm.package","value":{"packageName":"b","version":"1.0.0"}}]}
{"schema":"olm.channel","package":"b","name":"f","entries":[{"name":"b.v2"}]}
{"schema":"olm.package","name":"b","defaultChannel":"f"}
{"schema":"olm.bundle","package":"b","name":"b.v1","properties":[{"type":"olm.package","value":{"packageName":"b","version":"9.0.0"}}]}
{"schema":"olm.channel","package":"c","name":"s","entries":[{"name":"c.v1"}]}
"#,
        );
        let deprecations = Deprecations::new(&catalog.deprecations);
        let index = Packages::new(&catalog);
        // Everything but the map of names (a hash map prints in any order),
        // which the bundles' order and lookups stand for.
        let shown = |graph: Option<PackageGraph<'_>>| {
            graph.map(|graph| {
                let found: Vec<bool> = graph
                    .bundles
                    .iter()
                    .map(|bundle| graph.bundle(bundle.name).is_some())
                    .collect();
                format!(
                    "{} {} {:?} {:?} {found:?}",
                    graph.name, graph.default_channel, graph.channels, graph.bundles
                )
            })
        };
        for package in ["a", "b", "c", "d", ""] {
            let whole =
                PackageGraph::new(&catalog, package, &deprecations).expect("versions parse");
            let indexed =
                PackageGraph::indexed(&index, package, &deprecations).expect("versions parse");
            assert_eq!(shown(indexed), shown(whole), "{package}");
        }
        let b = PackageGraph::indexed(&index, "b", &deprecations)
            .expect("parses")
            .expect("b");
        assert_eq!(b.default_channel, "s");
        assert_eq!(b.channels.len(), 2);
        assert_eq!(
            b.bundle("b.v1").map(BundleInfo::shown_version),
            Some("1.0.0".to_owned())
        );
    }
}
