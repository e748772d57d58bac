//! `fbc alpha upgrade-path`: load the catalog, resolve the installed bundle and the
//! target, walk OLM classic's and OLM v1's upgrades, and report them.

use crate::ExitStatus;
use crate::cli::{PathFormat, SemanticsArg, UpgradePathArgs};
use crate::graph::deprecations::Deprecations;
use crate::graph::upgrade::request::{Request, package_graph, plan};
use crate::graph::upgrade::{Semantics, json, text};

use super::graph::{load_references, write_stdout};

pub(crate) fn run(args: &UpgradePathArgs) -> miette::Result<ExitStatus> {
    let request = Request {
        package: args.package.clone(),
        from: args.from.clone(),
        from_version: args.from_version.clone(),
        to: args.to.clone(),
        channels: args.channels.clone(),
        semantics: match args.semantics {
            SemanticsArg::Classic => vec![Semantics::Classic],
            SemanticsArg::V1 => vec![Semantics::V1],
            SemanticsArg::Both => vec![Semantics::Classic, Semantics::V1],
        },
    };
    let catalog = load_references(std::slice::from_ref(&args.directory))?;
    let deprecations = Deprecations::new(&catalog.deprecations);
    let graph = package_graph(&catalog, &deprecations, &request.package)?;
    let report = plan(&graph, &request)?;
    let output = match args.output {
        PathFormat::Text => text::write_text(&report),
        PathFormat::Json => json::write_json(&report),
    };
    write_stdout(output.as_bytes())?;
    Ok(if report.found() {
        ExitStatus::Success
    } else {
        ExitStatus::Failure
    })
}
