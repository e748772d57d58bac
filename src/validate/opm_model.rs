//! The model opm builds from a catalog (`alpha/model`): packages own channels,
//! channels own one bundle per entry, and bundle blobs fill in the entries of
//! their name. Maps are ordered by name, so every walk over it is deterministic
//! where opm's (Go maps) is random. Each part keeps the blobs it came from.

use std::collections::BTreeMap;

use super::small_map::SmallMap;

use crate::catalog::{Located, Location};
use crate::go::semver::{Release, Version};
use crate::model::channel::ChannelEntry;
use crate::model::{Bundle, Channel, Package};

#[derive(Debug, Default)]
pub(crate) struct Model<'a> {
    /// Boxed: tree nodes hold eleven entries, often half of them unused.
    pub(crate) packages: BTreeMap<&'a str, Box<ModelPackage<'a>>>,
}

#[derive(Debug)]
pub(crate) struct ModelPackage<'a> {
    pub(crate) blob: &'a Located<Package>,
    /// Whether opm found (or made up) the default channel.
    pub(crate) has_default: bool,
    /// Channels and bundles are boxed: most packages have few, and a small map
    /// keeps them inline.
    pub(crate) channels: SmallMap<&'a str, Box<ModelChannel<'a>>>,
    /// The bundle blobs of the package by name (the first of each name).
    pub(crate) bundles: SmallMap<&'a str, Box<BundleBlob<'a>>>,
    pub(crate) deprecation: Option<Mark<'a>>,
}

#[derive(Debug)]
pub(crate) struct ModelChannel<'a> {
    pub(crate) name: &'a str,
    /// `None` for a default channel opm made up because no blob declared it.
    pub(crate) blob: Option<&'a Located<Channel>>,
    /// The entries by name (the first of each name).
    pub(crate) entries: SmallMap<&'a str, &'a ChannelEntry>,
    pub(crate) deprecation: Option<Mark<'a>>,
    /// Bundle names that carry a deprecation in this channel.
    pub(crate) deprecated_bundles: SmallMap<&'a str, Mark<'a>>,
}

/// A bundle blob and what opm derives from it.
#[derive(Debug)]
pub(crate) struct BundleBlob<'a> {
    pub(crate) blob: &'a Located<Bundle>,
    /// Where the blob is in the catalog's bundles.
    pub(crate) index: usize,
    /// How many `olm.package` properties the bundle has, or why its properties
    /// do not parse (opm's `property.Parse` error).
    pub(crate) package_properties: Result<usize, String>,
    /// `None` when the version did not parse (or there was no single `olm.package`).
    pub(crate) version: Option<Version>,
    pub(crate) release: Release,
    /// Whether every conversion check passed; rules that would only restate a
    /// conversion error skip bundles where it did not.
    pub(crate) converted: bool,
}

impl BundleBlob<'_> {
    /// opm's `VersionString`: the version, then `-<release>` when there is one.
    pub(crate) fn version_string(&self) -> String {
        let version = self
            .version
            .as_ref()
            .map_or_else(|| "0.0.0".to_owned(), ToString::to_string);
        if self.release.is_empty() {
            version
        } else {
            format!("{version}-{}", self.release)
        }
    }

    /// opm copies `olm.bundle.object` values into the bundle at load.
    pub(crate) fn has_objects(&self) -> bool {
        self.blob
            .item
            .properties
            .iter()
            .any(|property| property.kind == crate::model::property::BUNDLE_OBJECT)
    }
}

/// A deprecation attached to a package, channel or bundle.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mark<'a> {
    pub(crate) message: &'a str,
    pub(crate) location: &'a Location,
}

impl<'a> ModelPackage<'a> {
    pub(crate) fn name(&self) -> &'a str {
        &self.blob.item.name
    }

    pub(crate) fn location(&self) -> &'a Location {
        &self.blob.location
    }
}

impl<'a> ModelChannel<'a> {
    /// Where the channel is declared, or the package that names it as default.
    pub(crate) fn location_or<'b>(&self, package: &'b Location) -> &'b Location
    where
        'a: 'b,
    {
        self.blob.map_or(package, |blob| &blob.location)
    }
}
