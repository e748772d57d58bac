//! Catalogs read from git's objects: `REV:PATH` names the directory PATH as it is at
//! revision REV of the repository around the working directory. Files are listed with
//! `git ls-tree` and read with `git cat-file --batch`; nothing is checked out. The
//! walk order and `.indexignore` rules are those of a directory (spec §1.1), and
//! files are named `REV:PATH/FILE` in locations and errors.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use rayon::prelude::*;

use super::walk::{self, Entry};
use super::{Catalog, LoadError, LoadErrors};

/// A catalog directory at a git revision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct GitPath {
    pub(crate) revision: String,
    pub(crate) path: String,
}

impl GitPath {
    /// `REV:PATH` when REV names a commit of the repository around the working
    /// directory; `None` for anything else (a directory, an image reference).
    pub(crate) fn parse(reference: &str) -> Option<Self> {
        let (revision, path) = reference.split_once(':')?;
        if revision.is_empty() || Path::new(reference).exists() {
            return None;
        }
        let commit = format!("{revision}^{{commit}}");
        let known = Command::new("git")
            .args(["rev-parse", "--verify", "--quiet", &commit])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|status| status.success());
        known.then(|| Self {
            revision: revision.to_owned(),
            path: path.trim_end_matches('/').to_owned(),
        })
    }

    /// For a reference that reads as `REV:PATH` with a PATH of the working tree but
    /// a REV git does not know (`HEAD~5O:catalog`), the error saying so; `None` for
    /// anything else (a directory, an image reference).
    pub(crate) fn unknown_revision(reference: &str) -> Option<GitError> {
        let (revision, path) = reference.split_once(':')?;
        if revision.is_empty() || path.is_empty() || Path::new(reference).exists() {
            return None;
        }
        let top = Command::new("git")
            .args(["rev-parse", "--show-toplevel"])
            .stderr(Stdio::null())
            .output()
            .ok()
            .filter(|output| output.status.success())?;
        let top = PathBuf::from(OsStr::from_bytes(top.stdout.trim_ascii_end()));
        let in_tree = top.join(path).exists() || Path::new(path).exists();
        in_tree.then(|| GitError::UnknownRevision {
            reference: reference.to_owned(),
            revision: revision.to_owned(),
        })
    }

    fn tree(&self) -> String {
        format!("{}:{}", self.revision, self.path)
    }
}

impl std::fmt::Display for GitPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.tree())
    }
}

#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub(crate) enum GitError {
    #[error("{reference}: git {command} failed: {message}")]
    #[diagnostic(
        code(fbc::git::command),
        help("REV:PATH reads PATH (from the repository's top) at revision REV with git")
    )]
    Command {
        reference: String,
        command: &'static str,
        message: String,
    },

    #[error("{reference}: git knows no revision {revision:?}")]
    #[diagnostic(
        code(fbc::git::unknown_revision),
        help(
            "REV:PATH reads PATH at revision REV (a commit, branch or tag: `git log --oneline` lists them)"
        )
    )]
    UnknownRevision { reference: String, revision: String },

    #[error("{reference} is not a directory at that revision")]
    #[diagnostic(code(fbc::git::not_a_directory))]
    NotADirectory { reference: String },

    #[error("{}: {kind} cannot be read from git's objects", crate::text::shown::path(.path, crate::text::shown::Form::Text))]
    #[diagnostic(
        code(fbc::git::unsupported),
        help(
            "a checkout would hold something opm reads differently; compare checked-out directories instead"
        )
    )]
    Unsupported { path: PathBuf, kind: &'static str },

    #[error(transparent)]
    #[diagnostic(transparent)]
    Load(#[from] LoadErrors),
}

/// One blob of the tree.
struct Blob {
    object: String,
    size: Option<u64>,
}

impl Blob {
    /// Refuses a blob larger than the file-size limit, as a file on disk is refused.
    fn within_limit(&self, path: &Path) -> Result<(), LoadError> {
        let limit = crate::files::limits::get().max_file_size;
        match self.size {
            Some(size) if size > limit => Err(LoadError::TooLarge {
                path: path.to_path_buf(),
                limit,
            }),
            _ => Ok(()),
        }
    }
}

/// Loads the catalog at `source`, as [`super::load_directory`] loads a directory.
pub(crate) fn load(source: &GitPath) -> Result<Catalog, GitError> {
    let reference = source.tree();
    let failed = |command: &'static str, message: String| GitError::Command {
        reference: reference.clone(),
        command,
        message,
    };
    let kind = run(&["cat-file", "-t", &reference]).map_err(|m| failed("cat-file", m))?;
    if kind.trim_ascii() != b"tree" {
        return Err(GitError::NotADirectory { reference });
    }
    // Without `--full-tree`, ls-tree started in a subdirectory lists only the
    // entries under that subdirectory's name: an empty catalog.
    let listing = run(&["ls-tree", "--full-tree", "-r", "-z", "--long", &reference])
        .map_err(|m| failed("ls-tree", m))?;
    let root = PathBuf::from(&reference);
    let mut entries = Vec::new();
    let mut blobs: HashMap<PathBuf, Blob> = HashMap::new();
    for record in listing.split(|&byte| byte == 0).filter(|r| !r.is_empty()) {
        let (entry, blob) = parse_record(&root, record)?;
        blobs.insert(root.join(&entry.path), blob);
        entries.push(entry);
    }
    // Git sorts a directory as its name followed by `/`; a walk sorts names.
    entries.sort_by(|a, b| a.path.components().cmp(b.path.components()));
    let read_one = |path: &Path| {
        let blob = &blobs[path];
        blob.within_limit(path)?;
        run(&["cat-file", "blob", &blob.object]).map_err(|message| LoadError::Io {
            path: path.to_path_buf(),
            error: std::io::Error::other(message),
        })
    };
    let files = walk::select(entries, &root, read_one).map_err(|error| LoadErrors {
        root: root.clone(),
        errors: vec![error],
    })?;
    let paths: Vec<PathBuf> = files.iter().map(|file| root.join(file)).collect();
    let contents = read_blobs(&paths, &blobs).map_err(|m| failed("cat-file --batch", m))?;
    let loaded: Vec<Result<Catalog, LoadError>> = paths
        .par_iter()
        .zip(contents)
        .map(|(path, bytes)| bytes.and_then(|bytes| super::decode_bytes(path, bytes)))
        .collect();
    Ok(super::gather(&root, loaded)?)
}

/// `<mode> <type> <object> <size>\t<path>` of `ls-tree --long`.
fn parse_record(root: &Path, record: &[u8]) -> Result<(Entry, Blob), GitError> {
    let malformed = || GitError::Command {
        reference: root.display().to_string(),
        command: "ls-tree",
        message: format!("unexpected output {:?}", String::from_utf8_lossy(record)),
    };
    let tab = record
        .iter()
        .position(|&b| b == b'\t')
        .ok_or_else(malformed)?;
    let header = std::str::from_utf8(&record[..tab]).map_err(|_| malformed())?;
    let path = PathBuf::from(OsStr::from_bytes(&record[tab + 1..]));
    let mut fields = header.split_ascii_whitespace();
    let (Some(mode), Some(_), Some(object), Some(size)) =
        (fields.next(), fields.next(), fields.next(), fields.next())
    else {
        return Err(malformed());
    };
    let kind = match mode {
        "100644" | "100755" => None,
        "120000" => Some("a symbolic link"),
        "160000" => Some("a submodule"),
        _ => Some("an entry of unknown mode"),
    };
    if let Some(kind) = kind {
        return Err(GitError::Unsupported {
            path: root.join(&path),
            kind,
        });
    }
    let entry = Entry {
        relative: String::from_utf8_lossy(&record[tab + 1..]).into_owned(),
        path,
    };
    let blob = Blob {
        object: object.to_owned(),
        size: size.parse().ok(),
    };
    Ok((entry, blob))
}

/// The contents of the blobs at `paths`, each within the file-size limit, through
/// one `git cat-file --batch`.
fn read_blobs(
    paths: &[PathBuf],
    blobs: &HashMap<PathBuf, Blob>,
) -> Result<Vec<Result<Vec<u8>, LoadError>>, String> {
    let mut wanted = Vec::new();
    let mut contents: Vec<Result<Vec<u8>, LoadError>> = Vec::with_capacity(paths.len());
    for path in paths {
        let blob = &blobs[path];
        if let Err(error) = blob.within_limit(path) {
            contents.push(Err(error));
        } else {
            wanted.push((contents.len(), blob.object.clone()));
            contents.push(Ok(Vec::new()));
        }
    }
    if wanted.is_empty() {
        return Ok(contents);
    }
    let mut child = Command::new("git")
        .args(["cat-file", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| error.to_string())?;
    let stdin = child.stdin.take().expect("stdin is piped");
    let objects: Vec<String> = wanted.iter().map(|(_, object)| object.clone()).collect();
    let writer = std::thread::spawn(move || {
        let mut stdin = std::io::BufWriter::new(stdin);
        for object in objects {
            if writeln!(stdin, "{object}").is_err() {
                return;
            }
        }
        let _ = stdin.flush();
    });
    let mut reader = BufReader::new(child.stdout.take().expect("stdout is piped"));
    let mut header = String::new();
    for (index, object) in &wanted {
        header.clear();
        reader
            .read_line(&mut header)
            .map_err(|error| error.to_string())?;
        let size: usize = header
            .trim_end()
            .strip_prefix(object.as_str())
            .and_then(|rest| rest.strip_prefix(" blob "))
            .and_then(|size| size.parse().ok())
            .ok_or_else(|| format!("unexpected answer {header:?} for {object}"))?;
        let mut bytes = vec![0; size + 1];
        reader
            .read_exact(&mut bytes)
            .map_err(|error| error.to_string())?;
        bytes.pop();
        contents[*index] = Ok(bytes);
    }
    let _ = writer.join();
    let _ = child.wait();
    Ok(contents)
}

/// Runs git, returning its standard output, or its standard error as the message.
fn run(args: &[&str]) -> Result<Vec<u8>, String> {
    let output = Command::new("git")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|error| format!("cannot run git: {error}"))?;
    if output.status.success() {
        Ok(output.stdout)
    } else {
        Err(String::from_utf8_lossy(&output.stderr).trim().to_owned())
    }
}
