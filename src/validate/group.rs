//! The packages of a catalog in groups, so that validation holds the model of a
//! few packages at a time: a catalog of many small packages would otherwise hold,
//! beside itself, a model about as large. A group holds every blob that names one
//! of its packages, so each package is checked whole; groups come in package-name
//! order, the order opm's model keeps.

use std::cmp::Ordering;

use crate::catalog::Catalog;

/// About how many blobs a group holds (more when one package alone has more).
const GROUP_BLOBS: usize = 1024;

/// One group: indices into the catalog's lists, each ordered by package name and,
/// within a package, in catalog order.
pub(crate) struct Group<'g> {
    /// The group's place in the sequence, from 0.
    pub(crate) number: usize,
    pub(crate) packages: &'g [u32],
    pub(crate) channels: &'g [u32],
    pub(crate) bundles: &'g [u32],
    pub(crate) deprecations: &'g [u32],
}

/// Packages, channels, bundles and deprecations ordered by the package they name.
pub(crate) struct Groups<'a> {
    catalog: &'a Catalog,
    lists: [Vec<u32>; 4],
}

impl<'a> Groups<'a> {
    pub(crate) fn new(catalog: &'a Catalog) -> Groups<'a> {
        let lists = [0, 1, 2, 3].map(|list| {
            let length = [
                catalog.packages.len(),
                catalog.channels.len(),
                catalog.bundles.len(),
                catalog.deprecations.len(),
            ][list];
            let mut order: Vec<u32> = (0..length as u32).collect();
            // Stable: blobs of one package keep their catalog order.
            order.sort_by(|&a, &b| name(catalog, list, a).cmp(name(catalog, list, b)));
            order
        });
        Groups { catalog, lists }
    }

    /// Calls `visit` with each group in turn.
    pub(crate) fn for_each(&self, mut visit: impl FnMut(&Group<'_>)) {
        let mut at = [0usize; 4];
        let mut start = at;
        let mut number = 0;
        loop {
            // The least package name at the head of a list, then every blob naming it.
            let least = (0..4)
                .filter_map(|list| {
                    let index = *self.lists[list].get(at[list])?;
                    Some(name(self.catalog, list, index))
                })
                .min();
            if let Some(least) = least {
                for (list, position) in at.iter_mut().enumerate() {
                    while let Some(&index) = self.lists[list].get(*position)
                        && name(self.catalog, list, index).cmp(least) == Ordering::Equal
                    {
                        *position += 1;
                    }
                }
            }
            let taken: usize = (0..4).map(|list| at[list] - start[list]).sum();
            if taken == 0 {
                return;
            }
            if least.is_none() || taken >= GROUP_BLOBS {
                let slice = |list: usize| &self.lists[list][start[list]..at[list]];
                visit(&Group {
                    number,
                    packages: slice(0),
                    channels: slice(1),
                    bundles: slice(2),
                    deprecations: slice(3),
                });
                number += 1;
                start = at;
            }
        }
    }
}

/// The package a blob of `list` names (a package blob: its own name).
fn name(catalog: &Catalog, list: usize, index: u32) -> &str {
    let index = index as usize;
    match list {
        0 => &catalog.packages[index].item.name,
        1 => &catalog.channels[index].item.package,
        2 => &catalog.bundles[index].item.package,
        _ => &catalog.deprecations[index].item.package,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{Located, Location};
    use crate::model::{Bundle, Channel, Package};

    fn located<T>(item: T) -> Located<T> {
        Located {
            item,
            location: Location::start_of("c.json"),
        }
    }

    #[test]
    fn groups_hold_whole_packages_in_name_order() {
        let mut catalog = Catalog::default();
        // 3,000 packages in reverse name order, each with a channel and two bundles,
        // and a bundle of a package that does not exist.
        for number in (0..3000).rev() {
            let package = format!("p{number:04}");
            catalog.packages.push(located(Package {
                name: package.as_str().into(),
                ..Package::default()
            }));
            catalog.channels.push(located(Channel {
                name: "stable".into(),
                package: package.as_str().into(),
                ..Channel::default()
            }));
            for version in 0..2 {
                catalog.bundles.push(located(Bundle {
                    name: format!("{package}.v{version}").into(),
                    package: package.as_str().into(),
                    ..Bundle::default()
                }));
            }
        }
        catalog.bundles.push(located(Bundle {
            package: "p1500x".into(),
            ..Bundle::default()
        }));
        let groups = Groups::new(&catalog);
        let (mut packages_seen, mut channels_seen, mut bundles_seen) =
            (Vec::new(), Vec::new(), Vec::new());
        let mut numbers = Vec::new();
        groups.for_each(|group| {
            numbers.push(group.number);
            let names = |list: usize, indices: &[u32]| -> Vec<String> {
                indices
                    .iter()
                    .map(|&index| name(&catalog, list, index).to_owned())
                    .collect()
            };
            let packages = names(0, group.packages);
            // Every blob of the group names one of its packages (or the stray one).
            for name in names(1, group.channels)
                .iter()
                .chain(&names(2, group.bundles))
            {
                assert!(packages.contains(name) || name == "p1500x", "{name}");
            }
            assert!(
                group.packages.len() + group.channels.len() + group.bundles.len() < GROUP_BLOBS + 4
            );
            packages_seen.extend(packages);
            channels_seen.extend(names(1, group.channels));
            bundles_seen.extend_from_slice(group.bundles);
        });
        assert_eq!(numbers, (0..numbers.len()).collect::<Vec<_>>());
        assert!(numbers.len() > 2);
        let mut sorted = packages_seen.clone();
        sorted.sort();
        assert_eq!(packages_seen, sorted);
        assert_eq!(packages_seen.len(), 3000);
        assert_eq!(channels_seen.len(), 3000);
        assert_eq!(bundles_seen.len(), 6001);
        // Bundles of one package keep their catalog order.
        let first = catalog
            .bundles
            .iter()
            .position(|bundle| bundle.item.package == "p0000")
            .expect("p0000 has bundles");
        let at = bundles_seen
            .iter()
            .position(|&index| index as usize == first);
        assert_eq!(bundles_seen[at.expect("seen") + 1] as usize, first + 1);
    }

    #[test]
    fn an_empty_catalog_has_no_group() {
        let catalog = Catalog::default();
        let mut count = 0;
        Groups::new(&catalog).for_each(|_| count += 1);
        assert_eq!(count, 0);
    }
}
