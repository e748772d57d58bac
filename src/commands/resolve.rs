//! `fbc alpha resolve`: flags -> request -> OLM classic's resolution -> report.

use std::path::Path;

use crate::ExitStatus;
use crate::cli::{ResolveArgs, ResolveFormat};
use crate::codec::sink::Sink as _;
use crate::resolve::{self, Request, ResolveError, split_pair};

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
    let pull = super::pull_options(&args.registry)?;
    let mut load = |reference: &str| -> miette::Result<_> {
        Ok(crate::source::catalog(Path::new(reference), pull)?)
    };
    // Each result is written as it is resolved; the verdict and the packages that
    // do not install are kept for the end.
    let json = args.output == ResolveFormat::Json;
    let (mut count, mut failed) = (0, Vec::new());
    let mut text = String::new();
    let ran = super::stream_stdout(|out| {
        if json {
            out.extend_from_slice(resolve::json_start().as_bytes());
        }
        let ran = resolve::run(&request, &mut load, &mut |outcome, total| {
            text.clear();
            if json {
                resolve::write_json(&mut text, &outcome, count == 0);
            } else {
                resolve::write_text(&mut text, &outcome, args.every_package, total > 1);
            }
            out.extend_from_slice(text.as_bytes());
            count += 1;
            if !outcome.ok() {
                let package = outcome.subscriptions.first().map(|s| s.package.clone());
                failed.push(package.unwrap_or_default());
            }
        });
        if json && ran.is_ok() {
            out.extend_from_slice(resolve::json_end(count).as_bytes());
        }
        ran
    })
    .map_err(super::StdoutError)?;
    ran?;
    if args.every_package && !json {
        let installing = count - failed.len();
        if failed.is_empty() {
            eprintln!("{installing} of {count} packages install");
        } else {
            eprintln!(
                "{installing} of {count} packages install; not: {}",
                failed.join(", ")
            );
        }
    }
    Ok(if failed.is_empty() {
        ExitStatus::Success
    } else {
        ExitStatus::Failure
    })
}
