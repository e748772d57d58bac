//! `--cache-dir`: fbc's cache is a snapshot of the catalog and a digest of every
//! file of it, written by `--cache-only` when a catalog image is built. The
//! snapshot's files (`fbc-serve.NONCE.NNNN.jsonl`, about 4 MiB each) hold every
//! document of the catalog as one line of compact JSON, as OLM v1's view serves
//! them, except that each large property value (an embedded manifest) is moved
//! to the values file (`fbc-serve.NONCE.values`) and a marker stands in its place
//! (see `spill::marker`). A server whose cache is current loads the snapshot's
//! files in parallel with the JSON reader, and reads a large value from the
//! values file only when a client asks for its bundle: its start-up reads no
//! manifest at all, and writes nothing. The digest (`fbc-serve.digest`: the
//! values file and the snapshot's files with their sizes, then one `sha256
//! path` line per catalog file) gives opm's integrity check: a server started
//! with `--cache-enforce-integrity` refuses a catalog that changed since
//! `--cache-only` ran, and names the files that did. The nonce is taken from the
//! catalog's digest: the same catalog gives the same cache, and a catalog's
//! values cannot pass for markers, whose text holds a digest of them. A
//! directory without fbc's cache (empty, opm's own cache, unreadable, a file of
//! another size) never stops the server: it serves from the catalog.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use serde_json::value::RawValue;

use crate::catalog::Meta;
use crate::model::property::spill;

/// The digest file in the cache directory.
const DIGEST_FILE: &str = "fbc-serve.digest";

/// How the cache's other files start: the nonce follows.
const PREFIX: &str = "fbc-serve.";

/// Where the snapshot starts a new file: files this size load in parallel.
const SNAPSHOT_PART: usize = 4 << 20;

/// The first line of the digest file: a cache of another format is not read.
const HEADER: &str = "# fbc serve cache 4";

/// The digest file's line naming the values file and its size.
const VALUES_LINE: &str = "# values ";

/// The digest file's lines naming a snapshot file and its size.
const SNAPSHOT_LINE: &str = "# snapshot ";

pub(crate) struct Cache {
    dir: PathBuf,
    catalog: PathBuf,
}

/// What the cache says of the catalog.
pub(crate) enum Check {
    /// The catalog is as the cache recorded it: load it from the snapshot.
    Current(Snapshot),
    /// No usable digest, and why.
    Absent(String),
    /// The files that changed since the digest was written.
    Stale(String),
}

/// A current cache's snapshot files, in order, and its values file.
pub(crate) struct Snapshot {
    pub(crate) files: Vec<PathBuf>,
    values: PathBuf,
    values_size: u64,
    nonce: String,
}

impl Snapshot {
    /// Opens the values file as the home of the values the snapshot's markers
    /// stand for (`spill::adopt`): from then on the snapshot can be loaded.
    pub(crate) fn adopt(&self) -> Result<(), String> {
        let failed = |why: &dyn std::fmt::Display| format!("{}: {why}", self.values.display());
        let file = std::fs::File::open(&self.values).map_err(|error| failed(&error))?;
        let size = file.metadata().map_err(|error| failed(&error))?.len();
        if size != self.values_size {
            return Err(failed(&"not the file written"));
        }
        spill::adopt(file, self.nonce.clone());
        Ok(())
    }
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
        if let Some(changes) = changes(&recorded.sums, &current) {
            return Check::Stale(changes);
        }
        let mut files = Vec::new();
        for (name, size) in recorded.parts.iter().chain([&recorded.values]) {
            let path = self.dir.join(name);
            match std::fs::metadata(&path) {
                Ok(metadata) if metadata.is_file() && metadata.len() == *size => files.push(path),
                Ok(_) => {
                    return Check::Absent(format!("{} is not the file written", path.display()));
                }
                Err(error) => return Check::Absent(format!("{}: {error}", path.display())),
            }
        }
        let values = files.pop().unwrap_or_default();
        Check::Current(Snapshot {
            files,
            values,
            values_size: recorded.values.1,
            nonce: recorded.nonce,
        })
    }

    /// Writes the snapshot, the values file and the digest of the catalog as it
    /// is now (each file atomically: a reader never sees half a file; the digest
    /// last, so that it never names files that are not there), then removes the
    /// files of an earlier cache.
    pub(crate) fn write(&self) -> Result<(), String> {
        let sums = digest(&self.catalog).map_err(|error| error.to_string())?;
        std::fs::create_dir_all(&self.dir)
            .map_err(|error| format!("{}: {error}", self.dir.display()))?;
        let nonce = nonce(&sums);
        let values_name = format!("{PREFIX}{nonce}.values");
        let values_path = self.dir.join(&values_name);
        let mut snapshot = Err(String::new());
        let written = crate::files::atomic::replace_with(&values_path, |file| {
            snapshot = self.write_snapshot(file, &nonce);
            snapshot
                .as_ref()
                .map(|_| ())
                .map_err(|_| std::io::Error::other("not written"))
        });
        let (parts, values_size) = snapshot?;
        written.map_err(|error| format!("{}: {error}", values_path.display()))?;
        let mut text = format!("{HEADER}\n{VALUES_LINE}{values_size} {values_name}\n");
        for (name, size) in &parts {
            let _ = writeln!(text, "{SNAPSHOT_LINE}{size} {name}");
        }
        for (path, sum) in &sums {
            let _ = writeln!(text, "{sum}  {path}");
        }
        let path = self.dir.join(DIGEST_FILE);
        crate::files::atomic::replace(&path, text.as_bytes())
            .map_err(|error| format!("{}: {error}", path.display()))?;
        // An earlier cache's files are not read again: removed.
        if let Ok(entries) = std::fs::read_dir(&self.dir) {
            for name in entries.filter_map(|entry| entry.ok()?.file_name().into_string().ok()) {
                let ours = name == DIGEST_FILE
                    || name == values_name
                    || parts.iter().any(|(part, _)| *part == name);
                if name.starts_with(PREFIX) && !ours {
                    let _ = std::fs::remove_file(self.dir.join(name));
                }
            }
        }
        Ok(())
    }

    /// Writes the snapshot's files, and the large values to `values`; the
    /// snapshot's files with their sizes, and the size of the values.
    fn write_snapshot(
        &self,
        values: &mut std::fs::File,
        nonce: &str,
    ) -> Result<(Vec<(String, u64)>, u64), String> {
        let mut values = Values {
            file: values,
            size: 0,
            nonce,
        };
        let mut parts = Vec::new();
        let mut write_part = |part: &str| {
            let name = format!("{PREFIX}{nonce}.{:04}.jsonl", parts.len());
            let path = self.dir.join(&name);
            crate::files::atomic::replace(&path, part.as_bytes())
                .map_err(|error| format!("{}: {error}", path.display()))?;
            parts.push((name, part.len() as u64));
            Ok::<_, String>(parts.len())
        };
        let mut part = String::new();
        let mut written = 0;
        crate::catalog::walk_metas(&self.catalog, |file| {
            for meta in file.metas {
                part.push_str(&values.mark(&meta)?);
                // Each file is written when it is full: the snapshot is never held whole.
                if part.len() >= SNAPSHOT_PART {
                    written = write_part(&part)?;
                    part.clear();
                }
            }
            Ok(())
        })?;
        if !part.is_empty() || written == 0 {
            write_part(&part)?;
        }
        let size = values.size;
        Ok((parts, size))
    }
}

/// The values file as it is written.
struct Values<'a> {
    file: &'a mut std::fs::File,
    size: u64,
    nonce: &'a str,
}

impl Values<'_> {
    /// `meta`'s line with each large property value of a bundle written to the
    /// values file and a marker in its place. A value is moved only where the
    /// loader would keep exactly its text and check nothing more than its type's
    /// fit (kept with the marker); any other stays in the line.
    fn mark<'m>(&mut self, meta: &'m Meta) -> Result<Cow<'m, str>, String> {
        let blob = meta.blob.as_str();
        if meta.schema != "olm.bundle" || blob.len() < spill::LARGE {
            return Ok(Cow::Borrowed(blob));
        }
        let mut line = String::new();
        let mut copied = 0;
        for (start, kind, text) in large_values(blob) {
            let (Some(fits), Ok(len)) = (movable(&kind, text), u32::try_from(text.len())) else {
                continue;
            };
            self.file
                .write_all(text.as_bytes())
                .map_err(|error| format!("write the cache's values: {error}"))?;
            line.push_str(&blob[copied..start]);
            line.push_str(&spill::marker(self.nonce, self.size, len, fits));
            copied = start + text.len();
            self.size += u64::from(len);
        }
        if copied == 0 {
            return Ok(Cow::Borrowed(blob));
        }
        line.push_str(&blob[copied..]);
        Ok(Cow::Owned(line))
    }
}

/// The property values of `spill::LARGE` bytes or more in a bundle's blob:
/// where each starts, its property's type, and its text. Only `properties` and
/// its elements' `type` and `value` as spelled (no other key that Go's decoder
/// would take for them) are looked at.
fn large_values(blob: &str) -> Vec<(usize, String, &str)> {
    let Ok(fields) = serde_json::from_str::<BTreeMap<String, &RawValue>>(blob) else {
        return Vec::new();
    };
    let Some(properties) = only_field(&fields, "properties") else {
        return Vec::new();
    };
    let Ok(items) = serde_json::from_str::<Vec<BTreeMap<String, &RawValue>>>(properties.get())
    else {
        return Vec::new();
    };
    items
        .iter()
        .filter_map(|item| {
            let value = only_field(item, "value")?.get();
            if value.len() < spill::LARGE {
                return None;
            }
            let kind: String = serde_json::from_str(only_field(item, "type")?.get()).ok()?;
            Some((value.as_ptr().addr() - blob.as_ptr().addr(), kind, value))
        })
        .collect()
}

/// The field `name` when it is the only key Go's decoder takes for it.
fn only_field<'a>(
    fields: &BTreeMap<String, &'a RawValue>,
    name: &'static str,
) -> Option<&'a RawValue> {
    let mut matching = fields
        .iter()
        .filter(|(key, _)| crate::model::go_decode::match_field(key, &[name]).is_some());
    let (key, value) = matching.next()?;
    (key == name && matching.next().is_none()).then_some(*value)
}

/// The check's verdict on a value of type `kind` that the loader would keep as
/// exactly `text` (its compact form) and accept: `None` for any other.
fn movable(kind: &str, text: &str) -> Option<bool> {
    let value = crate::codec::json_read::parse_json(text)?;
    let mut compact = Vec::with_capacity(text.len());
    crate::codec::json_write::write_compact_value(&value, &mut compact);
    if compact != text.as_bytes() {
        return None;
    }
    if kind == crate::model::property::BUNDLE_OBJECT
        && !crate::model::bundle::object_is_valid(&value)
    {
        return None;
    }
    Some(crate::validate::properties::fits_known(kind, text))
}

/// The cache's nonce: a digest of the catalog's digest.
fn nonce(sums: &BTreeMap<String, String>) -> String {
    let mut text = String::new();
    for (path, sum) in sums {
        let _ = writeln!(text, "{sum}  {path}");
    }
    let mut nonce = crate::digest::sha256_hex(text.as_bytes());
    nonce.truncate(32);
    nonce
}

/// The digest file, read as a regular file within `FBC_MAX_FILE_SIZE`.
fn read_limited(path: &Path) -> Result<String, String> {
    let bytes = crate::files::limits::read_file(path).map_err(|error| error.to_string())?;
    String::from_utf8(bytes).map_err(|_| "not UTF-8".to_owned())
}

/// What the digest file records.
#[derive(Debug)]
struct Recorded {
    /// The sum of every catalog file, by its path.
    sums: BTreeMap<String, String>,
    /// The values file and its size.
    values: (String, u64),
    /// The snapshot's files in order, with their sizes.
    parts: Vec<(String, u64)>,
    nonce: String,
}

fn parse(text: &str) -> Option<Recorded> {
    // A file of the cache, named by fbc, inside the cache directory.
    fn file(entry: &str) -> Option<(String, u64)> {
        let (size, name) = entry.split_once(' ')?;
        (name.starts_with(PREFIX) && !name.contains('/'))
            .then(|| Some((name.to_owned(), size.parse().ok()?)))?
    }
    let mut lines = text.lines().peekable();
    if lines.next()? != HEADER {
        return None;
    }
    let values = file(lines.next()?.strip_prefix(VALUES_LINE)?)?;
    let nonce = values
        .0
        .strip_prefix(PREFIX)?
        .strip_suffix(".values")?
        .to_owned();
    if nonce.is_empty() || !nonce.bytes().all(|byte| byte.is_ascii_hexdigit()) {
        return None;
    }
    let mut parts = Vec::new();
    while let Some(entry) = lines
        .peek()
        .and_then(|line| line.strip_prefix(SNAPSHOT_LINE))
    {
        parts.push(file(entry)?);
        lines.next();
    }
    let sums = lines
        .map(|line| {
            line.split_once("  ")
                .map(|(sum, path)| (path.to_owned(), sum.to_owned()))
        })
        .collect::<Option<_>>()?;
    Some(Recorded {
        sums,
        values,
        parts,
        nonce,
    })
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
        assert!(parse("# fbc serve cache 3\nabc  x/y.json\n").is_none());
        let recorded = parse(
            "# fbc serve cache 4\n# values 7 fbc-serve.0a.values\n\
             # snapshot 12 fbc-serve.0a.0000.jsonl\nabc  x/y.json\n",
        )
        .expect("read");
        assert_eq!(recorded.sums.len(), 1);
        assert_eq!(recorded.values, ("fbc-serve.0a.values".to_owned(), 7));
        assert_eq!(recorded.parts, [("fbc-serve.0a.0000.jsonl".to_owned(), 12)]);
        assert_eq!(recorded.nonce, "0a");
        // The cache's files are named by fbc, inside the cache directory.
        assert!(
            parse(
                "# fbc serve cache 4\n# values 1 fbc-serve.0a.values\n# snapshot 1 ../etc/passwd\n"
            )
            .is_none()
        );
        assert!(parse("# fbc serve cache 4\n# values 1 fbc-serve.a/b.values\n").is_none());
    }

    /// Large values of bundles are found as the loader reads them: other
    /// spellings of the keys, and other documents, are left alone.
    #[test]
    fn large_values_are_found_where_the_loader_reads_them() {
        let large = format!("{{\"data\":\"{}\"}}", "A".repeat(spill::LARGE));
        let blob = format!(
            "{{\"name\":\"b\",\"properties\":[{{\"type\":\"olm.bundle.object\",\"value\":{large}}},\
             {{\"type\":\"small\",\"value\":1}},{{\"Value\":{large},\"type\":\"t\",\"value\":{large}}},\
             {{\"type\":\"custom\",\"value\":{large}}}],\"schema\":\"olm.bundle\"}}"
        );
        let found = large_values(&blob);
        let kinds: Vec<&str> = found.iter().map(|(_, kind, _)| kind.as_str()).collect();
        assert_eq!(kinds, ["olm.bundle.object", "custom"]);
        for (start, _, text) in &found {
            assert_eq!(&blob[*start..*start + text.len()], *text);
            assert_eq!(*text, large);
        }
        let twice = blob.replace("\"name\"", "\"Properties\":[],\"name\"");
        assert!(large_values(&twice).is_empty());
        // A value the loader would write otherwise (here: not compact) stays;
        // types the validator does not know have no verdict.
        assert_eq!(movable("custom", &large), Some(false));
        assert_eq!(movable("custom", &large.replace(':', ": ")), None);
        // A bundle object that is not base64 of a manifest stays for the loader.
        assert_eq!(movable("olm.bundle.object", &large), None);
    }
}
