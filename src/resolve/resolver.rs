//! One namespace's resolution as OLM classic's `Resolver.Resolve` runs it: the
//! installed operators and each Subscription's candidates, every reachable
//! entry's requirements with their candidates in OLM's order, the
//! one-per-API/per-package invariants, then the search.

use std::collections::{HashMap, HashSet};

use super::predicate::{Predicate, requirements};
use super::solver::{Outcome, Problem, Rule, Var};
use super::source::{EntryId, Hint, Installed, Universe};

/// A Subscription as the resolver reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Subscription {
    pub(crate) name: String,
    pub(crate) namespace: String,
    pub(crate) package: String,
    pub(crate) channel: String,
    pub(crate) starting_csv: String,
    pub(crate) source: String,
    pub(crate) source_namespace: String,
    /// `status.installedCSV` (empty for a new Subscription).
    pub(crate) installed_csv: String,
}

/// What one namespace holds.
#[derive(Debug, Clone, Default)]
pub(crate) struct Namespace {
    pub(crate) name: String,
    pub(crate) operator_groups: usize,
    /// The OperatorGroup excludes the global catalog namespace.
    pub(crate) exclude_global: bool,
    pub(crate) subscriptions: Vec<Subscription>,
    pub(crate) installed: Vec<Installed>,
}

/// The condition reason OLM sets on failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reason {
    ConstraintsNotSatisfiable,
    ErrorPreventedResolution,
}

impl Reason {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Reason::ConstraintsNotSatisfiable => "ConstraintsNotSatisfiable",
            Reason::ErrorPreventedResolution => "ErrorPreventedResolution",
        }
    }
}

/// Why a requirement got the provider it got.
#[derive(Debug, Clone)]
pub(crate) struct Pick {
    /// The entry that has the requirement (`None`: a Subscription).
    pub(crate) by: String,
    pub(crate) requirement: String,
    pub(crate) provider: String,
    /// The provider's place in OLM's candidate order (from 0), and how many there were.
    pub(crate) position: usize,
    pub(crate) candidates: usize,
    /// Candidates before it that could not be installed.
    pub(crate) passed_over: Vec<String>,
}

/// A namespace's answer.
#[derive(Debug)]
pub(crate) enum Answer {
    /// The entries to install (installed operators left out), and why each
    /// requirement got its provider.
    Installed {
        entries: Vec<EntryId>,
        picks: Vec<Pick>,
    },
    Failed {
        message: String,
        reason: Reason,
        /// The constraints that cannot all hold (unsatisfiable answers only).
        conflict: Vec<String>,
    },
    /// The search ran out of steps: no answer.
    GaveUp,
}

/// Resolves a namespace against the catalogs of `universe` visible from it.
pub(crate) fn resolve(universe: &mut Universe, namespace: &Namespace, global: &str) -> Answer {
    if namespace.operator_groups != 1 {
        return Answer::Failed {
            message: format!(
                "expected 1 OperatorGroup in the namespace, found {}",
                namespace.operator_groups
            ),
            reason: Reason::ErrorPreventedResolution,
            conflict: Vec::new(),
        };
    }
    let existing = universe.add_existing(&namespace.name, &namespace.installed);
    let universe: &Universe = universe;
    let visible: Vec<usize> = (0..universe.sources.len())
        .filter(|s| {
            let source = &universe.sources[*s];
            if source.is_existing() {
                return *s == existing;
            }
            source.namespace == namespace.name
                || (source.namespace == global && !namespace.exclude_global)
        })
        .collect();
    let mut resolver = Resolver {
        universe,
        namespace: &namespace.name,
        existing,
        visible,
        problem: Problem::default(),
        vars: HashMap::new(),
        entry_of: Vec::new(),
        visited: HashSet::new(),
        matches: HashMap::new(),
        groups: HashMap::new(),
        dependencies: HashMap::new(),
        cel_budget: crate::files::limits::get().resolve_steps,
        gave_up: false,
    };
    resolver.run(namespace)
}

struct Resolver<'u> {
    universe: &'u Universe,
    namespace: &'u str,
    existing: usize,
    visible: Vec<usize>,
    problem: Problem,
    vars: HashMap<EntryId, Var>,
    /// The entry of each variable (`None`: a Subscription or the invariants).
    entry_of: Vec<Option<EntryId>>,
    visited: HashSet<EntryId>,
    /// Entries matching a predicate, by the predicate's debug form.
    matches: HashMap<String, Vec<EntryId>>,
    /// Entries of each (source, package, channel), in catalog order.
    groups: HashMap<(usize, &'u str, &'u str), Vec<EntryId>>,
    /// Per variable, its requirements: text and candidates, for the explanation.
    dependencies: HashMap<Var, Vec<(String, Vec<Var>)>>,
    /// What CEL rules may still cost (`FBC_RESOLVE_STEPS`, apart from the search's).
    cel_budget: u64,
    /// CEL rules cost more than the budget: whatever else happens, no answer.
    gave_up: bool,
}

impl<'u> Resolver<'u> {
    fn run(&mut self, namespace: &Namespace) -> Answer {
        let installed: Vec<EntryId> = self.universe.sources[self.existing].entries.clone();
        let errors = self.process(installed);
        if self.gave_up {
            return Answer::GaveUp;
        }
        if !errors.is_empty() {
            return prevented(&errors);
        }
        let mut errors = Vec::new();
        for subscription in &namespace.subscriptions {
            if let Err(mut failed) = self.subscription(subscription) {
                errors.append(&mut failed);
            }
        }
        if self.gave_up {
            return Answer::GaveUp;
        }
        if !errors.is_empty() {
            return prevented(&errors);
        }
        self.invariants();
        match self.problem.solve() {
            Outcome::Installed(vars) => {
                let chosen: HashSet<Var> = vars.iter().copied().collect();
                let entries = vars
                    .iter()
                    .filter_map(|v| self.entry_of[*v])
                    .filter(|e| self.universe.entries[*e].source != self.existing)
                    .collect();
                Answer::Installed {
                    entries,
                    picks: self.picks(&vars, &chosen),
                }
            }
            Outcome::GaveUp => Answer::GaveUp,
            Outcome::Unsatisfiable(conflict) => Answer::Failed {
                message: if conflict.is_empty() {
                    "constraints not satisfiable".to_owned()
                } else {
                    format!("constraints not satisfiable: {}", conflict.join(", "))
                },
                reason: Reason::ConstraintsNotSatisfiable,
                conflict,
            },
        }
    }

    fn var(&mut self, entry: Option<EntryId>) -> Var {
        if let Some(entry) = entry
            && let Some(var) = self.vars.get(&entry)
        {
            return *var;
        }
        let var = self.problem.variable();
        self.entry_of.push(entry);
        if let Some(entry) = entry {
            self.vars.insert(entry, var);
        }
        var
    }

    fn id(&self, var: Var) -> String {
        self.entry_of[var].map_or_else(String::new, |e| self.universe.id(e))
    }

    /// OLM's `getBundleVariables`: from a stack of entries, every entry reached,
    /// its requirements given candidates. Returns the errors met.
    fn process(&mut self, mut stack: Vec<EntryId>) -> Vec<String> {
        let mut errors = Vec::new();
        while let Some(entry) = stack.pop() {
            if !self.visited.insert(entry) {
                continue;
            }
            let var = self.var(Some(entry));
            let e = &self.universe.entries[entry];
            if e.source == self.existing && e.freestanding {
                let text = format!(
                    "clusterserviceversion {} exists and is not referenced by a subscription",
                    e.bundle
                );
                self.problem.add(var, Rule::Mandatory(var), text);
            }
            if e.deprecated() {
                let text = format!("bundle {} is deprecated", self.universe.id(entry));
                self.problem.add(var, Rule::Prohibited(var), text);
            }
            // `olm.constraint` trees are read by recursion, as deep as they nest.
            let converted = if e
                .properties
                .iter()
                .any(|(kind, _)| kind == "olm.constraint")
            {
                crate::process::stack::on_deep_stack(|| requirements(&e.properties))
            } else {
                requirements(&e.properties)
            };
            let predicates = match converted {
                Ok(predicates) => predicates,
                Err(error) => {
                    errors.push(error);
                    continue;
                }
            };
            for predicate in predicates {
                let candidates = match self.candidates(entry, &predicate) {
                    Ok(candidates) => candidates,
                    Err(error) => {
                        errors.push(error);
                        continue;
                    }
                };
                let vars: Vec<Var> = candidates.iter().map(|c| self.var(Some(*c))).collect();
                let text = format!(
                    "bundle {} requires an operator {}",
                    self.universe.entries[entry].bundle,
                    predicate.text()
                );
                self.dependencies
                    .entry(var)
                    .or_default()
                    .push((text.clone(), vars.clone()));
                self.problem.add(var, Rule::Dependency(var, vars), text);
                stack.extend(candidates);
            }
        }
        errors
    }

    /// The entries that match `predicate`, in OLM's order for a requirement of
    /// `entry` (`FindPreferred` then `sortBundles`).
    fn candidates(
        &mut self,
        entry: EntryId,
        predicate: &Predicate,
    ) -> Result<Vec<EntryId>, String> {
        let key = format!("{predicate:?}");
        if !self.matches.contains_key(&key) {
            let (universe, visible) = (self.universe, &self.visible);
            let budget = &mut self.cel_budget;
            // Visible catalogs in order, each in its order: entries are numbered
            // in that order, so the entries of a hint keep it.
            let found = crate::process::stack::on_deep_stack(|| {
                let tried: Vec<EntryId> = match predicate.hint() {
                    Some(hint) => universe
                        .hinted(hint)
                        .filter(|e| visible.contains(&universe.entries[*e].source))
                        .collect(),
                    None => visible
                        .iter()
                        .flat_map(|s| universe.sources[*s].entries.iter().copied())
                        .collect(),
                };
                let mut found = Vec::new();
                for e in tried {
                    if predicate.matches(&universe.entries[e], budget)? {
                        found.push(e);
                    }
                }
                Some(found)
            });
            let Some(found) = found else {
                self.gave_up = true;
                return Ok(Vec::new());
            };
            self.matches.insert(key.clone(), found);
        }
        let matching: HashSet<EntryId> = self.matches[&key].iter().copied().collect();
        let universe = self.universe;
        let mut groups: Vec<(usize, &str, &str)> = Vec::new();
        let mut seen = HashSet::new();
        for &m in &self.matches[&key] {
            let e = &universe.entries[m];
            let group = if e.source == self.existing {
                (e.source, e.package.as_str(), e.bundle.as_str())
            } else {
                (e.source, e.package.as_str(), e.channel.as_str())
            };
            if seen.insert(group) {
                groups.push(group);
            }
        }
        let preferred = universe.entries[entry].source;
        let mut sources: Vec<usize> = groups.iter().map(|g| g.0).collect();
        sources.sort_unstable();
        sources.dedup();
        sources.sort_by(|a, b| {
            let key = |s: &usize| {
                let source = &universe.sources[*s];
                (
                    *s != self.existing,
                    *s != preferred,
                    std::cmp::Reverse(source.priority),
                    source.namespace != self.namespace,
                    source.name.clone(),
                )
            };
            key(a).cmp(&key(b))
        });
        let mut out = Vec::new();
        for source in sources {
            // Groups of this catalog: default channels first, then package, channel.
            let mut mine: Vec<(bool, &str, &str, Vec<EntryId>)> = Vec::new();
            for group in groups.iter().filter(|g| g.0 == source) {
                let members: Vec<EntryId> = if source == self.existing {
                    universe.sources[source]
                        .entries
                        .iter()
                        .copied()
                        .filter(|e| universe.entries[*e].bundle == group.2)
                        .collect()
                } else {
                    self.group(*group)
                };
                let first = &universe.entries[members[0]];
                let channel = if source == self.existing { "" } else { group.2 };
                match mine.iter_mut().find(|m| m.1 == group.1 && m.2 == channel) {
                    Some(existing) => existing.3.extend(members),
                    None => mine.push((first.default_channel, group.1, channel, members)),
                }
            }
            mine.sort_by(|a, b| (!a.0, a.1, a.2).cmp(&(!b.0, b.1, b.2)));
            for (_, _, _, members) in mine {
                for e in universe.sort_channel(&members)? {
                    if matching.contains(&e) {
                        out.push(e);
                    }
                }
            }
        }
        Ok(out)
    }

    /// The entries of the Subscription's catalog it matches (`cachePredicates`:
    /// package, channel, startingCSV), or OLM's "no operators found" text.
    fn matching(
        &self,
        subscription: &Subscription,
        installed: bool,
    ) -> Result<Vec<EntryId>, String> {
        let universe = self.universe;
        let catalog = self.visible.iter().copied().find(|s| {
            let source = &universe.sources[*s];
            !source.is_existing()
                && source.name == subscription.source
                && source.namespace == subscription.source_namespace
        });
        let all: &[EntryId] = catalog.map_or(&[], |s| &universe.sources[s].entries);
        let name = &subscription.name;
        if all.is_empty() {
            return Err(format!(
                "no operators found from catalog {} in namespace {} referenced by subscription {name}",
                subscription.source, subscription.source_namespace
            ));
        }
        // The catalog's entries of the package, in catalog order.
        let in_package: Vec<EntryId> = universe
            .hinted(Hint::Package(&subscription.package))
            .filter(|e| Some(universe.entries[*e].source) == catalog)
            .filter(|e| universe.entries[*e].is_package(&subscription.package))
            .collect();
        if in_package.is_empty() {
            return Err(format!(
                "no operators found in package {} in the catalog referenced by subscription {name}",
                subscription.package
            ));
        }
        let in_channel: Vec<EntryId> = in_package
            .into_iter()
            .filter(|e| {
                subscription.channel.is_empty()
                    || universe.entries[*e].channel == subscription.channel
            })
            .collect();
        if in_channel.is_empty() {
            return Err(format!(
                "no operators found in channel {} of package {} in the catalog referenced by subscription {name}",
                subscription.channel, subscription.package
            ));
        }
        let named: Vec<EntryId> = in_channel
            .into_iter()
            .filter(|e| {
                installed
                    || subscription.starting_csv.is_empty()
                    || universe.entries[*e].bundle == subscription.starting_csv
            })
            .collect();
        if named.is_empty() {
            return Err(format!(
                "no operators found with name {} in channel {} of package {} in the catalog referenced by subscription {name}",
                subscription.starting_csv, subscription.channel, subscription.package
            ));
        }
        Ok(named)
    }

    /// The entries of one catalog's channel of a package, in catalog order
    /// (looked up once per resolution).
    fn group(&mut self, group: (usize, &'u str, &'u str)) -> Vec<EntryId> {
        let universe = self.universe;
        self.groups
            .entry(group)
            .or_insert_with(|| {
                let (source, package, channel) = group;
                universe
                    .hinted(Hint::Package(package))
                    .filter(|e| {
                        let e = &universe.entries[*e];
                        e.source == source && e.package == package && e.channel == channel
                    })
                    .collect()
            })
            .clone()
    }

    /// OLM's `getSubscriptionVariables`.
    fn subscription(&mut self, subscription: &Subscription) -> Result<(), Vec<String>> {
        let universe = self.universe;
        let current = universe.sources[self.existing]
            .entries
            .iter()
            .copied()
            .find(|e| {
                !subscription.installed_csv.is_empty()
                    && universe.entries[*e].bundle == subscription.installed_csv
            });
        let name = &subscription.name;
        let matching = self.matching(subscription, current.is_some());
        let sub = self.var(None);
        self.problem.add(
            sub,
            Rule::Mandatory(sub),
            format!("subscription {name} exists"),
        );
        let mut bundles = match matching {
            Ok(bundles) => bundles,
            Err(reason) => {
                self.problem.add(sub, Rule::Prohibited(sub), reason);
                return Ok(());
            }
        };
        let matches = bundles.clone();
        // Default channel first, then channel name; each channel in OLM's order.
        bundles.sort_by(|a, b| {
            let (a, b) = (&universe.entries[*a], &universe.entries[*b]);
            (!a.default_channel, &a.channel).cmp(&(!b.default_channel, &b.channel))
        });
        let mut sorted = Vec::new();
        for run in
            bundles.chunk_by(|a, b| universe.entries[*a].channel == universe.entries[*b].channel)
        {
            sorted.extend(universe.sort_channel(run).map_err(|error| vec![error])?);
        }
        if let Some(current) = current {
            let installed = &universe.entries[current];
            sorted.retain(|e| {
                let e = &universe.entries[*e];
                e.replaces == installed.bundle
                    || e.skips.contains(&installed.bundle)
                    || installed.version.as_ref().is_some_and(|v| {
                        crate::go::semver::range::Range::parse(&e.skip_range)
                            .is_ok_and(|r| r.contains(v))
                    })
            });
        }
        let mut candidates = Vec::new();
        for o in sorted {
            let wanted = &universe.entries[o].bundle;
            let stack: Vec<EntryId> = matches
                .iter()
                .copied()
                .filter(|e| universe.entries[*e].bundle == *wanted)
                .collect();
            let errors = self.process(stack.clone());
            if !errors.is_empty() {
                return Err(errors);
            }
            candidates.extend(stack);
        }
        let mut ids: Vec<Var> = candidates.iter().map(|c| self.var(Some(*c))).collect();
        if let Some(current) = current {
            let installed = self.var(Some(current));
            for &candidate in &ids {
                let text = format!(
                    "{} conflicts with {}",
                    self.id(candidate),
                    self.id(installed)
                );
                self.problem
                    .add(candidate, Rule::Conflict(candidate, installed), text);
            }
            ids.push(installed);
        }
        let text = if ids.is_empty() {
            format!("no operators found matching the criteria of subscription {name}")
        } else {
            let names: Vec<String> = ids.iter().map(|v| self.id(*v)).collect();
            match names.as_slice() {
                [one] => format!("subscription {name} requires {one}"),
                [rest @ .., last] => format!(
                    "subscription {name} requires at least one of {} or {last}",
                    rest.join(", ")
                ),
                [] => unreachable!("checked above"),
            }
        };
        self.dependencies
            .entry(sub)
            .or_default()
            .push((format!("subscription {name}"), ids.clone()));
        self.problem.add(sub, Rule::Dependency(sub, ids), text);
        Ok(())
    }

    /// No two operators of one API or one package (`addInvariants`).
    fn invariants(&mut self) {
        let universe = self.universe;
        let mut gvks: Vec<((String, String, String), Vec<Var>)> = Vec::new();
        let mut packages: Vec<(String, Vec<Var>)> = Vec::new();
        let mut vars: Vec<(EntryId, Var)> = self.vars.iter().map(|(e, v)| (*e, *v)).collect();
        vars.sort_unstable_by_key(|(_, v)| *v);
        for (entry, var) in vars {
            for (kind, value) in &universe.entries[entry].properties {
                let text =
                    |field: &str| value.get(field).and_then(|v| v.as_str()).map(str::to_owned);
                match kind.as_str() {
                    "olm.gvk" => {
                        let key = (
                            text("group").unwrap_or_default(),
                            text("version").unwrap_or_default(),
                            text("kind").unwrap_or_default(),
                        );
                        match gvks.iter_mut().find(|(k, _)| *k == key) {
                            Some((_, list)) => list.push(var),
                            None => gvks.push((key, vec![var])),
                        }
                    }
                    "olm.package" => {
                        let key = text("packageName").unwrap_or_default();
                        match packages.iter_mut().find(|(k, _)| *k == key) {
                            Some((_, list)) => list.push(var),
                            None => packages.push((key, vec![var])),
                        }
                    }
                    _ => {}
                }
            }
        }
        let holder = self.var(None);
        let listing = |this: &Self, list: &[Var]| {
            let mut ids: Vec<String> = list.iter().map(|v| this.id(*v)).collect();
            ids.sort();
            let last = ids.pop().unwrap_or_default();
            format!("{} and {last}", ids.join(", "))
        };
        for ((group, version, kind), list) in gvks {
            if list.len() > 1 {
                let text = format!(
                    "{} provide {kind} ({group}/{version})",
                    listing(self, &list)
                );
                self.problem.add(holder, Rule::AtMostOne(list), text);
            }
        }
        for (package, list) in packages {
            if list.len() > 1 {
                let text = format!("{} originate from package {package}", listing(self, &list));
                self.problem.add(holder, Rule::AtMostOne(list), text);
            }
        }
    }

    /// For every requirement of a chosen variable, the candidate chosen for it.
    fn picks(&self, order: &[Var], chosen: &HashSet<Var>) -> Vec<Pick> {
        let mut picks: Vec<Pick> = Vec::new();
        for var in order {
            let by = self.entry_of[*var]
                .map_or_else(String::new, |e| self.universe.entries[e].bundle.clone());
            for (requirement, candidates) in self.dependencies.get(var).into_iter().flatten() {
                let Some(position) = candidates.iter().position(|c| chosen.contains(c)) else {
                    continue;
                };
                // The registry's copy of a requirement says the same again.
                if picks
                    .iter()
                    .any(|p| p.by == by && p.requirement == *requirement)
                {
                    continue;
                }
                picks.push(Pick {
                    by: by.clone(),
                    requirement: requirement.clone(),
                    provider: self.id(candidates[position]),
                    position,
                    candidates: candidates.len(),
                    passed_over: candidates[..position].iter().map(|c| self.id(*c)).collect(),
                });
            }
        }
        picks
    }
}

/// Errors before the search, joined as Kubernetes aggregates join them.
fn prevented(errors: &[String]) -> Answer {
    let mut unique: Vec<&str> = Vec::new();
    for error in errors {
        if !unique.contains(&error.as_str()) {
            unique.push(error);
        }
    }
    let message = match unique.as_slice() {
        [one] => (*one).to_owned(),
        many => format!("[{}]", many.join(", ")),
    };
    Answer::Failed {
        message,
        reason: Reason::ErrorPreventedResolution,
        conflict: Vec::new(),
    }
}
