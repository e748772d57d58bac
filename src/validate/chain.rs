//! opm's channel head and replaces-chain rules (`Channel.Head`,
//! `validateReplacesChain`, spec §3.4), quirks included: skips count as edges
//! even when empty, `skipRange` does not count, and only the first problem of a
//! channel is reported.

use std::collections::{BTreeSet, HashMap};

use super::small_map::SmallMap;

use crate::model::channel::ChannelEntry;

use super::finding::Rule;

/// The one problem opm reports for a channel's graph, and the entries involved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ChainProblem<'a> {
    pub(crate) rule: Rule,
    pub(crate) message: String,
    pub(crate) bundles: Vec<&'a str>,
}

/// The entries nothing replaces or skips.
pub(crate) fn heads<'a>(entries: &SmallMap<&'a str, &'a ChannelEntry>) -> Vec<&'a str> {
    let mut incoming: HashMap<&str, usize> = HashMap::new();
    for entry in entries.values() {
        if !entry.replaces.is_empty() {
            *incoming.entry(&entry.replaces).or_default() += 1;
        }
        for skip in &entry.skips {
            *incoming.entry(skip).or_default() += 1;
        }
    }
    entries
        .keys()
        .copied()
        .filter(|name| !incoming.contains_key(name))
        .collect()
}

/// Checks a channel with at least one entry.
pub(crate) fn check<'a>(entries: &SmallMap<&'a str, &'a ChannelEntry>) -> Option<ChainProblem<'a>> {
    let heads = heads(entries);
    let head = match heads.as_slice() {
        [] => {
            return Some(ChainProblem {
                rule: Rule::ChannelNoHead,
                message: "no channel head found in graph".to_owned(),
                bundles: entries.keys().copied().collect(),
            });
        }
        [head] => *head,
        several => {
            return Some(ChainProblem {
                rule: Rule::ChannelMultipleHeads,
                message: format!(
                    "multiple channel heads found in graph: {}",
                    several.join(", ")
                ),
                bundles: several.to_vec(),
            });
        }
    };
    let skipped: BTreeSet<&str> = entries
        .values()
        .flat_map(|entry| entry.skips.iter().map(crate::model::Text::as_str))
        .collect();
    let mut chain: Vec<&str> = vec![head];
    let mut on_chain: BTreeSet<&str> = BTreeSet::from([head]);
    let mut current = entries.get(head).copied();
    while let Some(entry) = current {
        let replaces = entry.replaces.as_str();
        // A replaces edge to a skipped entry is disregarded, and ends the walk.
        if skipped.contains(replaces) {
            break;
        }
        if on_chain.contains(replaces) {
            let start = chain
                .iter()
                .position(|name| *name == replaces)
                .expect("every name on the chain was walked");
            let mut cycle: Vec<&str> = chain[start..].to_vec();
            cycle.push(replaces);
            return Some(ChainProblem {
                rule: Rule::ChannelReplacesCycle,
                message: format!(
                    "detected cycle in replaces chain of upgrade graph: {}",
                    cycle.join(" -> ")
                ),
                bundles: chain[start..].to_vec(),
            });
        }
        on_chain.insert(replaces);
        chain.push(replaces);
        current = entries.get(replaces).copied();
    }
    let stranded: Vec<&str> = entries
        .keys()
        .copied()
        .filter(|name| !on_chain.contains(name) && !skipped.contains(name))
        .collect();
    (!stranded.is_empty()).then(|| ChainProblem {
        rule: Rule::ChannelStrandedBundles,
        message: format!(
            "channel contains one or more stranded bundles: {}",
            stranded.join(", ")
        ),
        bundles: stranded,
    })
}

/// The last entry on the replaces chain from the single head, the one allowed to
/// replace a bundle that does not exist. `None` without a single head.
pub(crate) fn tail<'a>(entries: &SmallMap<&'a str, &'a ChannelEntry>) -> Option<&'a str> {
    let [head] = heads(entries)[..] else {
        return None;
    };
    let mut seen = BTreeSet::from([head]);
    let mut current = head;
    while let Some(next) = entries
        .get(current)
        .map(|entry| entry.replaces.as_str())
        .filter(|next| entries.contains_key(next))
    {
        if !seen.insert(next) {
            return None;
        }
        current = next;
    }
    Some(current)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str, replaces: &str, skips: &[&str]) -> ChannelEntry {
        ChannelEntry {
            name: name.into(),
            replaces: replaces.into(),
            skips: skips.iter().map(|skip| (*skip).into()).collect(),
            skip_range: String::new().into(),
        }
    }

    fn run(entries: &[ChannelEntry]) -> Option<(Rule, String)> {
        let map = entries.iter().map(|e| (e.name.as_str(), e)).collect();
        check(&map).map(|problem| (problem.rule, problem.message))
    }

    #[test]
    fn a_straight_chain_passes() {
        let entries = [
            entry("a.v3", "a.v2", &[]),
            entry("a.v2", "a.v1", &[]),
            entry("a.v1", "a.v0", &[]),
        ];
        assert_eq!(run(&entries), None);
    }

    #[test]
    fn heads_and_cycles_read_as_opm() {
        let two = [entry("b", "", &[]), entry("a", "", &[])];
        assert_eq!(
            run(&two),
            Some((
                Rule::ChannelMultipleHeads,
                "multiple channel heads found in graph: a, b".to_owned()
            ))
        );
        let cycle = [
            entry("h", "x3", &[]),
            entry("x3", "x2", &[]),
            entry("x2", "x1", &[]),
            entry("x1", "x3", &[]),
        ];
        assert_eq!(
            run(&cycle),
            Some((
                Rule::ChannelReplacesCycle,
                "detected cycle in replaces chain of upgrade graph: x3 -> x2 -> x1 -> x3"
                    .to_owned()
            ))
        );
        let closed = [entry("a", "b", &[]), entry("b", "a", &[])];
        assert_eq!(
            run(&closed),
            Some((
                Rule::ChannelNoHead,
                "no channel head found in graph".to_owned()
            ))
        );
    }

    #[test]
    fn skipped_edges_end_the_walk_and_strand_nothing_skipped() {
        let entries = [
            entry("c", "b", &["b"]),
            entry("b", "a", &[]),
            entry("a", "", &[]),
        ];
        assert_eq!(
            run(&entries),
            Some((
                Rule::ChannelStrandedBundles,
                "channel contains one or more stranded bundles: a".to_owned()
            ))
        );
        let fine = [
            entry("c", "b", &["a"]),
            entry("b", "a", &[]),
            entry("a", "", &[]),
        ];
        assert_eq!(run(&fine), None);
    }

    #[test]
    fn an_empty_name_is_a_bundle_too() {
        let entries = [entry("", "", &[]), entry("p.v1.0.0", "", &[])];
        assert_eq!(
            run(&entries),
            Some((
                Rule::ChannelMultipleHeads,
                "multiple channel heads found in graph: , p.v1.0.0".to_owned()
            ))
        );
    }

    #[test]
    fn the_tail_is_the_end_of_the_chain() {
        let entries = [entry("c", "b", &[]), entry("b", "a", &[])];
        let map = entries.iter().map(|e| (e.name.as_str(), e)).collect();
        assert_eq!(tail(&map), Some("b"));
    }
}
