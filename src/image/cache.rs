//! A content-addressed cache under `$XDG_CACHE_HOME/fbc` (or `~/.cache/fbc`): layer
//! blobs by their digest, and, for references pinned by digest, the manifest and
//! config they resolved to, so a second render of the same digest needs no network.
//! Entries are written atomically and checked against their digest when read; a
//! damaged entry is ignored and fetched again.

use std::path::{Path, PathBuf};

use oci_client::manifest::OciImageManifest;
use sha2::{Digest, Sha256};

pub(super) struct Cache {
    root: PathBuf,
}

impl Cache {
    /// The cache directory, or `None` when no home or cache directory is known.
    pub(super) fn open() -> Option<Cache> {
        let base = std::env::var_os("XDG_CACHE_HOME")
            .filter(|dir| !dir.is_empty())
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache")))?;
        Some(Cache {
            root: base.join("fbc"),
        })
    }

    fn blob_path(&self, digest: &str) -> Option<PathBuf> {
        let hex = digest.strip_prefix("sha256:")?;
        let valid = hex.len() == 64 && hex.bytes().all(|byte| byte.is_ascii_hexdigit());
        valid.then(|| self.root.join("blobs/sha256").join(hex))
    }

    /// A cached blob whose content still has its digest.
    pub(super) fn blob(&self, digest: &str) -> Option<Vec<u8>> {
        let data = std::fs::read(self.blob_path(digest)?).ok()?;
        (sha256(&data) == digest).then_some(data)
    }

    /// Stores a blob; failures only cost a later download.
    pub(super) fn store_blob(&self, digest: &str, data: &[u8]) {
        if let Some(path) = self.blob_path(digest).filter(|_| sha256(data) == digest) {
            write_atomically(&path, data);
        }
    }

    fn resolved_path(&self, digest: &str) -> Option<PathBuf> {
        let blob = self.blob_path(digest)?;
        Some(self.root.join("resolved").join(blob.file_name()?))
    }

    /// The manifest and config an image pinned by `digest` resolved to.
    pub(super) fn resolved(&self, digest: &str) -> Option<(OciImageManifest, String)> {
        let text = std::fs::read_to_string(self.resolved_path(digest)?).ok()?;
        let (manifest, config): (OciImageManifest, String) = serde_json::from_str(&text).ok()?;
        Some((manifest, config))
    }

    pub(super) fn store_resolved(&self, digest: &str, manifest: &OciImageManifest, config: &str) {
        let (Some(path), Ok(text)) = (
            self.resolved_path(digest),
            serde_json::to_vec(&(manifest, config)),
        ) else {
            return;
        };
        write_atomically(&path, &text);
    }
}

fn sha256(data: &[u8]) -> String {
    use std::fmt::Write as _;
    let mut text = String::from("sha256:");
    for byte in Sha256::digest(data) {
        let _ = write!(text, "{byte:02x}");
    }
    text
}

/// Writes through a temporary file in the same directory and renames it, so a
/// reader never sees half an entry.
fn write_atomically(path: &Path, data: &[u8]) {
    let Some(dir) = path.parent() else { return };
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    let Ok(mut file) = tempfile::NamedTempFile::new_in(dir) else {
        return;
    };
    if std::io::Write::write_all(&mut file, data).is_ok() {
        let _ = file.persist(path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blobs_are_kept_by_digest_and_checked_when_read() {
        let dir = tempfile::tempdir().expect("a directory");
        let cache = Cache {
            root: dir.path().to_path_buf(),
        };
        let digest = sha256(b"layer");
        assert_eq!(cache.blob(&digest), None);
        cache.store_blob(&digest, b"layer");
        assert_eq!(cache.blob(&digest).as_deref(), Some(&b"layer"[..]));
        // A blob that does not match its digest is never stored or returned.
        cache.store_blob(&sha256(b"other"), b"layer");
        assert_eq!(cache.blob(&sha256(b"other")), None);
        let path = cache.blob_path(&digest).expect("a path");
        std::fs::write(&path, b"damaged").expect("written");
        assert_eq!(cache.blob(&digest), None);
        assert_eq!(cache.blob_path("sha256:../../etc"), None);
    }
}
