//! Image layers made by fbc: a tar file of known entries, the same bytes for the
//! same entries every time (entries in the given order, fixed owners, modes and
//! times, gzip at a fixed level), with its digests taken as it is written.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use sha2::{Digest as _, Sha256};

/// One entry of a layer, by its path in the image (no leading `/`).
pub(crate) struct Entry {
    pub(crate) path: String,
    pub(crate) kind: Kind,
}

pub(crate) enum Kind {
    Directory {
        mode: u32,
    },
    /// A file copied from the disk.
    File {
        source: PathBuf,
        mode: u32,
    },
    Symlink {
        target: PathBuf,
    },
}

/// A gzip-compressed layer in a temporary file.
pub(crate) struct Layer {
    pub(crate) file: tempfile::TempPath,
    /// `sha256:...` of the compressed bytes.
    pub(crate) digest: String,
    pub(crate) size: u64,
    /// `sha256:...` of the tar file (the config's `rootfs.diff_ids`).
    pub(crate) diff_id: String,
}

/// The gzip level: fixed, so that the same tar file always compresses the same.
const LEVEL: u32 = 6;

/// Writes `entries`, each stamped `mtime` and owned by root, into a new layer.
pub(crate) fn write(entries: &[Entry], mtime: u64) -> io::Result<Layer> {
    let file = tempfile::NamedTempFile::new()?;
    let compressed = Hashing::new(file.as_file().try_clone()?);
    let gzip = flate2::GzBuilder::new()
        .mtime(0)
        .write(compressed, flate2::Compression::new(LEVEL));
    let mut tar = tar::Builder::new(Hashing::new(gzip));
    for entry in entries {
        append(&mut tar, entry, mtime)?;
    }
    let tarred = tar.into_inner()?;
    let diff_id = tarred.digest();
    let compressed = tarred.inner.finish()?;
    let (digest, size) = (compressed.digest(), compressed.written);
    compressed.inner.sync_all()?;
    Ok(Layer {
        file: file.into_temp_path(),
        digest,
        size,
        diff_id,
    })
}

fn append<W: Write>(tar: &mut tar::Builder<W>, entry: &Entry, mtime: u64) -> io::Result<()> {
    let mut header = tar::Header::new_gnu();
    header.set_mtime(mtime);
    header.set_uid(0);
    header.set_gid(0);
    match &entry.kind {
        Kind::Directory { mode } => {
            header.set_entry_type(tar::EntryType::Directory);
            header.set_mode(*mode);
            header.set_size(0);
            let path = format!("{}/", entry.path.trim_end_matches('/'));
            tar.append_data(&mut header, path, io::empty())
        }
        Kind::File { source, mode } => {
            let file = crate::files::limits::open_regular(source)
                .map_err(|error| io::Error::other(format!("{}: {error}", source.display())))?;
            let size = file.metadata()?.len();
            header.set_entry_type(tar::EntryType::Regular);
            header.set_mode(*mode);
            header.set_size(size);
            // The size read is the size written: a file that grows meanwhile
            // cannot make the entry longer than its header says.
            tar.append_data(&mut header, &entry.path, file.take(size))
        }
        Kind::Symlink { target } => {
            header.set_entry_type(tar::EntryType::Symlink);
            header.set_mode(0o777);
            header.set_size(0);
            tar.append_link(&mut header, &entry.path, target)
        }
    }
}

/// The entries of directory `root` below `prefix` in the image: `prefix` itself,
/// then everything under it in byte order of the paths, directories before
/// their contents. Files are 0644, directories 0755; a link to a file is the
/// file it leads to (as the catalog loader reads it), other links stay links.
pub(crate) fn tree(root: &Path, prefix: &str) -> io::Result<Vec<Entry>> {
    let mut entries = vec![Entry {
        path: prefix.to_owned(),
        kind: Kind::Directory { mode: 0o755 },
    }];
    add_tree(root, prefix, &mut entries)?;
    Ok(entries)
}

fn add_tree(dir: &Path, prefix: &str, entries: &mut Vec<Entry>) -> io::Result<()> {
    let failed = |path: &Path, error: io::Error| {
        io::Error::new(error.kind(), format!("{}: {error}", path.display()))
    };
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .map_err(|error| failed(dir, error))?
        .map(|entry| entry.map(|entry| entry.file_name()))
        .collect::<Result<_, _>>()
        .map_err(|error| failed(dir, error))?;
    names.sort();
    for name in names {
        let source = dir.join(&name);
        let Some(text) = name.to_str() else {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{}: the name is not UTF-8", source.display()),
            ));
        };
        let path = format!("{prefix}/{text}");
        let kind = std::fs::symlink_metadata(&source)
            .map_err(|error| failed(&source, error))?
            .file_type();
        if kind.is_dir() {
            entries.push(Entry {
                path: path.clone(),
                kind: Kind::Directory { mode: 0o755 },
            });
            add_tree(&source, &path, entries)?;
        } else if kind.is_file() {
            entries.push(Entry {
                path,
                kind: Kind::File {
                    source,
                    mode: 0o644,
                },
            });
        } else if kind.is_symlink() && std::fs::metadata(&source).is_ok_and(|meta| meta.is_file()) {
            // What the catalog loader read through the link (its target may be
            // outside the directory, and so outside the image).
            entries.push(Entry {
                path,
                kind: Kind::File {
                    source,
                    mode: 0o644,
                },
            });
        } else if kind.is_symlink() {
            let target = std::fs::read_link(&source).map_err(|error| failed(&source, error))?;
            entries.push(Entry {
                path,
                kind: Kind::Symlink { target },
            });
        } else {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "{}: not a file, directory or link (an image holds none of these)",
                    source.display()
                ),
            ));
        }
    }
    Ok(())
}

/// A writer that sums and counts what passes through it.
pub(crate) struct Hashing<W> {
    pub(crate) inner: W,
    sha: Sha256,
    pub(crate) written: u64,
}

impl<W> Hashing<W> {
    pub(crate) fn new(inner: W) -> Hashing<W> {
        Hashing {
            inner,
            sha: Sha256::new(),
            written: 0,
        }
    }

    /// `sha256:...` of what was written so far.
    pub(crate) fn digest(&self) -> String {
        format!(
            "sha256:{}",
            crate::digest::hex(&self.sha.clone().finalize())
        )
    }
}

impl<W: Write> Write for Hashing<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let written = self.inner.write(buf)?;
        self.sha.update(&buf[..written]);
        self.written += written as u64;
        Ok(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> (tempfile::TempDir, Vec<Entry>) {
        let dir = tempfile::tempdir().expect("a temporary directory");
        std::fs::create_dir(dir.path().join("b")).expect("made");
        std::fs::write(dir.path().join("b/z.yaml"), "z: 1\n").expect("written");
        std::fs::write(dir.path().join("a.json"), "{}\n").expect("written");
        std::os::unix::fs::symlink("a.json", dir.path().join("c")).expect("linked");
        std::os::unix::fs::symlink("b", dir.path().join("d")).expect("linked");
        let entries = tree(dir.path(), "configs").expect("listed");
        (dir, entries)
    }

    #[test]
    fn trees_are_listed_in_order_with_fixed_modes() {
        let (_dir, entries) = sample();
        let paths: Vec<&str> = entries.iter().map(|entry| entry.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "configs",
                "configs/a.json",
                "configs/b",
                "configs/b/z.yaml",
                "configs/c",
                "configs/d"
            ]
        );
    }

    #[test]
    fn a_link_to_a_file_is_the_file_it_leads_to() {
        let (dir, entries) = sample();
        let outside = tempfile::NamedTempFile::new().expect("a temporary file");
        std::fs::write(outside.path(), "from outside\n").expect("written");
        std::os::unix::fs::symlink(outside.path(), dir.path().join("e")).expect("linked");
        let entries_now = tree(dir.path(), "configs").expect("listed");
        assert_eq!(entries_now.len(), entries.len() + 1);
        let layer = write(&entries_now, 0).expect("written");
        let bytes = std::fs::read(&layer.file).expect("read");
        let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(bytes.as_slice()));
        let mut found = None;
        for entry in archive.entries().expect("entries") {
            let mut entry = entry.expect("an entry");
            if entry.path().expect("a path").ends_with("e") {
                let mut text = String::new();
                entry.read_to_string(&mut text).expect("UTF-8");
                found = Some((entry.header().entry_type(), text));
            }
        }
        assert_eq!(
            found,
            Some((tar::EntryType::Regular, "from outside\n".to_owned()))
        );
    }

    #[test]
    fn the_same_entries_make_the_same_layer() {
        let (dir, entries) = sample();
        let first = write(&entries, 1_700_000_000).expect("written");
        // Other times and modes on the disk change nothing.
        std::fs::set_permissions(
            dir.path().join("a.json"),
            std::os::unix::fs::PermissionsExt::from_mode(0o600),
        )
        .expect("chmod");
        let second = write(&entries, 1_700_000_000).expect("written");
        assert_eq!(first.digest, second.digest);
        assert_eq!(
            std::fs::read(&first.file).expect("read"),
            std::fs::read(&second.file).expect("read")
        );
        let other = write(&entries, 0).expect("written");
        assert_ne!(first.diff_id, other.diff_id);
        // The digests are those of the bytes.
        let bytes = std::fs::read(&first.file).expect("read");
        assert_eq!(
            first.digest,
            format!("sha256:{}", crate::digest::sha256_hex(&bytes))
        );
        assert_eq!(first.size, bytes.len() as u64);
        let mut tar = Vec::new();
        flate2::read::GzDecoder::new(bytes.as_slice())
            .read_to_end(&mut tar)
            .expect("gzip");
        assert_eq!(
            first.diff_id,
            format!("sha256:{}", crate::digest::sha256_hex(&tar))
        );
        let mut archive = tar::Archive::new(tar.as_slice());
        let listed: Vec<(String, u32, u64, u64)> = archive
            .entries()
            .expect("entries")
            .map(|entry| {
                let entry = entry.expect("an entry");
                let header = entry.header();
                (
                    entry.path().expect("a path").display().to_string(),
                    header.mode().expect("a mode"),
                    header.uid().expect("a uid"),
                    header.mtime().expect("a time"),
                )
            })
            .collect();
        assert_eq!(
            listed,
            [
                ("configs/".to_owned(), 0o755, 0, 1_700_000_000),
                ("configs/a.json".to_owned(), 0o644, 0, 1_700_000_000),
                ("configs/b/".to_owned(), 0o755, 0, 1_700_000_000),
                ("configs/b/z.yaml".to_owned(), 0o644, 0, 1_700_000_000),
                ("configs/c".to_owned(), 0o644, 0, 1_700_000_000),
                ("configs/d".to_owned(), 0o777, 0, 1_700_000_000),
            ]
        );
    }
}
