//! `fbc render`: load each reference, apply opm's post-processing, and write every
//! blob in opm's order and format on stdout.

use std::path::{Path, PathBuf};

use crate::ExitStatus;
use crate::catalog::{self, Catalog};
use crate::cli::{OutputFormat, RenderArgs};
use crate::model::property::{BUNDLE_OBJECT, CSV_METADATA};
use crate::output::catalog::{Format, WriteError, write_catalog};

/// What `render` was asked to do, free of clap.
struct Settings {
    references: Vec<PathBuf>,
    format: Format,
}

#[derive(Debug, thiserror::Error, miette::Diagnostic)]
enum RenderError {
    #[error(transparent)]
    #[diagnostic(transparent)]
    Load(#[from] catalog::LoadErrors),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Access(#[from] catalog::LoadError),
    #[error("render reference {}: bundle directories are not supported yet", crate::go::fmt::quote(&reference.display().to_string()))]
    #[diagnostic(
        code(fbc::render::bundle_directory),
        help("render the bundle with `opm render` for now")
    )]
    BundleDirectory { reference: PathBuf },
}

pub(crate) fn run(args: &RenderArgs) -> miette::Result<ExitStatus> {
    let settings = Settings {
        references: args.references.clone(),
        format: match args.output {
            OutputFormat::Json => Format::Json,
            OutputFormat::Yaml => Format::Yaml,
        },
    };
    let mut combined = Catalog::default();
    for reference in &settings.references {
        let mut part = render_reference(reference)?;
        post_process(&mut part);
        combined.extend(part);
    }
    let stdout = std::io::stdout();
    match write_catalog(&combined, settings.format, &mut stdout.lock()) {
        Ok(()) => Ok(ExitStatus::Success),
        // A reader that stops early (`fbc render | head`) is not an error.
        Err(WriteError::Io(error)) if error.kind() == std::io::ErrorKind::BrokenPipe => {
            Ok(ExitStatus::Success)
        }
        Err(error) => Err(error.into()),
    }
}

fn render_reference(reference: &Path) -> Result<Catalog, RenderError> {
    catalog::require_directory(reference)?;
    if reference.join("manifests").is_dir() && reference.join("metadata").is_dir() {
        return Err(RenderError::BundleDirectory {
            reference: reference.to_path_buf(),
        });
    }
    Ok(catalog::load_directory(reference)?)
}

/// opm's per-reference post-processing: bundle objects and CSV metadata move to the
/// end of each bundle's properties, and related images are sorted by image.
fn post_process(catalog: &mut Catalog) {
    for bundle in &mut catalog.bundles {
        let bundle = &mut bundle.item;
        bundle.properties.sort_by_key(|property| {
            property.kind == BUNDLE_OBJECT || property.kind == CSV_METADATA
        });
        bundle.related_images.sort_by(|a, b| a.image.cmp(&b.image));
    }
}
