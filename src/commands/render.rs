//! `fbc render`: load each reference (a catalog directory, or a bundle directory
//! rendered into one bundle), apply opm's post-processing and migrations, and write
//! every blob in opm's order and format on stdout.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::ExitStatus;
use crate::bundle::migrate::Migrations;
use crate::bundle::{self, BundleError, BundleImage, ImageTemplate};
use crate::catalog::{self, Catalog, Located, Location};
use crate::cli::{OutputFormat, RenderArgs};
use crate::go::fmt::quote;
use crate::image::{ImageKind, PullOptions};
use crate::model::property::BUNDLE_OBJECT;
use crate::output::catalog::Format;
use crate::source::Found;

/// What `render` was asked to do, free of clap.
struct Settings {
    references: Vec<PathBuf>,
    format: Format,
    template: Option<ImageTemplate>,
    migrations: Option<Migrations>,
    pull: PullOptions,
}

#[derive(Debug, thiserror::Error, miette::Diagnostic)]
enum RenderError {
    #[error(transparent)]
    #[diagnostic(transparent)]
    Load(#[from] catalog::LoadErrors),
    #[error("invalid image reference template: {message}")]
    #[diagnostic(code(fbc::render::template))]
    Template { message: String },
    #[error("{message}")]
    #[diagnostic(
        code(fbc::render::migrate_level),
        help("see `fbc render --help` for the available levels")
    )]
    MigrationLevel { message: String },
    #[error("render reference {}: {error}", quote(reference))]
    #[diagnostic(code(fbc::render::bundle))]
    Bundle {
        reference: String,
        error: BundleError,
        /// The file the error is about, when known: opm's message names none.
        #[source_code]
        file: Option<miette::NamedSource<String>>,
        #[label("in this document")]
        at: Option<miette::SourceSpan>,
    },
    #[error("migrate: {message}")]
    #[diagnostic(code(fbc::render::migrate))]
    Migrate { message: String },
    #[error(transparent)]
    #[diagnostic(transparent)]
    Flags(#[from] super::FlagsError),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Source(#[from] crate::source::SourceError),
}

fn settings(args: &RenderArgs) -> Result<Settings, RenderError> {
    let template = args
        .image_ref_template
        .as_deref()
        .map(ImageTemplate::parse)
        .transpose()
        .map_err(|message| RenderError::Template { message })?;
    let migrations = if args.migrate {
        Some(Migrations::all())
    } else {
        match args.migrate_level.as_deref() {
            None | Some("") => None,
            Some(level) => Some(
                Migrations::up_to(level)
                    .map_err(|message| RenderError::MigrationLevel { message })?,
            ),
        }
    };
    let pull = super::pull_options(&args.registry)?;
    Ok(Settings {
        references: args.references.clone(),
        format: match args.output {
            OutputFormat::Json => Format::Json,
            OutputFormat::Yaml => Format::Yaml,
        },
        template,
        migrations,
        pull,
    })
}

/// A reference without any blob: opm prints nothing and succeeds, but most often the
/// path is wrong.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("no catalog blob found in {}", crate::go::fmt::quote(.reference))]
#[diagnostic(severity(Warning), help("{}", crate::validate::EMPTY_HELP))]
struct EmptyCatalog {
    reference: String,
}

/// `--migrate` on bundles without an image: opm leaves their bundle objects in
/// place without a word (its migration needs the image), which surprises whoever
/// rendered a bundle directory to get `olm.csv.metadata`.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error(
    "{reference}: {count} bundle(s) without an image keep their olm.bundle.object \
     properties: opm migrates only bundles that have an image"
)]
#[diagnostic(
    severity(Warning),
    help(
        "give the bundle an image with --image-ref-template (opm: \
         --alpha-image-ref-template), e.g. --image-ref-template \
         'quay.io/example/{{{{.Package}}}}-bundle:v{{{{.Version}}}}'"
    )
)]
struct NotMigrated {
    reference: String,
    count: usize,
}

pub(crate) fn run(args: &RenderArgs) -> miette::Result<ExitStatus> {
    let settings = settings(args)?;
    // References are independent: render them in parallel, then combine them (and
    // report the first failure) in argument order, as opm does one after another.
    let parts: Vec<Result<Catalog, RenderError>> = settings
        .references
        .par_iter()
        .map(|reference| render_and_migrate(reference, &settings))
        .collect();
    let mut combined = Catalog::default();
    for (reference, part) in settings.references.iter().zip(parts) {
        let part = part?;
        if part.is_empty() {
            let warning = EmptyCatalog {
                reference: reference.to_string_lossy().into_owned(),
            };
            crate::output::diagnostics::print_report(&miette::Report::new(warning));
        }
        if settings
            .migrations
            .is_some_and(Migrations::replaces_objects)
        {
            let count = part
                .bundles
                .iter()
                .filter(|bundle| {
                    bundle.item.image.is_empty()
                        && bundle
                            .item
                            .properties
                            .iter()
                            .any(|p| p.kind == BUNDLE_OBJECT)
                })
                .count();
            if count > 0 {
                let warning = NotMigrated {
                    reference: reference.to_string_lossy().into_owned(),
                    count,
                };
                crate::output::diagnostics::print_report(&miette::Report::new(warning));
            }
        }
        combined.extend(part);
    }
    super::stream_catalog(&combined, settings.format)?;
    Ok(ExitStatus::Success)
}

/// One reference rendered, post-processed and migrated, as opm does per reference.
fn render_and_migrate(reference: &Path, settings: &Settings) -> Result<Catalog, RenderError> {
    let shown = reference.display().to_string();
    match crate::source::find(reference, settings.pull)? {
        Found::Catalog(directory) => render_catalog(&directory, settings),
        Found::Bundle(directory) => {
            let image = BundleImage::Template(settings.template.as_ref());
            render_bundle(&directory, &shown, image, settings)
        }
        found @ Found::Image {
            kind: ImageKind::Catalog(_),
            ..
        } => render_catalog(found.directory(), settings),
        found @ Found::Image { .. } => {
            let image = BundleImage::Reference(&shown);
            render_bundle(found.directory(), &shown, image, settings)
        }
    }
}

fn render_catalog(directory: &Path, settings: &Settings) -> Result<Catalog, RenderError> {
    let mut part = catalog::load_directory(directory)?;
    post_process(&mut part);
    if let Some(migrations) = settings.migrations {
        migrations
            .apply(&mut part)
            .map_err(|message| RenderError::Migrate { message })?;
    }
    Ok(part)
}

fn render_bundle(
    directory: &Path,
    shown: &str,
    image: BundleImage<'_>,
    settings: &Settings,
) -> Result<Catalog, RenderError> {
    let migrating = settings
        .migrations
        .is_some_and(Migrations::replaces_objects);
    let rendered = bundle::render_directory(directory, shown, image, migrating)
        .map_err(|error| bundle_error(shown, error))?;
    let mut part = Catalog::default();
    part.bundles.push(Located {
        item: rendered.bundle,
        location: Location::start_of(shown),
    });
    post_process(&mut part);
    if let Some(migrations) = settings.migrations {
        // The bundle's CSV is at hand: no need to decode it from its objects.
        let bundle = &mut part.bundles[0].item;
        migrations
            .apply_to_bundle(bundle, &rendered.csv)
            .map_err(|message| RenderError::Migrate { message })?;
    }
    Ok(part)
}

/// A bundle directory's error, located in the file it is about.
fn bundle_error(reference: &str, error: BundleError) -> RenderError {
    let file = error.file().map(|path| {
        // Only the start of the file is pointed at; unreadable text costs nothing.
        let text = crate::files::limits::read_file(path)
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .unwrap_or_default();
        miette::NamedSource::new(path.display().to_string(), text)
    });
    RenderError::Bundle {
        reference: reference.to_owned(),
        at: file.as_ref().map(|_| miette::SourceSpan::from(0..0)),
        file,
        error,
    }
}

/// opm's per-reference post-processing, bundle by bundle.
fn post_process(catalog: &mut Catalog) {
    for bundle in &mut catalog.bundles {
        bundle::post_process(&mut bundle.item);
    }
}
