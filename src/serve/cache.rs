//! `--cache-dir`: fbc's cache is a digest of every file of the catalog
//! (`fbc-serve.digest`, one `sha256  path` line per file). Loading a catalog
//! takes fbc a fraction of what opm's cache load takes, so the cache does not
//! hold the index; what it gives is opm's integrity check: a server started with
//! `--cache-enforce-integrity` refuses a catalog that changed since
//! `--cache-only` ran, and names the files that did. A directory without fbc's
//! digest (empty, opm's own cache, unreadable) never stops the server.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The digest file in the cache directory.
const DIGEST_FILE: &str = "fbc-serve.digest";

pub(crate) struct Cache {
    dir: PathBuf,
    catalog: PathBuf,
}

/// What the cache says of the catalog.
pub(crate) enum Check {
    Current,
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
        let recorded = match read_limited(&path) {
            Ok(text) => match parse(&text) {
                Some(recorded) => recorded,
                None => return Check::Absent(format!("{} is not fbc's", path.display())),
            },
            Err(error) => return Check::Absent(format!("{}: {error}", path.display())),
        };
        match digest(&self.catalog) {
            Ok(current) => match changes(&recorded, &current) {
                None => Check::Current,
                Some(changes) => Check::Stale(changes),
            },
            Err(error) => Check::Absent(format!("cannot read the catalog: {error}")),
        }
    }

    /// Writes the digest of the catalog as it is now (atomically: a reader never
    /// sees half a file).
    pub(crate) fn write(&self) -> Result<(), String> {
        let files = digest(&self.catalog).map_err(|error| error.to_string())?;
        let mut text = String::from("# fbc serve cache 1\n");
        for (path, sum) in &files {
            let _ = writeln!(text, "{sum}  {path}");
        }
        std::fs::create_dir_all(&self.dir)
            .map_err(|error| format!("{}: {error}", self.dir.display()))?;
        let path = self.dir.join(DIGEST_FILE);
        crate::atomic::replace(&path, text.as_bytes())
            .map_err(|error| format!("{}: {error}", path.display()))
    }
}

/// The digest file, read as a regular file within `FBC_MAX_FILE_SIZE`.
fn read_limited(path: &Path) -> Result<String, String> {
    let bytes = crate::limits::read_file(path).map_err(|error| error.to_string())?;
    String::from_utf8(bytes).map_err(|_| "not UTF-8".to_owned())
}

fn parse(text: &str) -> Option<BTreeMap<String, String>> {
    let mut lines = text.lines();
    if lines.next()? != "# fbc serve cache 1" {
        return None;
    }
    lines
        .map(|line| {
            line.split_once("  ")
                .map(|(sum, path)| (path.to_owned(), sum.to_owned()))
        })
        .collect()
}

/// Every regular file under `root` by its path relative to it, with its SHA-256.
fn digest(root: &Path) -> std::io::Result<BTreeMap<String, String>> {
    let mut files = BTreeMap::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let entry = entry?;
            let path = entry.path();
            let kind = std::fs::metadata(&path)?;
            if kind.is_dir() {
                pending.push(path);
            } else if kind.is_file() {
                let relative = path.strip_prefix(root).unwrap_or(&path);
                let bytes = crate::limits::read_file(&path).map_err(|error| {
                    std::io::Error::other(format!("{}: {error}", path.display()))
                })?;
                files.insert(
                    relative.to_string_lossy().into_owned(),
                    crate::digest::sha256_hex(&bytes),
                );
            }
        }
    }
    Ok(files)
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
    fn only_fbc_digests_are_read() {
        assert!(parse("opm cache\n").is_none());
        assert_eq!(
            parse("# fbc serve cache 1\nabc  x/y.json\n").map(|m| m.len()),
            Some(1)
        );
    }
}
