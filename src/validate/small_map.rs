//! An ordered map that costs little while it is small. A `BTreeMap` allocates a
//! node with room for eleven entries for its first one, and the validation model
//! holds several maps per package and channel: in a catalog of many one-bundle
//! packages those nodes were most of the model's memory. Up to [`INLINE`] entries
//! live in a sorted vector; past that, in a `BTreeMap`. Iteration is in key order
//! either way, so walks over the model stay deterministic.

use std::collections::BTreeMap;

/// Entries kept in the sorted vector before the map becomes a `BTreeMap`.
const INLINE: usize = 8;

#[derive(Debug, Clone)]
pub(crate) enum SmallMap<K, V> {
    Small(Vec<(K, V)>),
    /// Boxed, so that the map is as small as a `Vec` (the extra allocation is
    /// made only past [`INLINE`] entries).
    #[allow(clippy::box_collection)]
    Large(Box<BTreeMap<K, V>>),
}

impl<K, V> Default for SmallMap<K, V> {
    fn default() -> Self {
        SmallMap::Small(Vec::new())
    }
}

impl<K: Ord, V> SmallMap<K, V> {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    pub(crate) fn is_empty(&self) -> bool {
        match self {
            SmallMap::Small(items) => items.is_empty(),
            SmallMap::Large(map) => map.is_empty(),
        }
    }

    fn position<Q>(items: &[(K, V)], key: &Q) -> Result<usize, usize>
    where
        K: std::borrow::Borrow<Q>,
        Q: Ord + ?Sized,
    {
        items.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    pub(crate) fn get<Q>(&self, key: &Q) -> Option<&V>
    where
        K: std::borrow::Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.get_key_value(key).map(|(_, v)| v)
    }

    pub(crate) fn get_key_value<Q>(&self, key: &Q) -> Option<(&K, &V)>
    where
        K: std::borrow::Borrow<Q>,
        Q: Ord + ?Sized,
    {
        match self {
            SmallMap::Small(items) => Self::position(items, key)
                .ok()
                .map(|at| (&items[at].0, &items[at].1)),
            SmallMap::Large(map) => map.get_key_value(key),
        }
    }

    pub(crate) fn get_mut<Q>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: std::borrow::Borrow<Q>,
        Q: Ord + ?Sized,
    {
        match self {
            SmallMap::Small(items) => Self::position(items, key).ok().map(|at| &mut items[at].1),
            SmallMap::Large(map) => map.get_mut(key),
        }
    }

    pub(crate) fn contains_key<Q>(&self, key: &Q) -> bool
    where
        K: std::borrow::Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.get(key).is_some()
    }

    /// As `BTreeMap::insert`: an existing key keeps its key and gets the new value.
    pub(crate) fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self {
            SmallMap::Small(items) => match Self::position(items, &key) {
                Ok(at) => Some(std::mem::replace(&mut items[at].1, value)),
                Err(at) if items.len() < INLINE => {
                    // One entry at a time: most maps hold one or two, and a `Vec`
                    // would make room for four on its first push.
                    items.reserve_exact(1);
                    items.insert(at, (key, value));
                    None
                }
                Err(_) => {
                    let mut map: BTreeMap<K, V> = std::mem::take(items).into_iter().collect();
                    map.insert(key, value);
                    *self = SmallMap::Large(Box::new(map));
                    None
                }
            },
            SmallMap::Large(map) => map.insert(key, value),
        }
    }

    pub(crate) fn iter(&self) -> Box<dyn Iterator<Item = (&K, &V)> + '_> {
        match self {
            SmallMap::Small(items) => Box::new(items.iter().map(|(k, v)| (k, v))),
            SmallMap::Large(map) => Box::new(map.iter()),
        }
    }

    pub(crate) fn keys(&self) -> impl Iterator<Item = &K> + '_ {
        self.iter().map(|(k, _)| k)
    }

    pub(crate) fn values(&self) -> impl Iterator<Item = &V> + '_ {
        self.iter().map(|(_, v)| v)
    }

    pub(crate) fn values_mut(&mut self) -> Box<dyn Iterator<Item = &mut V> + '_> {
        match self {
            SmallMap::Small(items) => Box::new(items.iter_mut().map(|(_, v)| v)),
            SmallMap::Large(map) => Box::new(map.values_mut()),
        }
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for SmallMap<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(pairs: I) -> Self {
        let mut map = SmallMap::new();
        for (key, value) in pairs {
            map.insert(key, value);
        }
        map
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_is_as_small_as_a_vec() {
        assert_eq!(
            std::mem::size_of::<SmallMap<&str, u32>>(),
            std::mem::size_of::<Vec<(&str, u32)>>()
        );
    }

    #[test]
    fn it_orders_and_replaces_as_a_btree_map_does() {
        for count in [0, 1, 7, 8, 9, 40] {
            let pairs: Vec<(u32, u32)> = (0..count).map(|i| ((i * 37) % 41, i)).collect();
            let mut small = SmallMap::new();
            let mut btree = BTreeMap::new();
            for &(k, v) in pairs.iter().chain(pairs.iter().take(3)) {
                assert_eq!(small.insert(k, v + 1), btree.insert(k, v + 1));
            }
            let a: Vec<(u32, u32)> = small.iter().map(|(k, v)| (*k, *v)).collect();
            let b: Vec<(u32, u32)> = btree.iter().map(|(k, v)| (*k, *v)).collect();
            assert_eq!(a, b, "{count}");
            assert_eq!(small.is_empty(), btree.is_empty());
            for key in 0..45 {
                assert_eq!(small.get(&key), btree.get(&key));
                assert_eq!(small.contains_key(&key), btree.contains_key(&key));
            }
            if let Some(v) = small.get_mut(&0) {
                *v = 99;
            }
            for v in small.values_mut() {
                *v += 1;
            }
            let keys: Vec<u32> = small.keys().copied().collect();
            assert_eq!(keys, btree.keys().copied().collect::<Vec<_>>());
        }
    }
}
