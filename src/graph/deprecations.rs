//! What `olm.deprecations` blobs deprecate: per package, channel and bundle with the
//! message, and opm's name-only sets that `render-graph` decorates by.

use std::collections::{HashMap, HashSet};

use crate::catalog::Located;
use crate::model::Deprecation;

const PACKAGE: &str = "olm.package";
const CHANNEL: &str = "olm.channel";
const BUNDLE: &str = "olm.bundle";

/// Deprecation messages keyed by package, then by channel or bundle name.
#[derive(Debug, Default)]
pub(crate) struct Deprecations {
    packages: HashMap<String, String>,
    /// Package -> channel -> message.
    channels: HashMap<String, HashMap<String, String>>,
    /// Package -> bundle -> message.
    bundles: HashMap<String, HashMap<String, String>>,
}

/// opm's mermaid sets: a channel or bundle *name* deprecated in one package is
/// decorated in every package that has the name.
#[derive(Debug, Default)]
pub(crate) struct NameSets {
    pub(crate) packages: HashSet<String>,
    pub(crate) channels: HashSet<String>,
    pub(crate) bundles: HashSet<String>,
}

impl Deprecations {
    /// The first message for a reference wins (a valid catalog has one).
    pub(crate) fn new(blobs: &[Located<Deprecation>]) -> Self {
        let mut deprecations = Self::default();
        for blob in blobs {
            let package = &blob.item.package;
            for entry in blob.item.entries.iter().flatten() {
                let message = entry.message.clone();
                let name = entry.reference_name.clone();
                match entry.reference_schema.as_str() {
                    PACKAGE => {
                        deprecations
                            .packages
                            .entry(package.clone())
                            .or_insert(message);
                    }
                    CHANNEL => {
                        let names = deprecations.channels.entry(package.clone()).or_default();
                        names.entry(name).or_insert(message);
                    }
                    BUNDLE => {
                        let names = deprecations.bundles.entry(package.clone()).or_default();
                        names.entry(name).or_insert(message);
                    }
                    _ => {}
                }
            }
        }
        deprecations
    }

    pub(crate) fn package(&self, package: &str) -> Option<&str> {
        self.packages.get(package).map(String::as_str)
    }

    pub(crate) fn channel(&self, package: &str, channel: &str) -> Option<&str> {
        self.channels.get(package)?.get(channel).map(String::as_str)
    }

    pub(crate) fn bundle(&self, package: &str, bundle: &str) -> Option<&str> {
        self.bundles.get(package)?.get(bundle).map(String::as_str)
    }

    pub(crate) fn name_sets(&self) -> NameSets {
        NameSets {
            packages: self.packages.keys().cloned().collect(),
            channels: self
                .channels
                .values()
                .flat_map(HashMap::keys)
                .cloned()
                .collect(),
            bundles: self
                .bundles
                .values()
                .flat_map(HashMap::keys)
                .cloned()
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Location;
    use crate::model::deprecation::DeprecationEntry;

    pub(crate) fn located(package: &str, entries: &[(&str, &str)]) -> Located<Deprecation> {
        let entries = entries
            .iter()
            .map(|(schema, name)| DeprecationEntry {
                reference_schema: (*schema).to_owned(),
                reference_name: (*name).to_owned(),
                message: format!("{name} is old"),
            })
            .collect();
        Located {
            item: Deprecation {
                schema: "olm.deprecations".to_owned(),
                package: package.to_owned(),
                entries: Some(entries),
            },
            location: Location::start_of("d.json"),
        }
    }

    #[test]
    fn messages_are_per_package_and_sets_by_name() {
        let blobs = [located(
            "p",
            &[(PACKAGE, ""), (CHANNEL, "fast"), (BUNDLE, "p.v1")],
        )];
        let deprecations = Deprecations::new(&blobs);
        assert_eq!(deprecations.package("p"), Some(" is old"));
        assert_eq!(deprecations.channel("p", "fast"), Some("fast is old"));
        assert_eq!(deprecations.channel("q", "fast"), None);
        assert_eq!(deprecations.bundle("p", "p.v1"), Some("p.v1 is old"));
        let sets = deprecations.name_sets();
        assert!(sets.channels.contains("fast") && sets.bundles.contains("p.v1"));
        assert!(sets.packages.contains("p"));
    }
}
