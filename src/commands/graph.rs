//! `fbc graph` and `fbc alpha render-graph`: load catalog directories and catalog
//! images as `opm render` does, choose the channels to draw, and write mermaid
//! (opm's text), dot or JSON.

use std::path::PathBuf;

use crate::ExitStatus;
use crate::cli::{GraphArgs, GraphFormat, RegistryArgs, RenderGraphArgs};
use crate::go::fmt::quote;
use crate::graph::deprecations::Deprecations;
use crate::graph::error::GraphError;
use crate::graph::selection::{Filters, select};
use crate::graph::{dot, json, mermaid, svg};

/// What to draw, free of clap.
struct Settings {
    references: Vec<PathBuf>,
    format: GraphFormat,
    filters: Filters,
    draw_v0_semantics: bool,
    /// `fbc graph` refuses a package the catalog lacks; opm's render-graph draws
    /// an empty graph for it.
    known_package: bool,
}

#[derive(Debug, thiserror::Error, miette::Diagnostic)]
enum GraphCommandError {
    #[error("package {} is not in the catalog", quote(.package))]
    #[diagnostic(
        code(fbc::graph::unknown_package),
        help("`fbc alpha list packages DIR` lists the catalog's packages")
    )]
    UnknownPackage { package: String },
    #[error(transparent)]
    #[diagnostic(transparent)]
    Graph(#[from] GraphError),
}

pub(crate) fn run(args: &GraphArgs) -> miette::Result<ExitStatus> {
    draw(
        &args.registry,
        &Settings {
            references: args.references.clone(),
            format: args.output,
            filters: Filters {
                minimum_edge: args.filters.minimum_edge.clone(),
                package: args.filters.package.clone(),
            },
            draw_v0_semantics: args.filters.draw_v0_semantics,
            known_package: true,
        },
    )
}

pub(crate) fn run_render_graph(args: &RenderGraphArgs) -> miette::Result<ExitStatus> {
    draw(
        &args.registry,
        &Settings {
            references: args.references.clone(),
            format: GraphFormat::Mermaid,
            filters: Filters {
                minimum_edge: args.minimum_edge.clone(),
                package: args.package_name.clone(),
            },
            draw_v0_semantics: args.draw_v0_semantics,
            known_package: false,
        },
    )
}

fn draw(registry: &RegistryArgs, settings: &Settings) -> miette::Result<ExitStatus> {
    let catalog = crate::source::catalogs(&settings.references, super::pull_options(registry)?)?;
    let package = &settings.filters.package;
    if settings.known_package
        && !package.is_empty()
        && !catalog.packages.iter().any(|p| p.item.name == *package)
        && !catalog.channels.iter().any(|c| c.item.package == *package)
    {
        return Err(GraphCommandError::UnknownPackage {
            package: package.clone(),
        }
        .into());
    }
    let selection = select(&catalog, &settings.filters).map_err(GraphCommandError::from)?;
    let deprecations = Deprecations::new(&catalog.deprecations);
    let mut warnings = Vec::new();
    let drawn = match settings.format {
        GraphFormat::Mermaid => {
            let drawn = mermaid::write_mermaid(
                &selection,
                &deprecations.name_sets(),
                settings.draw_v0_semantics,
            );
            warnings = drawn.warnings;
            Drawn::Text(drawn.text)
        }
        GraphFormat::Dot => Drawn::Text(dot::write_dot(
            &selection,
            &deprecations,
            settings.draw_v0_semantics,
            &mut warnings,
        )),
        GraphFormat::Svg => Drawn::Text(svg::write_svg(
            &selection,
            &deprecations,
            settings.draw_v0_semantics,
            &mut warnings,
        )),
        GraphFormat::Json => Drawn::Json(json::graph(
            &selection,
            &catalog,
            &deprecations,
            &mut warnings,
        )),
    };
    for warning in warnings {
        eprintln!("{warning}");
    }
    match drawn {
        Drawn::Text(text) => Ok(super::print(text.as_bytes())?),
        Drawn::Json(graph) => {
            // Serialized as it is written: the report is several times the catalog.
            super::stream_stdout(|out| json::write_json(&graph, out))
                .and_then(|written| written)
                .map_err(super::StdoutError)?;
            Ok(ExitStatus::Success)
        }
    }
}

/// A graph ready to be written.
enum Drawn<'a> {
    Text(String),
    Json(json::Graph<'a>),
}
