//! `fbc alpha upgrade-path`: load the catalog, resolve the installed bundle and the
//! target, walk OLM classic's and OLM v1's upgrades, and report them; or, with
//! `--every-bundle`, walk from every entry of every channel to its head (or, with
//! `--all-channels`, from every bundle without a channel restriction).

use std::collections::BTreeSet;

use crate::ExitStatus;
use crate::catalog::Catalog;
use crate::cli::{PathFormat, UpgradePathArgs};
use crate::graph::deprecations::Deprecations;
use crate::graph::upgrade::package::{PackageGraph, Packages, entries};
use crate::graph::upgrade::request::{Report, Request, RequestError, package_graph, plan};
use crate::graph::upgrade::{json, text};

pub(crate) fn run(args: &UpgradePathArgs) -> miette::Result<ExitStatus> {
    let request = Request {
        package: args.package.clone().unwrap_or_default(),
        from: args.from.clone(),
        from_version: args.from_version.clone(),
        to: args.to.clone(),
        channels: args.channels.clone(),
        semantics: super::semantics(args.semantics),
    };
    let catalog = crate::source::catalog(&args.directory, super::pull_options(&args.registry)?)?;
    let deprecations = Deprecations::new(&catalog.deprecations);
    if args.every_bundle {
        return survey(&catalog, &deprecations, args, &request);
    }
    let graph = package_graph(&catalog, &deprecations, &request.package)?;
    let report = plan(&graph, &request)?;
    let output = match args.output {
        PathFormat::Text => text::write_text(&report),
        PathFormat::Json => json::write_json(&report),
    };
    super::print(output.as_bytes())?;
    Ok(status(std::slice::from_ref(&report)))
}

fn status(reports: &[Report]) -> ExitStatus {
    if reports.iter().all(Report::found) {
        ExitStatus::Success
    } else {
        ExitStatus::Failure
    }
}

/// Every (package, channel, bundle) of the catalog, or of `--package`, each walked
/// in its own channel.
fn survey<'c>(
    catalog: &'c Catalog,
    deprecations: &'c Deprecations,
    args: &'c UpgradePathArgs,
    request: &Request,
) -> miette::Result<ExitStatus> {
    let packages: BTreeSet<&'c str> = match &args.package {
        Some(package) => BTreeSet::from([package.as_str()]),
        None => catalog
            .channels
            .iter()
            .map(|c| c.item.package.as_str())
            .collect(),
    };
    // A package at a time: its graph and reports go once written. Every graph is
    // made once first, so that a catalog's first error is the one reported
    // whatever walks fail later.
    let index = Packages::new(catalog);
    let graph = |package: &'c str| {
        PackageGraph::indexed(&index, package, deprecations)?.ok_or_else(|| {
            RequestError::UnknownPackage {
                package: package.to_owned(),
            }
        })
    };
    for package in &packages {
        graph(package)?;
    }
    let (mut text, mut json) = (text::Survey::default(), json::Array::default());
    let mut found = true;
    for package in packages {
        let graph = graph(package)?;
        let reports = if args.all_channels {
            survey_unrestricted(&graph, request)?
        } else {
            survey_package(&graph, request)?
        };
        for report in &reports {
            found &= report.found();
            match args.output {
                PathFormat::Text => text.add(report),
                PathFormat::Json => json.add(report),
            }
        }
    }
    let output = match args.output {
        PathFormat::Text => text.finish(!args.all_channels),
        PathFormat::Json => json.finish(),
    };
    super::print(output.as_bytes())?;
    Ok(if found {
        ExitStatus::Success
    } else {
        ExitStatus::Failure
    })
}

/// Every bundle of a package, each walked as by a Subscription or `ClusterExtension`
/// that names no channel.
fn survey_unrestricted<'a>(
    graph: &'a PackageGraph<'a>,
    request: &Request,
) -> Result<Vec<Report<'a>>, RequestError> {
    let mut seen = BTreeSet::new();
    let mut reports = Vec::new();
    for channel in &graph.channels {
        for entry in entries(channel) {
            if graph.bundle(&entry.name).is_none() || !seen.insert(entry.name.as_str()) {
                continue;
            }
            let single = Request {
                package: graph.name.to_owned(),
                from: Some(entry.name.to_string()),
                channels: Vec::new(),
                ..request.clone()
            };
            reports.push(plan(graph, &single)?);
        }
    }
    Ok(reports)
}

fn survey_package<'a>(
    graph: &'a PackageGraph<'a>,
    request: &Request,
) -> Result<Vec<Report<'a>>, RequestError> {
    let mut channels: Vec<&str> = if request.channels.is_empty() {
        graph.channels.iter().map(|c| c.name.as_str()).collect()
    } else {
        request.channels.iter().map(String::as_str).collect()
    };
    channels.sort_unstable();
    channels.dedup();
    let mut reports = Vec::new();
    for channel in channels {
        let Some(found) = graph.channel(channel) else {
            // `plan` reports the unknown channel with its message.
            let single = Request {
                channels: vec![channel.to_owned()],
                from: Some(String::new()),
                ..request.clone()
            };
            plan(graph, &single)?;
            continue;
        };
        let mut seen = BTreeSet::new();
        for entry in entries(found) {
            if graph.bundle(&entry.name).is_none() || !seen.insert(entry.name.as_str()) {
                continue;
            }
            let single = Request {
                package: graph.name.to_owned(),
                from: Some(entry.name.to_string()),
                channels: vec![channel.to_owned()],
                ..request.clone()
            };
            reports.push(plan(graph, &single)?);
        }
    }
    Ok(reports)
}
