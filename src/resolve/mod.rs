//! `fbc alpha resolve`: OLM classic's dependency resolution, offline. Given
//! catalogs (as CatalogSources) and Subscriptions, either new ones or those of a
//! GitOps repository's manifests, say what OLM would install, or OLM's error.
//!
//! What is modelled, and what not, is in docs/resolve.md.

mod cel;
pub(crate) mod cluster;
mod predicate;
mod report;
pub(crate) mod resolver;
mod solver;
mod source;
#[cfg(test)]
mod tests;

use std::path::PathBuf;

use crate::catalog::Catalog;
pub(crate) use report::{json_end, json_start, write_json, write_text};
use resolver::{Answer, Namespace, Subscription};
use source::Universe;

/// What to resolve.
#[derive(Debug, Clone, Default)]
pub(crate) struct Request {
    /// A new Subscription to this package (with `catalogs`).
    pub(crate) package: Option<String>,
    /// Manifest files.
    pub(crate) files: Vec<PathBuf>,
    /// `NAME=REF`: a CatalogSource's content.
    pub(crate) catalogs: Vec<(String, String)>,
    pub(crate) source: Option<String>,
    pub(crate) channel: Option<String>,
    pub(crate) starting_csv: Option<String>,
    pub(crate) priorities: Vec<(String, i64)>,
    pub(crate) global_namespace: String,
    /// The namespace of new Subscriptions.
    pub(crate) namespace: String,
    pub(crate) every_package: bool,
}

/// One resolved namespace (or, with `--every-package`, one package).
#[derive(Debug)]
pub(crate) struct Outcome {
    pub(crate) namespace: String,
    pub(crate) subscriptions: Vec<Subscription>,
    pub(crate) result: Result<Vec<Install>, Failure>,
    /// Why each requirement got its provider (successful answers).
    pub(crate) picks: Vec<resolver::Pick>,
}

/// An operator OLM would install.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub(crate) struct Install {
    pub(crate) catalog: String,
    pub(crate) namespace: String,
    pub(crate) package: String,
    pub(crate) channel: String,
    pub(crate) bundle: String,
}

/// OLM's error.
#[derive(Debug)]
pub(crate) struct Failure {
    pub(crate) message: String,
    pub(crate) reason: resolver::Reason,
    pub(crate) conflict: Vec<String>,
}

impl Outcome {
    pub(crate) fn ok(&self) -> bool {
        self.result.is_ok()
    }
}

/// Why fbc could not run.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub(crate) enum ResolveError {
    #[error("{0}")]
    #[diagnostic(code(fbc::resolve::manifests))]
    Manifests(String),
    #[error(
        "--catalog {0}: expected NAME=REF (a CatalogSource name and a catalog directory or image)"
    )]
    #[diagnostic(code(fbc::resolve::catalog_flag))]
    CatalogFlag(String),
    #[error("--priority {0}: expected NAME=N (a CatalogSource name and an integer)")]
    #[diagnostic(code(fbc::resolve::priority_flag))]
    PriorityFlag(String),
    #[error("--source {0}: no --catalog of that name")]
    #[diagnostic(code(fbc::resolve::source))]
    UnknownSource(String),
    #[error(
        "CatalogSource {name} (namespace {namespace}) has neither spec.image nor a --catalog {name}=REF"
    )]
    #[diagnostic(code(fbc::resolve::no_content))]
    NoContent { name: String, namespace: String },
    #[error(
        "nothing to resolve: give a PACKAGE with --catalog, --every-package with --catalog, or manifests with -f"
    )]
    #[diagnostic(code(fbc::resolve::nothing))]
    Nothing,
    #[error(
        "gave up resolving namespace {namespace}: the search for an answer took more than {steps} steps"
    )]
    #[diagnostic(
        code(fbc::resolve::gave_up),
        help(
            "OLM's own solver searches the same combinations; a catalog with many providers for each of many requirements, none of which fit together, makes it slow too"
        )
    )]
    GaveUp { namespace: String, steps: u64 },
    #[error("the manifests hold no Subscription")]
    #[diagnostic(code(fbc::resolve::no_subscription))]
    NoSubscription,
}

/// Splits `NAME=VALUE`.
pub(crate) fn split_pair(text: &str) -> Option<(String, String)> {
    let (name, value) = text.split_once('=')?;
    (!name.is_empty() && !value.is_empty()).then(|| (name.to_owned(), value.to_owned()))
}

/// Runs the request, handing each outcome to `emit` as it is resolved, with how
/// many there are in all (a report of every package is never held whole);
/// `load` reads a catalog directory or image.
pub(crate) fn run<E>(
    request: &Request,
    load: &mut dyn FnMut(&str) -> Result<Catalog, E>,
    emit: &mut dyn FnMut(Outcome, usize),
) -> Result<(), E>
where
    E: From<ResolveError>,
{
    if request.files.is_empty() {
        new_subscriptions(request, load, emit)
    } else {
        manifests(request, load, emit)
    }
}

/// A `--priority` for the catalog, else `default`.
fn priority(request: &Request, name: &str, default: i64) -> i64 {
    request
        .priorities
        .iter()
        .rev()
        .find(|(n, _)| n == name)
        .map_or(default, |(_, p)| *p)
}

/// New Subscriptions to catalogs given with `--catalog`.
fn new_subscriptions<E>(
    request: &Request,
    load: &mut dyn FnMut(&str) -> Result<Catalog, E>,
    emit: &mut dyn FnMut(Outcome, usize),
) -> Result<(), E>
where
    E: From<ResolveError>,
{
    let mut universe = Universe::default();
    let Some(first) = request.catalogs.first() else {
        return Err(ResolveError::Nothing.into());
    };
    let source = request.source.clone().unwrap_or_else(|| first.0.clone());
    if !request.catalogs.iter().any(|(name, _)| *name == source) {
        return Err(ResolveError::UnknownSource(source).into());
    }
    let mut source_catalog = None;
    for (name, reference) in &request.catalogs {
        let catalog = load(reference)?;
        universe.add_catalog(
            name,
            &request.global_namespace,
            priority(request, name, 0),
            &catalog,
        );
        if *name == source && source_catalog.is_none() {
            source_catalog = Some(catalog);
        }
    }
    let new = |package: &str, channel: &str| Subscription {
        name: package.to_owned(),
        namespace: request.namespace.clone(),
        package: package.to_owned(),
        channel: channel.to_owned(),
        starting_csv: request.starting_csv.clone().unwrap_or_default(),
        source: source.clone(),
        source_namespace: request.global_namespace.clone(),
        installed_csv: String::new(),
    };
    // Each package's Subscription is made as its turn comes.
    let packages: Vec<(&str, &str)> = if request.every_package {
        let catalog = source_catalog
            .as_ref()
            .expect("the source is one of the catalogs");
        let mut packages: Vec<(&str, &str)> = catalog
            .packages
            .iter()
            .map(|p| (&*p.item.name, &*p.item.default_channel))
            .collect();
        packages.sort_unstable();
        packages.dedup_by_key(|p| p.0);
        packages
    } else {
        let Some(package) = &request.package else {
            return Err(ResolveError::Nothing.into());
        };
        vec![(package, "")]
    };
    for (package, channel) in &packages {
        let subscription = new(package, request.channel.as_deref().unwrap_or(channel));
        let outcome = alone(&mut universe, subscription, &request.global_namespace)?;
        emit(outcome, packages.len());
    }
    Ok(())
}

/// One new Subscription resolved alone, in a namespace of its own with nothing
/// installed.
fn alone(
    universe: &mut Universe,
    subscription: Subscription,
    global: &str,
) -> Result<Outcome, ResolveError> {
    let namespace = Namespace {
        name: subscription.namespace.clone(),
        operator_groups: 1,
        exclude_global: false,
        subscriptions: vec![subscription],
        installed: Vec::new(),
    };
    let result = outcome(universe, &namespace, global);
    // The namespace's installed operators (none) are dropped again.
    universe.sources.pop();
    result
}

/// Every Subscription of the manifests, with the others of its namespace.
fn manifests<E>(
    request: &Request,
    load: &mut dyn FnMut(&str) -> Result<Catalog, E>,
    emit: &mut dyn FnMut(Outcome, usize),
) -> Result<(), E>
where
    E: From<ResolveError>,
{
    let mut universe = Universe::default();
    let mut cluster = cluster::Cluster::default();
    for file in &request.files {
        cluster.read(file).map_err(ResolveError::Manifests)?;
    }
    cluster.settle();
    // Catalogs named by --catalog but absent from the manifests join the global
    // namespace.
    for (name, _) in &request.catalogs {
        if !cluster.catalogs.iter().any(|c| c.name == *name) {
            cluster.catalogs.push(cluster::CatalogSource {
                name: name.clone(),
                namespace: request.global_namespace.clone(),
                priority: priority(request, name, 0),
                image: String::new(),
            });
        }
    }
    let namespaces: Vec<&Namespace> = cluster
        .namespaces
        .iter()
        .filter(|n| !n.subscriptions.is_empty())
        .collect();
    // Only CatalogSources some resolution can see are read (or pulled).
    let seen = |catalog: &cluster::CatalogSource| {
        namespaces.iter().any(|n| {
            catalog.namespace == n.name
                || (catalog.namespace == request.global_namespace && !n.exclude_global)
        })
    };
    for source in cluster.catalogs.iter().filter(|c| seen(c)) {
        let reference = request
            .catalogs
            .iter()
            .find(|(name, _)| *name == source.name)
            .map(|(_, reference)| reference.clone())
            .or_else(|| (!source.image.is_empty()).then(|| source.image.clone()))
            .ok_or_else(|| ResolveError::NoContent {
                name: source.name.clone(),
                namespace: source.namespace.clone(),
            })?;
        let catalog = load(&reference)?;
        universe.add_catalog(
            &source.name,
            &source.namespace,
            priority(request, &source.name, source.priority),
            &catalog,
        );
    }
    if namespaces.is_empty() {
        return Err(ResolveError::NoSubscription.into());
    }
    for namespace in &namespaces {
        let outcome = outcome(&mut universe, namespace, &request.global_namespace)?;
        emit(outcome, namespaces.len());
    }
    Ok(())
}

fn outcome(
    universe: &mut Universe,
    namespace: &Namespace,
    global: &str,
) -> Result<Outcome, ResolveError> {
    let answer = resolver::resolve(universe, namespace, global);
    let (result, picks) = match answer {
        Answer::GaveUp => {
            return Err(ResolveError::GaveUp {
                namespace: namespace.name.clone(),
                steps: crate::files::limits::get().resolve_steps,
            });
        }
        Answer::Installed { entries, picks } => {
            let mut installs: Vec<Install> = entries
                .into_iter()
                .map(|e| {
                    let entry = &universe.entries[e];
                    let source = &universe.sources[entry.source];
                    Install {
                        catalog: source.name.clone(),
                        namespace: source.namespace.clone(),
                        package: entry.package.clone(),
                        channel: entry.channel.clone(),
                        bundle: entry.bundle.clone(),
                    }
                })
                .collect();
            installs.sort();
            (Ok(installs), picks)
        }
        Answer::Failed {
            message,
            reason,
            conflict,
        } => (
            Err(Failure {
                message,
                reason,
                conflict,
            }),
            Vec::new(),
        ),
    };
    Ok(Outcome {
        namespace: namespace.name.clone(),
        subscriptions: namespace.subscriptions.clone(),
        result,
        picks,
    })
}

/// A channel head whose dependencies OLM cannot meet.
#[derive(Debug)]
pub(crate) struct UnmetHead {
    pub(crate) package: String,
    pub(crate) channel: String,
    pub(crate) head: String,
    /// Where the channel is declared.
    pub(crate) location: crate::catalog::Location,
    pub(crate) verdict: Unmet,
}

/// Why a channel head is reported.
#[derive(Debug)]
pub(crate) enum Unmet {
    /// OLM would fail the Subscription, with this error.
    Fails(Failure),
    /// The search gave up after this many steps: whether OLM can install the
    /// head is unknown.
    GaveUp { steps: u64 },
}

/// Every channel head of `catalog` (a CatalogSource `name` in the global
/// namespace, beside `others`) that a Subscription pinned to it (its channel,
/// startingCSV the head) cannot install, with OLM's error. Channels whose order
/// OLM cannot determine are left to validation's own checks.
pub(crate) fn unsatisfiable_heads(
    name: &str,
    catalog: &Catalog,
    others: &[(String, Catalog)],
    global: &str,
) -> Vec<UnmetHead> {
    let mut universe = Universe::default();
    universe.add_catalog(name, global, 0, catalog);
    for (other, content) in others {
        universe.add_catalog(other, global, 0, content);
    }
    let mut unmet = Vec::new();
    for located in &catalog.channels {
        let channel = &located.item;
        let entries: Vec<source::EntryId> = universe
            .hinted(source::Hint::Package(&channel.package))
            .filter(|e| {
                let entry = &universe.entries[*e];
                entry.source == 0
                    && entry.package == channel.package
                    && entry.channel == channel.name
            })
            .collect();
        let Some(head) = universe
            .sort_channel(&entries)
            .ok()
            .and_then(|sorted| sorted.first().copied())
        else {
            continue;
        };
        let head = universe.entries[head].bundle.clone();
        let subscription = Subscription {
            name: channel.package.to_string(),
            namespace: "operators".to_owned(),
            package: channel.package.to_string(),
            channel: channel.name.to_string(),
            starting_csv: head.clone(),
            source: name.to_owned(),
            source_namespace: global.to_owned(),
            installed_csv: String::new(),
        };
        let verdict = match alone(&mut universe, subscription, global) {
            Ok(Outcome {
                result: Err(failure),
                ..
            }) => Unmet::Fails(failure),
            Err(ResolveError::GaveUp { steps, .. }) => Unmet::GaveUp { steps },
            _ => continue,
        };
        unmet.push(UnmetHead {
            package: channel.package.to_string(),
            channel: channel.name.to_string(),
            head,
            location: located.location.clone(),
            verdict,
        });
    }
    unmet
}
