//! `fbc alpha list` (spec §10.8): packages, channels and bundles of a valid
//! catalog as opm's tables, aligned by Go's tabwriter.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::Value;

use crate::catalog::Catalog;
use crate::go::fmt::quote;
use crate::model::property::BUNDLE_OBJECT;
use crate::model::{Bundle, Channel};

/// What to list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Listing {
    Packages,
    Channels,
    Bundles,
}

/// The table, or opm's error: the validation tree, or `package "<p>" not found`.
pub(crate) fn list(
    catalog: &Catalog,
    listing: Listing,
    package: Option<&str>,
) -> Result<String, String> {
    if let Some(message) = crate::validate::opm_message(catalog) {
        return Err(message);
    }
    let index = Index::new(catalog);
    let packages: Vec<&str> = match package {
        Some(name)
            if !index.channels.contains_key(name) && !index.default_channels.contains_key(name) =>
        {
            return Err(format!("package {} not found", quote(name)));
        }
        Some(name) => vec![name],
        None => index.default_channels.keys().copied().collect(),
    };
    let mut rows = String::new();
    match listing {
        Listing::Packages => {
            rows.push_str("NAME\tDISPLAY NAME\tDEFAULT CHANNEL\n");
            for name in packages {
                let default = index
                    .default_channels
                    .get(name)
                    .copied()
                    .unwrap_or_default();
                let display = index
                    .channel(name, default)
                    .and_then(|channel| index.bundle(name, &head(channel)?))
                    .map(display_name)
                    .unwrap_or_default();
                let _ = writeln!(rows, "{name}\t{display}\t{default}");
            }
        }
        Listing::Channels => {
            rows.push_str("PACKAGE\tCHANNEL\tHEAD\n");
            for name in packages {
                for channel in index.channels_of(name) {
                    let head = head(channel)
                        .unwrap_or_else(|| "ERROR: no channel head found in graph".to_owned());
                    let _ = writeln!(rows, "{name}\t{}\t{head}", channel.name);
                }
            }
        }
        Listing::Bundles => {
            rows.push_str("PACKAGE\tCHANNEL\tBUNDLE\tREPLACES\tSKIPS\tSKIP RANGE\tIMAGE\n");
            for name in packages {
                for channel in index.channels_of(name) {
                    let mut entries: Vec<_> = channel.entries.iter().flatten().collect();
                    entries.sort_by(|a, b| a.name.cmp(&b.name));
                    for entry in entries {
                        let image = index
                            .bundle(name, &entry.name)
                            .map_or("", |bundle| bundle.image.as_str());
                        let _ = writeln!(
                            rows,
                            "{name}\t{}\t{}\t{}\t{}\t{}\t{image}",
                            channel.name,
                            entry.name,
                            entry.replaces,
                            entry.skips.join(","),
                            entry.skip_range
                        );
                    }
                }
            }
        }
    }
    Ok(crate::go::tabwriter::format(&rows))
}

/// The catalog by package: default channels, channels by name, bundles by name.
struct Index<'a> {
    default_channels: BTreeMap<&'a str, &'a str>,
    channels: BTreeMap<&'a str, BTreeMap<&'a str, &'a Channel>>,
    bundles: BTreeMap<(&'a str, &'a str), &'a Bundle>,
}

impl<'a> Index<'a> {
    fn new(catalog: &'a Catalog) -> Index<'a> {
        let mut index = Index {
            default_channels: BTreeMap::new(),
            channels: BTreeMap::new(),
            bundles: BTreeMap::new(),
        };
        for package in &catalog.packages {
            index
                .default_channels
                .insert(&package.item.name, &package.item.default_channel);
        }
        for channel in &catalog.channels {
            let channel = &channel.item;
            index
                .channels
                .entry(&channel.package)
                .or_default()
                .insert(&channel.name, channel);
        }
        for bundle in &catalog.bundles {
            let bundle = &bundle.item;
            index
                .bundles
                .insert((&bundle.package, &bundle.name), bundle);
        }
        index
    }

    /// The channels of a package, by name.
    fn channels_of(&self, package: &str) -> impl Iterator<Item = &'a Channel> + '_ {
        self.channels
            .get(package)
            .into_iter()
            .flat_map(|channels| channels.values().copied())
    }

    fn channel(&self, package: &str, name: &str) -> Option<&'a Channel> {
        self.channels.get(package)?.get(name).copied()
    }

    fn bundle(&self, package: &str, name: &str) -> Option<&'a Bundle> {
        self.bundles.get(&(package, name)).copied()
    }
}

/// The channel's one head (validation has made sure there is exactly one).
fn head(channel: &Channel) -> Option<String> {
    let entries: crate::validate::small_map::SmallMap<&str, _> = channel
        .entries
        .iter()
        .flatten()
        .map(|entry| (entry.name.as_str(), entry))
        .collect();
    match crate::validate::chain::heads(&entries).as_slice() {
        [head] => Some((*head).to_owned()),
        _ => None,
    }
}

/// `spec.displayName` of the bundle's CSV, read from its `olm.bundle.object`s only
/// (catalogs with `olm.csv.metadata` alone show none, as in opm).
fn display_name(bundle: &Bundle) -> String {
    bundle
        .properties
        .iter()
        .filter(|property| property.kind == BUNDLE_OBJECT)
        .filter_map(|property| {
            let data = property.value()?.get("data")?.as_str()?.to_owned();
            let bytes = crate::go::base64::decode(data.as_bytes()).ok()?;
            serde_json::from_slice::<Value>(&bytes).ok()
        })
        .find(|object| object.get("kind").and_then(Value::as_str) == Some("ClusterServiceVersion"))
        .and_then(|csv| Some(csv.pointer("/spec/displayName")?.as_str()?.to_owned()))
        .unwrap_or_default()
}
