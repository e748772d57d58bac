//! The search OLM classic runs over its constraints (`solver/search.go`,
//! `solver/solve.go`), and the explanation of a failure.
//!
//! Variables are operators that may be installed (and the Subscriptions, and the
//! one-per-API/per-package invariants); constraints say which must be, which may
//! not be, and what each needs. OLM hands them to a SAT solver but decides the
//! answer with its own search: a queue of *choices* (anchors first, then one per
//! requirement of each chosen operator, breadth-first), each tried in candidate
//! order, with unit propagation after every guess and chronological backtracking.
//! This module runs that search as OLM writes it, indexes kept across
//! backtracking included, so that candidate order decides exactly as it does there.
//!
//! On failure OLM reports the constraints in the solver's conflict. Here that is a
//! minimal unsatisfiable subset, found by deletion: constraints the solver encodes
//! identically (same literal) are one entry with the text added last, as in OLM's
//! `lit_mapping.go`.

use std::collections::{HashMap, HashSet, VecDeque};

/// A variable's index.
pub(crate) type Var = usize;

/// What a constraint says about its subject.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Rule {
    /// The variable must be installed.
    Mandatory(Var),
    /// The variable must not be installed (a requirement with no candidate is this
    /// too: OLM encodes both as the same literal).
    Prohibited(Var),
    /// If the variable is installed, one of the candidates is (never empty).
    Dependency(Var, Vec<Var>),
    /// The two may not both be installed.
    Conflict(Var, Var),
    /// At most one of these is installed (sorted, at least two).
    AtMostOne(Vec<Var>),
}

impl Rule {
    /// The key under which OLM's circuit gives identical encodings one literal.
    fn key(self) -> Rule {
        match self {
            Rule::Dependency(var, candidates) if candidates.is_empty() => Rule::Prohibited(var),
            Rule::Conflict(a, b) => Rule::Conflict(a.min(b), a.max(b)),
            Rule::AtMostOne(mut vars) => {
                vars.sort_unstable();
                vars.dedup();
                Rule::AtMostOne(vars)
            }
            other => other,
        }
    }
}

/// The problem: variables with their constraints, in the order OLM adds them.
#[derive(Debug, Default)]
pub(crate) struct Problem {
    /// Per variable, its constraints (indices into `units`) in order: the choices
    /// a guess of it queues are its dependencies in this order.
    constraints: Vec<Vec<usize>>,
    /// Distinct encodings, with the text of the last constraint added for each.
    units: Vec<(Rule, String)>,
    keys: HashMap<Rule, usize>,
    /// Variables with a `Mandatory` constraint, in order: the first choices.
    anchors: Vec<Var>,
}

/// How the search ended.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// The variables installed, in the order they were chosen.
    Installed(Vec<Var>),
    /// The texts of a minimal set of constraints that cannot all hold, sorted.
    Unsatisfiable(Vec<String>),
    /// The search took more steps than `FBC_RESOLVE_STEPS` allows (OLM's would
    /// search on). The budget bounds the guesses the search makes, and those the
    /// explanation of a failure makes in all, so that a pathological catalog
    /// never runs for hours.
    GaveUp,
}

/// The step budget ran out.
#[derive(Debug)]
struct Exhausted;

impl Problem {
    /// A new variable, with no constraint yet.
    pub(crate) fn variable(&mut self) -> Var {
        self.constraints.push(Vec::new());
        self.constraints.len() - 1
    }

    /// Adds a constraint of `subject` (`Mandatory` makes it an anchor).
    pub(crate) fn add(&mut self, subject: Var, rule: Rule, text: String) {
        if let Rule::AtMostOne(vars) = &rule
            && vars.len() < 2
        {
            return;
        }
        if matches!(rule, Rule::Mandatory(_)) && !self.anchors.contains(&subject) {
            self.anchors.push(subject);
        }
        let key = rule.key();
        let unit = if let Some(&unit) = self.keys.get(&key) {
            self.units[unit].1 = text;
            unit
        } else {
            self.units.push((key.clone(), text));
            self.keys.insert(key, self.units.len() - 1);
            self.units.len() - 1
        };
        // The variable's own list keeps the rule as given (a dependency with its
        // candidates in order), by unit.
        self.constraints[subject].push(unit);
    }

    /// Runs OLM's search; on failure, explains it.
    pub(crate) fn solve(&self) -> Outcome {
        self.solve_within(crate::files::limits::get().resolve_steps)
    }

    fn solve_within(&self, steps: u64) -> Outcome {
        let all = vec![true; self.units.len()];
        let mut budget = steps;
        let mut state = State::new(self, &all, &mut budget);
        match state.search() {
            Ok(Some(installed)) => Outcome::Installed(installed),
            Ok(None) => Outcome::Unsatisfiable(self.explain()),
            Err(Exhausted) => Outcome::GaveUp,
        }
    }

    /// A minimal subset of the constraints that cannot all hold, by deletion. When
    /// the budget runs out, the constraints not yet tried stay in: the set still
    /// cannot hold, but may not be minimal.
    fn explain(&self) -> Vec<String> {
        let mut enabled = vec![true; self.units.len()];
        let mut budget = crate::files::limits::get().resolve_steps;
        for unit in 0..self.units.len() {
            enabled[unit] = false;
            if !matches!(
                State::new(self, &enabled, &mut budget).satisfiable(),
                Ok(false)
            ) {
                enabled[unit] = true;
            }
        }
        let mut texts: Vec<String> = self
            .units
            .iter()
            .zip(&enabled)
            .filter(|(_, on)| **on)
            .map(|((_, text), _)| text.clone())
            .collect();
        texts.sort();
        texts
    }
}

/// A choice still to make: candidates, and the index of the next to try.
#[derive(Debug, Clone)]
struct Choice {
    candidates: std::rc::Rc<[Var]>,
    index: usize,
}

/// A choice made: the variable assumed (`None`: met by an earlier assumption, or
/// no candidate left), and how many choices it queued.
#[derive(Debug)]
struct Guess {
    var: Option<Var>,
    index: usize,
    children: usize,
    candidates: std::rc::Rc<[Var]>,
    trail: usize,
}

/// Assignments with unit propagation over the enabled constraints.
struct State<'p> {
    problem: &'p Problem,
    enabled: &'p [bool],
    budget: &'p mut u64,
    value: Vec<Option<bool>>,
    trail: Vec<Var>,
    /// Per variable, the enabled units that mention it.
    watches: Vec<Vec<usize>>,
}

impl<'p> State<'p> {
    fn new(problem: &'p Problem, enabled: &'p [bool], budget: &'p mut u64) -> Self {
        let count = problem.constraints.len();
        let mut watches = vec![Vec::new(); count];
        for (unit, (rule, _)) in problem.units.iter().enumerate() {
            if !enabled[unit] {
                continue;
            }
            match rule {
                Rule::Mandatory(v) | Rule::Prohibited(v) => watches[*v].push(unit),
                Rule::Dependency(v, candidates) => {
                    watches[*v].push(unit);
                    for c in candidates {
                        if c != v {
                            watches[*c].push(unit);
                        }
                    }
                }
                Rule::Conflict(a, b) => {
                    watches[*a].push(unit);
                    if a != b {
                        watches[*b].push(unit);
                    }
                }
                Rule::AtMostOne(vars) => {
                    for v in vars {
                        watches[*v].push(unit);
                    }
                }
            }
        }
        State {
            problem,
            enabled,
            budget,
            value: vec![None; count],
            trail: Vec::new(),
            watches,
        }
    }

    /// The baseline: every unit constraint asserted. `false` on a conflict.
    fn baseline(&mut self) -> bool {
        let mut pending = Vec::new();
        for (unit, (rule, _)) in self.problem.units.iter().enumerate() {
            if !self.enabled[unit] {
                continue;
            }
            match rule {
                Rule::Mandatory(v) => pending.push((*v, true)),
                Rule::Prohibited(v) => pending.push((*v, false)),
                Rule::Conflict(a, b) if a == b => pending.push((*a, false)),
                _ => {}
            }
        }
        for (var, value) in pending {
            if !self.assign(var, value) {
                return false;
            }
        }
        true
    }

    fn undo(&mut self, length: usize) {
        for var in self.trail.drain(length..) {
            self.value[var] = None;
        }
    }

    /// Assigns and propagates; `false` on a conflict (the caller undoes).
    fn assign(&mut self, var: Var, value: bool) -> bool {
        let mut queue = vec![(var, value)];
        while let Some((var, value)) = queue.pop() {
            match self.value[var] {
                Some(current) if current == value => continue,
                Some(_) => return false,
                None => {}
            }
            self.value[var] = Some(value);
            self.trail.push(var);
            for &unit in &self.watches[var] {
                if !self.propagate(unit, &mut queue) {
                    return false;
                }
            }
        }
        true
    }

    /// What one constraint forces now; `false` when it is violated.
    fn propagate(&self, unit: usize, queue: &mut Vec<(Var, bool)>) -> bool {
        let is = |v: Var| self.value[v];
        match &self.problem.units[unit].0 {
            Rule::Mandatory(v) => is(*v) != Some(false),
            Rule::Prohibited(v) => is(*v) != Some(true),
            Rule::Conflict(a, b) => match (is(*a), is(*b)) {
                (Some(true), Some(true)) => false,
                (Some(true), None) => {
                    queue.push((*b, false));
                    true
                }
                (None, Some(true)) => {
                    queue.push((*a, false));
                    true
                }
                _ => true,
            },
            Rule::AtMostOne(vars) => {
                let mut chosen = vars.iter().filter(|v| is(**v) == Some(true));
                match (chosen.next(), chosen.next()) {
                    (Some(_), Some(_)) => false,
                    (Some(one), None) => {
                        queue.extend(
                            vars.iter()
                                .filter(|v| *v != one && is(**v).is_none())
                                .map(|v| (*v, false)),
                        );
                        true
                    }
                    _ => true,
                }
            }
            Rule::Dependency(v, candidates) => {
                if candidates.iter().any(|c| is(*c) == Some(true)) {
                    return true;
                }
                let mut open = candidates.iter().filter(|c| is(**c).is_none());
                let (first, second) = (open.next(), open.next());
                match (is(*v), first, second) {
                    (Some(true), None, _) => false,
                    (Some(true), Some(only), None) => {
                        queue.push((*only, true));
                        true
                    }
                    (None, None, _) => {
                        queue.push((*v, false));
                        true
                    }
                    _ => true,
                }
            }
        }
    }

    /// The dependencies of `var` with candidates, in its constraint order.
    fn choices_of(&self, var: Var) -> Vec<std::rc::Rc<[Var]>> {
        self.problem.constraints[var]
            .iter()
            .filter(|unit| self.enabled[**unit])
            .filter_map(|unit| match &self.problem.units[*unit].0 {
                Rule::Dependency(_, candidates) if !candidates.is_empty() => {
                    Some(std::rc::Rc::from(candidates.as_slice()))
                }
                _ => None,
            })
            .collect()
    }

    /// Spends one step of the budget.
    fn step(&mut self) -> Result<(), Exhausted> {
        if *self.budget == 0 {
            return Err(Exhausted);
        }
        *self.budget -= 1;
        Ok(())
    }

    /// OLM's search (`search.Do`): the installed variables, or `None`.
    fn search(&mut self) -> Result<Option<Vec<Var>>, Exhausted> {
        if !self.baseline() {
            return Ok(None);
        }
        let mut queue: VecDeque<Choice> = self
            .problem
            .anchors
            .iter()
            .filter(|anchor| self.is_anchor_enabled(**anchor))
            .map(|anchor| Choice {
                candidates: std::rc::Rc::from([*anchor].as_slice()),
                index: 0,
            })
            .collect();
        let mut guesses: Vec<Guess> = Vec::new();
        let mut assumed: HashSet<Var> = HashSet::new();
        // `Some(false)`: the last test failed; `None`: unknown.
        let mut failed = false;
        loop {
            self.step()?;
            if queue.is_empty() && !failed {
                // Every choice made: the assumptions plus the solver's own search
                // decide (OLM's `Solve`).
                let chosen: Vec<Var> = guesses.iter().filter_map(|g| g.var).collect();
                match self.complete()? {
                    Some(extra) => {
                        let mut installed = chosen;
                        installed.extend(extra.into_iter().filter(|v| !assumed.contains(v)));
                        return Ok(Some(installed));
                    }
                    None => failed = true,
                }
            }
            if failed {
                let Some(guess) = guesses.pop() else {
                    return Ok(None);
                };
                if let Some(var) = guess.var {
                    assumed.remove(&var);
                    self.undo(guess.trail);
                    failed = false;
                }
                for _ in 0..guess.children {
                    queue.pop_back();
                }
                queue.push_front(Choice {
                    index: guess.index + usize::from(guess.var.is_some()),
                    candidates: guess.candidates,
                });
                continue;
            }
            // Possibly satisfiable: make the front choice.
            let choice = queue.pop_front().expect("checked above");
            let met = choice.candidates.iter().any(|c| assumed.contains(c));
            let var = (!met)
                .then(|| choice.candidates.get(choice.index).copied())
                .flatten();
            let mut guess = Guess {
                var,
                index: choice.index,
                children: 0,
                candidates: choice.candidates,
                trail: self.trail.len(),
            };
            if let Some(var) = var {
                for candidates in self.choices_of(var) {
                    guess.children += 1;
                    queue.push_back(Choice {
                        candidates,
                        index: 0,
                    });
                }
                assumed.insert(var);
                if !self.assign(var, true) {
                    failed = true;
                }
            }
            guesses.push(guess);
        }
    }

    fn is_anchor_enabled(&self, anchor: Var) -> bool {
        self.problem.constraints[anchor].iter().any(|unit| {
            self.enabled[*unit] && self.problem.units[*unit].0 == Rule::Mandatory(anchor)
        })
    }

    /// Whether the enabled constraints can all hold.
    fn satisfiable(&mut self) -> Result<bool, Exhausted> {
        Ok(self.baseline() && self.complete()?.is_some())
    }

    /// A complete search from the current assignment: every installed variable's
    /// unmet dependency is given each of its candidates in turn. Returns the
    /// variables it had to add (the assignment is restored), or `None`.
    fn complete(&mut self) -> Result<Option<Vec<Var>>, Exhausted> {
        let start = self.trail.len();
        let found = self.extend();
        let added = found.as_ref().is_ok_and(|found| *found).then(|| {
            self.trail[start..]
                .iter()
                .copied()
                .filter(|v| self.value[*v] == Some(true))
                .collect()
        });
        self.undo(start);
        found.map(|_| added)
    }

    fn extend(&mut self) -> Result<bool, Exhausted> {
        let Some(open) = self.open_dependency() else {
            return Ok(true);
        };
        let Rule::Dependency(_, candidates) = &self.problem.units[open].0 else {
            unreachable!("open_dependency returns dependencies");
        };
        for &candidate in candidates {
            self.step()?;
            if self.value[candidate] == Some(false) {
                continue;
            }
            let mark = self.trail.len();
            if self.assign(candidate, true) && self.extend()? {
                return Ok(true);
            }
            self.undo(mark);
        }
        Ok(false)
    }

    /// An enabled dependency of an installed variable with no installed candidate.
    fn open_dependency(&self) -> Option<usize> {
        self.problem
            .units
            .iter()
            .enumerate()
            .position(|(unit, (rule, _))| {
                self.enabled[unit]
                    && matches!(rule, Rule::Dependency(v, candidates)
                    if self.value[*v] == Some(true)
                        && !candidates.iter().any(|c| self.value[*c] == Some(true)))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(outcome: Outcome) -> Vec<String> {
        match outcome {
            Outcome::Unsatisfiable(texts) => texts,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_first_candidate_that_can_stand_wins() {
        let mut p = Problem::default();
        let (sub, a, b, z) = (p.variable(), p.variable(), p.variable(), p.variable());
        p.add(sub, Rule::Mandatory(sub), "sub exists".into());
        p.add(
            sub,
            Rule::Dependency(sub, vec![a, b]),
            "sub requires a or b".into(),
        );
        p.add(a, Rule::Dependency(a, vec![]), "a requires z".into());
        p.add(z, Rule::Prohibited(z), "unused".into());
        assert_eq!(p.solve(), Outcome::Installed(vec![sub, b]));
    }

    #[test]
    fn choices_are_breadth_first() {
        // app needs X then Y; X only from px (needs Z: z1, z2); Y from py1, py2;
        // z1 and py1 clash: breadth-first gives px, py1, z2.
        let mut p = Problem::default();
        let [sub, app, px, py1, py2, z1, z2] = std::array::from_fn(|_| p.variable());
        p.add(sub, Rule::Mandatory(sub), "s".into());
        p.add(sub, Rule::Dependency(sub, vec![app]), "s app".into());
        p.add(app, Rule::Dependency(app, vec![px]), "x".into());
        p.add(app, Rule::Dependency(app, vec![py1, py2]), "y".into());
        p.add(px, Rule::Dependency(px, vec![z1, z2]), "z".into());
        p.add(z1, Rule::AtMostOne(vec![z1, py1]), "q".into());
        assert_eq!(p.solve(), Outcome::Installed(vec![sub, app, px, py1, z2]));
    }

    #[test]
    fn identical_encodings_keep_the_last_text() {
        let mut p = Problem::default();
        let (sub, app) = (p.variable(), p.variable());
        p.add(sub, Rule::Mandatory(sub), "subscription app exists".into());
        p.add(
            sub,
            Rule::Dependency(sub, vec![app]),
            "subscription app requires app".into(),
        );
        p.add(app, Rule::Prohibited(app), "app is deprecated".into());
        p.add(
            app,
            Rule::Dependency(app, vec![]),
            "app requires Gizmo".into(),
        );
        p.add(
            app,
            Rule::Dependency(app, vec![]),
            "app requires Cache".into(),
        );
        assert_eq!(
            texts(p.solve()),
            [
                "app requires Cache",
                "subscription app exists",
                "subscription app requires app"
            ]
        );
    }

    #[test]
    fn a_search_beyond_its_budget_gives_up() {
        // Seven requirements that each need a different one of six slots
        // (pigeonhole): every assignment is tried before the answer is "no".
        let mut p = Problem::default();
        let sub = p.variable();
        let app = p.variable();
        p.add(sub, Rule::Mandatory(sub), "s".into());
        p.add(sub, Rule::Dependency(sub, vec![app]), "s app".into());
        let slots: Vec<Vec<Var>> = (0..7)
            .map(|_| (0..6).map(|_| p.variable()).collect())
            .collect();
        for (pigeon, holes) in slots.iter().enumerate() {
            p.add(
                app,
                Rule::Dependency(app, holes.clone()),
                format!("pigeon {pigeon}"),
            );
        }
        for hole in 0..6 {
            let column: Vec<Var> = slots.iter().map(|holes| holes[hole]).collect();
            p.add(app, Rule::AtMostOne(column), format!("hole {hole}"));
        }
        assert_eq!(p.solve_within(50), Outcome::GaveUp);
        assert!(matches!(p.solve(), Outcome::Unsatisfiable(_)));
    }

    #[test]
    fn the_explanation_is_minimal() {
        let mut p = Problem::default();
        let [sub, a, b, c] = std::array::from_fn(|_| p.variable());
        p.add(sub, Rule::Mandatory(sub), "exists".into());
        p.add(sub, Rule::Dependency(sub, vec![a]), "requires a".into());
        p.add(
            a,
            Rule::Dependency(a, vec![b, c]),
            "a requires b or c".into(),
        );
        p.add(b, Rule::Prohibited(b), "b deprecated".into());
        p.add(
            c,
            Rule::Dependency(c, vec![]),
            "c requires nothing there".into(),
        );
        p.add(c, Rule::Conflict(c, a), "c conflicts with a".into());
        let got = texts(p.solve());
        assert!(got.contains(&"b deprecated".to_owned()), "{got:?}");
        assert_eq!(got.len(), 5, "{got:?}");
    }
}
