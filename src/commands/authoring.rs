//! `fbc alpha convert-template`, `fbc init` and `fbc alpha list`: read the input,
//! call the core, print the result; errors carry opm's message texts.

use std::path::Path;

use crate::ExitStatus;
use crate::catalog::LoadError;
use crate::cli::{
    BlobFormat, ConvertArgs, ConvertTemplateCommand, InitArgs, ListCommand, RegistryArgs,
};
use crate::go::fmt::{os_error, quote};
use crate::list::Listing;
use crate::output::catalog::{Format, write_catalog};
use crate::source::SourceError;
use crate::template::TemplateType;

/// An authoring command that could not run: opm's message.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("{message}")]
#[diagnostic(code(fbc::authoring))]
pub(crate) struct AuthoringError {
    message: String,
    #[help]
    help: Option<String>,
}

fn failed(message: impl Into<String>) -> AuthoringError {
    AuthoringError {
        message: message.into(),
        help: None,
    }
}

fn print(bytes: &[u8]) -> miette::Result<ExitStatus> {
    super::write_stdout(bytes)
        .map_err(|error| failed(format!("write <stdout>: {}", os_error(&error))))?;
    Ok(ExitStatus::Success)
}

/// The whole of a file (or stdin for `-`), as UTF-8 text.
fn read_text(path: &Path) -> Result<String, std::io::Error> {
    let read = if path == Path::new("-") {
        crate::files::limits::read_stdin()
    } else {
        crate::files::limits::read_file(path)
    };
    let bytes = read.map_err(|error| match error {
        crate::files::limits::ReadError::Io(error) => error,
        refused => std::io::Error::other(refused.to_string()),
    })?;
    String::from_utf8(bytes).map_err(|error| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "not valid UTF-8 at byte {}",
                error.utf8_error().valid_up_to()
            ),
        )
    })
}

pub(crate) fn convert_template(command: &ConvertTemplateCommand) -> miette::Result<ExitStatus> {
    let (kind, args): (TemplateType, &ConvertArgs) = match command {
        ConvertTemplateCommand::Basic(args) => (TemplateType::Basic, args),
        ConvertTemplateCommand::Substitutes(args) => (TemplateType::Substitutes, args),
    };
    let input = args.input.as_deref().unwrap_or(Path::new("-"));
    let name = if input == Path::new("-") {
        "-".to_owned()
    } else {
        input.display().to_string()
    };
    // opm drops the OS error here; fbc keeps opm's text and adds it.
    let text = match std::fs::metadata(input) {
        Ok(metadata) if metadata.is_dir() => {
            return Err(failed(format!("converting: read {name}: is a directory")).into());
        }
        _ => read_text(input).map_err(|error| {
            failed(format!(
                "unable to open input: {} ({})",
                quote(&name),
                os_error(&error)
            ))
        })?,
    };
    let bytes = crate::template::convert::convert(kind, &text, args.output == BlobFormat::Yaml)
        .map_err(|error| failed(format!("converting: {error}")))?;
    print(&bytes)
}

pub(crate) fn init(args: &InitArgs) -> miette::Result<ExitStatus> {
    // opm's texts for files that cannot be opened or read; fbc also refuses what
    // is not a regular file and stops at FBC_MAX_FILE_SIZE, as for every file.
    let open = |path: &Path, what: &str| {
        crate::files::limits::open_regular(path).map_err(|error| match error {
            crate::files::limits::ReadError::Io(error) => failed(format!(
                "open {what} file: open {}: {}",
                path.display(),
                os_error(&error)
            )),
            refused => failed(format!("open {what} file: {}: {refused}", path.display())),
        })
    };
    let icon_file = args
        .icon
        .as_deref()
        .map(|path| open(path, "icon").map(|file| (path, file)))
        .transpose()?;
    let description_file = args
        .description
        .as_deref()
        .map(|path| open(path, "description").map(|file| (path, file)))
        .transpose()?;
    let read = |(path, file): (&Path, std::fs::File), what: &str| {
        let expected = file.metadata().map_or(0, |metadata| metadata.len());
        crate::files::limits::read_limited(
            file,
            expected,
            crate::files::limits::get().max_file_size,
        )
        .map_err(|error| match error {
            crate::files::limits::ReadError::Io(error) => failed(format!(
                "read {what}: read {}: {}",
                path.display(),
                os_error(&error)
            )),
            refused => failed(format!("read {what}: {}: {refused}", path.display())),
        })
    };
    let description = description_file
        .map(|file| {
            let path = file.0;
            let bytes = read(file, "description")?;
            // opm would replace invalid bytes with U+FFFD on output.
            String::from_utf8(bytes).map_err(|_| {
                failed(format!(
                    "{}: the description is not valid UTF-8",
                    path.display()
                ))
            })
        })
        .transpose()?;
    let icon = icon_file
        .map(|file| {
            let path = file.0;
            let bytes = read(file, "icon")?;
            let media_type = crate::init::icon_media_type(&bytes).map_err(|message| {
                let mut error = failed(message);
                error.help = Some(format!(
                    "the icon (-i/--icon) {} is not an image: give a PNG, JPEG, GIF, SVG or \
                     another image file",
                    crate::text::shown::path(path, crate::text::shown::Form::Text)
                ));
                error
            })?;
            Ok::<_, AuthoringError>((bytes, media_type.to_owned()))
        })
        .transpose()?;
    let package = crate::init::package(&args.package, &args.default_channel, description, icon);
    let mut catalog = crate::catalog::Catalog::default();
    catalog.packages.push(crate::catalog::Located {
        item: package,
        location: crate::catalog::Location::start_of("<init>"),
    });
    let format = match args.output {
        BlobFormat::Json => Format::Json,
        BlobFormat::Yaml => Format::Yaml,
    };
    let mut bytes = Vec::new();
    write_catalog(&catalog, format, &mut bytes).map_err(|error| failed(error.to_string()))?;
    print(&bytes)
}

pub(crate) fn list(command: &ListCommand) -> miette::Result<ExitStatus> {
    let (listing, reference, package, registry): (Listing, &Path, Option<&str>, &RegistryArgs) =
        match command {
            ListCommand::Packages(args) => {
                (Listing::Packages, &args.reference, None, &args.registry)
            }
            ListCommand::Channels(args) => (
                Listing::Channels,
                &args.reference,
                args.package.as_deref(),
                &args.registry,
            ),
            ListCommand::Bundles(args) => (
                Listing::Bundles,
                &args.reference,
                args.package.as_deref(),
                &args.registry,
            ),
        };
    let catalog = match crate::source::catalog(reference, super::pull_options(registry)?) {
        Ok(catalog) => catalog,
        Err(
            SourceError::BundleDirectory { .. }
            | SourceError::BundleImage { .. }
            | SourceError::Access(LoadError::NotADirectory { .. }),
        ) => {
            let shown = reference.display().to_string();
            return Err(failed(format!("cannot list non-index {}", quote(&shown))).into());
        }
        Err(error) => return Err(error.into()),
    };
    let table = crate::list::list(&catalog, listing, package).map_err(failed)?;
    print(table.as_bytes())
}
