//! OLM classic (a Subscription): a channel is ordered along its replaces chain from
//! its single head, skipped entries left out, and the candidate nearest the head
//! wins (operator-lifecycle-manager `resolver.go`, `sortChannel`; spec §6.4).

use std::collections::{HashMap, HashSet};

use crate::model::Channel;
use crate::model::channel::ChannelEntry;

use super::package::{PackageGraph, entries};
use super::reason::{Channels, Cover, OrderError, Reason};
use super::{Next, Position, Rules, Step, cover_of};

/// The channel's entries from the head down the replaces chain, skipped entries
/// left out (OLM's `sortChannel`).
pub(crate) fn channel_order<'a>(
    package: &str,
    channel: &'a Channel,
) -> Result<Vec<&'a ChannelEntry>, OrderError> {
    let entries = entries(channel);
    // A later entry of the same name wins the lookup, as in OLM's map.
    let lookup: HashMap<&str, usize> = entries
        .iter()
        .enumerate()
        .map(|(index, entry)| (entry.name.as_str(), index))
        .collect();
    let mut superseded = HashSet::new();
    let mut replaces: HashMap<usize, usize> = HashMap::new();
    let mut skipped: HashSet<&str> = HashSet::new();
    for (index, entry) in entries.iter().enumerate() {
        if let Some(&target) = lookup.get(entry.replaces.as_str()) {
            superseded.insert(target);
            replaces.insert(index, target);
        }
        for skip in &entry.skips {
            if let Some(&target) = lookup.get(skip.as_str()) {
                superseded.insert(target);
                skipped.insert(skip);
            }
        }
    }
    let heads: Vec<usize> = (0..entries.len())
        .filter(|i| !superseded.contains(i))
        .collect();
    let error_names = || (channel.name.clone(), package.to_owned());
    if heads.is_empty() && !entries.is_empty() {
        let (channel, package) = error_names();
        return Err(OrderError::NoHeads {
            channel: channel.to_string(),
            package,
        });
    }
    let mut chains: Vec<Vec<&ChannelEntry>> = Vec::new();
    for &head in &heads {
        let mut chain = Vec::new();
        let mut visited = HashSet::new();
        let mut current = head;
        loop {
            visited.insert(current);
            if !skipped.contains(entries[current].name.as_str()) {
                chain.push(&entries[current]);
            }
            let Some(&next) = replaces.get(&current) else {
                break;
            };
            if visited.contains(&next) {
                let (channel, package) = error_names();
                let head = entries[head].name.clone();
                return Err(OrderError::Cycle {
                    head: head.to_string(),
                    channel: channel.to_string(),
                    package,
                });
            }
            current = next;
        }
        chains.push(chain);
    }
    if chains.len() > 1 {
        let (channel, package) = error_names();
        return Err(OrderError::Chains {
            count: chains.len(),
            channel: channel.to_string(),
            package,
            chains: describe_chains(&chains),
        });
    }
    Ok(chains.pop().unwrap_or_default())
}

fn describe_chains(chains: &[Vec<&ChannelEntry>]) -> String {
    let names: Vec<String> = chains
        .iter()
        .map(|chain| match chain.as_slice() {
            [] => "[]".to_owned(),
            [only] => only.name.to_string(),
            [first, .., last] => format!("{}...{}", first.name, last.name),
        })
        .collect();
    names.join(", ")
}

/// Classic's view of a package: the subscribed channel, or every channel with the
/// default channel first and the others by name, each in chain order.
pub(crate) struct Classic<'a> {
    graph: &'a PackageGraph<'a>,
    channels: Vec<&'a Channel>,
    orders: Result<Vec<Vec<&'a ChannelEntry>>, OrderError>,
}

impl<'a> Classic<'a> {
    pub(crate) fn new(graph: &'a PackageGraph<'a>, subscribed: Option<&'a Channel>) -> Self {
        let channels = if let Some(channel) = subscribed {
            vec![channel]
        } else {
            let mut channels = graph.channels.clone();
            let default = graph.default_channel;
            channels
                .sort_by(|a, b| (a.name != default, &a.name).cmp(&(b.name != default, &b.name)));
            channels
        };
        let orders = channels
            .iter()
            .map(|channel| channel_order(graph.name, channel))
            .collect();
        Self {
            graph,
            channels,
            orders,
        }
    }

    pub(crate) fn channel_names(&self) -> Vec<&'a str> {
        self.channels.iter().map(|c| c.name.as_str()).collect()
    }

    /// Every entry that upgrades `at`, nearest the head first.
    fn candidates(&self, orders: &[Vec<&'a ChannelEntry>], at: &Position) -> Vec<Step<'a>> {
        let mut steps: Vec<Step<'a>> = Vec::new();
        for (channel, order) in self.channels.iter().zip(orders) {
            for entry in order {
                if let Some(cover) = cover_of(entry, at) {
                    steps.push(Step::new(self.graph, at, entry, channel, cover));
                }
            }
        }
        steps
    }

    fn explain_channel(
        channel: &'a Channel,
        order: &[&ChannelEntry],
        at: &Position,
    ) -> Vec<Reason> {
        let mut reasons = Vec::new();
        let channel_name = &channel.name;
        let head = order
            .first()
            .map(|entry| entry.name.clone())
            .unwrap_or_default();
        let in_order = |name: &str| order.iter().any(|entry| entry.name == name);
        let skipper = |name: &str| {
            entries(channel)
                .iter()
                .find(|other| other.skips.iter().any(|skip| skip == name))
                .map(|other| other.name.clone())
        };
        if entries(channel).iter().any(|entry| entry.name == at.name) && !in_order(&at.name) {
            reasons.push(match skipper(&at.name) {
                Some(skipped_by) => Reason::BundleSkipped {
                    bundle: at.label(),
                    skipped_by: skipped_by.to_string(),
                    channel: channel_name.to_string(),
                },
                None => Reason::BundleOffChain {
                    bundle: at.label(),
                    head: head.to_string(),
                    channel: channel_name.to_string(),
                },
            });
        }
        for entry in entries(channel) {
            let Some(kind) = cover_of(entry, at).filter(|_| !in_order(&entry.name)) else {
                continue;
            };
            let cover = Cover::new(entry, kind, at);
            reasons.push(match skipper(&entry.name) {
                Some(skipped_by) => Reason::CandidateSkipped {
                    cover,
                    skipped_by: skipped_by.to_string(),
                    channel: channel_name.to_string(),
                },
                None => Reason::CandidateOffChain {
                    cover,
                    head: head.to_string(),
                    channel: channel_name.to_string(),
                },
            });
        }
        reasons
    }
}

impl<'a> Rules<'a> for Classic<'a> {
    fn next(&self, at: &Position) -> Next<'a> {
        let orders = match &self.orders {
            Ok(orders) => orders,
            Err(error) => return Next::Blocked(Reason::ChannelOrder(error.clone())),
        };
        let mut candidates = self.candidates(orders, at).into_iter();
        match candidates.next() {
            Some(mut step) => {
                for other in candidates {
                    step.offer(other.to);
                }
                Next::Step(step)
            }
            None => Next::Stay,
        }
    }

    fn is_head(&self, name: &str) -> bool {
        let Ok(orders) = &self.orders else {
            return false;
        };
        orders
            .iter()
            .any(|order| order.first().is_some_and(|head| head.name == name))
    }

    fn successors(&self, at: &Position) -> Vec<&'a str> {
        let Ok(orders) = &self.orders else {
            return Vec::new();
        };
        self.candidates(orders, at)
            .iter()
            .map(|step| step.to)
            .filter(|&name| name != at.name)
            .collect()
    }

    fn explain(&self, at: &Position) -> Vec<Reason> {
        let Ok(orders) = &self.orders else {
            return Vec::new();
        };
        let mut reasons = Vec::new();
        for (channel, order) in self.channels.iter().zip(orders) {
            reasons.extend(Self::explain_channel(channel, order, at));
        }
        let covered = reasons.iter().any(|reason| {
            matches!(
                reason,
                Reason::CandidateSkipped { .. } | Reason::CandidateOffChain { .. }
            )
        });
        let channels =
            Channels::Named(self.channel_names().iter().map(|&c| c.to_owned()).collect());
        let listed = self
            .channels
            .iter()
            .any(|c| entries(c).iter().any(|e| e.name == at.name));
        if !listed {
            reasons.insert(
                0,
                Reason::NotInChannels {
                    bundle: at.label(),
                    channels: channels.clone(),
                },
            );
        }
        if !covered {
            reasons.push(Reason::NoEdge {
                bundle: at.label(),
                version: at.version.clone(),
                channels,
            });
        }
        reasons
    }
}
