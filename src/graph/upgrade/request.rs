//! From a request (package, installed bundle, target, channels, semantics) to the
//! paths under each semantics, with the input checks and their messages.

use crate::catalog::Catalog;
use crate::go::fmt::quote;
use crate::go::semver::{SemverError, Version};
use crate::model::Channel;

use super::super::deprecations::Deprecations;
use super::super::error::GraphError;
use super::super::versions::legacy_release;
use super::classic::Classic;
use super::package::{BundleInfo, PackageGraph};
use super::v1::V1;
use super::{Ending, Position, Rules, Semantics, Target, Walk, Warning, walk};

/// What to compute, free of clap.
#[derive(Debug, Clone, Default)]
pub(crate) struct Request {
    pub(crate) package: String,
    /// A bundle name or version of the package; with `from_version`, a name only.
    pub(crate) from: Option<String>,
    /// The version of an installed bundle that is not in the catalog.
    pub(crate) from_version: Option<String>,
    pub(crate) to: Option<String>,
    pub(crate) channels: Vec<String>,
    pub(crate) semantics: Vec<Semantics>,
}

/// The installed bundle as the request resolved it.
#[derive(Debug, Clone)]
pub(crate) struct Installed {
    pub(crate) name: String,
    /// The version as declared (build metadata included).
    pub(crate) shown: String,
    pub(crate) in_catalog: bool,
}

/// Every path asked for.
#[derive(Debug)]
pub(crate) struct Report<'a> {
    pub(crate) package: &'a str,
    pub(crate) installed: Installed,
    pub(crate) target: Option<Target>,
    pub(crate) walks: Vec<Walk<'a>>,
}

impl Report<'_> {
    /// Whether every walk answers the request.
    pub(crate) fn found(&self) -> bool {
        self.walks.iter().all(Walk::found)
    }

    /// With two semantics: whether they go through the same bundles and end alike.
    pub(crate) fn same(&self) -> Option<bool> {
        match self.walks.as_slice() {
            [a, b] => Some(a.bundles() == b.bundles() && a.found() == b.found()),
            _ => None,
        }
    }
}

#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub(crate) enum RequestError {
    #[error("package {} is not in the catalog", quote(.package))]
    #[diagnostic(code(fbc::upgrade_path::unknown_package))]
    UnknownPackage { package: String },

    #[error("package {} has no channel {}", quote(.package), quote(.channel))]
    #[diagnostic(
        code(fbc::upgrade_path::unknown_channel),
        help("its channels: {known}")
    )]
    UnknownChannel {
        package: String,
        channel: String,
        known: String,
    },

    #[error("package {} has no bundle named or versioned {}", quote(.package), quote(.reference))]
    #[diagnostic(
        code(fbc::upgrade_path::unknown_bundle),
        help(
            "for an installed bundle that is not in the catalog, give its version with --from-version (and its name with --from)"
        )
    )]
    UnknownBundle { package: String, reference: String },

    #[error("several bundles of package {} have version {}: {bundles}", quote(.package), quote(.version))]
    #[diagnostic(
        code(fbc::upgrade_path::ambiguous_version),
        help("name the bundle instead")
    )]
    AmbiguousVersion {
        package: String,
        version: String,
        bundles: String,
    },

    #[error("invalid --from-version {}: {error}", quote(.version))]
    #[diagnostic(
        code(fbc::upgrade_path::invalid_version),
        help("versions are semver 2.0.0: MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD]")
    )]
    InvalidVersion { version: String, error: SemverError },

    #[error("bundle {bundle} has version {catalog} in the catalog, not {given}")]
    #[diagnostic(
        code(fbc::upgrade_path::version_mismatch),
        help("leave out --from-version for a bundle of the catalog")
    )]
    VersionMismatch {
        bundle: String,
        catalog: String,
        given: String,
    },

    #[error("OLM classic follows one channel, and {count} were given")]
    #[diagnostic(
        code(fbc::upgrade_path::classic_channels),
        help("a Subscription names one channel; use --semantics v1 to follow several")
    )]
    ClassicChannels { count: usize },

    #[error(transparent)]
    #[diagnostic(transparent)]
    Graph(#[from] GraphError),
}

/// The package a request is about.
pub(crate) fn package_graph<'a>(
    catalog: &'a Catalog,
    deprecations: &'a Deprecations,
    package: &'a str,
) -> Result<PackageGraph<'a>, RequestError> {
    PackageGraph::new(catalog, package, deprecations)?.ok_or_else(|| RequestError::UnknownPackage {
        package: package.to_owned(),
    })
}

/// Resolves the request against the package and walks each semantics.
pub(crate) fn plan<'a>(
    graph: &'a PackageGraph<'a>,
    request: &Request,
) -> Result<Report<'a>, RequestError> {
    let channels = request
        .channels
        .iter()
        .map(|name| channel(graph, name))
        .collect::<Result<Vec<_>, _>>()?;
    if channels.len() > 1 && request.semantics.contains(&Semantics::Classic) {
        return Err(RequestError::ClassicChannels {
            count: channels.len(),
        });
    }
    let (installed, start) = installed(graph, request)?;
    let target = match &request.to {
        Some(reference) => {
            let bundle = resolve(graph, reference)?;
            Some(Target {
                name: bundle.name.to_owned(),
                version: bundle.version.clone(),
                shown: bundle.shown_version(),
            })
        }
        None => None,
    };
    let walks = request
        .semantics
        .iter()
        .map(|&semantics| {
            let walk = match semantics {
                Semantics::Classic => {
                    let rules = Classic::new(graph, channels.first().copied());
                    let names = rules.channel_names();
                    follow(graph, semantics, &rules, names, &start, target.as_ref())
                }
                Semantics::V1 => {
                    let pin = target.as_ref().and_then(|target| {
                        let bundle = graph.bundle(&target.name)?;
                        Some((bundle.name, target.version.clone()))
                    });
                    let rules = V1::new(graph, channels.clone(), pin);
                    let names = if channels.is_empty() {
                        Vec::new()
                    } else {
                        rules.channel_names()
                    };
                    follow(graph, semantics, &rules, names, &start, target.as_ref())
                }
            };
            with_warnings(graph, walk, &start.name, &channels)
        })
        .collect();
    Ok(Report {
        package: graph.name,
        installed,
        target,
        walks,
    })
}

fn follow<'a>(
    graph: &PackageGraph<'a>,
    semantics: Semantics,
    rules: &dyn Rules<'a>,
    channels: Vec<&'a str>,
    start: &Position,
    target: Option<&Target>,
) -> Walk<'a> {
    let (mut steps, ending, reasons) = walk(graph, rules, start, target);
    // The whole candidate set at each position, the pick among it.
    let mut at = start.clone();
    for step in &mut steps {
        step.successors = distinct(rules.successors(&at));
        at = super::Position::of(graph, step.to);
    }
    let end = steps
        .last()
        .map_or_else(|| start.label(), |step| step.to.to_owned());
    Walk {
        semantics,
        channels,
        steps,
        end,
        ending,
        reasons,
        warnings: Vec::new(),
        end_successors: distinct(rules.successors(&at)),
    }
}

/// Names in their first order, each once.
fn distinct(names: Vec<&str>) -> Vec<&str> {
    let mut seen = std::collections::HashSet::new();
    names
        .into_iter()
        .filter(|name| seen.insert(*name))
        .collect()
}

/// Deprecations of the package, of the channels named or stepped through, and of
/// every bundle on the path, the installed one included.
fn with_warnings<'a>(
    graph: &PackageGraph<'a>,
    mut walk: Walk<'a>,
    installed: &str,
    selected: &[&Channel],
) -> Walk<'a> {
    let deprecations = graph.deprecations;
    if let Some(message) = deprecations.package(graph.name) {
        walk.warnings.push(Warning::Package {
            package: graph.name.to_owned(),
            message: message.to_owned(),
        });
    }
    let mut channels: Vec<&str> = selected.iter().map(|c| c.name.as_str()).collect();
    for step in &walk.steps {
        if !channels.contains(&step.channel) {
            channels.push(step.channel);
        }
    }
    for channel in channels {
        if let Some(message) = deprecations.channel(graph.name, channel) {
            walk.warnings.push(Warning::Channel {
                channel: channel.to_owned(),
                message: message.to_owned(),
            });
        }
    }
    let bundles = std::iter::once(installed).chain(walk.steps.iter().map(|step| step.to));
    for bundle in bundles {
        if let Some(message) = deprecations.bundle(graph.name, bundle) {
            walk.warnings.push(Warning::Bundle {
                bundle: bundle.to_owned(),
                message: message.to_owned(),
            });
        }
    }
    if walk.ending == Ending::Head && walk.steps.is_empty() {
        walk.reasons.clear();
    }
    walk
}

fn channel<'a>(graph: &PackageGraph<'a>, name: &str) -> Result<&'a Channel, RequestError> {
    graph.channel(name).ok_or_else(|| {
        let known: Vec<String> = graph.channels.iter().map(|c| quote(&c.name)).collect();
        RequestError::UnknownChannel {
            package: graph.name.to_owned(),
            channel: name.to_owned(),
            known: if known.is_empty() {
                "none".to_owned()
            } else {
                known.join(", ")
            },
        }
    })
}

/// The installed bundle: a bundle of the catalog, or a version (and maybe a name)
/// that is not in it.
fn installed(
    graph: &PackageGraph,
    request: &Request,
) -> Result<(Installed, Position), RequestError> {
    let Some(text) = &request.from_version else {
        let reference = request.from.as_deref().unwrap_or_default();
        let bundle = resolve(graph, reference)?;
        let installed = Installed {
            name: bundle.name.to_owned(),
            shown: bundle.shown_version(),
            in_catalog: true,
        };
        return Ok((installed, super::Position::of(graph, bundle.name)));
    };
    let version = Version::parse(text).map_err(|error| RequestError::InvalidVersion {
        version: text.clone(),
        error,
    })?;
    let name = request.from.clone().unwrap_or_default();
    let in_catalog = graph.bundle(&name);
    if let Some(bundle) = in_catalog
        && bundle.shown_version() != version.to_string()
    {
        return Err(RequestError::VersionMismatch {
            bundle: name,
            catalog: bundle.shown_version(),
            given: version.to_string(),
        });
    }
    let (_, release) = legacy_release(version.clone());
    let position = Position {
        name: name.clone(),
        version: Some(version.clone()),
        release,
    };
    let installed = Installed {
        in_catalog: in_catalog.is_some(),
        name,
        shown: version.to_string(),
    };
    Ok((installed, position))
}

/// A bundle of the package by name, else by version (exact text first, then
/// semver precedence; a leading `v` is allowed).
fn resolve<'g, 'a>(
    graph: &'g PackageGraph<'a>,
    reference: &str,
) -> Result<&'g BundleInfo<'a>, RequestError> {
    if let Some(bundle) = graph.bundle(reference) {
        return Ok(bundle);
    }
    let text = reference.strip_prefix('v').unwrap_or(reference);
    let unknown = || RequestError::UnknownBundle {
        package: graph.name.to_owned(),
        reference: reference.to_owned(),
    };
    let version = Version::parse(text).map_err(|_| unknown())?;
    let mut matches: Vec<&BundleInfo> = graph
        .bundles
        .iter()
        .filter(|b| b.version.to_string() == text)
        .collect();
    if matches.is_empty() {
        matches = graph
            .bundles
            .iter()
            .filter(|b| b.version == version)
            .collect();
    }
    match matches.as_slice() {
        [] => Err(unknown()),
        [bundle] => Ok(bundle),
        several => Err(RequestError::AmbiguousVersion {
            package: graph.name.to_owned(),
            version: reference.to_owned(),
            bundles: several
                .iter()
                .map(|b| b.name)
                .collect::<Vec<_>>()
                .join(", "),
        }),
    }
}
