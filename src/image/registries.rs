//! Registry configuration as podman and skopeo read it (containers-registries.conf
//! version 2): per registry prefix, where to pull from instead (`location`), mirrors
//! tried first, plain-HTTP registries (`insecure`) and `blocked` ones. A version 1
//! file (`[registries.insecure]`, `[registries.block]`) is read too.
//!
//! The file is `$CONTAINERS_REGISTRIES_CONF`, else
//! `$XDG_CONFIG_HOME/containers/registries.conf` (`~/.config/...`) when it exists,
//! else `/etc/containers/registries.conf`; then every `registries.conf.d/*.conf`
//! beside it, in name order, whose entries replace those of the same prefix.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::files::limits::ReadError;

/// One place to pull an image from: a reference and whether it may be reached over
/// plain HTTP (or HTTPS without verification).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Source {
    pub(crate) reference: String,
    pub(crate) insecure: bool,
}

/// The configuration: the entries that matter to pulls.
#[derive(Debug, Default, Clone)]
pub(crate) struct Registries {
    entries: Vec<Entry>,
    /// Where the entries come from, for messages.
    pub(crate) files: Vec<PathBuf>,
    /// Files skipped for mixing both versions' tables, to be warned about.
    skipped: Vec<PathBuf>,
}

#[derive(Debug, Clone, PartialEq)]
struct Entry {
    prefix: String,
    location: String,
    insecure: bool,
    blocked: bool,
    mirrors: Vec<Mirror>,
}

#[derive(Debug, Clone, PartialEq)]
struct Mirror {
    location: String,
    insecure: bool,
    use_for: UseFor,
}

/// `pull-from-mirror`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum UseFor {
    All,
    DigestOnly,
    TagOnly,
}

/// Why registries.conf could not be read (reported through `ImageError::Config`).
#[derive(Debug, thiserror::Error)]
pub(crate) enum RegistriesError {
    /// Both versions' tables in one file: skipped, never reported as an error.
    #[error("{}: mixes version 1 and version 2 tables", .path.display())]
    Mixed { path: PathBuf },
    #[error("{path}:{line}: {message}")]
    Invalid {
        path: PathBuf,
        line: usize,
        message: String,
    },
    #[error("{path}: {error}")]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
}

#[derive(Deserialize)]
#[serde(rename_all = "kebab-case")]
struct FileV2 {
    #[serde(default)]
    registry: Vec<toml::Spanned<EntryV2>>,
    registries: Option<V1Tables>,
}

#[derive(Deserialize)]
#[serde(rename_all = "kebab-case")]
struct EntryV2 {
    prefix: Option<String>,
    location: Option<String>,
    #[serde(default)]
    insecure: bool,
    #[serde(default)]
    blocked: bool,
    #[serde(default)]
    mirror_by_digest_only: bool,
    #[serde(default)]
    mirror: Vec<toml::Spanned<MirrorV2>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "kebab-case")]
struct MirrorV2 {
    location: String,
    #[serde(default)]
    insecure: bool,
    pull_from_mirror: Option<String>,
}

#[derive(Deserialize, Default)]
struct V1Tables {
    #[serde(default)]
    insecure: V1List,
    #[serde(default)]
    block: V1List,
}

#[derive(Deserialize, Default)]
struct V1List {
    #[serde(default)]
    registries: Vec<String>,
}

static LOADED: std::sync::OnceLock<Result<Registries, RegistriesError>> =
    std::sync::OnceLock::new();

/// The configuration pulls use, read once per run.
pub(crate) fn get() -> Result<&'static Registries, &'static RegistriesError> {
    LOADED.get_or_init(load).as_ref()
}

/// What the configuration read in this run warns about (nothing when no pull
/// read it), for the command to report.
pub(crate) fn warnings() -> Vec<miette::Report> {
    let Some(Ok(registries)) = LOADED.get() else {
        return Vec::new();
    };
    registries
        .skipped
        .iter()
        .map(|path| miette::Report::new(MixedVersions { path: path.clone() }))
        .collect()
}

/// The main file in podman's order of precedence.
fn main_file() -> PathBuf {
    if let Some(path) = std::env::var_os("CONTAINERS_REGISTRIES_CONF").filter(|p| !p.is_empty()) {
        return PathBuf::from(path);
    }
    let config_home = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|dir| !dir.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".config")));
    if let Some(user) = config_home.map(|dir| dir.join("containers/registries.conf"))
        && user.is_file()
    {
        return user;
    }
    PathBuf::from("/etc/containers/registries.conf")
}

fn load() -> Result<Registries, RegistriesError> {
    load_from(&main_file())
}

/// The main file and the drop-ins beside it.
fn load_from(main: &Path) -> Result<Registries, RegistriesError> {
    let main = main.to_path_buf();
    let mut registries = Registries::default();
    let mut files = vec![main.clone()];
    if let Some(dir) = main.parent().map(|parent| parent.join("registries.conf.d")) {
        let mut drop_ins: Vec<PathBuf> = std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|entry| entry.path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "conf"))
            .collect();
        drop_ins.sort();
        files.extend(drop_ins);
    }
    for path in files {
        let text = match crate::files::limits::read_file(&path) {
            Ok(bytes) => String::from_utf8(bytes).map_err(|error| RegistriesError::Io {
                path: path.clone(),
                error: std::io::Error::new(std::io::ErrorKind::InvalidData, error),
            })?,
            Err(ReadError::Io(error)) if error.kind() == std::io::ErrorKind::NotFound => continue,
            Err(ReadError::Io(error)) => return Err(RegistriesError::Io { path, error }),
            Err(refused) => {
                let error = std::io::Error::other(refused.to_string());
                return Err(RegistriesError::Io { path, error });
            }
        };
        match parse(&path, &text) {
            Ok(entries) => registries.merge(entries),
            Err(RegistriesError::Mixed { path }) => registries.skipped.push(path.clone()),
            Err(error) => return Err(error),
        }
        registries.files.push(path);
    }
    Ok(registries)
}

/// A file with both kinds of tables, which containers/image refuses.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error(
    "{}: mixes version 1 ([registries.*]) and version 2 ([[registry]]) tables; the file is skipped",
    .path.display()
)]
#[diagnostic(severity(Warning), code(fbc::image::registries_mixed))]
struct MixedVersions {
    path: PathBuf,
}

/// The entries of one file; a version 1 file mixed with version 2 tables is
/// `Mixed`, which the loader skips with a warning, as containers/image refuses
/// it but opm users' CI must not break on it.
fn parse(path: &Path, text: &str) -> Result<Vec<Entry>, RegistriesError> {
    let invalid = |offset: usize, message: String| RegistriesError::Invalid {
        path: path.to_path_buf(),
        line: text[..offset.min(text.len())].matches('\n').count() + 1,
        message,
    };
    let file: FileV2 = toml::from_str(text).map_err(|error| {
        let offset = error.span().map_or(0, |span| span.start);
        invalid(offset, error.message().trim_end().to_owned())
    })?;
    if let Some(v1) = file.registries {
        if !file.registry.is_empty() {
            return Err(RegistriesError::Mixed {
                path: path.to_path_buf(),
            });
        }
        return Ok(version_1(&v1));
    }
    let mut entries = Vec::new();
    let mut prefixes: HashSet<String> = HashSet::new();
    for spanned in file.registry {
        let offset = spanned.span().start;
        let raw = spanned.into_inner();
        let location = raw.location.unwrap_or_default();
        let prefix = raw.prefix.unwrap_or_else(|| location.clone());
        if prefix.is_empty() {
            return Err(invalid(
                offset,
                "a [[registry]] needs a prefix or a location".to_owned(),
            ));
        }
        if location.is_empty() && !prefix.starts_with("*.") {
            return Err(invalid(
                offset,
                format!("invalid location for prefix {prefix:?}: cannot be empty"),
            ));
        }
        for text in [&prefix, &location] {
            if text.contains("://") {
                return Err(invalid(
                    offset,
                    format!("{text:?}: give a host and path, without a scheme"),
                ));
            }
        }
        let mirrors = mirrors(raw.mirror, raw.mirror_by_digest_only, &invalid)?;
        if !prefixes.insert(prefix.clone()) {
            return Err(invalid(
                offset,
                format!("registry with prefix {prefix:?} defined more than once"),
            ));
        }
        entries.push(Entry {
            prefix,
            location,
            insecure: raw.insecure,
            blocked: raw.blocked,
            mirrors,
        });
    }
    Ok(entries)
}

/// The `[[registry.mirror]]` tables of an entry.
fn mirrors(
    raw: Vec<toml::Spanned<MirrorV2>>,
    digest_only: bool,
    invalid: &dyn Fn(usize, String) -> RegistriesError,
) -> Result<Vec<Mirror>, RegistriesError> {
    let mut mirrors = Vec::new();
    for mirror in raw {
        let at = mirror.span().start;
        let mirror = mirror.into_inner();
        let use_for = match (mirror.pull_from_mirror.as_deref(), digest_only) {
            (_, true) | (Some("digest-only"), _) => UseFor::DigestOnly,
            (None | Some("" | "all"), false) => UseFor::All,
            (Some("tag-only"), false) => UseFor::TagOnly,
            (Some(other), false) => {
                return Err(invalid(
                    at,
                    format!(
                        "unsupported pull-from-mirror value {other:?}: use all, digest-only or tag-only"
                    ),
                ));
            }
        };
        if mirror.location.is_empty() || mirror.location.contains("://") {
            return Err(invalid(
                at,
                format!("invalid mirror location {:?}", mirror.location),
            ));
        }
        mirrors.push(Mirror {
            location: mirror.location,
            insecure: mirror.insecure,
            use_for,
        });
    }
    Ok(mirrors)
}

/// A version 1 file: insecure and blocked hosts.
fn version_1(v1: &V1Tables) -> Vec<Entry> {
    let entry = |host: &String, insecure: bool, blocked: bool| Entry {
        prefix: host.clone(),
        location: host.clone(),
        insecure,
        blocked,
        mirrors: Vec::new(),
    };
    let mut entries: Vec<Entry> = v1
        .insecure
        .registries
        .iter()
        .map(|h| entry(h, true, false))
        .collect();
    let mut at: HashMap<String, usize> = HashMap::new();
    for (index, entry) in entries.iter().enumerate() {
        at.entry(entry.prefix.clone()).or_insert(index);
    }
    for host in &v1.block.registries {
        if let Some(&found) = at.get(host) {
            entries[found].blocked = true;
        } else {
            at.insert(host.clone(), entries.len());
            entries.push(entry(host, false, true));
        }
    }
    entries
}

impl Registries {
    /// A later file's entries replace earlier ones of the same prefix.
    /// (In linear time: the replaced entries are dropped in one pass.)
    fn merge(&mut self, entries: Vec<Entry>) {
        let mut last: HashMap<String, usize> = HashMap::new();
        let all: Vec<Entry> = std::mem::take(&mut self.entries)
            .into_iter()
            .chain(entries)
            .collect();
        for (index, entry) in all.iter().enumerate() {
            last.insert(entry.prefix.clone(), index);
        }
        self.entries = all
            .into_iter()
            .enumerate()
            .filter(|(index, entry)| last[&entry.prefix] == *index)
            .map(|(_, entry)| entry)
            .collect();
    }

    /// Where to pull `reference` (as written) from, in order: the mirrors that
    /// apply, then the registry's location; an error when the registry is blocked.
    pub(crate) fn sources(&self, reference: &str) -> Result<Vec<Source>, String> {
        let name_end = name_length(reference);
        let name = &reference[..name_end];
        let best = self
            .entries
            .iter()
            .filter_map(|entry| Some((prefix_match(name, &entry.prefix)?, entry)))
            .max_by_key(|(length, _)| *length);
        let Some((_, entry)) = best else {
            return Ok(vec![Source {
                reference: reference.to_owned(),
                insecure: false,
            }]);
        };
        if entry.blocked {
            return Err(format!(
                "registry {} is blocked in {}",
                entry.prefix,
                self.files
                    .iter()
                    .map(|path| path.display().to_string())
                    .collect::<Vec<_>>()
                    .join(" or ")
            ));
        }
        let matched = prefix_match(reference, &entry.prefix).unwrap_or(name_end);
        let rest = &reference[matched..];
        let pinned = reference[name_end..].starts_with('@');
        let mut sources: Vec<Source> = entry
            .mirrors
            .iter()
            .filter(|mirror| match mirror.use_for {
                UseFor::All => true,
                UseFor::DigestOnly => pinned,
                UseFor::TagOnly => !pinned,
            })
            .map(|mirror| Source {
                reference: format!("{}{rest}", mirror.location),
                insecure: mirror.insecure,
            })
            .collect();
        sources.push(Source {
            reference: if entry.location.is_empty() {
                reference.to_owned()
            } else {
                format!("{}{rest}", entry.location)
            },
            insecure: entry.insecure,
        });
        Ok(sources)
    }
}

/// The length of the repository name of a reference: before its digest, or before
/// a tag (a `:` after the last `/`).
fn name_length(reference: &str) -> usize {
    let without_digest = reference.find('@').unwrap_or(reference.len());
    let last_slash = reference[..without_digest].rfind('/').unwrap_or(0);
    reference[last_slash..without_digest]
        .find(':')
        .map_or(without_digest, |colon| last_slash + colon)
}

/// containers/image's `refMatchingPrefix`: the length of the match, if `prefix`
/// (or, for `*.example.com`, a host under it) starts `reference` up to a `/`, `:`
/// or `@`.
fn prefix_match(reference: &str, prefix: &str) -> Option<usize> {
    let boundary =
        |at: usize| at == reference.len() || matches!(reference.as_bytes()[at], b':' | b'/' | b'@');
    if let Some(domain) = prefix.strip_prefix('*') {
        let index = reference.find(domain)?;
        if reference[..index].contains('/') {
            return None;
        }
        let end = index + domain.len();
        return boundary(end).then_some(end);
    }
    (reference.starts_with(prefix) && boundary(prefix.len())).then_some(prefix.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registries(text: &str) -> Registries {
        let mut registries = Registries {
            files: vec![PathBuf::from("r.conf")],
            ..Registries::default()
        };
        registries.merge(parse(Path::new("r.conf"), text).expect("valid"));
        registries
    }

    fn source(reference: &str, insecure: bool) -> Source {
        Source {
            reference: reference.to_owned(),
            insecure,
        }
    }

    const CONF: &str = r#"
unqualified-search-registries = ["docker.io"]

[[registry]]
prefix = "quay.io/ex"
location = "quay.io/ex"

[[registry.mirror]]
location = "127.0.0.1:5000/ex"
insecure = true

[[registry.mirror]]
location = "mirror.example.com/by-digest"
pull-from-mirror = "digest-only"

[[registry]]
location = "quay.io/ex/blocked"
blocked = true

[[registry]]
prefix = "*.internal"
insecure = true
"#;

    #[test]
    fn mirrors_come_first_by_longest_prefix() {
        let registries = registries(CONF);
        assert_eq!(
            registries.sources("quay.io/ex/foo:v1"),
            Ok(vec![
                source("127.0.0.1:5000/ex/foo:v1", true),
                source("quay.io/ex/foo:v1", false)
            ])
        );
        assert_eq!(
            registries.sources("quay.io/ex/foo@sha256:ab"),
            Ok(vec![
                source("127.0.0.1:5000/ex/foo@sha256:ab", true),
                source("mirror.example.com/by-digest/foo@sha256:ab", false),
                source("quay.io/ex/foo@sha256:ab", false)
            ])
        );
        assert_eq!(
            registries.sources("quay.io/ex/blocked:1"),
            Err("registry quay.io/ex/blocked is blocked in r.conf".to_owned())
        );
        // `quay.io/exfoo` does not start with the prefix `quay.io/ex` at a boundary.
        assert_eq!(
            registries.sources("quay.io/exfoo:1"),
            Ok(vec![source("quay.io/exfoo:1", false)])
        );
        assert_eq!(
            registries.sources("reg.internal:5000/a:1"),
            Ok(vec![source("reg.internal:5000/a:1", true)])
        );
        assert_eq!(
            registries
                .sources("other.internal.com/a:1")
                .map(|s| s[0].insecure),
            Ok(false)
        );
    }

    #[test]
    fn drop_ins_replace_entries_of_the_same_prefix_and_mixed_files_are_skipped() {
        let dir = tempfile::tempdir().expect("a directory");
        let main = dir.path().join("registries.conf");
        std::fs::write(&main, "[[registry]]\nlocation = 'a.io'\nblocked = true\n")
            .expect("written");
        let drop_ins = dir.path().join("registries.conf.d");
        std::fs::create_dir(&drop_ins).expect("created");
        std::fs::write(
            drop_ins.join("10-a.conf"),
            "[[registry]]\nlocation = 'a.io'\n[[registry.mirror]]\nlocation = 'm.io/a'\n",
        )
        .expect("written");
        std::fs::write(
            drop_ins.join("20-mixed.conf"),
            "[registries.block]\nregistries = ['a.io']\n[[registry]]\nlocation = 'b.io'\n",
        )
        .expect("written");
        std::fs::write(drop_ins.join("ignored.txt"), "not toml [").expect("written");
        let registries = load_from(&main).expect("loaded");
        assert_eq!(
            registries.sources("a.io/x:1"),
            Ok(vec![source("m.io/a/x:1", false), source("a.io/x:1", false)])
        );
        assert_eq!(registries.files.len(), 3);
        assert_eq!(registries.skipped, [drop_ins.join("20-mixed.conf")]);
    }

    #[test]
    fn version_1_files_are_read() {
        let registries = registries(
            "[registries.search]\nregistries = ['docker.io']\n[registries.insecure]\nregistries = ['localhost:5000']\n[registries.block]\nregistries = ['bad.io']\n",
        );
        assert_eq!(
            registries.sources("localhost:5000/a:1"),
            Ok(vec![source("localhost:5000/a:1", true)])
        );
        assert!(registries.sources("bad.io/a:1").is_err());
    }

    #[test]
    fn bad_files_are_named_with_their_line() {
        let error = parse(Path::new("r.conf"), "[[registry]]\nlocation = 'a.io'\n\n[[registry.mirror]]\nlocation = 'b.io'\npull-from-mirror = 'sometimes'\n")
            .expect_err("refused");
        assert_eq!(
            error.to_string(),
            "r.conf:4: unsupported pull-from-mirror value \"sometimes\": use all, digest-only or tag-only"
        );
        let error =
            parse(Path::new("r.conf"), "[[registry]]\nlocation = 5\n").expect_err("refused");
        assert!(error.to_string().starts_with("r.conf:2: "), "{error}");
    }
}
