//! What `fbc serve` answers from: the packages, channels and channel entries of a
//! valid catalog, each bundle converted once into the registry API's `Bundle`
//! (opm's `ConvertModelBundleToAPIBundle`), and the blobs of other schemas by
//! schema and package. Built from the validation model, in the same pass that
//! checks the catalog; every query is opm's `pkg/cache` query, with its texts.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use serde_json::Value;

use super::api;
use super::csv;
use crate::catalog::Catalog;
use crate::go::fmt::quote;
use crate::model::property::{BUNDLE_OBJECT, CSV_METADATA};
use crate::validate::opm_model::{Model, ModelPackage};

mod convert;
#[cfg(test)]
mod tests;

use convert::{
    channel_entry, convert_bundle, deprecation, is_csv, meta_key, object_json, to_struct,
};

/// The served catalog.
#[derive(Debug)]
pub(crate) struct Index {
    /// The loaded catalog: the manifests and CSVs of bundles are made from its
    /// blobs when they are asked for, never held twice.
    catalog: Arc<Catalog>,
    packages: BTreeMap<Box<str>, Package>,
    /// One per bundle blob.
    bundles: Vec<Stored>,
    /// Every channel entry, in `ListBundles` order once built: by channel, package
    /// and bundle name.
    entries: Vec<Entry>,
    /// Blobs of other schemas by (schema, package), in catalog order.
    customs: HashMap<(Box<str>, Box<str>), Vec<prost_types::Struct>>,
}

/// A bundle's fields that do not depend on the channel, less its manifests.
#[derive(Debug)]
struct Stored {
    base: api::Bundle,
    /// Index into the catalog's bundles.
    blob: usize,
    /// The version as the synthesized CSV writes it.
    csv_version: Box<str>,
    /// What the package lends a synthesized CSV: its icon and description.
    package: Arc<PackageDetails>,
}

/// A package's icon (base64, media type) and description.
#[derive(Debug, Default)]
pub(crate) struct PackageDetails {
    pub(crate) icon: Option<(String, String)>,
    pub(crate) description: String,
}

#[derive(Debug)]
struct Package {
    default_channel: Box<str>,
    deprecation: Option<Box<str>>,
    channels: BTreeMap<Box<str>, Channel>,
}

#[derive(Debug)]
struct Channel {
    head: Box<str>,
    deprecation: Option<Box<str>>,
    /// The channel's entries (indices into `Index::entries`) by bundle name.
    entries: BTreeMap<Box<str>, usize>,
}

#[derive(Debug)]
struct Entry {
    package: Box<str>,
    channel: Box<str>,
    name: Box<str>,
    replaces: Box<str>,
    skips: Box<[Box<str>]>,
    skip_range: Box<str>,
    deprecation: Option<Box<str>>,
    /// Index into `Index::bundles`.
    bundle: usize,
}

/// A message of more than this many bytes fails in OLM's clients (grpc-go's
/// default receive limit).
pub(crate) const CLIENT_MESSAGE_LIMIT: usize = 4 * 1024 * 1024;

/// A custom-schema query that opm refuses with `InvalidArgument`.
#[derive(Debug, PartialEq)]
pub(crate) struct InvalidQuery(pub(crate) String);

impl Index {
    pub(crate) fn new(catalog: Arc<Catalog>) -> Index {
        Index {
            catalog,
            packages: BTreeMap::new(),
            bundles: Vec::new(),
            entries: Vec::new(),
            customs: HashMap::new(),
        }
    }

    /// Adds the packages of one validated group.
    pub(crate) fn add_model(&mut self, model: &Model<'_>) -> Result<(), String> {
        for package in model.packages.values() {
            self.add_package(package)?;
        }
        Ok(())
    }

    fn add_package(&mut self, package: &ModelPackage<'_>) -> Result<(), String> {
        let mut converted: HashMap<&str, usize> = HashMap::new();
        let mut channels = BTreeMap::new();
        let details = Arc::new(PackageDetails {
            icon: package.blob.item.icon().map(|icon| {
                (
                    crate::go::base64::encode(icon.data.as_deref().unwrap_or_default()),
                    icon.media_type.clone(),
                )
            }),
            description: package.blob.item.description().to_owned(),
        });
        for (name, channel) in package.channels.iter() {
            let heads = crate::validate::chain::heads(&channel.entries);
            let [head] = heads.as_slice() else {
                return Err(format!(
                    "package {}, channel {}: expected one head, found {}",
                    quote(package.name()),
                    quote(name),
                    heads.len()
                ));
            };
            let mut entries = BTreeMap::new();
            for (entry_name, entry) in channel.entries.iter() {
                let Some(blob) = package.bundles.get(entry_name) else {
                    return Err(format!(
                        "package {}, channel {}: no bundle {}",
                        quote(package.name()),
                        quote(name),
                        quote(entry_name)
                    ));
                };
                let bundle = if let Some(&index) = converted.get(entry_name) {
                    index
                } else {
                    let index = self.bundles.len();
                    self.bundles.push(convert_bundle(package, blob, &details));
                    converted.insert(entry_name, index);
                    index
                };
                entries.insert(Box::from(*entry_name), self.entries.len());
                self.entries.push(Entry {
                    package: package.name().into(),
                    channel: (*name).into(),
                    name: (*entry_name).into(),
                    replaces: entry.replaces.as_str().into(),
                    skips: entry
                        .skips
                        .iter()
                        .map(|skip| skip.as_str().into())
                        .collect(),
                    skip_range: entry.skip_range.as_str().into(),
                    deprecation: channel
                        .deprecated_bundles
                        .get(entry_name)
                        .map(|mark| mark.message.into()),
                    bundle,
                });
            }
            channels.insert(
                Box::from(*name),
                Channel {
                    head: (*head).into(),
                    deprecation: channel.deprecation.map(|mark| mark.message.into()),
                    entries,
                },
            );
        }
        self.packages.insert(
            package.name().into(),
            Package {
                default_channel: package.blob.item.default_channel.as_str().into(),
                deprecation: package.deprecation.map(|mark| mark.message.into()),
                channels,
            },
        );
        Ok(())
    }

    /// Adds the blobs of schemas other than opm's four, as opm's cache does;
    /// a schema or package name opm cannot key them by fails the catalog.
    pub(crate) fn add_customs(&mut self) -> Result<(), String> {
        let catalog = Arc::clone(&self.catalog);
        for other in &catalog.others {
            let blob = &other.item;
            let (schema, package) = (blob.schema(), blob.package());
            let key = meta_key(schema, package)
                .map_err(|error| format!("invalid custom schema meta: {error}"))?;
            let value: Value = serde_json::from_str(blob.json())
                .map_err(|error| format!("parse meta JSON: {error}"))?;
            let Value::Object(map) = value else {
                return Err("parse meta JSON: not an object".to_owned());
            };
            self.customs.entry(key).or_default().push(to_struct(map));
        }
        Ok(())
    }

    /// Puts the entries in `ListBundles` order once every package is in.
    pub(crate) fn finish(&mut self) {
        let mut order: Vec<usize> = (0..self.entries.len()).collect();
        order.sort_by(|&a, &b| {
            let (a, b) = (&self.entries[a], &self.entries[b]);
            (&a.channel, &a.package, &a.name).cmp(&(&b.channel, &b.package, &b.name))
        });
        let mut position = vec![0; order.len()];
        for (new, &old) in order.iter().enumerate() {
            position[old] = new;
        }
        let mut entries: Vec<Option<Entry>> = std::mem::take(&mut self.entries)
            .into_iter()
            .map(Some)
            .collect();
        self.entries = order
            .iter()
            .map(|&old| entries[old].take().expect("each entry is taken once"))
            .collect();
        for package in self.packages.values_mut() {
            for channel in package.channels.values_mut() {
                for index in channel.entries.values_mut() {
                    *index = position[*index];
                }
            }
        }
    }

    /// Bundles whose `GetBundle` answer is larger than OLM's clients accept.
    pub(crate) fn oversized(&self) -> Vec<(String, String, usize)> {
        self.bundles
            .iter()
            .filter_map(|stored| {
                // The manifests as the catalog holds them (base64 and all), twice
                // for a CSV that is also an object: an estimate from above.
                let manifests: usize = self.catalog.bundles[stored.blob]
                    .item
                    .properties
                    .iter()
                    .filter(|p| matches!(&*p.kind, BUNDLE_OBJECT | CSV_METADATA))
                    .map(|p| 2 * p.value_len())
                    .sum();
                let size = prost::Message::encoded_len(&stored.base) + manifests;
                (size > CLIENT_MESSAGE_LIMIT).then(|| {
                    (
                        stored.base.package_name.clone(),
                        stored.base.csv_name.clone(),
                        size,
                    )
                })
            })
            .collect()
    }

    pub(crate) fn package_count(&self) -> usize {
        self.packages.len()
    }

    pub(crate) fn entry_count(&self) -> usize {
        self.entries.len()
    }

    pub(crate) fn package_names(&self) -> impl Iterator<Item = &str> {
        self.packages.keys().map(AsRef::as_ref)
    }

    pub(crate) fn package(&self, name: &str) -> Result<api::Package, String> {
        let package = self
            .packages
            .get(name)
            .ok_or_else(|| format!("package {} not found", quote(name)))?;
        Ok(api::Package {
            name: name.to_owned(),
            channels: package
                .channels
                .iter()
                .map(|(name, channel)| api::Channel {
                    name: name.to_string(),
                    csv_name: channel.head.to_string(),
                    deprecation: deprecation(channel.deprecation.as_deref()),
                })
                .collect(),
            default_channel_name: package.default_channel.to_string(),
            deprecation: deprecation(package.deprecation.as_deref()),
        })
    }

    /// The `i`th message of `ListBundles`: the embedded manifests are left out
    /// of bundles that have an image.
    pub(crate) fn listed_bundle(&self, index: usize) -> Option<Result<api::Bundle, String>> {
        let entry = self.entries.get(index)?;
        let with_manifests = self.bundles[entry.bundle].base.bundle_path.is_empty();
        Some(self.bundle_of(entry, with_manifests))
    }

    pub(crate) fn bundle(
        &self,
        package: &str,
        channel: &str,
        name: &str,
    ) -> Result<api::Bundle, String> {
        let (_, found) = self.channel(package, channel)?;
        let index = found.entries.get(name).ok_or_else(|| {
            format!(
                "package {}, channel {}, bundle {} not found",
                quote(package),
                quote(channel),
                quote(name)
            )
        })?;
        self.trimmed(*index)
    }

    pub(crate) fn bundle_for_channel(
        &self,
        package: &str,
        channel: &str,
    ) -> Result<api::Bundle, String> {
        let (_, found) = self.channel(package, channel)?;
        let index = found.entries.get(&found.head).ok_or_else(|| {
            format!(
                "package {}, channel {}: no head",
                quote(package),
                quote(channel)
            )
        })?;
        self.trimmed(*index)
    }

    /// Every entry of any channel that replaces `name`, or skips it (then once
    /// per listing, with the entry's own `replaces`).
    pub(crate) fn entries_that_replace(
        &self,
        name: &str,
    ) -> Result<Vec<api::ChannelEntry>, String> {
        let mut found = Vec::new();
        for entry in &self.entries {
            if &*entry.replaces == name {
                found.push(channel_entry(entry, &entry.replaces));
            }
            for skip in &entry.skips {
                if &**skip == name && skip != &entry.replaces {
                    found.push(channel_entry(entry, &entry.replaces));
                }
            }
        }
        if found.is_empty() {
            return Err(format!("no channel entries found that replace {name}"));
        }
        Ok(found)
    }

    /// The entry of a channel that replaces or skips `name` (the first in name
    /// order where several do: opm takes any of them).
    pub(crate) fn bundle_that_replaces(
        &self,
        name: &str,
        package: &str,
        channel: &str,
    ) -> Result<api::Bundle, String> {
        if !self.packages.contains_key(package) {
            return Err(format!("package {package} not found"));
        }
        let (_, found) = self.channel(package, channel)?;
        let index = found
            .entries
            .values()
            .find(|&&index| {
                let entry = &self.entries[index];
                &*entry.replaces == name || entry.skips.iter().any(|skip| &**skip == name)
            })
            .ok_or_else(|| {
                format!(
                    "no entry found for package {}, channel {}",
                    quote(package),
                    quote(channel)
                )
            })?;
        self.trimmed(*index)
    }

    /// Every entry whose bundle provides the API, with one more entry for each
    /// name it skips (that it does not also replace).
    pub(crate) fn entries_that_provide(
        &self,
        gvk: &Gvk<'_>,
    ) -> Result<Vec<api::ChannelEntry>, String> {
        let found: Vec<_> = self
            .entries
            .iter()
            .filter(|entry| self.provides(entry, gvk))
            .flat_map(|entry| self.entries_for(entry, true))
            .collect();
        if found.is_empty() {
            return Err(gvk.none_found());
        }
        Ok(found)
    }

    /// [`Index::entries_that_provide`] among channel heads, with the skipped names
    /// that are entries of the same channel.
    pub(crate) fn latest_entries_that_provide(
        &self,
        gvk: &Gvk<'_>,
    ) -> Result<Vec<api::ChannelEntry>, String> {
        let found: Vec<_> = self
            .heads()
            .filter(|entry| self.provides(entry, gvk))
            .flat_map(|entry| self.entries_for(entry, false))
            .collect();
        if found.is_empty() {
            return Err(gvk.none_found());
        }
        Ok(found)
    }

    /// The head of a package's default channel that provides the API, first
    /// in package name order.
    pub(crate) fn default_bundle_that_provides(
        &self,
        gvk: &Gvk<'_>,
    ) -> Result<api::Bundle, String> {
        let mut any = false;
        for (name, package) in &self.packages {
            for entry in self.heads_of(name) {
                if !self.provides(entry, gvk) {
                    continue;
                }
                any = true;
                if entry.channel == package.default_channel {
                    let channel = &package.channels[&entry.channel];
                    return self.trimmed(channel.entries[&channel.head]);
                }
            }
        }
        if any {
            Err(format!(
                "no entry found that provides group:{} version:{} kind:{}",
                quote(gvk.group),
                quote(gvk.version),
                quote(gvk.kind)
            ))
        } else {
            Err(gvk.none_found())
        }
    }

    /// The blobs of a schema for a package (those without a package when
    /// `package` is empty).
    pub(crate) fn customs(
        &self,
        schema: &str,
        package: &str,
    ) -> Result<&[prost_types::Struct], InvalidQuery> {
        let key = meta_key(schema, package)
            .map_err(|error| InvalidQuery(format!("invalid custom schema query: {error}")))?;
        Ok(self.customs.get(&key).map_or(&[], Vec::as_slice))
    }

    fn channel(&self, package: &str, channel: &str) -> Result<(&Package, &Channel), String> {
        let found = self
            .packages
            .get(package)
            .ok_or_else(|| format!("package {} not found", quote(package)))?;
        let channel_found = found.channels.get(channel).ok_or_else(|| {
            format!(
                "package {}, channel {} not found",
                quote(package),
                quote(channel)
            )
        })?;
        Ok((found, channel_found))
    }

    fn heads(&self) -> impl Iterator<Item = &Entry> {
        self.packages.keys().flat_map(|name| self.heads_of(name))
    }

    fn heads_of<'s>(&'s self, package: &str) -> impl Iterator<Item = &'s Entry> {
        self.packages
            .get(package)
            .into_iter()
            .flat_map(|package| package.channels.values())
            .filter_map(|channel| channel.entries.get(&channel.head))
            .map(|&index| &self.entries[index])
    }

    fn provides(&self, entry: &Entry, gvk: &Gvk<'_>) -> bool {
        self.bundles[entry.bundle]
            .base
            .provided_apis
            .iter()
            .any(|api| api.group == gvk.group && api.version == gvk.version && api.kind == gvk.kind)
    }

    /// opm's `channelEntriesForBundle`: the entry, then one per skipped name
    /// other than the one it replaces (only names of the channel's entries
    /// unless `any_skip`).
    fn entries_for(&self, entry: &Entry, any_skip: bool) -> Vec<api::ChannelEntry> {
        let mut found = vec![channel_entry(entry, &entry.replaces)];
        let in_channel = |name: &str| {
            self.packages
                .get(&entry.package)
                .and_then(|package| package.channels.get(&entry.channel))
                .is_some_and(|channel| channel.entries.contains_key(name))
        };
        for skip in &entry.skips {
            if skip != &entry.replaces && (any_skip || in_channel(skip)) {
                found.push(channel_entry(entry, skip));
            }
        }
        found
    }

    fn bundle_of(&self, entry: &Entry, with_manifests: bool) -> Result<api::Bundle, String> {
        let stored = &self.bundles[entry.bundle];
        let mut bundle = stored.base.clone();
        if with_manifests {
            (bundle.csv_json, bundle.object) = self.manifests(stored)?;
        }
        bundle.channel_name = entry.channel.to_string();
        bundle.skip_range = entry.skip_range.to_string();
        bundle.replaces = entry.replaces.to_string();
        bundle.skips = entry.skips.iter().map(ToString::to_string).collect();
        bundle.deprecation = deprecation(entry.deprecation.as_deref());
        Ok(bundle)
    }

    /// A bundle as the single-bundle queries answer it: without replaces and skips.
    fn trimmed(&self, index: usize) -> Result<api::Bundle, String> {
        let mut bundle = self.bundle_of(&self.entries[index], true)?;
        bundle.replaces.clear();
        bundle.skips.clear();
        Ok(bundle)
    }

    /// opm's `csvJson` and `object`: each `olm.bundle.object` as JSON, the CSV
    /// among them, or the CSV made from a single `olm.csv.metadata`.
    fn manifests(&self, stored: &Stored) -> Result<(String, Vec<String>), String> {
        let bundle = &self.catalog.bundles[stored.blob].item;
        let mut objects = Vec::new();
        let mut metadata = Vec::new();
        for property in &*bundle.properties {
            match &*property.kind {
                BUNDLE_OBJECT => objects.push(object_json(property).ok_or_else(|| {
                    // A value that could not be read back from the spill file
                    // says so rather than blaming the manifest.
                    crate::model::property::spill::failure().unwrap_or_else(|| {
                        format!(
                            "package {}, bundle {}: an olm.bundle.object that is not a manifest",
                            quote(&bundle.package),
                            quote(&bundle.name)
                        )
                    })
                })?),
                CSV_METADATA => metadata.push(property),
                _ => {}
            }
        }
        let mut csv = objects
            .iter()
            .find(|object| is_csv(object))
            .cloned()
            .unwrap_or_default();
        if let ([metadata], true) = (metadata.as_slice(), csv.is_empty()) {
            csv = csv::synthesize(&stored.package, bundle, &stored.csv_version, metadata)?;
            if objects.is_empty() {
                objects.push(csv.clone());
            }
        }
        Ok((csv, objects))
    }
}

/// The API a provider query asks for.
pub(crate) struct Gvk<'a> {
    pub(crate) group: &'a str,
    pub(crate) version: &'a str,
    pub(crate) kind: &'a str,
}

impl Gvk<'_> {
    fn none_found(&self) -> String {
        format!(
            "no channel entries found that provide group:{} version:{} kind:{}",
            quote(self.group),
            quote(self.version),
            quote(self.kind)
        )
    }
}
