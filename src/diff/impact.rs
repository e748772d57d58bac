//! Upgrade impact: for every installation OLD allows (a bundle of a channel, followed
//! by a `Subscription` on that channel or a `ClusterExtension` naming it), where OLM
//! classic and OLM v1 take it once the catalog becomes NEW, and whether it still
//! reaches NEW's head of the channel (spec §6.4, §6.5). The installed bundle is taken
//! from OLD (name, version, release): neither runtime needs it to be in NEW.

use std::collections::HashSet;
use std::sync::Arc;

use crate::go::fmt::quote;
use crate::graph::upgrade::classic::Classic;
use crate::graph::upgrade::package::{PackageGraph, entries};
use crate::graph::upgrade::v1::V1;
use crate::graph::upgrade::walks::{Tail, Walks};
use crate::graph::upgrade::{Position, Rules, Semantics};
use crate::model::Channel;

use super::changes::head;

/// Whether an installation's path ends at NEW's head of its channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reach {
    Yes,
    No,
    /// NEW has the package but not the channel.
    ChannelAbsent,
    /// NEW does not have the package.
    PackageAbsent,
}

impl Reach {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Yes => "yes",
            Self::No => "no",
            Self::ChannelAbsent => "channel-absent",
            Self::PackageAbsent => "package-absent",
        }
    }
}

/// One installation of OLD under one semantics.
#[derive(Debug)]
pub(crate) struct Installation<'a> {
    pub(crate) semantics: Semantics,
    pub(crate) package: &'a str,
    pub(crate) channel: &'a str,
    /// The installed bundle, and its version as OLD gives it.
    pub(crate) from: &'a str,
    pub(crate) version: String,
    /// Whether the bundle is an entry of the same channel in NEW.
    pub(crate) in_new: bool,
    /// What NEW offers as the next step, sorted byte-wise.
    pub(crate) successors: Vec<String>,
    /// The installed bundle, then each pick.
    pub(crate) path: Path<'a>,
    pub(crate) new_head: Option<String>,
    pub(crate) reaches_head: Reach,
    /// Whether the same installation reaches OLD's head when the catalog stays OLD.
    pub(crate) reached_before: bool,
    /// The runtime's resolution error, when it fails rather than stays.
    pub(crate) error: Option<String>,
    /// Why the path stops short of the head (fbc's words).
    pub(crate) reasons: Vec<String>,
}

impl Installation<'_> {
    pub(crate) fn pick(&self) -> Option<&str> {
        self.path.walk.as_ref()?.path().next()
    }

    /// The change takes the installation off its way to the head.
    pub(crate) fn broken(&self) -> bool {
        self.reached_before && self.reaches_head != Reach::Yes
    }
}

#[derive(Debug)]
/// The installed bundle, then each pick of NEW's rules (the walks of a channel
/// share their tails).
pub(crate) struct Path<'a> {
    from: &'a str,
    walk: Option<Arc<Tail>>,
}

impl Path<'_> {
    pub(crate) fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        std::iter::once(self.from).chain(self.walk.iter().flat_map(|walk| walk.path()))
    }

    pub(crate) fn last(&self) -> &str {
        self.walk
            .as_ref()
            .and_then(|walk| walk.last())
            .unwrap_or(self.from)
    }
}

impl serde::Serialize for Path<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

/// The package as each catalog has it; `new` is `None` when NEW lacks the package,
/// `new_is_empty` when NEW has no bundle at all (OLM classic then words its error
/// about the catalog).
pub(crate) struct Sides<'g, 'a> {
    pub(crate) old: &'g PackageGraph<'a>,
    pub(crate) new: Option<&'g PackageGraph<'a>>,
    pub(crate) new_is_empty: bool,
}

/// Every installation of the package's channels in OLD, ordered by semantics,
/// channel, then bundle name.
pub(crate) fn installations<'a>(
    sides: &Sides<'_, 'a>,
    semantics: &[Semantics],
) -> Vec<Installation<'a>> {
    let mut out = Vec::new();
    for &semantics in semantics {
        let mut channels = sides.old.channels.clone();
        channels.sort_by(|a, b| a.name.cmp(&b.name));
        channels.dedup_by(|a, b| a.name == b.name);
        for channel in channels {
            channel_installations(sides, semantics, channel, &mut out);
        }
    }
    out
}

fn rules<'g>(
    graph: &'g PackageGraph<'_>,
    semantics: Semantics,
    channel: &'g Channel,
) -> Box<dyn Rules<'g> + 'g> {
    match semantics {
        Semantics::Classic => Box::new(Classic::new(graph, Some(channel))),
        Semantics::V1 => Box::new(V1::new(graph, vec![channel], None)),
    }
}

fn channel_installations<'a>(
    sides: &Sides<'_, 'a>,
    semantics: Semantics,
    channel: &'a Channel,
    out: &mut Vec<Installation<'a>>,
) {
    let old = sides.old;
    let old_rules = rules(old, semantics, channel);
    let mut old_walks = Walks::new(old, old_rules.as_ref());
    let old_head = head(channel);
    let new_channel = sides.new.and_then(|graph| graph.channel(&channel.name));
    let new_rules = sides
        .new
        .zip(new_channel)
        .map(|(graph, found)| (graph, rules(graph, semantics, found)));
    let mut new_walks = new_rules
        .as_ref()
        .map(|(graph, rules)| (Walks::new(graph, rules.as_ref()), rules));
    let new_head = new_channel.and_then(head);
    let new_entries: HashSet<&str> = new_channel
        .map(|found| {
            entries(found)
                .iter()
                .map(|entry| entry.name.as_str())
                .collect()
        })
        .unwrap_or_default();
    let mut names: Vec<&'a str> = entries(channel)
        .iter()
        .map(|entry| entry.name.as_str())
        .filter(|name| old.bundle(name).is_some())
        .collect();
    names.sort_unstable();
    names.dedup();
    for from in names {
        let bundle = old.bundle(from).expect("filtered above");
        let start = Position {
            name: from.to_owned(),
            version: Some(bundle.version.clone()),
            release: bundle.release.clone(),
        };
        let before = old_walks.from(&start);
        let reached_before = old_head.as_deref() == Some(before.last().unwrap_or(from));
        let mut installation = Installation {
            semantics,
            package: old.name,
            channel: &channel.name,
            from,
            version: bundle.shown_version(),
            in_new: new_entries.contains(from),
            successors: Vec::new(),
            path: Path { from, walk: None },
            new_head: new_head.clone(),
            reaches_head: Reach::No,
            reached_before,
            error: None,
            reasons: Vec::new(),
        };
        match &mut new_walks {
            None => absent(sides, &mut installation),
            Some((walks, rules)) => {
                let walked = walks.from(&start);
                let reasons = walked.reasons();
                let mut successors = rules.successors(&start);
                successors.sort_unstable();
                successors.dedup();
                installation.successors = successors.into_iter().map(str::to_owned).collect();
                installation.path.walk = Some(Arc::clone(&walked));
                if new_head.as_deref() == Some(installation.path.last()) {
                    installation.reaches_head = Reach::Yes;
                } else {
                    installation.reasons = reasons.iter().map(ToString::to_string).collect();
                }
                if semantics == Semantics::V1
                    && installation.successors.is_empty()
                    && !installation.in_new
                {
                    installation.error = Some(v1_error(&installation));
                }
            }
        }
        out.push(installation);
    }
}

/// NEW lacks the channel or the whole package: both runtimes fail to resolve and
/// the installed bundle keeps running.
fn absent(sides: &Sides, installation: &mut Installation) {
    let package = installation.package;
    let channel = installation.channel;
    installation.reaches_head = if sides.new.is_some() {
        Reach::ChannelAbsent
    } else {
        Reach::PackageAbsent
    };
    installation.error = Some(match installation.semantics {
        Semantics::V1 => v1_error(installation),
        Semantics::Classic => {
            // The Subscription is named after the package; the CatalogSource is
            // unknown to a diff and called `catalog` in namespace `olm`.
            let cause = if sides.new_is_empty {
                format!(
                    "no operators found from catalog catalog in namespace olm referenced by subscription {package}"
                )
            } else if sides.new.is_none() {
                format!(
                    "no operators found in package {package} in the catalog referenced by subscription {package}"
                )
            } else {
                format!(
                    "no operators found in channel {channel} of package {package} in the catalog referenced by subscription {package}"
                )
            };
            format!("constraints not satisfiable: {cause}, subscription {package} exists")
        }
    });
}

/// OLM v1's text when nothing in the channel succeeds (or is) the installed bundle.
fn v1_error(installation: &Installation) -> String {
    format!(
        "error upgrading from currently installed version {}: no bundles found for package {} in channels [{}]",
        quote(&installation.version),
        quote(installation.package),
        installation.channel
    )
}
