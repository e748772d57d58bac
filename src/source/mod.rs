//! What a command-line reference names, loaded: a catalog directory, a bundle
//! directory, a catalog or bundle image (also `oci:` and `docker-archive:`), or a
//! catalog at `REV:PATH` in git. Every command that reads catalogs comes here;
//! what it then does with a bundle (render it, refuse it) is its own business.

use std::path::{Path, PathBuf};

use crate::catalog::git::{self, GitError, GitPath};
use crate::catalog::{self, Catalog, LoadError, LoadErrors, Reuse};
use crate::go::fmt::quote;
use crate::image::{self, ImageError, ImageKind, PullOptions, PulledImage};

/// Why a reference could not be loaded.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub(crate) enum SourceError {
    #[error(transparent)]
    #[diagnostic(transparent)]
    Load(#[from] LoadErrors),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Access(#[from] LoadError),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Git(#[from] GitError),
    /// opm's refusal of a bundle where a catalog is wanted.
    #[error(
        "render reference {reference}: cannot render bundle directory {reference}: not allowed",
        reference = quote(&.reference.display().to_string())
    )]
    #[diagnostic(
        code(fbc::source::bundle_directory),
        help("this command reads catalogs; render the bundle into one first (`fbc render DIR`)")
    )]
    BundleDirectory { reference: PathBuf },
    #[error(
        "render reference {}: cannot render bundle image: not allowed",
        quote(reference)
    )]
    #[diagnostic(
        code(fbc::source::bundle_image),
        help("this command reads catalogs; render the bundle into one first (`fbc render REF`)")
    )]
    BundleImage { reference: String },
    #[error("render reference {}: {error}", quote(reference))]
    #[diagnostic(code(fbc::source::image))]
    Image {
        reference: String,
        #[source]
        error: ImageError,
    },
}

/// A reference found: what it names, ready to load.
pub(crate) enum Found {
    Catalog(PathBuf),
    Bundle(PathBuf),
    /// A pulled image: its catalog directory or bundle root lives as long as it.
    Image {
        pulled: PulledImage,
        kind: ImageKind,
    },
}

impl Found {
    /// The directory to read: the catalog's, or the bundle's.
    pub(crate) fn directory(&self) -> &Path {
        match self {
            Found::Catalog(path) | Found::Bundle(path) => path,
            Found::Image {
                kind: ImageKind::Catalog(configs),
                ..
            } => configs,
            Found::Image { pulled, .. } => pulled.root.path(),
        }
    }
}

/// Finds what a reference names, as opm classifies it: a path that does not
/// exist is an image reference; a directory with `manifests/` and `metadata/` is
/// a bundle; any other directory a catalog.
pub(crate) fn find(reference: &Path, pull: PullOptions) -> Result<Found, SourceError> {
    match require_directory(reference, true) {
        Ok(()) => {}
        Err(LoadError::ImageReference { .. }) => {
            let shown = reference.to_string_lossy();
            let failed = |error| SourceError::Image {
                reference: shown.clone().into_owned(),
                error,
            };
            let pulled = image::pull(&shown, pull).map_err(failed)?;
            let kind = pulled.kind(&shown).map_err(failed)?;
            return Ok(Found::Image { pulled, kind });
        }
        Err(error) => return Err(error.into()),
    }
    Ok(if catalog::is_bundle_directory(reference) {
        Found::Bundle(reference.to_path_buf())
    } else {
        Found::Catalog(reference.to_path_buf())
    })
}

/// Rejects a path that is not a directory; `reference` words the error as `render`
/// does for one of its references, otherwise as `validate` does.
pub(crate) fn require_directory(path: &Path, reference: bool) -> Result<(), LoadError> {
    match std::fs::metadata(path) {
        Ok(metadata) if metadata.is_dir() => Ok(()),
        Ok(_) => Err(LoadError::NotADirectory {
            path: path.to_path_buf(),
            reference,
        }),
        // opm takes any reference it cannot stat for an image; fbc only one that
        // can be an image, so that a mistyped path is reported as one.
        Err(source) if source.kind() == std::io::ErrorKind::NotFound => {
            if crate::image::could_be_image(&path.to_string_lossy()) {
                Err(LoadError::ImageReference {
                    reference: path.to_path_buf(),
                })
            } else {
                Err(LoadError::NotFound {
                    path: path.to_path_buf(),
                    hint: catalog::missing::hint(path, reference),
                })
            }
        }
        Err(error) => Err(LoadError::Io {
            path: path.to_path_buf(),
            error,
        }),
    }
}

/// The catalog a reference names (a directory or an image; a bundle is refused
/// in opm's words).
pub(crate) fn catalog(reference: &Path, pull: PullOptions) -> Result<Catalog, SourceError> {
    catalog_reusing(reference, pull, Reuse::Nothing)
}

/// [`catalog`], recording a catalog directory's documents in a memo or taking
/// them from it (`fbc diff` reads the documents its sides share once).
pub(crate) fn catalog_reusing(
    reference: &Path,
    pull: PullOptions,
    reuse: Reuse,
) -> Result<Catalog, SourceError> {
    match find(reference, pull)? {
        Found::Catalog(directory) => Ok(catalog::load_directory_reusing(&directory, reuse)?),
        Found::Bundle(reference) => Err(SourceError::BundleDirectory { reference }),
        Found::Image {
            kind: ImageKind::Catalog(configs),
            ..
        } => Ok(catalog::load_directory(&configs)?),
        Found::Image { .. } => Err(SourceError::BundleImage {
            reference: reference.to_string_lossy().into_owned(),
        }),
    }
}

/// The catalogs of several references, combined in argument order.
pub(crate) fn catalogs(references: &[PathBuf], pull: PullOptions) -> Result<Catalog, SourceError> {
    let mut combined = Catalog::default();
    for reference in references {
        combined.extend(catalog(reference, pull)?);
    }
    Ok(combined)
}

/// [`catalog`], or the directory PATH at revision REV of the repository around the
/// working directory for `REV:PATH` (when REV names a commit and no file of that
/// name exists).
pub(crate) fn catalog_or_revision(
    reference: &str,
    pull: PullOptions,
    reuse: Reuse,
) -> Result<Catalog, SourceError> {
    if let Some(source) = GitPath::parse(reference) {
        return Ok(git::load(&source, reuse)?);
    }
    if let Some(error) = GitPath::unknown_revision(reference) {
        return Err(error.into());
    }
    catalog_reusing(Path::new(reference), pull, reuse)
}
