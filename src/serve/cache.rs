//! `--cache-dir`: fbc's cache is a snapshot of the catalog and a digest of every
//! file of it. The snapshot (`fbc-serve.catalog.NNNN.jsonl`, files of about
//! 4 MiB) holds every document of the catalog as one line of compact JSON, as
//! OLM v1's view serves them: a server whose cache is current loads its files in
//! parallel with the JSON reader instead of reading the catalog's YAML. The
//! digest (`fbc-serve.digest`: the snapshot's files with their sizes, then one
//! `sha256  path` line per catalog file) gives opm's integrity check: a server
//! started with `--cache-enforce-integrity` refuses a catalog that changed since
//! `--cache-only` ran, and names the files that did. A directory without fbc's
//! cache (empty, opm's own cache, unreadable, a snapshot file of another size)
//! never stops the server: it serves from the catalog.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The digest file in the cache directory.
const DIGEST_FILE: &str = "fbc-serve.digest";

/// The snapshot's files in the cache directory: `fbc-serve.catalog.0000.jsonl`, ...
const SNAPSHOT_PREFIX: &str = "fbc-serve.catalog.";

/// Where the snapshot starts a new file: files this size load in parallel.
const SNAPSHOT_PART: usize = 4 << 20;

/// The first line of the digest file: a cache of another format is not read.
const HEADER: &str = "# fbc serve cache 3";

/// The digest file's lines naming a snapshot file and its size.
const SNAPSHOT_LINE: &str = "# snapshot ";

pub(crate) struct Cache {
    dir: PathBuf,
    catalog: PathBuf,
}

/// What the cache says of the catalog.
pub(crate) enum Check {
    /// The catalog is as the cache recorded it: load it from these snapshot
    /// files, in order.
    Current(Vec<PathBuf>),
    /// No usable digest, and why.
    Absent(String),
    /// The files that changed since the digest was written.
    Stale(String),
}

impl Cache {
    pub(crate) fn open(dir: &Path, catalog: &Path) -> Cache {
        Cache {
            dir: dir.to_path_buf(),
            catalog: catalog.to_path_buf(),
        }
    }

    pub(crate) fn dir_text(&self) -> String {
        self.dir.display().to_string()
    }

    pub(crate) fn check(&self) -> Check {
        let path = self.dir.join(DIGEST_FILE);
        let (recorded, snapshot) = match read_limited(&path) {
            Ok(text) => match parse(&text) {
                Some(parsed) => parsed,
                None => {
                    return Check::Absent(format!(
                        "{} is not a cache of this version of fbc",
                        path.display()
                    ));
                }
            },
            Err(error) => return Check::Absent(format!("{}: {error}", path.display())),
        };
        let current = match digest(&self.catalog) {
            Ok(current) => current,
            Err(error) => return Check::Absent(format!("cannot read the catalog: {error}")),
        };
        if let Some(changes) = changes(&recorded, &current) {
            return Check::Stale(changes);
        }
        let mut files = Vec::new();
        for (name, size) in snapshot {
            let path = self.dir.join(&name);
            match std::fs::metadata(&path) {
                Ok(metadata) if metadata.is_file() && metadata.len() == size => files.push(path),
                Ok(_) => {
                    return Check::Absent(format!("{} is not the file written", path.display()));
                }
                Err(error) => return Check::Absent(format!("{}: {error}", path.display())),
            }
        }
        Check::Current(files)
    }

    /// Writes the snapshot and the digest of the catalog as it is now (each file
    /// atomically: a reader never sees half a file; the digest last, so that it
    /// never names snapshot files that are not there).
    pub(crate) fn write(&self) -> Result<(), String> {
        let files = digest(&self.catalog).map_err(|error| error.to_string())?;
        std::fs::create_dir_all(&self.dir)
            .map_err(|error| format!("{}: {error}", self.dir.display()))?;
        let mut snapshot = Snapshot {
            dir: &self.dir,
            digest: format!("{HEADER}\n"),
            written: 0,
        };
        let mut part = Vec::new();
        crate::catalog::walk_metas(&self.catalog, |file| {
            for meta in file.metas {
                part.extend_from_slice(meta.blob.as_bytes());
                // Each file is written when it is full: the snapshot is never held whole.
                if part.len() >= SNAPSHOT_PART {
                    snapshot.write(&part)?;
                    part.clear();
                }
            }
            Ok(())
        })?;
        if !part.is_empty() || snapshot.written == 0 {
            snapshot.write(&part)?;
        }
        let (mut text, written) = (snapshot.digest, snapshot.written);
        for (path, sum) in &files {
            let _ = writeln!(text, "{sum}  {path}");
        }
        let path = self.dir.join(DIGEST_FILE);
        crate::files::atomic::replace(&path, text.as_bytes())
            .map_err(|error| format!("{}: {error}", path.display()))?;
        // Files of an earlier, larger snapshot are not read again: removed.
        for index in written.. {
            let stale = self.dir.join(format!("{SNAPSHOT_PREFIX}{index:04}.jsonl"));
            if std::fs::remove_file(stale).is_err() {
                break;
            }
        }
        Ok(())
    }
}

/// The snapshot's files as they are written, and the digest's lines naming them.
struct Snapshot<'a> {
    dir: &'a Path,
    digest: String,
    written: usize,
}

impl Snapshot<'_> {
    fn write(&mut self, part: &[u8]) -> Result<(), String> {
        let name = format!("{SNAPSHOT_PREFIX}{:04}.jsonl", self.written);
        let path = self.dir.join(&name);
        crate::files::atomic::replace(&path, part)
            .map_err(|error| format!("{}: {error}", path.display()))?;
        let _ = writeln!(self.digest, "{SNAPSHOT_LINE}{} {name}", part.len());
        self.written += 1;
        Ok(())
    }
}

/// The digest file, read as a regular file within `FBC_MAX_FILE_SIZE`.
fn read_limited(path: &Path) -> Result<String, String> {
    let bytes = crate::files::limits::read_file(path).map_err(|error| error.to_string())?;
    String::from_utf8(bytes).map_err(|_| "not UTF-8".to_owned())
}

/// What the digest file records.
type Recorded = (
    // The sum of every catalog file, by its path.
    BTreeMap<String, String>,
    // The snapshot's files in order, with their sizes.
    Vec<(String, u64)>,
);

fn parse(text: &str) -> Option<Recorded> {
    let mut lines = text.lines().peekable();
    if lines.next()? != HEADER {
        return None;
    }
    let mut snapshot = Vec::new();
    while let Some(entry) = lines
        .peek()
        .and_then(|line| line.strip_prefix(SNAPSHOT_LINE))
    {
        let (size, name) = entry.split_once(' ')?;
        if !name.starts_with(SNAPSHOT_PREFIX) || name.contains('/') {
            return None;
        }
        snapshot.push((name.to_owned(), size.parse().ok()?));
        lines.next();
    }
    let files = lines
        .map(|line| {
            line.split_once("  ")
                .map(|(sum, path)| (path.to_owned(), sum.to_owned()))
        })
        .collect::<Option<_>>()?;
    Some((files, snapshot))
}

/// Every regular file under `root` by its path relative to it, with its SHA-256.
fn digest(root: &Path) -> std::io::Result<BTreeMap<String, String>> {
    use rayon::prelude::*;
    let mut paths = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let path = entry?.path();
            let kind = std::fs::metadata(&path)?;
            if kind.is_dir() {
                pending.push(path);
            } else if kind.is_file() {
                paths.push(path);
            }
        }
    }
    // Read and summed on every core: a server's start waits for this.
    paths
        .par_iter()
        .map(|path| {
            let bytes = crate::files::limits::read_file(path)
                .map_err(|error| std::io::Error::other(format!("{}: {error}", path.display())))?;
            let relative = path.strip_prefix(root).unwrap_or(path);
            Ok((
                relative.to_string_lossy().into_owned(),
                crate::digest::sha256_hex(&bytes),
            ))
        })
        .collect()
}

/// The files added, removed and changed, or `None` when there is no change.
fn changes(
    recorded: &BTreeMap<String, String>,
    current: &BTreeMap<String, String>,
) -> Option<String> {
    let mut out = Vec::new();
    for (path, sum) in current {
        match recorded.get(path) {
            None => out.push(format!("{path} added")),
            Some(old) if old != sum => out.push(format!("{path} changed")),
            Some(_) => {}
        }
    }
    for path in recorded.keys().filter(|path| !current.contains_key(*path)) {
        out.push(format!("{path} removed"));
    }
    (!out.is_empty()).then(|| {
        let total = out.len();
        let mut shown: Vec<String> = out.into_iter().take(10).collect();
        if total > 10 {
            shown.push(format!("and {} more", total - 10));
        }
        shown.join(", ")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_name_each_file() {
        let old: BTreeMap<String, String> = [("a.json", "1"), ("b.json", "2"), ("c.json", "3")]
            .into_iter()
            .map(|(p, s)| (p.to_owned(), s.to_owned()))
            .collect();
        let mut new = old.clone();
        new.remove("a.json");
        new.insert("b.json".to_owned(), "9".to_owned());
        new.insert("d.json".to_owned(), "4".to_owned());
        assert_eq!(
            changes(&old, &new).as_deref(),
            Some("b.json changed, d.json added, a.json removed")
        );
        assert_eq!(changes(&old, &old), None);
    }

    #[test]
    fn only_fbc_digests_of_this_format_are_read() {
        assert!(parse("opm cache\n").is_none());
        assert!(parse("# fbc serve cache 1\nabc  x/y.json\n").is_none());
        let (files, snapshot) = parse(
            "# fbc serve cache 3\n# snapshot 12 fbc-serve.catalog.0000.jsonl\nabc  x/y.json\n",
        )
        .expect("read");
        assert_eq!(files.len(), 1);
        assert_eq!(snapshot, [("fbc-serve.catalog.0000.jsonl".to_owned(), 12)]);
        // Snapshot files are named by fbc, inside the cache directory.
        assert!(parse("# fbc serve cache 3\n# snapshot 1 ../etc/passwd\n").is_none());
    }
}
