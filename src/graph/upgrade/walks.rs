//! Every untargeted walk of one set of rules, sharing tails. From a bundle whose
//! rules step to Y, the walk is that step followed by Y's own walk, unless Y's
//! walk comes back to it (a cycle, then walked as [`super::walk`] does). Each
//! bundle's next step is searched once, so the walks from every entry of a channel
//! cost their lengths in copied names instead of a candidate search over the whole
//! package at every step (which made `diff` cubic in a channel's length).

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::package::PackageGraph;
use super::reason::Reason;
use super::{Next, Position, Rules, walk};
use crate::go::semver::{Release, Version};

/// Where a walk goes after its start, and why it stops there: a step into the
/// shared walk of the bundle stepped to, or a walk made step by step. Shared
/// walks keep the memory of every walk of a channel linear in its length.
#[derive(Debug)]
pub(crate) struct Tail {
    shape: Shape,
    reasons: Arc<[Reason]>,
    last: Option<Box<str>>,
    /// Whether a walk made step by step through a cycle is part of this one: only
    /// then can it come back to a bundle met before it.
    cyclic: bool,
}

#[derive(Debug)]
enum Shape {
    Step(Box<str>, Arc<Tail>),
    Whole(Box<[Box<str>]>),
}

impl Tail {
    /// The bundles the walk goes through after its start.
    pub(crate) fn path(&self) -> impl Iterator<Item = &str> + '_ {
        let mut tail = Some(self);
        let mut whole: &[Box<str>] = &[];
        std::iter::from_fn(move || {
            if let Some((first, rest)) = whole.split_first() {
                whole = rest;
                return Some(&**first);
            }
            match &tail?.shape {
                Shape::Step(to, rest) => {
                    tail = Some(rest);
                    Some(&**to)
                }
                Shape::Whole(path) => {
                    tail = None;
                    let (first, rest) = path.split_first()?;
                    whole = rest;
                    Some(&**first)
                }
            }
        })
    }

    /// The bundle the walk ends at, `None` when it takes no step.
    pub(crate) fn last(&self) -> Option<&str> {
        self.last.as_deref()
    }

    pub(crate) fn reasons(&self) -> &[Reason] {
        &self.reasons
    }

    /// This walk, entered by a step to its start `to`.
    fn after(self: &Arc<Self>, to: &str) -> Tail {
        Tail {
            shape: Shape::Step(to.into(), Arc::clone(self)),
            reasons: Arc::clone(&self.reasons),
            last: Some(self.last.as_deref().unwrap_or(to).into()),
            cyclic: self.cyclic,
        }
    }

    /// Whether a walk from `name` into this one would come back to `name`.
    fn comes_back_to(&self, name: &str) -> bool {
        self.cyclic && self.path().any(|bundle| bundle == name)
    }
}

pub(crate) struct Walks<'r, 'a> {
    graph: &'r PackageGraph<'a>,
    rules: Remembered<'r, 'a>,
    tails: HashMap<&'a str, Arc<Tail>>,
}

impl<'r, 'a> Walks<'r, 'a> {
    pub(crate) fn new(graph: &'r PackageGraph<'a>, rules: &'r dyn Rules<'a>) -> Self {
        Self {
            graph,
            rules: Remembered {
                rules,
                next: RefCell::default(),
            },
            tails: HashMap::new(),
        }
    }

    /// The walk from `start`, as [`walk`] makes it without a target.
    pub(crate) fn from(&mut self, start: &Position) -> Arc<Tail> {
        if let Some(bundle) = self.graph.bundle(&start.name)
            && start.version.as_ref() == Some(&bundle.version)
            && start.release == bundle.release
        {
            return self.tail(bundle.name);
        }
        // A bundle this catalog does not have (or has with another version).
        let next = match self.rules.next(start) {
            Next::Step(step) => Some(step.to),
            Next::Stay | Next::Blocked(_) => None,
        };
        let shared = next
            .map(|to| (to, self.tail(to)))
            .filter(|(to, tail)| *to != start.name && !tail.comes_back_to(&start.name));
        Arc::new(match shared {
            Some((to, tail)) => tail.after(to),
            None => self.walked(start),
        })
    }

    /// The walk from the catalog bundle `start`, with its own version and release.
    fn tail(&mut self, start: &'a str) -> Arc<Tail> {
        // The chain of bundles whose walks are still unknown, each stepping to the
        // next, ended by a known walk, a stop, or a bundle met twice.
        let mut chain: Vec<(&'a str, Option<&'a str>)> = Vec::new();
        let mut on_chain: HashSet<&'a str> = HashSet::new();
        let mut at = start;
        while !self.tails.contains_key(at) && on_chain.insert(at) {
            let next = match self.rules.next(&Position::of(self.graph, at)) {
                Next::Step(step) => Some(step.to),
                Next::Stay | Next::Blocked(_) => None,
            };
            chain.push((at, next));
            match next {
                Some(to) => at = to,
                None => break,
            }
        }
        while let Some((name, next)) = chain.pop() {
            let shared = next
                .and_then(|to| self.tails.get(to).map(|tail| (to, Arc::clone(tail))))
                .filter(|(to, tail)| *to != name && !tail.comes_back_to(name));
            let tail = match shared {
                Some((to, tail)) => tail.after(to),
                // A stop, or a cycle through this bundle: walked step by step.
                None => self.walked(&Position::of(self.graph, name)),
            };
            self.tails.insert(name, Arc::new(tail));
        }
        Arc::clone(&self.tails[start])
    }

    fn walked(&self, start: &Position) -> Tail {
        let (steps, _, reasons) = walk(self.graph, &self.rules, start, None);
        let path: Box<[Box<str>]> = steps.iter().map(|step| step.to.into()).collect();
        Tail {
            last: path.last().cloned(),
            cyclic: !path.is_empty(),
            shape: Shape::Whole(path),
            reasons: reasons.into(),
        }
    }
}

/// A position as a map key: its name, version and release.
type PositionKey = (String, Option<Version>, Release);

/// Rules that keep each position's next step: a cycle walked from each of its
/// bundles searches each step once.
struct Remembered<'r, 'a> {
    rules: &'r dyn Rules<'a>,
    next: RefCell<HashMap<PositionKey, Next<'a>>>,
}

impl<'a> Rules<'a> for Remembered<'_, 'a> {
    fn next(&self, at: &Position) -> Next<'a> {
        let key = (at.name.clone(), at.version.clone(), at.release.clone());
        if let Some(next) = self.next.borrow().get(&key) {
            return next.clone();
        }
        let next = self.rules.next(at);
        self.next.borrow_mut().insert(key, next.clone());
        next
    }

    fn is_head(&self, name: &str) -> bool {
        self.rules.is_head(name)
    }

    fn explain(&self, at: &Position) -> Vec<Reason> {
        self.rules.explain(at)
    }

    fn successors(&self, at: &Position) -> Vec<&'a str> {
        self.rules.successors(at)
    }
}
