//! `fbc graph` and `fbc alpha render-graph`: load catalog directories and catalog
//! images as `opm render` does, choose the channels to draw, and write mermaid
//! (opm's text), dot or JSON.

use std::path::{Path, PathBuf};

use crate::ExitStatus;
use crate::catalog::{self, Catalog};
use crate::cli::{GraphArgs, GraphFormat, RegistryArgs, RenderGraphArgs};
use crate::go::fmt::quote;
use crate::graph::deprecations::Deprecations;
use crate::graph::error::GraphError;
use crate::graph::selection::{Filters, select};
use crate::graph::{dot, json, mermaid};
use crate::image::{self, ImageKind};

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
pub(crate) enum InputError {
    #[error(transparent)]
    #[diagnostic(transparent)]
    Load(#[from] catalog::LoadErrors),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Access(#[from] catalog::LoadError),
    #[error(
        "render reference {reference}: cannot render bundle directory {reference}: not allowed",
        reference = quote(&.reference.display().to_string())
    )]
    #[diagnostic(
        code(fbc::graph::bundle_directory),
        help("a graph is drawn from catalog directories; render the bundle into a catalog first")
    )]
    BundleDirectory { reference: PathBuf },
    #[error(
        "render reference {}: cannot render bundle image: not allowed",
        quote(reference)
    )]
    #[diagnostic(
        code(fbc::graph::bundle_image),
        help("a graph is drawn from catalog images; render the bundle into a catalog first")
    )]
    BundleImage { reference: String },
    #[error("render reference {}: {error}", quote(reference))]
    #[diagnostic(code(fbc::graph::image))]
    Image {
        reference: String,
        #[source]
        error: image::ImageError,
    },
    #[error("package {} is not in the catalog", quote(.package))]
    #[diagnostic(
        code(fbc::graph::unknown_package),
        help("`fbc alpha list packages DIR` lists the catalog's packages")
    )]
    UnknownPackage { package: String },
    #[error("invalid flag combination: {0}")]
    #[diagnostic(code(fbc::graph::flags))]
    Flags(&'static str),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Graph(#[from] GraphError),
    #[error("write <stdout>: {0}")]
    #[diagnostic(code(fbc::graph::write))]
    Write(std::io::Error),
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
    let catalog = load_references(&settings.references, registry)?;
    let package = &settings.filters.package;
    if settings.known_package
        && !package.is_empty()
        && !catalog.packages.iter().any(|p| p.item.name == *package)
        && !catalog.channels.iter().any(|c| c.item.package == *package)
    {
        return Err(InputError::UnknownPackage {
            package: package.clone(),
        }
        .into());
    }
    let selection = select(&catalog, &settings.filters).map_err(InputError::from)?;
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
        Drawn::Text(text) => write_stdout(text.as_bytes()),
        Drawn::Json(graph) => {
            // Serialized as it is written: the report is several times the catalog.
            super::stream_stdout(|out| json::write_json(&graph, out))
                .and_then(|written| written)
                .map_err(InputError::Write)?;
            Ok(ExitStatus::Success)
        }
    }
}

/// A graph ready to be written.
enum Drawn<'a> {
    Text(String),
    Json(json::Graph<'a>),
}

/// Writes the whole output; a reader that stops early (`| head`) is not an error.
pub(crate) fn write_stdout(bytes: &[u8]) -> miette::Result<ExitStatus> {
    super::write_stdout(bytes).map_err(InputError::Write)?;
    Ok(ExitStatus::Success)
}

/// Loads catalog directories and catalog images as `opm render` does for
/// `render-graph` (bundles are refused) and merges them in argument order.
pub(crate) fn load_references(
    references: &[PathBuf],
    registry: &RegistryArgs,
) -> Result<Catalog, InputError> {
    let pull = registry.pull_options().map_err(InputError::Flags)?;
    let mut combined = Catalog::default();
    for reference in references {
        combined.extend(load_reference(reference, pull)?);
    }
    Ok(combined)
}

fn load_reference(reference: &Path, pull: image::PullOptions) -> Result<Catalog, InputError> {
    match catalog::require_directory(reference, true) {
        Ok(()) => {}
        // opm takes what does not exist for an image reference.
        Err(catalog::LoadError::ImageReference { .. }) => {
            return load_image(&reference.to_string_lossy(), pull);
        }
        Err(error) => return Err(error.into()),
    }
    if catalog::is_bundle_directory(reference) {
        return Err(InputError::BundleDirectory {
            reference: reference.to_path_buf(),
        });
    }
    Ok(catalog::load_directory(reference)?)
}

fn load_image(reference: &str, pull: image::PullOptions) -> Result<Catalog, InputError> {
    let failed = |error| InputError::Image {
        reference: reference.to_owned(),
        error,
    };
    let pulled = image::pull(reference, pull).map_err(failed)?;
    match pulled.kind(reference).map_err(failed)? {
        ImageKind::Catalog(configs) => Ok(catalog::load_directory(&configs)?),
        ImageKind::Bundle => Err(InputError::BundleImage {
            reference: reference.to_owned(),
        }),
    }
}
