//! A content-addressed cache under `$XDG_CACHE_HOME/fbc` (or `~/.cache/fbc`): layer
//! blobs by their digest, and, for references pinned by digest, the manifest and
//! config they resolved to, so a second render of the same digest needs no network.
//! Entries are written atomically and checked against their digest when read; a
//! damaged entry is ignored and fetched again.

use std::path::{Path, PathBuf};

use oci_client::manifest::OciImageManifest;
use sha2::{Digest, Sha256};

/// The start of a download's temporary name (then the process id).
const DOWNLOAD: &str = ".download-";

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
    pub(super) fn blob(&self, digest: &str) -> Option<PathBuf> {
        let path = self.blob_path(digest)?;
        // A link to a device or a FIFO, or a sparse giant, is no blob of ours.
        let file = crate::files::limits::open_regular(&path).ok()?;
        let size = file.metadata().ok()?.len();
        if size > crate::files::limits::get().max_image_size {
            return None;
        }
        (sha256_of(file).ok()? == digest).then_some(path)
    }

    /// A temporary file beside the blobs, for a download that [`Cache::keep`] may
    /// then move into place; `None` when the cache cannot be written.
    pub(super) fn download_file(&self) -> Option<tempfile::NamedTempFile> {
        let dir = self.root.join("blobs/sha256");
        std::fs::create_dir_all(&dir).ok()?;
        crate::files::stale::sweep(&dir, DOWNLOAD, "");
        tempfile::Builder::new()
            .prefix(&crate::files::stale::prefix(DOWNLOAD))
            .tempfile_in(dir)
            .ok()
    }

    /// Moves a downloaded blob (already checked against its digest) into the cache;
    /// the path to read it from afterwards, wherever it ended up.
    pub(super) fn keep(&self, digest: &str, file: tempfile::NamedTempFile) -> super::LayerFile {
        match self.blob_path(digest) {
            Some(path) => match file.persist(&path) {
                Ok(_) => super::LayerFile::Cached(path),
                Err(error) => super::LayerFile::Temporary(error.file.into_temp_path()),
            },
            None => super::LayerFile::Temporary(file.into_temp_path()),
        }
    }

    fn resolved_path(&self, digest: &str) -> Option<PathBuf> {
        let blob = self.blob_path(digest)?;
        Some(self.root.join("resolved").join(blob.file_name()?))
    }

    /// The manifest and config an image pinned by `digest` resolved to.
    pub(super) fn resolved(&self, digest: &str) -> Option<(OciImageManifest, String)> {
        let bytes = crate::files::limits::read_file(&self.resolved_path(digest)?).ok()?;
        let (manifest, config): (OciImageManifest, String) = serde_json::from_slice(&bytes).ok()?;
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

impl Cache {
    fn tag_path(&self, reference: &str) -> Option<PathBuf> {
        let key = sha256_of(reference.as_bytes()).ok()?;
        Some(self.root.join("tags").join(key.strip_prefix("sha256:")?))
    }

    /// The digest a tagged reference (as written) resolved to when last pulled.
    pub(super) fn tag(&self, reference: &str) -> Option<String> {
        let bytes = crate::files::limits::read_file(&self.tag_path(reference)?).ok()?;
        let digest = std::str::from_utf8(&bytes).ok()?.trim();
        self.blob_path(digest).map(|_| digest.to_owned())
    }

    fn entry_path(&self, kind: &str, key: &str) -> Option<PathBuf> {
        let hashed = sha256_of(key.as_bytes()).ok()?;
        Some(self.root.join(kind).join(hashed.strip_prefix("sha256:")?))
    }

    pub(super) fn entry(&self, kind: &str, key: &str) -> Option<Vec<u8>> {
        crate::files::limits::read_file(&self.entry_path(kind, key)?).ok()
    }

    pub(super) fn store_entry(&self, kind: &str, key: &str, data: &[u8]) {
        if let Some(path) = self.entry_path(kind, key) {
            write_atomically(&path, data);
        }
    }

    pub(super) fn store_tag(&self, reference: &str, digest: &str) {
        if self.tag(reference).as_deref() == Some(digest) {
            return;
        }
        if let Some(path) = self.tag_path(reference) {
            write_atomically(&path, digest.as_bytes());
        }
    }
}

/// The `sha256:<hex>` digest of everything `reader` yields.
pub(crate) fn sha256_of(mut reader: impl std::io::Read) -> std::io::Result<String> {
    let mut hasher = Sha256::new();
    let mut buffer = vec![0; 1 << 16];
    loop {
        match reader.read(&mut buffer)? {
            0 => break,
            read => hasher.update(&buffer[..read]),
        }
    }
    Ok(format!("sha256:{}", crate::digest::hex(&hasher.finalize())))
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
        let digest = sha256_of(&b"layer"[..]).expect("hashed");
        assert_eq!(cache.blob(&digest), None);
        let mut download = cache.download_file().expect("a download file");
        std::io::Write::write_all(&mut download, b"layer").expect("written");
        let kept = cache.keep(&digest, download);
        let path = cache.blob(&digest).expect("cached");
        assert!(matches!(kept, crate::image::LayerFile::Cached(ref at) if *at == path));
        assert_eq!(std::fs::read(&path).expect("read"), b"layer");
        // A damaged blob is not returned; a digest that is not one has no path.
        std::fs::write(&path, b"damaged").expect("written");
        assert_eq!(cache.blob(&digest), None);
        assert_eq!(cache.blob_path("sha256:../../etc"), None);
    }
}
