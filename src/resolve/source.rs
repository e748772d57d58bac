//! What OLM's resolver sees of catalogs and installed operators: one entry per
//! (bundle, channel) as `opm serve` lists them, and OLM's channel order.

use std::collections::HashMap;

use serde_json::Value;

use crate::catalog::Catalog;
use crate::go::semver::Version;
use crate::model::property::{BUNDLE_OBJECT, CSV_METADATA};

/// Index of an entry in [`Universe::entries`].
pub(crate) type EntryId = usize;

/// A CatalogSource, or a namespace's installed operators (`@existing`).
#[derive(Debug)]
pub(crate) struct Source {
    pub(crate) name: String,
    pub(crate) namespace: String,
    pub(crate) priority: i64,
    /// Its entries, in catalog order.
    pub(crate) entries: Vec<EntryId>,
}

impl Source {
    pub(crate) fn is_existing(&self) -> bool {
        self.name == EXISTING
    }
}

/// The virtual catalog of installed operators.
pub(crate) const EXISTING: &str = "@existing";

/// One (bundle, channel) of a catalog, or one installed CSV.
#[derive(Debug)]
pub(crate) struct Entry {
    pub(crate) source: usize,
    pub(crate) bundle: String,
    pub(crate) package: String,
    /// `""` for an installed CSV.
    pub(crate) channel: String,
    pub(crate) default_channel: bool,
    pub(crate) replaces: String,
    pub(crate) skips: Vec<String>,
    pub(crate) skip_range: String,
    pub(crate) version: Option<Version>,
    /// As served: the bundle's properties without bundle objects and CSV metadata,
    /// then a copy of each `olm.gvk.required` and `olm.package.required`.
    pub(crate) properties: Vec<(String, Value)>,
    /// An installed CSV that no Subscription manages.
    pub(crate) freestanding: bool,
}

impl Entry {
    /// OLM's `PkgPredicate`: an `olm.package` property of that name, or the
    /// entry's own package.
    pub(crate) fn is_package(&self, name: &str) -> bool {
        self.package == name
            || self.properties.iter().any(|(kind, value)| {
                kind == "olm.package"
                    && value.get("packageName").and_then(Value::as_str) == Some(name)
            })
    }

    pub(crate) fn deprecated(&self) -> bool {
        self.properties
            .iter()
            .any(|(kind, _)| kind == "olm.deprecated")
    }
}

/// Every catalog and installed operator known to a run.
#[derive(Debug, Default)]
pub(crate) struct Universe {
    pub(crate) sources: Vec<Source>,
    pub(crate) entries: Vec<Entry>,
    /// The entries of each package name an entry is (its own, and every
    /// `olm.package` property's), in the order they were added: a resolution
    /// looks a package up instead of reading every entry (`--every-package` over
    /// a catalog of many packages would read all of them for each).
    by_package: HashMap<String, Vec<EntryId>>,
    /// The entries providing each `olm.gvk` (group, version, kind), likewise.
    by_gvk: HashMap<(String, String, String), Vec<EntryId>>,
}

/// A package name or API that an entry must have to match a predicate.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Hint<'p> {
    Package(&'p str),
    Gvk(&'p str, &'p str, &'p str),
}

/// An installed ClusterServiceVersion, as the resolver reads it.
#[derive(Debug, Clone)]
pub(crate) struct Installed {
    pub(crate) name: String,
    pub(crate) package: String,
    /// `spec.version` (0.0.0 when absent, as Go's zero value).
    pub(crate) version: Version,
    pub(crate) properties: Vec<(String, Value)>,
    /// Whether the properties came from the `operatorframework.io/properties`
    /// annotation (else they were derived from the CSV's APIs).
    pub(crate) annotated: bool,
    pub(crate) freestanding: bool,
}

impl Universe {
    /// Adds a CatalogSource with the entries `opm serve` would list for `catalog`.
    pub(crate) fn add_catalog(
        &mut self,
        name: &str,
        namespace: &str,
        priority: i64,
        catalog: &Catalog,
    ) {
        let source = self.sources.len();
        let defaults: HashMap<&str, &str> = catalog
            .packages
            .iter()
            .map(|p| (&*p.item.name, &*p.item.default_channel))
            .collect();
        let mut bundles: HashMap<(&str, &str), &crate::model::Bundle> = HashMap::new();
        for located in &catalog.bundles {
            let bundle = &located.item;
            bundles
                .entry((bundle.package.as_str(), bundle.name.as_str()))
                .or_insert(bundle);
        }
        let mut entries = Vec::new();
        for located in &catalog.channels {
            let channel = &located.item;
            for entry in channel.entries.iter().flatten() {
                let Some(bundle) = bundles.get(&(channel.package.as_str(), entry.name.as_str()))
                else {
                    continue;
                };
                let properties = served_properties(bundle);
                let version = properties
                    .iter()
                    .find(|(kind, _)| kind == "olm.package")
                    .and_then(|(_, value)| value.get("version")?.as_str().map(Version::parse))
                    .and_then(Result::ok);
                let id = self.entries.len();
                entries.push(id);
                self.entries.push(Entry {
                    source,
                    bundle: entry.name.to_string(),
                    package: channel.package.to_string(),
                    channel: channel.name.to_string(),
                    default_channel: defaults.get(channel.package.as_str()).copied()
                        == Some(channel.name.as_str()),
                    replaces: entry.replaces.to_string(),
                    skips: entry.skips.iter().map(ToString::to_string).collect(),
                    skip_range: entry.skip_range.to_string(),
                    version,
                    properties,
                    freestanding: false,
                });
                self.index(id);
            }
        }
        self.sources.push(Source {
            name: name.to_owned(),
            namespace: namespace.to_owned(),
            priority,
            entries,
        });
    }

    /// Adds an entry to the lookups by package and by API.
    fn index(&mut self, id: EntryId) {
        let entry = &self.entries[id];
        let text = |value: &Value, name: &str| {
            value
                .get(name)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned()
        };
        let mut packages = vec![entry.package.clone()];
        let mut apis = Vec::new();
        for (kind, value) in &entry.properties {
            match kind.as_str() {
                "olm.package" => packages.push(text(value, "packageName")),
                "olm.gvk" => apis.push((
                    text(value, "group"),
                    text(value, "version"),
                    text(value, "kind"),
                )),
                _ => {}
            }
        }
        packages.sort_unstable();
        packages.dedup();
        apis.sort_unstable();
        apis.dedup();
        for package in packages {
            self.by_package.entry(package).or_default().push(id);
        }
        for api in apis {
            self.by_gvk.entry(api).or_default().push(id);
        }
    }

    /// The entries that may match a hint, in the order they were added (a
    /// superset: the predicate still decides), of sources still listed (a source
    /// dropped again leaves its entries behind).
    pub(crate) fn hinted(&self, hint: Hint<'_>) -> impl Iterator<Item = EntryId> + '_ {
        let found = match hint {
            Hint::Package(name) => self.by_package.get(name),
            Hint::Gvk(group, version, kind) => {
                self.by_gvk
                    .get(&(group.to_owned(), version.to_owned(), kind.to_owned()))
            }
        };
        found
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .copied()
            .filter(|id| {
                self.sources
                    .get(self.entries[*id].source)
                    .is_some_and(|source| source.entries.binary_search(id).is_ok())
            })
    }

    /// Adds the virtual catalog of a namespace's installed operators.
    pub(crate) fn add_existing(&mut self, namespace: &str, installed: &[Installed]) -> usize {
        let source = self.sources.len();
        let mut entries = Vec::new();
        for csv in installed {
            let id = self.entries.len();
            entries.push(id);
            self.entries.push(Entry {
                source,
                bundle: csv.name.clone(),
                package: csv.package.clone(),
                channel: String::new(),
                default_channel: false,
                // OLM reads neither `replaces` nor `skips` of an installed CSV.
                replaces: String::new(),
                skips: Vec::new(),
                skip_range: String::new(),
                version: Some(csv.version.clone()),
                properties: csv.properties.clone(),
                freestanding: csv.freestanding,
            });
            self.index(id);
        }
        self.sources.push(Source {
            name: EXISTING.to_owned(),
            namespace: namespace.to_owned(),
            priority: 0,
            entries,
        });
        source
    }

    /// OLM's identifier: `catalog/namespace/channel/bundle`.
    pub(crate) fn id(&self, entry: EntryId) -> String {
        let entry = &self.entries[entry];
        let source = &self.sources[entry.source];
        format!(
            "{}/{}/{}/{}",
            source.name, source.namespace, entry.channel, entry.bundle
        )
    }

    /// OLM's `sortChannel` over entries of one (catalog, package, channel): from the
    /// head along `replaces`, skipped entries left out.
    pub(crate) fn sort_channel(&self, group: &[EntryId]) -> Result<Vec<EntryId>, String> {
        let Some(&first) = group.first() else {
            return Ok(Vec::new());
        };
        let (package, channel) = (&self.entries[first].package, &self.entries[first].channel);
        let by_name: HashMap<&str, EntryId> = group
            .iter()
            .map(|e| (self.entries[*e].bundle.as_str(), *e))
            .collect();
        let mut has_successor = vec![false; group.len()];
        let position: HashMap<EntryId, usize> =
            group.iter().enumerate().map(|(i, e)| (*e, i)).collect();
        let mut replaces: HashMap<EntryId, EntryId> = HashMap::new();
        let mut skipped: std::collections::HashSet<&str> = std::collections::HashSet::new();
        for &e in group {
            let entry = &self.entries[e];
            if !entry.replaces.is_empty()
                && let Some(&r) = by_name.get(entry.replaces.as_str())
            {
                has_successor[position[&r]] = true;
                replaces.insert(e, r);
            }
            for skip in &entry.skips {
                if let Some(&r) = by_name.get(skip.as_str()) {
                    has_successor[position[&r]] = true;
                    skipped.insert(skip.as_str());
                }
            }
        }
        let heads: Vec<EntryId> = group
            .iter()
            .zip(&has_successor)
            .filter(|(_, r)| !**r)
            .map(|(e, _)| *e)
            .collect();
        if heads.is_empty() {
            return Err(format!(
                "no channel heads (entries not replaced by another entry) found in channel {} of package {}",
                quote(channel),
                quote(package)
            ));
        }
        let mut chains = Vec::new();
        for &head in &heads {
            let mut chain = Vec::new();
            let mut visited = std::collections::HashSet::new();
            let mut current = head;
            loop {
                visited.insert(current);
                if !skipped.contains(self.entries[current].bundle.as_str()) {
                    chain.push(current);
                }
                let Some(&next) = replaces.get(&current) else {
                    break;
                };
                if visited.contains(&next) {
                    return Err(format!(
                        "a cycle exists in the chain of replacement beginning with {} in channel {} of package {}",
                        quote(&self.entries[head].bundle),
                        quote(channel),
                        quote(package)
                    ));
                }
                current = next;
            }
            chains.push(chain);
        }
        if chains.len() > 1 {
            let names: Vec<String> = chains
                .iter()
                .map(|chain| match chain.as_slice() {
                    [] => "[]".to_owned(),
                    [only] => self.entries[*only].bundle.clone(),
                    [first, .., last] => format!(
                        "{}...{}",
                        self.entries[*first].bundle, self.entries[*last].bundle
                    ),
                })
                .collect();
            return Err(format!(
                "a unique replacement chain within a channel is required to determine the relative order between channel entries, but {} replacement chains were found in channel {} of package {}: {}",
                names.len(),
                quote(channel),
                quote(package),
                names.join(", ")
            ));
        }
        Ok(chains.pop().unwrap_or_default())
    }
}

fn quote(text: &str) -> String {
    crate::go::fmt::quote(text)
}

/// A bundle's properties as the registry serves them to OLM.
fn served_properties(bundle: &crate::model::Bundle) -> Vec<(String, Value)> {
    let mut out: Vec<(String, Value)> = bundle
        .properties
        .iter()
        .filter(|p| p.kind != BUNDLE_OBJECT && p.kind != CSV_METADATA)
        .map(|p| (p.kind.to_string(), p.value().unwrap_or(Value::Null)))
        .collect();
    let copies: Vec<(String, Value)> = out
        .iter()
        .filter_map(|(kind, value)| {
            let fields: &[&str] = match kind.as_str() {
                "olm.gvk.required" => &["group", "version", "kind"],
                "olm.package.required" => &["packageName", "versionRange"],
                _ => return None,
            };
            let copy: serde_json::Map<String, Value> = fields
                .iter()
                .map(|f| {
                    let text = value.get(*f).and_then(Value::as_str).unwrap_or("");
                    ((*f).to_owned(), Value::String(text.to_owned()))
                })
                .collect();
            Some((kind.clone(), Value::Object(copy)))
        })
        .collect();
    out.extend(copies);
    out
}
