//! Applying image layers to a directory: gzip or plain tar, in order, with OCI
//! whiteouts (`.wh.<name>` removes a path, `.wh..wh..opq` empties a directory).
//! Nothing may land outside the directory: absolute paths, `..`, links whose
//! target leaves it, and writing through a link are refused, naming the entry.

use std::io::Read;
use std::path::{Component, Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub(crate) enum UnpackError {
    #[error("layer entry {entry:?} would be written outside the image root")]
    Escape { entry: String },
    #[error("layer entry {entry:?} is a link to {target:?}, outside the image root")]
    LinkEscape { entry: String, target: String },
    #[error("layer entry {entry:?} would be written through the link {link:?}")]
    ThroughLink { entry: String, link: String },
    #[error("layer media type {0:?} is not supported")]
    MediaType(String),
    #[error("layer entry {entry:?}: {source}")]
    Io {
        entry: String,
        #[source]
        source: std::io::Error,
    },
    #[error("reading the layer: {0}")]
    Archive(#[source] std::io::Error),
    #[error("interrupted")]
    Interrupted,
    #[error(
        "the layers unpack to more than {limit} (FBC_MAX_IMAGE_SIZE; raise it for a larger image)"
    )]
    TooLarge { limit: String },
}

const WHITEOUT: &str = ".wh.";
const OPAQUE: &str = ".wh..wh..opq";

/// How many unpacked bytes the layers of one image may still produce (tar
/// headers included), so that a gzip bomb fills neither the disk nor the time.
pub(crate) struct Budget {
    left: u64,
    limit: u64,
    spent: bool,
}

impl Budget {
    pub(crate) fn new(limit: u64) -> Budget {
        Budget {
            left: limit,
            limit,
            spent: false,
        }
    }
}

/// A reader that fails once the budget is spent.
struct Counted<'a, R> {
    inner: R,
    budget: &'a mut Budget,
}

impl<R: Read> Read for Counted<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let read = self.inner.read(buf)?;
        if let Some(left) = self.budget.left.checked_sub(read as u64) {
            self.budget.left = left;
            Ok(read)
        } else {
            self.budget.spent = true;
            Err(std::io::Error::other(
                "the unpacked image is larger than its limit",
            ))
        }
    }
}

/// Applies one layer blob (gzip or plain tar) to `root`.
pub(crate) fn layer(
    media_type: &str,
    blob: impl Read,
    root: &Path,
    budget: &mut Budget,
) -> Result<(), UnpackError> {
    if media_type.contains("zstd") {
        return Err(UnpackError::MediaType(media_type.to_owned()));
    }
    let mut blob = std::io::BufReader::new(blob);
    let gzip = std::io::BufRead::fill_buf(&mut blob)
        .map_err(UnpackError::Archive)?
        .starts_with(&[0x1f, 0x8b]);
    let result = if gzip {
        let inner = flate2::read::GzDecoder::new(blob);
        apply(
            Counted {
                inner,
                budget: &mut *budget,
            },
            root,
        )
    } else {
        apply(
            Counted {
                inner: blob,
                budget: &mut *budget,
            },
            root,
        )
    };
    // Whatever error the archive reader made of it, a spent budget is the cause.
    result.map_err(|error| {
        if budget.spent {
            UnpackError::TooLarge {
                limit: crate::files::limits::show_size(budget.limit),
            }
        } else {
            error
        }
    })
}

fn apply(reader: impl Read, root: &Path) -> Result<(), UnpackError> {
    let mut archive = tar::Archive::new(reader);
    for entry in archive.entries().map_err(UnpackError::Archive)? {
        if crate::process::interrupt::stopping() {
            return Err(UnpackError::Interrupted);
        }
        let mut entry = entry.map_err(UnpackError::Archive)?;
        let raw = entry.path().map_err(UnpackError::Archive)?.into_owned();
        let shown = raw.display().to_string();
        let relative = confine(&raw).ok_or_else(|| UnpackError::Escape {
            entry: shown.clone(),
        })?;
        let io = |source| UnpackError::Io {
            entry: shown.clone(),
            source,
        };
        check_parents(root, &relative, &shown)?;
        let name = relative
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        let target = root.join(&relative);
        if name == OPAQUE {
            if let Some(dir) = target.parent() {
                empty_directory(dir).map_err(io)?;
            }
            continue;
        }
        if let Some(hidden) = name.strip_prefix(WHITEOUT) {
            // `.wh..` and `.wh...` would name the directory itself or its parent.
            if matches!(hidden, "" | "." | "..") {
                return Err(UnpackError::Escape { entry: shown });
            }
            remove(&target.with_file_name(hidden)).map_err(io)?;
            continue;
        }
        let kind = entry.header().entry_type();
        if kind.is_dir() {
            std::fs::create_dir_all(&target).map_err(io)?;
            continue;
        }
        // Anything but a directory at `.` would replace the root itself.
        if relative.as_os_str().is_empty() {
            return Err(UnpackError::Escape { entry: shown });
        }
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(io)?;
        }
        remove(&target).map_err(io)?;
        if kind.is_symlink() || kind.is_hard_link() {
            let link = entry
                .link_name()
                .map_err(UnpackError::Archive)?
                .unwrap_or_default()
                .into_owned();
            let escape = || UnpackError::LinkEscape {
                entry: shown.clone(),
                target: link.display().to_string(),
            };
            if kind.is_symlink() {
                let base = relative.parent().unwrap_or(Path::new(""));
                confine(&base.join(&link))
                    .filter(|_| !link.is_absolute())
                    .ok_or_else(escape)?;
                std::os::unix::fs::symlink(&link, &target).map_err(io)?;
            } else {
                let source = confine(&link).ok_or_else(escape)?;
                check_parents(root, &source, &shown)?;
                std::fs::hard_link(root.join(source), &target).map_err(io)?;
            }
        } else if kind.is_file() || kind == tar::EntryType::Continuous {
            let mut file = std::fs::File::create(&target).map_err(io)?;
            std::io::copy(&mut entry, &mut file).map_err(io)?;
        }
        // Devices, FIFOs and other special entries are not needed to read a
        // catalog or a bundle, and are skipped.
    }
    Ok(())
}

/// Checks, once every layer is applied, that each symbolic link under `root`
/// resolves inside it. Each link was checked on its own as it was written, but a
/// chain of links can still climb out (`a -> d/..` where `d` is itself a link), so
/// the links are resolved here as the file system will resolve them when read.
/// A link that resolves to nothing is left: reading it fails, naming the file.
pub(crate) fn links_stay_inside(root: &Path) -> Result<(), UnpackError> {
    let io = |entry: &Path| {
        let entry = entry.display().to_string();
        move |source| UnpackError::Io { entry, source }
    };
    let real_root = root.canonicalize().map_err(io(Path::new(".")))?;
    let mut pending = vec![PathBuf::new()];
    while let Some(relative) = pending.pop() {
        for entry in std::fs::read_dir(root.join(&relative)).map_err(io(&relative))? {
            let entry = entry.map_err(io(&relative))?;
            let path = relative.join(entry.file_name());
            let file_type = entry.file_type().map_err(io(&path))?;
            if file_type.is_dir() {
                pending.push(path);
            } else if file_type.is_symlink()
                && let Ok(resolved) = entry.path().canonicalize()
                && !resolved.starts_with(&real_root)
            {
                let target = std::fs::read_link(entry.path()).map_err(io(&path))?;
                return Err(UnpackError::LinkEscape {
                    entry: path.display().to_string(),
                    target: target.display().to_string(),
                });
            }
        }
    }
    Ok(())
}

/// The path made relative and normalised, or `None` when it climbs out.
pub(crate) fn confine(path: &Path) -> Option<PathBuf> {
    let mut parts: Vec<&std::ffi::OsStr> = Vec::new();
    for component in path.components() {
        match component {
            Component::Normal(part) => parts.push(part),
            Component::CurDir => {}
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(parts.iter().collect())
}

/// Refuses to write below a symbolic link: it could point anywhere.
fn check_parents(root: &Path, relative: &Path, shown: &str) -> Result<(), UnpackError> {
    let mut current = root.to_path_buf();
    let mut parents = relative.components().collect::<Vec<_>>();
    parents.pop();
    for part in parents {
        current.push(part);
        if current
            .symlink_metadata()
            .is_ok_and(|metadata| metadata.file_type().is_symlink())
        {
            return Err(UnpackError::ThroughLink {
                entry: shown.to_owned(),
                link: current
                    .strip_prefix(root)
                    .unwrap_or(&current)
                    .display()
                    .to_string(),
            });
        }
    }
    Ok(())
}

fn remove(path: &Path) -> std::io::Result<()> {
    match path.symlink_metadata() {
        Ok(metadata) if metadata.is_dir() => std::fs::remove_dir_all(path),
        Ok(_) => std::fs::remove_file(path),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(error) => Err(error),
    }
}

fn empty_directory(dir: &Path) -> std::io::Result<()> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    for entry in entries {
        remove(&entry?.path())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tar with the given entries: (path, kind, content or link target).
    fn archive(entries: &[(&str, tar::EntryType, &str)]) -> Vec<u8> {
        let mut builder = tar::Builder::new(Vec::new());
        for (path, kind, data) in entries {
            let mut header = tar::Header::new_gnu();
            header.set_entry_type(*kind);
            header.set_mode(0o644);
            if kind.is_symlink() || kind.is_hard_link() {
                header.set_size(0);
                builder
                    .append_link(&mut header, path, data)
                    .expect("a link entry");
            } else {
                header.set_size(data.len() as u64);
                // `append_data` would refuse `..`; write the name raw to test it.
                header.as_old_mut().name[..path.len()].copy_from_slice(path.as_bytes());
                header.set_cksum();
                builder.append(&header, data.as_bytes()).expect("an entry");
            }
        }
        builder.into_inner().expect("a tar")
    }

    #[test]
    fn layers_apply_in_order_with_whiteouts() {
        let root = tempfile::tempdir().expect("a directory");
        let file = tar::EntryType::Regular;
        let first = archive(&[
            ("configs/a.yaml", file, "a"),
            ("configs/b.yaml", file, "b"),
            ("old/x", file, "x"),
        ]);
        let second = archive(&[
            ("configs/.wh.a.yaml", file, ""),
            ("old/.wh..wh..opq", file, ""),
            ("configs/c.yaml", file, "c"),
        ]);
        layer(
            "application/vnd.oci.image.layer.v1.tar",
            first.as_slice(),
            root.path(),
            &mut Budget::new(1 << 20),
        )
        .expect("applies");
        layer(
            "application/vnd.oci.image.layer.v1.tar",
            second.as_slice(),
            root.path(),
            &mut Budget::new(1 << 20),
        )
        .expect("applies");
        let read = |p: &str| std::fs::read_to_string(root.path().join(p)).ok();
        assert_eq!(read("configs/a.yaml"), None);
        assert_eq!(read("configs/b.yaml").as_deref(), Some("b"));
        assert_eq!(read("configs/c.yaml").as_deref(), Some("c"));
        assert_eq!(read("old/x"), None);
        assert!(root.path().join("old").is_dir());
    }

    /// Layer entries and the error they must give.
    type Case<'a> = (&'a [(&'a str, tar::EntryType, &'a str)], &'a str);

    #[test]
    fn escapes_are_refused() {
        let file = tar::EntryType::Regular;
        let link = tar::EntryType::Symlink;
        let hard = tar::EntryType::Link;
        let cases: [Case<'_>; 8] = [
            (
                &[("../evil", file, "x")],
                "layer entry \"../evil\" would be written outside the image root",
            ),
            (
                &[("/etc/evil", file, "x")],
                "layer entry \"/etc/evil\" would be written outside the image root",
            ),
            (
                &[("link", hard, "../../etc/passwd")],
                "layer entry \"link\" is a link to \"../../etc/passwd\", outside the image root",
            ),
            (
                &[("link", hard, "/etc/passwd")],
                "layer entry \"link\" is a link to \"/etc/passwd\", outside the image root",
            ),
            (
                &[("dir/up", link, ".."), ("dir/up/x", file, "x")],
                "layer entry \"dir/up/x\" would be written through the link \"dir/up\"",
            ),
            (
                &[("a/../../evil", file, "x")],
                "layer entry \"a/../../evil\" would be written outside the image root",
            ),
            (
                &[("link", link, "/etc")],
                "layer entry \"link\" is a link to \"/etc\", outside the image root",
            ),
            (
                &[("dir/link", link, "."), ("dir/link/x", file, "x")],
                "layer entry \"dir/link/x\" would be written through the link \"dir/link\"",
            ),
        ];
        for (entries, message) in cases {
            let root = tempfile::tempdir().expect("a directory");
            let error = layer(
                "application/vnd.oci.image.layer.v1.tar",
                archive(entries).as_slice(),
                root.path(),
                &mut Budget::new(1 << 20),
            )
            .expect_err(message);
            assert_eq!(error.to_string(), message);
        }
    }

    #[test]
    fn whiteouts_and_entries_that_name_the_root_or_its_parent_are_refused() {
        let file = tar::EntryType::Regular;
        for entry in [".wh...", "dir/.wh...", ".wh..", "dir/.wh..", ".", "./"] {
            let scratch = tempfile::tempdir().expect("a directory");
            let root = scratch.path().join("root");
            std::fs::create_dir_all(root.join("dir")).expect("a directory");
            std::fs::write(scratch.path().join("beside"), "kept").expect("a file");
            std::fs::write(root.join("dir/inside"), "kept").expect("a file");
            let error = layer(
                "tar",
                archive(&[(entry, file, "")]).as_slice(),
                &root,
                &mut Budget::new(1 << 20),
            )
            .expect_err(entry);
            assert_eq!(
                error.to_string(),
                format!("layer entry {entry:?} would be written outside the image root")
            );
            assert!(scratch.path().join("beside").is_file(), "{entry}");
            assert!(root.join("dir/inside").is_file(), "{entry}");
        }
    }

    #[test]
    fn a_chain_of_links_that_climbs_out_is_refused() {
        let link = tar::EntryType::Symlink;
        let scratch = tempfile::tempdir().expect("a directory");
        let root = scratch.path().join("root");
        std::fs::create_dir(&root).expect("a directory");
        // Each link alone stays inside, but `a/b` is the root itself, so `out`,
        // `a/b/..`, is the root's parent.
        let entries: &[(&str, tar::EntryType, &str)] = &[
            ("a/b", link, ".."),
            ("a/x", tar::EntryType::Regular, "x"),
            ("out", link, "a/b/.."),
            ("ok", link, "a/x"),
        ];
        layer(
            "tar",
            archive(entries).as_slice(),
            &root,
            &mut Budget::new(1 << 20),
        )
        .expect("each link alone stays inside");
        let error = links_stay_inside(&root).expect_err("the chain climbs out");
        assert_eq!(
            error.to_string(),
            "layer entry \"out\" is a link to \"a/b/..\", outside the image root"
        );
        std::fs::remove_file(root.join("out")).expect("removed");
        links_stay_inside(&root).expect("the other links stay inside");
    }

    #[test]
    fn gzip_layers_are_read() {
        use std::io::Write;
        let tar = archive(&[("configs/a.yaml", tar::EntryType::Regular, "a")]);
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(&tar).expect("compresses");
        let gz = encoder.finish().expect("compresses");
        let root = tempfile::tempdir().expect("a directory");
        layer(
            "application/vnd.oci.image.layer.v1.tar+gzip",
            gz.as_slice(),
            root.path(),
            &mut Budget::new(1 << 20),
        )
        .expect("applies");
        assert_eq!(
            std::fs::read_to_string(root.path().join("configs/a.yaml")).expect("written"),
            "a"
        );
    }

    #[test]
    fn a_gzip_bomb_stops_at_the_budget() {
        use std::io::Write;
        // 64 MiB of zeros in one entry compresses to about 64 KiB.
        let mut builder = tar::Builder::new(Vec::new());
        let mut header = tar::Header::new_gnu();
        header.set_size(64 << 20);
        header.set_mode(0o644);
        header.set_cksum();
        builder
            .append_data(&mut header, "zeros", std::io::repeat(0).take(64 << 20))
            .expect("archived");
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        encoder
            .write_all(&builder.into_inner().expect("a tar"))
            .expect("compresses");
        let bomb = encoder.finish().expect("compresses");
        assert!(bomb.len() < 1 << 20);
        let root = tempfile::tempdir().expect("a directory");
        let error = layer(
            "tar+gzip",
            bomb.as_slice(),
            root.path(),
            &mut Budget::new(1 << 20),
        )
        .expect_err("over budget");
        assert!(matches!(error, UnpackError::TooLarge { .. }), "{error}");
        assert_eq!(
            error.to_string(),
            "the layers unpack to more than 1 MiB (FBC_MAX_IMAGE_SIZE; raise it for a larger image)"
        );
        let written = std::fs::metadata(root.path().join("zeros")).map_or(0, |m| m.len());
        assert!(written <= 1 << 20, "{written} bytes written");
    }

    #[test]
    fn a_truncated_layer_is_an_error() {
        use std::io::Write;
        let tar = archive(&[("configs/a.yaml", tar::EntryType::Regular, &"a".repeat(5000))]);
        let cut = &tar[..tar.len() / 3];
        let root = tempfile::tempdir().expect("a directory");
        let plain = layer("tar", cut, root.path(), &mut Budget::new(1 << 20));
        assert!(plain.is_err(), "a truncated tar is refused");
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(&tar).expect("compresses");
        let gz = encoder.finish().expect("compresses");
        let error = layer(
            "tar+gzip",
            &gz[..gz.len() / 2],
            root.path(),
            &mut Budget::new(1 << 20),
        )
        .expect_err("a truncated gzip stream is refused");
        assert!(
            error.to_string().contains("a.yaml")
                || error.to_string().starts_with("reading the layer"),
            "{error}"
        );
    }
}
