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

/// Checks that `revision` names a commit, for `--base REV`.
pub(crate) fn verify_revision(revision: &str) -> Result<(), GitError> {
    let commit = format!("{revision}^{{commit}}");
    run(&["rev-parse", "--verify", "--quiet", &commit])
        .map(drop)
        .map_err(|_| GitError::UnknownRevision {
            reference: format!("--base {revision}"),
            revision: revision.to_owned(),
        })
}

/// The path of each directory from the top of the repository around the working
/// directory, in git's terms: the path itself, never where a symbolic link
/// leads (a catalog replaced by a link to a renamed directory is compared with
/// what its own path held).
pub(crate) fn repository_paths(directories: &[String]) -> Result<Vec<String>, GitError> {
    let top = run(&["rev-parse", "--show-toplevel"]).map_err(|message| GitError::Command {
        reference: directories.join(" "),
        command: "rev-parse --show-toplevel",
        message,
    })?;
    let top = PathBuf::from(OsStr::from_bytes(top.trim_ascii_end()));
    let here = std::env::current_dir().ok();
    directories
        .iter()
        .map(|directory| {
            let outside = || GitError::Outside {
                directory: directory.clone(),
                top: top.clone(),
            };
            let absolute = lexical(&here.as_ref().ok_or_else(outside)?.join(directory));
            let relative = if let Ok(relative) = absolute.strip_prefix(&top) {
                relative.to_path_buf()
            } else {
                // A path through a link to the repository (`/tmp` to
                // `/private/tmp`): the links of its parent are followed, never its own.
                let (Some(parent), Some(name)) = (absolute.parent(), absolute.file_name()) else {
                    return Err(outside());
                };
                let parent = parent.canonicalize().map_err(|_| outside())?;
                parent
                    .join(name)
                    .strip_prefix(&top)
                    .map_err(|_| outside())?
                    .to_path_buf()
            };
            let relative = relative.to_str().ok_or_else(outside)?;
            Ok(if relative.is_empty() {
                ".".to_owned()
            } else {
                relative.to_owned()
            })
        })
        .collect()
}

/// `path` with `.` and `..` resolved by their names alone.
fn lexical(path: &Path) -> PathBuf {
    let mut resolved = PathBuf::new();
    for component in path.components() {
        match component {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                resolved.pop();
            }
            other => resolved.push(other),
        }
    }
    resolved
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

    #[error("{reference}: no such directory at that revision")]
    #[diagnostic(
        code(fbc::git::absent),
        help(
            "REV:PATH reads PATH from the repository's top; `git ls-tree REV` lists what REV holds"
        )
    )]
    Absent { reference: String },

    #[error("{directory}: outside the repository at {}", .top.display())]
    #[diagnostic(
        code(fbc::git::outside),
        help("--base compares directories of the repository around the working directory")
    )]
    Outside { directory: String, top: PathBuf },

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
    /// Refuses a blob larger than the file-size limit, or too large to decode
    /// under an address-space limit, as a file on disk is refused.
    fn within_limit(&self, path: &Path) -> Result<(), LoadError> {
        let limit = crate::files::limits::get().max_file_size;
        match self.size {
            Some(size) if size > limit => Err(LoadError::TooLarge {
                path: path.to_path_buf(),
                limit,
            }),
            Some(size) => super::room_to_decode(path, size),
            None => Ok(()),
        }
    }
}

/// Loads the catalog at `source`, as [`super::load_directory`] loads a directory.
pub(crate) fn load(source: &GitPath, reuse: super::Reuse) -> Result<Catalog, GitError> {
    let mut revision = Revision::list(&source.revision, std::slice::from_ref(&source.path))?;
    revision
        .catalog(&source.path, reuse)?
        .ok_or_else(|| GitError::Absent {
            reference: source.tree(),
        })
}

/// Catalog directories at one revision: their files listed with one `git ls-tree`
/// and read through one `git cat-file --batch`, however many catalogs are read.
pub(crate) struct Revision {
    name: String,
    /// Every blob under the listed paths, by its path from the repository's top.
    blobs: HashMap<PathBuf, Blob>,
    /// The same paths in git's order, with what ls-tree said of their kind.
    listing: Vec<(PathBuf, Option<&'static str>)>,
    batch: Option<Batch>,
}

impl Revision {
    /// Lists the files under `paths` (from the repository's top) at `revision`.
    pub(crate) fn list(revision: &str, paths: &[String]) -> Result<Revision, GitError> {
        let failed = |message| GitError::Command {
            reference: revision.to_owned(),
            command: "ls-tree",
            message,
        };
        let mut args = vec![
            "--literal-pathspecs",
            "ls-tree",
            "--full-tree",
            "-r",
            "-z",
            "--long",
            revision,
            "--",
        ];
        // The top itself is every path; a pathspec of "" would be refused.
        if !paths.iter().any(|path| is_top(path)) {
            args.extend(paths.iter().map(String::as_str));
        }
        let listing = run(&args).map_err(failed)?;
        let mut blobs = HashMap::new();
        let mut entries = Vec::new();
        for record in listing.split(|&byte| byte == 0).filter(|r| !r.is_empty()) {
            let (path, kind, blob) = parse_record(revision, record)?;
            blobs.insert(path.clone(), blob);
            entries.push((path, kind));
        }
        Ok(Revision {
            name: revision.to_owned(),
            blobs,
            listing: entries,
            batch: None,
        })
    }

    /// The catalog at `path` (from the repository's top), loaded as
    /// [`super::load_directory`] loads a directory; `None` when the revision has
    /// nothing at that path.
    pub(crate) fn catalog(
        &mut self,
        path: &str,
        reuse: super::Reuse,
    ) -> Result<Option<Catalog>, GitError> {
        self.files(path)?
            .map(|files| files.decode(reuse))
            .transpose()
    }

    /// The catalog files at `path` (from the repository's top) read from git, to
    /// be decoded later; `None` when the revision has nothing at that path.
    pub(crate) fn files(&mut self, path: &str) -> Result<Option<Files>, GitError> {
        let path = path.trim_end_matches('/');
        let reference = format!("{}:{path}", self.name);
        let root = PathBuf::from(&reference);
        let prefix = if is_top(path) {
            String::new()
        } else {
            format!("{path}/")
        };
        let mut entries = Vec::new();
        for (full, kind) in &self.listing {
            let full_text = full.to_string_lossy();
            if !is_top(path) && full_text == path {
                return Err(GitError::NotADirectory { reference });
            }
            let Some(relative) = full_text.strip_prefix(&prefix) else {
                continue;
            };
            if let Some(kind) = kind {
                return Err(GitError::Unsupported {
                    path: root.join(relative),
                    kind,
                });
            }
            entries.push(Entry {
                relative: relative.to_owned(),
                path: PathBuf::from(relative),
            });
        }
        if entries.is_empty() {
            return Ok(None);
        }
        // Git sorts a directory as its name followed by `/`; a walk sorts names.
        entries.sort_by(|a, b| a.path.components().cmp(b.path.components()));
        let blob_of = |relative: &Path| &self.blobs[&Path::new(&prefix).join(relative)];
        let read_one = |file: &Path| {
            let blob = blob_of(file.strip_prefix(&root).unwrap_or(file));
            blob.within_limit(file)?;
            run(&["cat-file", "blob", &blob.object]).map_err(|message| LoadError::Io {
                path: file.to_path_buf(),
                error: std::io::Error::other(message),
            })
        };
        let files = walk::select(entries, &root, read_one).map_err(|error| LoadErrors {
            root: root.clone(),
            errors: vec![error],
        })?;
        let wanted: Vec<(PathBuf, &Blob)> = files
            .iter()
            .map(|file| (root.join(file), blob_of(file)))
            .collect();
        let batch = match &mut self.batch {
            Some(batch) => batch,
            empty => empty.insert(Batch::start().map_err(|message| GitError::Command {
                reference: reference.clone(),
                command: "cat-file --batch",
                message,
            })?),
        };
        let contents = batch.read(&wanted).map_err(|message| GitError::Command {
            reference: reference.clone(),
            command: "cat-file --batch",
            message,
        })?;
        let contents = wanted
            .into_iter()
            .map(|(path, _)| path)
            .zip(contents)
            .collect();
        Ok(Some(Files { root, contents }))
    }
}

/// A catalog's files read from a revision: each file's bytes, or why they could
/// not be read.
pub(crate) struct Files {
    root: PathBuf,
    contents: Vec<(PathBuf, Result<Vec<u8>, LoadError>)>,
}

impl Files {
    /// The catalog, as [`super::load_directory`] loads a directory.
    pub(crate) fn decode(self, reuse: super::Reuse) -> Result<Catalog, GitError> {
        let loaded: Vec<Result<Catalog, LoadError>> = self
            .contents
            .into_par_iter()
            .map(|(path, bytes)| {
                bytes.and_then(|bytes| super::decode_bytes_reusing(&path, bytes, reuse))
            })
            .collect();
        Ok(super::gather(&self.root, loaded)?)
    }
}

/// Whether a path from the repository's top names the top itself.
fn is_top(path: &str) -> bool {
    matches!(path.trim_end_matches('/'), "" | ".")
}

/// `<mode> <type> <object> <size>\t<path>` of `ls-tree --long`: the path, what
/// kind of entry it is when not a file that can be read, and its blob.
fn parse_record(
    revision: &str,
    record: &[u8],
) -> Result<(PathBuf, Option<&'static str>, Blob), GitError> {
    let malformed = || GitError::Command {
        reference: revision.to_owned(),
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
    let blob = Blob {
        object: object.to_owned(),
        size: size.parse().ok(),
    };
    Ok((path, kind, blob))
}

/// One `git cat-file --batch`, kept running while catalogs are read.
struct Batch {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: BufReader<std::process::ChildStdout>,
}

impl Batch {
    fn start() -> Result<Batch, String> {
        let mut child = Command::new("git")
            .args(["cat-file", "--batch"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|error| format!("cannot run git: {error}"))?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = BufReader::new(child.stdout.take().expect("stdout is piped"));
        Ok(Batch {
            child,
            stdin,
            stdout,
        })
    }

    /// The contents of each blob, each within the file-size limit. The names are
    /// written by a second thread while the answers are read, so that neither
    /// pipe fills while the other waits.
    fn read(
        &mut self,
        blobs: &[(PathBuf, &Blob)],
    ) -> Result<Vec<Result<Vec<u8>, LoadError>>, String> {
        let mut contents: Vec<Result<Vec<u8>, LoadError>> = Vec::with_capacity(blobs.len());
        let mut wanted = Vec::new();
        for (path, blob) in blobs {
            if let Err(error) = blob.within_limit(path) {
                contents.push(Err(error));
            } else {
                wanted.push((contents.len(), blob.object.as_str()));
                contents.push(Ok(Vec::new()));
            }
        }
        let Batch {
            child,
            stdin,
            stdout,
        } = self;
        std::thread::scope(|scope| {
            let objects: Vec<&str> = wanted.iter().map(|(_, object)| *object).collect();
            scope.spawn(move || {
                let mut stdin = std::io::BufWriter::new(stdin);
                for object in objects {
                    if writeln!(stdin, "{object}").is_err() {
                        return;
                    }
                }
                let _ = stdin.flush();
            });
            let mut header = String::new();
            let mut answers = || -> Result<(), String> {
                for (index, object) in &wanted {
                    header.clear();
                    stdout
                        .read_line(&mut header)
                        .map_err(|error| error.to_string())?;
                    let size: usize = header
                        .trim_end()
                        .strip_prefix(*object)
                        .and_then(|rest| rest.strip_prefix(" blob "))
                        .and_then(|size| size.parse().ok())
                        .ok_or_else(|| format!("unexpected answer {header:?} for {object}"))?;
                    let mut bytes = vec![0; size + 1];
                    stdout
                        .read_exact(&mut bytes)
                        .map_err(|error| error.to_string())?;
                    bytes.pop();
                    contents[*index] = Ok(bytes);
                }
                Ok(())
            };
            // A writer blocked on a batch that is no longer read would never end.
            answers().inspect_err(|_| {
                let _ = child.kill();
            })
        })?;
        Ok(contents)
    }
}

impl Drop for Batch {
    fn drop(&mut self) {
        // The end of its input ends git; a batch abandoned halfway is killed.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
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
