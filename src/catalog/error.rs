//! Errors raised while reading catalog directories and files.

use std::path::PathBuf;
use std::sync::Arc;

use miette::{NamedSource, SourceSpan};

#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub(crate) enum LoadError {
    /// opm's message for a file it cannot load, located in the file.
    #[error("{message}")]
    #[diagnostic(code(fbc::catalog::invalid_file))]
    InvalidFile {
        message: String,
        path: PathBuf,
        line: usize,
        column: usize,
        #[source_code]
        source_code: NamedSource<Arc<str>>,
        #[label("here")]
        at: SourceSpan,
        #[help]
        help: Option<String>,
    },

    #[error("{}: the file is not valid UTF-8 at line {line}, column {column}", crate::text::shown::path(.path, crate::text::shown::Form::Text))]
    #[diagnostic(
        code(fbc::catalog::invalid_utf8),
        help(
            "opm would silently replace the bytes with U+FFFD and change the data; save the file as UTF-8"
        )
    )]
    InvalidUtf8 {
        path: PathBuf,
        line: usize,
        column: usize,
    },

    /// The I/O error is the message, not a cause: miette would print it twice.
    #[error("{}: {error}", crate::text::shown::path(.path, crate::text::shown::Form::Text))]
    #[diagnostic(code(fbc::catalog::io))]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },

    #[error("{}: not a regular file", crate::text::shown::path(.path, crate::text::shown::Form::Text))]
    #[diagnostic(
        code(fbc::catalog::special_file),
        help(
            "catalog directories hold regular files only; remove it or list it in an `.indexignore`"
        )
    )]
    SpecialFile { path: PathBuf },

    #[error("{}: a symbolic link to a directory cannot be read as a catalog file", crate::text::shown::path(.path, crate::text::shown::Form::Text))]
    #[diagnostic(
        code(fbc::catalog::directory_link),
        help(
            "opm fails with `read <path>: is a directory` here; list it in an `.indexignore` or replace the link"
        )
    )]
    DirectoryLink { path: PathBuf },

    /// A reference that does not exist but can be an image: `render` and `graph`
    /// pull it, `validate` (directories only, as opm's) reports it with opm's text.
    #[error("stat {}: no such file or directory", crate::text::shown::path(.reference, crate::text::shown::Form::Text))]
    #[diagnostic(
        code(fbc::catalog::missing),
        help(
            "`fbc validate` reads catalog directories, as `opm validate` does; to check a catalog image, render it into a directory first: `mkdir catalog && fbc render IMAGE > catalog/catalog.json`"
        )
    )]
    ImageReference { reference: PathBuf },

    #[error("{}: the file is larger than {}", crate::text::shown::path(.path, crate::text::shown::Form::Text), crate::files::limits::show_size(*.limit))]
    #[diagnostic(
        code(fbc::catalog::too_large),
        help("set FBC_MAX_FILE_SIZE (for example FBC_MAX_FILE_SIZE=2GiB) to read larger files")
    )]
    TooLarge { path: PathBuf, limit: u64 },

    #[error(
        "{}: out of memory: reading a file of {} may need about {}, more than is left of the address space fbc may use ({})",
        crate::text::shown::path(.path, crate::text::shown::Form::Text),
        crate::files::limits::rounded_size(*.size),
        crate::files::limits::rounded_size(*.needed),
        crate::files::limits::rounded_size(*.limit)
    )]
    #[diagnostic(
        code(fbc::catalog::out_of_memory),
        help("raise the limit (`ulimit -v`), or split the file")
    )]
    OutOfMemory {
        path: PathBuf,
        size: u64,
        needed: u64,
        limit: u64,
    },

    #[error("{}: bufio.Scanner: token too long", crate::text::shown::path(.path, crate::text::shown::Form::Text))]
    #[diagnostic(
        code(fbc::catalog::ignore_line_too_long),
        help("opm reads `.indexignore` lines of at most 65535 bytes; split the line")
    )]
    IgnoreLineTooLong { path: PathBuf },

    /// opm's words: `validate` takes a directory; `render` and the graph commands
    /// take directories or image references, and say so per reference.
    #[error("{}", not_a_directory(path, *reference))]
    #[diagnostic(
        code(fbc::catalog::not_a_directory),
        help("give the directory that holds the catalog (or the bundle's directory)")
    )]
    NotADirectory { path: PathBuf, reference: bool },

    /// A path that does not exist and cannot be an image reference either.
    #[error("stat {}: no such file or directory", crate::text::shown::path(.path, crate::text::shown::Form::Text))]
    #[diagnostic(code(fbc::catalog::not_found), help("{hint}"))]
    NotFound {
        path: PathBuf,
        hint: super::missing::Hint,
    },
}

impl LoadError {
    /// The file the error is about, and the 1-based line and column where known.
    pub(crate) fn position(&self) -> (&std::path::Path, Option<(usize, usize)>) {
        match self {
            Self::InvalidFile {
                path, line, column, ..
            }
            | Self::InvalidUtf8 { path, line, column } => (path, Some((*line, *column))),
            Self::Io { path, .. }
            | Self::SpecialFile { path }
            | Self::DirectoryLink { path }
            | Self::TooLarge { path, .. }
            | Self::OutOfMemory { path, .. }
            | Self::IgnoreLineTooLong { path }
            | Self::NotADirectory { path, .. }
            | Self::NotFound { path, .. } => (path, None),
            Self::ImageReference { reference } => (reference, None),
        }
    }

    /// What errors of the same kind share: the message without the quoted document
    /// it is about.
    fn kind(&self) -> String {
        let message = self.message();
        match (message.find(" '"), message.rfind("' ")) {
            (Some(start), Some(end)) if start < end => {
                format!("{} '…'{}", &message[..start], &message[end + 1..])
            }
            _ => message,
        }
    }

    /// The message as one line of text, without the file name where the
    /// position already carries it.
    pub(crate) fn message(&self) -> String {
        match self {
            Self::InvalidFile { message, .. } => message.clone(),
            other => other.to_string(),
        }
    }
}

fn not_a_directory(path: &std::path::Path, reference: bool) -> String {
    let path = crate::go::fmt::quote(&crate::text::shown::path(
        path,
        crate::text::shown::Form::Text,
    ));
    if reference {
        format!("render reference {path}: ref {path} is not a directory: not allowed")
    } else {
        format!("{path} is not a directory")
    }
}

/// Every file that could not be loaded, sorted by path. A terminal report shows a
/// few of each kind of error (a folder of bundle directories fails every file the
/// same way); machine formats take them all from `errors`.
#[derive(Debug, thiserror::Error)]
#[error("{}: {} could not be loaded", crate::text::shown::path(.root, crate::text::shown::Form::Text), describe(.errors.len()))]
pub(crate) struct LoadErrors {
    pub(crate) root: PathBuf,
    pub(crate) errors: Vec<LoadError>,
}

/// Errors of one kind shown before the rest are counted instead.
const SHOWN_PER_KIND: usize = 3;

impl LoadErrors {
    /// The errors a report shows, and how many more of the same kinds it leaves out.
    fn shown(&self) -> (Vec<&LoadError>, usize) {
        let mut per_kind: std::collections::HashMap<String, usize> =
            std::collections::HashMap::new();
        let mut shown = Vec::new();
        for error in &self.errors {
            let count = per_kind.entry(error.kind()).or_default();
            *count += 1;
            if *count <= SHOWN_PER_KIND {
                shown.push(error);
            }
        }
        let hidden = self.errors.len() - shown.len();
        (shown, hidden)
    }

    /// The bundle directories the failing files sit in, at or below the root.
    fn bundle_directories(&self) -> Vec<&std::path::Path> {
        let mut found: Vec<&std::path::Path> = self
            .errors
            .iter()
            .filter_map(|error| {
                error
                    .position()
                    .0
                    .ancestors()
                    .take_while(|dir| dir.starts_with(&self.root))
                    .find(|dir| super::is_bundle_directory(dir))
            })
            .collect();
        found.dedup();
        found
    }
}

impl miette::Diagnostic for LoadErrors {
    fn code<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        Some(Box::new("fbc::catalog::load"))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        let mut lines = Vec::new();
        let inside = self.root.parent().filter(|parent| {
            let part = self.root.file_name().and_then(|name| name.to_str());
            matches!(part, Some("manifests" | "metadata")) && super::is_bundle_directory(parent)
        });
        if let Some(bundle) = inside {
            let text = |dir: &std::path::Path| {
                crate::text::shown::path(dir, crate::text::shown::Form::Text)
            };
            lines.push(format!(
                "{} is part of the bundle directory {}: render the bundle with `fbc render {}`",
                text(&self.root),
                text(bundle),
                text(bundle)
            ));
        }
        let (_, hidden) = self.shown();
        if hidden > 0 {
            lines.push(format!(
                "{hidden} more file(s) fail in the same ways and are not shown \
                 (`fbc validate -o json` lists every one)"
            ));
        }
        let bundles = self.bundle_directories();
        if !bundles.is_empty() {
            let text = |dir: &std::path::Path| {
                crate::text::shown::path(dir, crate::text::shown::Form::Text)
            };
            let mut named: Vec<String> = bundles.iter().take(4).map(|dir| text(dir)).collect();
            if bundles.len() > named.len() {
                named.push("...".to_owned());
            }
            lines.push(format!(
                "{} bundle director{} here, not catalog files: render {} with `fbc render {}`",
                bundles.len(),
                if bundles.len() == 1 {
                    "y is"
                } else {
                    "ies are"
                },
                if bundles.len() == 1 { "it" } else { "them" },
                named.join(" ")
            ));
        }
        (!lines.is_empty()).then(|| Box::new(lines.join("\n")) as Box<dyn std::fmt::Display>)
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        let (shown, _) = self.shown();
        Some(Box::new(
            shown
                .into_iter()
                .map(|error| error as &dyn miette::Diagnostic),
        ))
    }
}

fn describe(count: usize) -> String {
    if count == 1 {
        "1 catalog file".to_owned()
    } else {
        format!("{count} catalog files")
    }
}
