//! `fbc alpha resolve`: flags -> request -> OLM classic's resolution -> report.

use std::path::PathBuf;

use crate::ExitStatus;
use crate::cli::{ResolveArgs, ResolveFormat};
use crate::resolve::{self, Request, ResolveError, split_pair};

use super::graph::{load_references, write_stdout};

pub(crate) fn run(args: &ResolveArgs) -> miette::Result<ExitStatus> {
    let catalogs = args
        .catalogs
        .iter()
        .map(|flag| split_pair(flag).ok_or_else(|| ResolveError::CatalogFlag(flag.clone())))
        .collect::<Result<Vec<_>, _>>()?;
    let priorities = args
        .priorities
        .iter()
        .map(|flag| {
            split_pair(flag)
                .and_then(|(name, n)| Some((name, n.trim().parse::<i64>().ok()?)))
                .ok_or_else(|| ResolveError::PriorityFlag(flag.clone()))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let request = Request {
        package: args.package.clone(),
        files: args.files.clone(),
        catalogs,
        source: args.source.clone(),
        channel: args.channel.clone(),
        starting_csv: args.starting_csv.clone(),
        priorities,
        global_namespace: args.global_namespace.clone(),
        namespace: args.namespace.clone(),
        every_package: args.every_package,
    };
    let mut load = |reference: &str| -> miette::Result<_> {
        Ok(load_references(
            &[PathBuf::from(reference)],
            &args.registry,
        )?)
    };
    let outcomes = resolve::run(&request, &mut load)?;
    let text = match args.output {
        ResolveFormat::Text => resolve::write_text(&outcomes, args.every_package),
        ResolveFormat::Json => resolve::write_json(&outcomes),
    };
    write_stdout(text.as_bytes())?;
    if args.every_package && args.output == ResolveFormat::Text {
        let failed: Vec<&str> = outcomes
            .iter()
            .filter(|o| !o.ok())
            .map(|o| o.subscriptions[0].package.as_str())
            .collect();
        let installing = outcomes.len() - failed.len();
        if failed.is_empty() {
            eprintln!("{installing} of {} packages install", outcomes.len());
        } else {
            eprintln!(
                "{installing} of {} packages install; not: {}",
                outcomes.len(),
                failed.join(", ")
            );
        }
    }
    Ok(if outcomes.iter().all(resolve::Outcome::ok) {
        ExitStatus::Success
    } else {
        ExitStatus::Failure
    })
}
