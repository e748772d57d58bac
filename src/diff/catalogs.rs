//! Several catalogs in one diff: OLD NEW pairs, or each directory of a repository
//! against the same path at a git revision (`--base REV DIR...`). Catalogs are
//! taken one after the other, NEW then OLD (whose documents NEW also has are
//! taken from NEW's, not read again), each side's files read in parallel and the
//! packages compared in parallel, so memory holds one catalog's two sides at a
//! time; the revision's files are listed once and read through one git process.

use std::path::Path;

use crate::catalog::git::{Files, Revision};
use crate::catalog::{Catalog, Memo, Reuse};
use crate::graph::deprecations::Deprecations;
use crate::graph::upgrade::Semantics;
use crate::image::PullOptions;
use crate::source::SourceError;

use super::report::many::Many;
use super::{CatalogStatus as Status, Failed, Options, Rule, Totals};

/// Where OLD comes from.
pub(crate) enum Old {
    /// A directory, an image or `REV:PATH`, as `fbc diff OLD NEW` takes them.
    Reference(String),
    /// A path (from the repository's top) at the `--base` revision; absent when
    /// the revision has nothing there.
    Revision(String),
}

/// Where NEW comes from.
pub(crate) enum New {
    /// A directory, an image or `REV:PATH`, as `fbc diff OLD NEW` takes them.
    Reference(String),
    /// A directory of the working tree; absent when nothing is there.
    Directory(String),
}

/// Two sides to compare, with the names the report gives them.
pub(crate) struct Pair {
    pub(crate) old: Old,
    pub(crate) new: New,
    pub(crate) old_name: String,
    pub(crate) new_name: String,
    /// The git revisions the sides are read from (GitLab's paths drop them).
    pub(crate) revisions: Vec<String>,
}

impl Pair {
    /// What the comparison of this pair looks at.
    pub(crate) fn options<'s>(&self, settings: &Settings<'s>) -> Options<'s> {
        Options {
            old: self.old_name.clone(),
            new: self.new_name.clone(),
            semantics: settings.semantics.clone(),
            allow: settings.allow,
            revisions: self.revisions.clone(),
        }
    }
}

/// The settings every catalog is compared under.
pub(crate) struct Settings<'s> {
    pub(crate) semantics: Vec<Semantics>,
    pub(crate) allow: &'s [Rule],
    pub(crate) pull: PullOptions,
}

/// How the comparison of all catalogs went.
pub(crate) struct Outcome {
    /// Some catalog's change breaks installations.
    pub(crate) breaks: bool,
    /// The errors of the catalogs that could not be read, to be reported.
    pub(crate) errors: Vec<SourceError>,
}

/// Compares every pair in turn and adds each catalog's part to `many`.
pub(crate) fn compare_all(
    pairs: &[Pair],
    mut revision: Option<&mut Revision>,
    settings: &Settings,
    many: &mut Many,
) -> Result<Outcome, Failed> {
    let mut outcome = Outcome {
        breaks: false,
        errors: Vec::new(),
    };
    for pair in pairs {
        let revision = revision.as_deref_mut();
        let (old, new) = load_pair(
            || fetch(&pair.old, revision),
            |reuse| load_new(&pair.new, settings.pull, reuse),
            |fetched, reuse| match fetched? {
                Fetched::Files(files) => files
                    .map(|files| files.decode(reuse))
                    .transpose()
                    .map_err(SourceError::from),
                Fetched::Unread(reference) => {
                    crate::source::catalog_or_revision(reference, settings.pull, reuse).map(Some)
                }
            },
        );
        let options = pair.options(settings);
        let (old, new) = match (old, new) {
            (Ok(old), Ok(new)) => (old, new),
            (old, new) => {
                let errors: Vec<SourceError> =
                    [old.err(), new.err()].into_iter().flatten().collect();
                let message = errors
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("; ");
                outcome.errors.extend(errors);
                many.add(&options, &Status::Failed(message), None)?;
                continue;
            }
        };
        let (old, new) = match (old, new) {
            (Some(old), Some(new)) => (old, new),
            (None, Some(_)) => {
                many.add(&options, &Status::Added, None)?;
                continue;
            }
            (Some(_), None) => {
                many.add(&options, &Status::Removed, None)?;
                continue;
            }
            (None, None) => {
                let message = format!(
                    "neither {} nor {} holds a catalog",
                    pair.old_name, pair.new_name
                );
                many.add(&options, &Status::Failed(message), None)?;
                continue;
            }
        };
        let mut report = many.report()?;
        let totals = compare(&old, &new, &options, |package| {
            report.package(package, &options)
        })?;
        outcome.breaks |= totals.fails();
        let status = if totals.packages == 0 {
            Status::Unchanged
        } else {
            Status::Changed
        };
        many.add(&options, &status, Some((report, &totals)))?;
    }
    Ok(outcome)
}

/// Compares two catalogs, handing each differing package's report to `each`.
pub(crate) fn compare(
    old: &Catalog,
    new: &Catalog,
    options: &Options,
    each: impl FnMut(&super::PackageReport) -> std::io::Result<()>,
) -> Result<Totals, Failed> {
    let deprecations = (
        Deprecations::new(&old.deprecations),
        Deprecations::new(&new.deprecations),
    );
    super::compare(
        (old, new),
        (&deprecations.0, &deprecations.1),
        options,
        each,
    )
}

/// Loads both sides of a pair: NEW, remembering its YAML documents, while
/// `early` does what OLD needs no memo for (reading a revision's files from git);
/// then OLD, taking every document NEW had from the memo instead of reading it
/// again (a change leaves most documents as they were). Each side's files are
/// decoded in parallel. Returns OLD's and NEW's results.
pub(crate) fn load_pair<E: Send, T: Send>(
    early: impl FnOnce() -> E + Send,
    new: impl FnOnce(Reuse) -> T + Send,
    old: impl FnOnce(E, Reuse) -> T,
) -> (T, T) {
    let memo = Memo::default();
    let (early, new) = rayon::join(early, || new(Reuse::Record(&memo)));
    let old = old(early, Reuse::Recall(&memo));
    (old, new)
}

/// What is read of OLD before NEW is loaded.
enum Fetched<'p> {
    /// A `--base` revision's files (none when it has nothing at the path).
    Files(Option<Files>),
    /// Nothing: the reference is loaded afterwards.
    Unread(&'p str),
}

/// Reads OLD's files from the `--base` revision ahead of decoding them.
fn fetch<'p>(old: &'p Old, revision: Option<&mut Revision>) -> Result<Fetched<'p>, SourceError> {
    match old {
        Old::Revision(path) => {
            let revision = revision.expect("a --base revision is listed");
            Ok(Fetched::Files(revision.files(path)?))
        }
        Old::Reference(reference) => Ok(Fetched::Unread(reference)),
    }
}

/// NEW's catalog; `None` for a directory that holds nothing.
fn load_new(new: &New, pull: PullOptions, reuse: Reuse) -> Result<Option<Catalog>, SourceError> {
    match new {
        New::Reference(reference) => {
            crate::source::catalog_or_revision(reference, pull, reuse).map(Some)
        }
        New::Directory(directory) => {
            let path = Path::new(directory);
            if path.symlink_metadata().is_err() {
                return Ok(None);
            }
            crate::source::catalog_reusing(path, pull, reuse).map(Some)
        }
    }
}
