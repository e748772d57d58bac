//! Upgrade paths: from an installed bundle, the successive upgrades OLM classic and
//! OLM v1 pick from a catalog (spec §6.4), with the edge behind each step and the
//! reasons a path stops.

pub(crate) mod classic;
pub(crate) mod json;
pub(crate) mod package;
pub(crate) mod reason;
pub(crate) mod request;
pub(crate) mod text;
pub(crate) mod v1;
pub(crate) mod walks;

use std::collections::HashSet;
use std::fmt;

use crate::go::fmt::quote;
use crate::go::semver::{Release, Version};
use crate::model::Channel;
use crate::model::channel::ChannelEntry;

use super::edges::{EdgeKind, covering_edge};
use package::PackageGraph;
use reason::{Cover, Reason};

/// Which OLM's rules a path follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Semantics {
    Classic,
    V1,
}

impl Semantics {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Classic => "classic",
            Self::V1 => "v1",
        }
    }
}

/// Where a path stands: a bundle name (empty for an unnamed installed bundle that is
/// not in the catalog), its version when known, and its release (OLM v1).
#[derive(Debug, Clone)]
pub(crate) struct Position {
    pub(crate) name: String,
    pub(crate) version: Option<Version>,
    pub(crate) release: Release,
}

impl Position {
    /// The name, or for an unnamed installed bundle, its version.
    pub(crate) fn label(&self) -> String {
        match (&self.version, self.name.is_empty()) {
            (Some(version), true) => format!("the installed version {version}"),
            _ => self.name.clone(),
        }
    }

    fn of(graph: &PackageGraph, name: &str) -> Self {
        let bundle = graph.bundle(name);
        Self {
            name: name.to_owned(),
            version: bundle.map(|b| b.version.clone()),
            release: bundle.map(|b| b.release.clone()).unwrap_or_default(),
        }
    }
}

/// One upgrade: `from` -> `to`, allowed by an edge that the entry `to` declares in
/// `channel`.
#[derive(Debug, Clone)]
pub(crate) struct Step<'a> {
    pub(crate) from: String,
    pub(crate) from_version: Option<Version>,
    pub(crate) to: &'a str,
    pub(crate) version: Option<Version>,
    /// `version` as declared (build metadata included), for reports.
    pub(crate) shown_version: Option<String>,
    pub(crate) kind: EdgeKind,
    pub(crate) channel: &'a str,
    pub(crate) skip_range: &'a str,
    /// Other bundles the same rules offered from `from`, in their order.
    pub(crate) also_offered: Vec<&'a str>,
    /// Every bundle the rules offer from `from` (the pick among them), filled in
    /// by the report.
    pub(crate) successors: Vec<&'a str>,
}

impl<'a> Step<'a> {
    fn new(
        graph: &PackageGraph,
        at: &Position,
        entry: &'a ChannelEntry,
        channel: &'a Channel,
        kind: EdgeKind,
    ) -> Self {
        Self {
            from: at.label(),
            from_version: at.version.clone(),
            to: &entry.name,
            version: graph.version(&entry.name).cloned(),
            shown_version: graph
                .bundle(&entry.name)
                .map(package::BundleInfo::shown_version),
            kind,
            channel: &channel.name,
            skip_range: &entry.skip_range,
            also_offered: Vec::new(),
            successors: Vec::new(),
        }
    }

    fn offer(&mut self, name: &'a str) {
        if name != self.to && !self.also_offered.contains(&name) {
            self.also_offered.push(name);
        }
    }

    pub(crate) fn cover(&self) -> Cover {
        Cover {
            entry: self.to.to_owned(),
            kind: self.kind,
            bundle: self.from.clone(),
            skip_range: self.skip_range.to_owned(),
            version: self.from_version.clone(),
        }
    }
}

impl Cover {
    fn new(entry: &ChannelEntry, kind: EdgeKind, at: &Position) -> Self {
        Self {
            entry: entry.name.to_string(),
            kind,
            bundle: at.label(),
            skip_range: entry.skip_range.to_string(),
            version: at.version.clone(),
        }
    }
}

/// The edge of `entry` that upgrades the bundle at `at`, if any.
fn cover_of(entry: &ChannelEntry, at: &Position) -> Option<EdgeKind> {
    covering_edge(entry, &at.name, at.version.as_ref())
}

/// What the rules do next from a position.
#[derive(Clone)]
pub(crate) enum Next<'a> {
    Step(Step<'a>),
    /// No upgrade: the bundle stays where it is.
    Stay,
    /// The rules cannot resolve anything (classic with a channel it cannot order).
    Blocked(Reason),
}

/// One OLM's upgrade rules over a package.
pub(crate) trait Rules<'a> {
    fn next(&self, at: &Position) -> Next<'a>;
    /// Whether `name` is a head of the channels the rules look at.
    fn is_head(&self, name: &str) -> bool;
    /// Why there is no upgrade from `at`.
    fn explain(&self, at: &Position) -> Vec<Reason>;
    /// Every bundle the rules offer as the next step from `at`, `at` itself left out.
    fn successors(&self, at: &Position) -> Vec<&'a str>;
}

/// How a path ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ending {
    /// At a channel head: nothing newer to go to.
    Head,
    /// At the requested target.
    Target,
    /// No further upgrade, short of a channel head.
    Stuck,
    /// The requested target is not reached.
    Missed,
}

impl Ending {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Head => "head",
            Self::Target => "target",
            Self::Stuck => "stuck",
            Self::Missed => "missed",
        }
    }
}

/// The bundle a path should reach.
#[derive(Debug, Clone)]
pub(crate) struct Target {
    pub(crate) name: String,
    pub(crate) version: Version,
    /// The version as declared (build metadata included), for reports.
    pub(crate) shown: String,
}

/// A deprecation met on the way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Warning {
    Package { package: String, message: String },
    Channel { channel: String, message: String },
    Bundle { bundle: String, message: String },
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Package { package, message } => {
                write!(f, "package {} is deprecated: {message}", quote(package))
            }
            Self::Channel { channel, message } => {
                write!(f, "channel {} is deprecated: {message}", quote(channel))
            }
            Self::Bundle { bundle, message } => {
                write!(f, "bundle {bundle} is deprecated: {message}")
            }
        }
    }
}

/// A path under one semantics.
#[derive(Debug)]
pub(crate) struct Walk<'a> {
    pub(crate) semantics: Semantics,
    /// The channels looked at; empty means every channel of the package (v1).
    pub(crate) channels: Vec<&'a str>,
    pub(crate) steps: Vec<Step<'a>>,
    pub(crate) end: String,
    pub(crate) ending: Ending,
    pub(crate) reasons: Vec<Reason>,
    pub(crate) warnings: Vec<Warning>,
    /// What the rules offer where the walk ends: empty at a head, or the
    /// candidates it stays rather than take (OLM v1 avoiding a deprecated bundle).
    pub(crate) end_successors: Vec<&'a str>,
}

impl Walk<'_> {
    /// Whether this walk answers the request: a target reached, a head reached, or
    /// at least some upgrades when no target was asked for.
    pub(crate) fn found(&self) -> bool {
        match self.ending {
            Ending::Head | Ending::Target => true,
            Ending::Stuck => !self.steps.is_empty(),
            Ending::Missed => false,
        }
    }

    /// The bundles the path goes through after the installed one.
    pub(crate) fn bundles(&self) -> Vec<&str> {
        self.steps.iter().map(|step| step.to).collect()
    }
}

/// Follows `rules` from `start` until they stop, the target is reached, or a
/// bundle would be visited twice.
pub(crate) fn walk<'a>(
    graph: &PackageGraph<'a>,
    rules: &dyn Rules<'a>,
    start: &Position,
    target: Option<&Target>,
) -> (Vec<Step<'a>>, Ending, Vec<Reason>) {
    let mut at = start.clone();
    let mut steps: Vec<Step<'a>> = Vec::new();
    let mut visited: HashSet<String> = HashSet::from([start.name.clone()]);
    let mut reasons = Vec::new();
    loop {
        if target.is_some_and(|target| target.name == at.name) {
            return (steps, Ending::Target, reasons);
        }
        match rules.next(&at) {
            Next::Step(step) if !visited.insert(step.to.to_owned()) => {
                reasons.push(Reason::Cycle {
                    bundle: step.to.to_owned(),
                });
                break;
            }
            Next::Step(step) => {
                at = Position::of(graph, step.to);
                steps.push(step);
            }
            Next::Stay => {
                if target.is_some() || !rules.is_head(&at.name) {
                    reasons.extend(rules.explain(&at));
                }
                break;
            }
            Next::Blocked(reason) => {
                reasons.push(reason);
                break;
            }
        }
    }
    let Some(target) = target else {
        let ending = if reasons.is_empty() && rules.is_head(&at.name) {
            Ending::Head
        } else {
            Ending::Stuck
        };
        return (steps, ending, reasons);
    };
    reasons.extend(target_reasons(start, &steps, target, &at));
    (steps, Ending::Missed, reasons)
}

/// Why a target was not reached, beyond why the path stopped.
fn target_reasons(
    start: &Position,
    steps: &[Step],
    target: &Target,
    end: &Position,
) -> Vec<Reason> {
    if start
        .version
        .as_ref()
        .is_some_and(|version| *version > target.version)
    {
        return vec![Reason::Downgrade {
            target: target.name.clone(),
            installed: start.label(),
        }];
    }
    let passed = steps.iter().find(|step| {
        step.from_version
            .as_ref()
            .is_some_and(|v| *v < target.version)
            && step.version.as_ref().is_some_and(|v| *v > target.version)
    });
    match passed {
        Some(step) => vec![Reason::PassedOver {
            target: target.name.clone(),
            from: step.from.clone(),
            to: step.to.to_owned(),
        }],
        None => vec![Reason::EndsBefore {
            target: target.name.clone(),
            end: end.label(),
        }],
    }
}

#[cfg(test)]
mod tests;
