//! What a change does to each package's blobs: packages, channels and bundle entries
//! added or removed, default channels and heads before and after, upgrade edges
//! changed, deprecations added or removed, and bundles changed under the same name.

use std::collections::{BTreeMap, BTreeSet};

use crate::catalog::{Catalog, Located, Location};
use crate::graph::upgrade::package::{entries, heads};
use crate::model::channel::ChannelEntry;
use crate::model::property::Property;
use crate::model::{Bundle, Channel, Package};

/// One package's blobs in one catalog; the first blob of a name wins, as in opm.
#[derive(Default)]
pub(crate) struct PackageView<'a> {
    pub(crate) package: Option<&'a Located<Package>>,
    pub(crate) channels: BTreeMap<&'a str, &'a Located<Channel>>,
    pub(crate) bundles: BTreeMap<&'a str, &'a Located<Bundle>>,
    /// (schema, name) -> message of every deprecation entry.
    pub(crate) deprecations: BTreeMap<(&'a str, &'a str), &'a str>,
}

/// Every package of a catalog, by name: the names sorted, each with its view (a
/// list sized once, 96 bytes a package, where a map took about twice that).
pub(crate) struct Index<'a> {
    names: Vec<&'a str>,
    views: Vec<PackageView<'a>>,
}

impl<'a> Index<'a> {
    /// The package names, sorted.
    pub(crate) fn names(&self) -> &[&'a str] {
        &self.names
    }

    pub(crate) fn get(&self, name: &str) -> Option<&PackageView<'a>> {
        let at = self.names.binary_search(&name).ok()?;
        self.views.get(at)
    }

    fn view(&mut self, name: &str) -> &mut PackageView<'a> {
        let at = self
            .names
            .binary_search(&name)
            .expect("every package a blob names is listed");
        &mut self.views[at]
    }
}

/// Indexes every package of a catalog in one pass over its blobs.
pub(crate) fn index(catalog: &Catalog) -> Index<'_> {
    let mut names: Vec<&str> = catalog
        .packages
        .iter()
        .map(|blob| &*blob.item.name)
        .chain(
            catalog
                .channels
                .iter()
                .map(|blob| blob.item.package.as_str()),
        )
        .chain(
            catalog
                .bundles
                .iter()
                .map(|blob| blob.item.package.as_str()),
        )
        .chain(
            catalog
                .deprecations
                .iter()
                .map(|blob| blob.item.package.as_str()),
        )
        .collect();
    names.sort_unstable();
    names.dedup();
    names.shrink_to_fit();
    let views = std::iter::repeat_with(PackageView::default)
        .take(names.len())
        .collect();
    let mut index = Index { names, views };
    for blob in &catalog.packages {
        index.view(&blob.item.name).package.get_or_insert(blob);
    }
    for blob in &catalog.channels {
        let view = index.view(&blob.item.package);
        view.channels.entry(&*blob.item.name).or_insert(blob);
    }
    for blob in &catalog.bundles {
        let view = index.view(&blob.item.package);
        view.bundles.entry(&*blob.item.name).or_insert(blob);
    }
    for blob in &catalog.deprecations {
        let view = index.view(&blob.item.package);
        for entry in blob.item.entries.iter().flatten() {
            let key = (
                entry.reference_schema.as_str(),
                entry.reference_name.as_str(),
            );
            view.deprecations.entry(key).or_insert(&entry.message);
        }
    }
    index
}

impl<'a> PackageView<'a> {
    pub(crate) fn default_channel(&self) -> &'a str {
        self.package.map_or("", |blob| &*blob.item.default_channel)
    }

    /// Where the package is declared: its `olm.package` blob, else its first channel
    /// or bundle.
    pub(crate) fn location(&self) -> Option<&Location> {
        self.package
            .map(|blob| &blob.location)
            .or_else(|| self.channels.values().next().map(|blob| &blob.location))
            .or_else(|| self.bundles.values().next().map(|blob| &blob.location))
    }
}

/// Added to, removed from, or changed between the two catalogs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    Added,
    Removed,
    Changed,
}

impl Status {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Added => "added",
            Self::Removed => "removed",
            Self::Changed => "changed",
        }
    }

    fn of<T>(old: Option<T>, new: Option<T>) -> Self {
        match (old, new) {
            (None, _) => Self::Added,
            (_, None) => Self::Removed,
            _ => Self::Changed,
        }
    }
}

/// An entry's upgrade edges.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Edges<'a> {
    pub(crate) replaces: &'a str,
    pub(crate) skips: &'a [crate::model::Text],
    pub(crate) skip_range: &'a str,
}

impl<'a> Edges<'a> {
    fn of(entry: &'a ChannelEntry) -> Self {
        Self {
            replaces: &entry.replaces,
            skips: &entry.skips,
            skip_range: &entry.skip_range,
        }
    }
}

/// An entry present in both channels with different edges.
#[derive(Debug)]
pub(crate) struct EdgeChange<'a> {
    pub(crate) bundle: &'a str,
    pub(crate) before: Edges<'a>,
    pub(crate) after: Edges<'a>,
}

#[derive(Debug)]
pub(crate) struct ChannelDiff<'a> {
    pub(crate) name: &'a str,
    pub(crate) status: Status,
    /// The channel's head in each catalog: none when the channel is absent, several
    /// (comma-joined) in a channel opm would refuse.
    pub(crate) head_before: Option<String>,
    pub(crate) head_after: Option<String>,
    pub(crate) added: Vec<&'a str>,
    pub(crate) removed: Vec<&'a str>,
    pub(crate) edges: Vec<EdgeChange<'a>>,
    pub(crate) location: Option<Location>,
    /// The channel in OLD and in NEW, for pictures.
    pub(crate) before: Option<&'a Channel>,
    pub(crate) after: Option<&'a Channel>,
}

/// A bundle of both catalogs whose blob differs.
#[derive(Debug)]
pub(crate) struct BundleChange<'a> {
    pub(crate) name: &'a str,
    pub(crate) image: Option<(&'a str, &'a str)>,
    /// Property types whose values were added, removed or changed.
    pub(crate) properties: Vec<&'a str>,
    pub(crate) related_images: bool,
    pub(crate) location: Location,
}

#[derive(Debug)]
pub(crate) struct DeprecationChange<'a> {
    pub(crate) added: bool,
    pub(crate) schema: &'a str,
    pub(crate) name: &'a str,
    pub(crate) message: &'a str,
}

impl DeprecationChange<'_> {
    /// `package`, `channel` or `bundle`, from the referenced schema.
    pub(crate) fn scope(&self) -> &str {
        self.schema.strip_prefix("olm.").unwrap_or(self.schema)
    }
}

#[derive(Debug)]
pub(crate) struct PackageDiff<'a> {
    pub(crate) name: &'a str,
    pub(crate) status: Status,
    pub(crate) default_channel: Option<(&'a str, &'a str)>,
    /// The `olm.package` blob differs (description, icon, properties).
    pub(crate) metadata_changed: bool,
    pub(crate) channels: Vec<ChannelDiff<'a>>,
    pub(crate) bundles_added: Vec<&'a str>,
    pub(crate) bundles_removed: Vec<&'a str>,
    pub(crate) bundles_changed: Vec<BundleChange<'a>>,
    pub(crate) deprecations: Vec<DeprecationChange<'a>>,
    pub(crate) location: Option<Location>,
}

impl PackageDiff<'_> {
    pub(crate) fn is_empty(&self) -> bool {
        self.status == Status::Changed
            && self.default_channel.is_none()
            && !self.metadata_changed
            && self.channels.is_empty()
            && self.bundles_added.is_empty()
            && self.bundles_removed.is_empty()
            && self.bundles_changed.is_empty()
            && self.deprecations.is_empty()
    }
}

/// The changes of one package; `None` when it is the same in both.
pub(crate) fn package_diff<'a>(
    name: &'a str,
    old: Option<&PackageView<'a>>,
    new: Option<&PackageView<'a>>,
) -> Option<PackageDiff<'a>> {
    let empty = PackageView::default();
    let (before, after) = (old.unwrap_or(&empty), new.unwrap_or(&empty));
    let default_channel = Some((before.default_channel(), after.default_channel()))
        .filter(|(a, b)| old.is_some() && new.is_some() && a != b);
    let channel_names: BTreeSet<&str> = before
        .channels
        .keys()
        .chain(after.channels.keys())
        .copied()
        .collect();
    let channels = channel_names
        .into_iter()
        .filter_map(|channel| {
            channel_diff(
                channel,
                before.channels.get(channel).copied().map(|b| &b.item),
                after.channels.get(channel).copied(),
            )
            .map(|mut diff| {
                diff.location = after
                    .channels
                    .get(channel)
                    .or_else(|| before.channels.get(channel))
                    .map(|blob| blob.location.clone());
                diff
            })
        })
        .collect();
    let diff = PackageDiff {
        name,
        status: Status::of(old, new),
        default_channel,
        metadata_changed: old.is_some()
            && new.is_some()
            && before.package.map(|b| &b.item) != after.package.map(|b| &b.item)
            && default_channel.is_none(),
        channels,
        bundles_added: missing_from(&after.bundles, &before.bundles),
        bundles_removed: missing_from(&before.bundles, &after.bundles),
        bundles_changed: before
            .bundles
            .iter()
            .filter_map(|(&name, &old)| bundle_change(&old.item, after.bundles.get(name)?))
            .collect(),
        deprecations: deprecation_changes(&before.deprecations, &after.deprecations),
        location: after.location().or_else(|| before.location()).cloned(),
    };
    (!diff.is_empty()).then_some(diff)
}

fn missing_from<'a, V>(have: &BTreeMap<&'a str, V>, other: &BTreeMap<&'a str, V>) -> Vec<&'a str> {
    have.keys()
        .filter(|name| !other.contains_key(*name))
        .copied()
        .collect()
}

/// The single head of a channel, or every head comma-joined.
pub(crate) fn head(channel: &Channel) -> Option<String> {
    let heads = heads(channel);
    (!heads.is_empty()).then(|| heads.join(", "))
}

fn channel_diff<'a>(
    name: &'a str,
    old: Option<&'a Channel>,
    new: Option<&'a Located<Channel>>,
) -> Option<ChannelDiff<'a>> {
    let new = new.map(|blob| &blob.item);
    let names = |channel: Option<&'a Channel>| -> BTreeMap<&'a str, &'a ChannelEntry> {
        channel
            .map(entries)
            .unwrap_or_default()
            .iter()
            .rev()
            .map(|entry| (entry.name.as_str(), entry))
            .collect()
    };
    let (before, after) = (names(old), names(new));
    let edges = before
        .iter()
        .filter_map(|(bundle, old)| {
            let new = after.get(bundle)?;
            let (before, after) = (Edges::of(old), Edges::of(new));
            (before != after).then_some(EdgeChange {
                bundle,
                before,
                after,
            })
        })
        .collect();
    let diff = ChannelDiff {
        name,
        status: Status::of(old, new),
        head_before: old.and_then(head),
        head_after: new.and_then(head),
        added: missing_from(&after, &before),
        removed: missing_from(&before, &after),
        edges,
        location: None,
        before: old,
        after: new,
    };
    let same = diff.status == Status::Changed
        && diff.added.is_empty()
        && diff.removed.is_empty()
        && diff.edges.is_empty()
        && diff.head_before == diff.head_after;
    (!same).then_some(diff)
}

fn bundle_change<'a>(old: &'a Bundle, new: &'a Located<Bundle>) -> Option<BundleChange<'a>> {
    if *old == new.item {
        return None;
    }
    let image = Some((old.image.as_str(), new.item.image.as_str())).filter(|(a, b)| a != b);
    let mut properties: Vec<&str> = Vec::new();
    let kinds: BTreeSet<&str> = old
        .properties
        .iter()
        .chain(&new.item.properties)
        .map(|p| p.kind.as_str())
        .collect();
    for kind in kinds {
        let of_kind = |bundle: &'a Bundle| bundle.properties.iter().filter(move |p| p.kind == kind);
        // The stored text is compared first; values are decoded only where it differs
        // (the same value can be stored in two spellings).
        if of_kind(old).ne(of_kind(&new.item))
            && of_kind(old)
                .map(Property::value)
                .ne(of_kind(&new.item).map(Property::value))
        {
            properties.push(kind);
        }
    }
    let related_images = old.related_images != new.item.related_images;
    (image.is_some() || !properties.is_empty() || related_images).then(|| BundleChange {
        name: &old.name,
        image,
        properties,
        related_images,
        location: new.location.clone(),
    })
}

fn deprecation_changes<'a>(
    old: &BTreeMap<(&'a str, &'a str), &'a str>,
    new: &BTreeMap<(&'a str, &'a str), &'a str>,
) -> Vec<DeprecationChange<'a>> {
    let change = |added: bool| {
        move |(&(schema, name), &message): (&(&'a str, &'a str), &&'a str)| DeprecationChange {
            added,
            schema,
            name,
            message,
        }
    };
    let removed = old
        .iter()
        .filter(|(key, message)| new.get(*key) != Some(*message))
        .map(change(false));
    let added = new
        .iter()
        .filter(|(key, message)| old.get(*key) != Some(*message))
        .map(change(true));
    removed.chain(added).collect()
}
