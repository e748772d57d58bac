//! `fbc generate dockerfile`: opm's Dockerfile for a catalog directory, written beside
//! it as `<dir>.Dockerfile` (never over an existing file) or printed on stdout.

mod labels;
mod text;
mod write;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::ExitStatus;
use crate::cli::{DEFAULT_IMAGE, DockerfileArgs, FBC_IMAGE, RuntimeArg};
use crate::go::fmt::quote;
use labels::{LabelError, parse_labels};
use text::{Dockerfile, Runtime};

/// Where the Dockerfile goes.
enum Destination {
    File(PathBuf),
    Stdout,
}

/// What `generate dockerfile` was asked to do, free of clap; images already resolved.
struct Settings {
    /// The catalog directory, cleaned as Go's `filepath.Clean` would.
    directory: PathBuf,
    runtime: Runtime,
    base_image: String,
    builder_image: String,
    extra_labels: BTreeMap<String, String>,
    destination: Destination,
}

#[derive(Debug, thiserror::Error, miette::Diagnostic)]
enum GenerateError {
    #[error("invalid builder image: {}", quote(image))]
    #[diagnostic(
        code(fbc::generate::scratch_builder),
        help(
            "the builder stage runs `serve --cache-only` to fill the cache, so it needs an image with /bin/opm (or /fbc with --runtime fbc); only the base image (`--base-image scratch`) can be `scratch`"
        )
    )]
    ScratchBuilder { image: String },

    #[error("{which} image is unset")]
    #[diagnostic(
        code(fbc::generate::empty_image),
        help(
            "name an image, or leave the flag out for the default ({DEFAULT_IMAGE}, or {FBC_IMAGE} with --runtime fbc)"
        )
    )]
    EmptyImage { which: &'static str },

    #[error(
        "invalid argument {} for \"-l, --extra-labels\" flag: {message}",
        quote(value)
    )]
    #[diagnostic(
        code(fbc::generate::label_syntax),
        help(
            "values are comma-separated; quote a whole label that holds a comma or a quote, doubling inner quotes: '\"key=a,b\"'"
        )
    )]
    LabelSyntax { value: String, message: String },

    #[error("invalid label {}", quote(label))]
    #[diagnostic(
        code(fbc::generate::invalid_label),
        help("labels have the form key=value")
    )]
    InvalidLabel { label: String },

    #[error("path {}: file already exists", quote(&path.display().to_string()))]
    #[diagnostic(
        code(fbc::generate::exists),
        help(
            "the Dockerfile is never overwritten: remove or rename it first, or choose another file with `--output` (`-` for stdout)"
        )
    )]
    Exists { path: PathBuf },

    #[error("stat {}: {}", path.display(), crate::go::fmt::os_error(error))]
    #[diagnostic(code(fbc::generate::io))]
    Stat {
        path: PathBuf,
        error: std::io::Error,
    },

    #[error("provided root path {} is not a directory", quote(&path.display().to_string()))]
    #[diagnostic(code(fbc::generate::not_a_directory))]
    NotADirectory { path: PathBuf },

    #[error("index directory is unset: {} has no name to add to the image", quote(&path.display().to_string()))]
    #[diagnostic(
        code(fbc::generate::no_name),
        help("name the catalog directory itself rather than the root")
    )]
    NoDirectoryName { path: PathBuf },

    #[error("directory name {} is not valid UTF-8", quote(&path.display().to_string()))]
    #[diagnostic(
        code(fbc::generate::non_utf8),
        help("rename the directory, since the Dockerfile names it")
    )]
    NonUtf8Name { path: PathBuf },

    #[error("write {}: {}", path.display(), crate::go::fmt::os_error(error))]
    #[diagnostic(code(fbc::generate::write), help("no file was left behind"))]
    Write {
        path: PathBuf,
        error: std::io::Error,
    },

    #[error("write <stdout>: {}", crate::go::fmt::os_error(error))]
    #[diagnostic(code(fbc::generate::stdout))]
    Stdout { error: std::io::Error },
}

/// Deprecation notice for `--binary-image`, opm's text as a warning.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("flag --binary-image has been deprecated, use --base-image instead")]
#[diagnostic(severity(Warning), code(fbc::generate::binary_image))]
struct BinaryImageDeprecated;

pub(crate) fn run(args: &DockerfileArgs) -> miette::Result<ExitStatus> {
    if args.binary_image.is_some() {
        crate::output::diagnostics::print_report(&miette::Report::new(BinaryImageDeprecated));
    }
    let settings = resolve(args)?;
    check_destination(&settings)?;
    let name = check_directory(&settings.directory)?;
    let text = Dockerfile {
        runtime: settings.runtime,
        builder_image: &settings.builder_image,
        base_image: &settings.base_image,
        directory_name: name,
        extra_labels: &settings.extra_labels,
    }
    .render();
    match &settings.destination {
        Destination::File(path) => {
            crate::files::atomic::create_new(path, text.as_bytes()).map_err(|error| {
                match error.kind() {
                    // Created by someone else since the check: still not ours to replace.
                    std::io::ErrorKind::AlreadyExists => {
                        GenerateError::Exists { path: path.clone() }
                    }
                    _ => GenerateError::Write {
                        path: path.clone(),
                        error,
                    },
                }
            })?;
            // opm says nothing; a user wants to know where the file went.
            eprintln!(
                "wrote {}",
                crate::text::shown::path(path, crate::text::shown::Form::Text)
            );
        }
        Destination::Stdout => print(&text)?,
    }
    Ok(ExitStatus::Success)
}

/// Flags to settings, checked in opm's order: the builder image, then the labels.
fn resolve(args: &DockerfileArgs) -> Result<Settings, GenerateError> {
    // `--binary-image` is the old `--base-image` and, unless `--builder-image` is given,
    // the builder too. opm checks for a `scratch` builder before that substitution and
    // so lets `--binary-image scratch` through; we check the builder actually used.
    let base_image = args
        .binary_image
        .clone()
        .or_else(|| args.base_image.clone());
    let (runtime, default_image) = match args.runtime {
        RuntimeArg::Opm => (Runtime::Opm, DEFAULT_IMAGE),
        RuntimeArg::Fbc => (Runtime::Fbc, FBC_IMAGE),
    };
    let base_image = base_image.unwrap_or_else(|| default_image.to_owned());
    let builder_image = args
        .builder_image
        .clone()
        .or_else(|| args.binary_image.clone());
    let builder_image = builder_image.unwrap_or_else(|| default_image.to_owned());
    if builder_image == "scratch" {
        return Err(GenerateError::ScratchBuilder {
            image: builder_image,
        });
    }
    for (which, image) in [("builder", &builder_image), ("base", &base_image)] {
        if image.is_empty() {
            return Err(GenerateError::EmptyImage { which });
        }
    }
    let extra_labels = parse_labels(&args.extra_labels).map_err(|error| match error {
        LabelError::Syntax { value, message } => GenerateError::LabelSyntax { value, message },
        LabelError::NoEquals { label } => GenerateError::InvalidLabel { label },
    })?;
    let directory = write::clean(&args.directory);
    let destination = match args.output.as_deref() {
        Some(path) if path == Path::new("-") => Destination::Stdout,
        Some(path) => Destination::File(path.to_path_buf()),
        None => match write::dockerfile_beside(&directory) {
            Some((path, _)) => Destination::File(path),
            None => return Err(GenerateError::NoDirectoryName { path: directory }),
        },
    };
    Ok(Settings {
        directory,
        runtime,
        base_image,
        builder_image,
        extra_labels,
        destination,
    })
}

/// An existing file (or link, even a broken one) at the destination stops everything.
fn check_destination(settings: &Settings) -> Result<(), GenerateError> {
    let Destination::File(path) = &settings.destination else {
        return Ok(());
    };
    match std::fs::symlink_metadata(path) {
        Ok(_) => Err(GenerateError::Exists { path: path.clone() }),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(error) => Err(GenerateError::Stat {
            path: path.clone(),
            error,
        }),
    }
}

/// The catalog directory must be one; its name is what the Dockerfile adds.
fn check_directory(directory: &Path) -> Result<&str, GenerateError> {
    match std::fs::metadata(directory) {
        Ok(metadata) if metadata.is_dir() => {}
        Ok(_) => {
            return Err(GenerateError::NotADirectory {
                path: directory.to_path_buf(),
            });
        }
        Err(error) => {
            return Err(GenerateError::Stat {
                path: directory.to_path_buf(),
                error,
            });
        }
    }
    let Some((_, name)) = write::dockerfile_beside(directory) else {
        return Err(GenerateError::NoDirectoryName {
            path: directory.to_path_buf(),
        });
    };
    name.to_str().ok_or_else(|| GenerateError::NonUtf8Name {
        path: directory.to_path_buf(),
    })
}

fn print(text: &str) -> Result<(), GenerateError> {
    super::write_stdout(text.as_bytes()).map_err(|error| GenerateError::Stdout { error })
}
