//! One package of a catalog as both OLMs read it: its channels, and its bundles
//! with the version and release they are compared by.

use std::collections::HashMap;

use crate::catalog::Catalog;
use crate::model::Channel;
use crate::model::channel::ChannelEntry;
use crate::semver::{Release, Version};

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

impl<'a> PackageGraph<'a> {
    /// `None` when the catalog has nothing of that package. The first bundle of a
    /// name wins, as everywhere in opm.
    pub(crate) fn new(
        catalog: &'a Catalog,
        package: &'a str,
        deprecations: &'a Deprecations,
    ) -> Result<Option<Self>, GraphError> {
        let blob = catalog.packages.iter().find(|p| &*p.item.name == package);
        let channels: Vec<&Channel> = catalog
            .channels
            .iter()
            .map(|located| &located.item)
            .filter(|channel| channel.package == package)
            .collect();
        let mut bundles: Vec<BundleInfo> = Vec::new();
        let mut by_name = HashMap::new();
        for located in &catalog.bundles {
            let bundle = &located.item;
            if bundle.package != package || by_name.contains_key(bundle.name.as_str()) {
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
            default_channel: blob.map_or("", |p| &*p.item.default_channel),
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
pub(crate) fn heads(channel: &Channel) -> Vec<&str> {
    let entries = entries(channel);
    entries
        .iter()
        .filter(|entry| {
            !entries.iter().any(|other| {
                other.name != entry.name
                    && (other.replaces == entry.name || other.skips.contains(&entry.name))
            })
        })
        .map(|entry| entry.name.as_str())
        .collect()
}
