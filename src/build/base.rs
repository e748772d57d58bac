//! The image a catalog image is built on: fbc's own (the running binary, when it
//! is static, laid out as the project's `Containerfile` lays it out), or any
//! image by reference (a registry, `oci:`, `docker-archive:`), whose layers are
//! copied as they are.

use serde_json::{Map, Value, json};

use super::layer::{self, Entry, Kind};
use super::{Blob, BuildError, Descriptor};
use crate::image::{LayerFile, PullOptions};

pub(super) struct Base {
    pub(super) layers: Vec<Blob>,
    /// The base's config (`architecture`, `os`, `config`, `rootfs`, `history`...).
    pub(super) config: Map<String, Value>,
    /// fbc's own: its entry point is fbc, which reads fbc's serve cache.
    pub(super) fbc: bool,
    /// What keeps the layers' files until the image is written.
    _files: Vec<LayerFile>,
    _made: Option<tempfile::TempPath>,
}

pub(super) const OCI_LAYER: &str = "application/vnd.oci.image.layer.v1.tar+gzip";

/// fbc's own base: `/fbc` (this binary, which must be static), `/tmp` and the
/// home the `Containerfile` gives it, with its environment and entry point.
pub(super) fn own(mtime: u64) -> Result<Base, BuildError> {
    let exe = std::env::current_exe()
        .map_err(|error| BuildError::Base(format!("cannot find this fbc's binary: {error}")))?;
    // The ELF header and program headers are at the start of the file.
    let mut head = Vec::new();
    std::fs::File::open(&exe)
        .and_then(|file| {
            std::io::Read::read_to_end(&mut std::io::Read::take(file, 64 << 10), &mut head)
        })
        .map_err(|error| BuildError::Base(format!("{}: {error}", exe.display())))?;
    if !is_static(&head) {
        return Err(BuildError::NotStatic { binary: exe });
    }
    let entries = [
        Entry {
            path: "fbc".to_owned(),
            kind: Kind::File {
                source: exe,
                mode: 0o755,
            },
        },
        Entry {
            path: "home".to_owned(),
            kind: Kind::Directory { mode: 0o755 },
        },
        Entry {
            path: "home/fbc".to_owned(),
            kind: Kind::Directory { mode: 0o755 },
        },
        Entry {
            path: "tmp".to_owned(),
            kind: Kind::Directory { mode: 0o1777 },
        },
    ];
    let made =
        layer::write(&entries, mtime).map_err(|error| BuildError::Layer(error.to_string()))?;
    let created = crate::text::time::rfc3339(mtime);
    let config = json!({
        "architecture": go_arch(),
        "os": "linux",
        "config": {
            "Env": ["HOME=/home/fbc", "TMPDIR=/tmp"],
            "Entrypoint": ["/fbc"],
        },
        "rootfs": {"type": "layers", "diff_ids": [made.diff_id]},
        "history": [{
            "created": created,
            "created_by": format!("fbc build: fbc {}", crate::VERSION),
        }],
    });
    let Value::Object(config) = config else {
        unreachable!("an object was written")
    };
    Ok(Base {
        layers: vec![Blob {
            descriptor: Descriptor::new(OCI_LAYER, made.digest, made.size),
            path: made.file.to_path_buf(),
        }],
        config,
        fbc: true,
        _files: Vec::new(),
        _made: Some(made.file),
    })
}

/// The image `reference` names (for this platform), its layers as they are stored.
pub(super) fn pulled(reference: &str, options: PullOptions) -> Result<Base, BuildError> {
    let (manifest, config, files, _) = crate::image::fetch_image(reference, None, options)
        .map_err(|error| BuildError::Base(error.to_string()))?;
    let failed = |message: String| BuildError::Base(format!("{reference}: {message}"));
    let Ok(Value::Object(config)) = serde_json::from_str::<Value>(&config) else {
        return Err(failed("the image config is not a JSON object".to_owned()));
    };
    let mut layers = Vec::with_capacity(files.len());
    for (descriptor, file) in manifest.layers.iter().zip(&files) {
        let media_type = oci_media_type(&descriptor.media_type).ok_or_else(|| {
            failed(format!(
                "a layer of type {} cannot be copied into an OCI image",
                descriptor.media_type
            ))
        })?;
        // Summed again: a docker-archive gives no digests, and the copy must be the
        // bytes the manifest names.
        let opened = std::fs::File::open(file.path())
            .map_err(|error| failed(format!("{}: {error}", file.path().display())))?;
        let size = opened
            .metadata()
            .map_err(|error| failed(error.to_string()))?
            .len();
        let digest = crate::image::sha256_of(opened).map_err(|error| failed(error.to_string()))?;
        let mut copied = Descriptor::new(media_type, digest, size);
        copied.annotations = descriptor
            .annotations
            .clone()
            .map(|map| map.into_iter().collect());
        layers.push(Blob {
            descriptor: copied,
            path: file.path().to_path_buf(),
        });
    }
    Ok(Base {
        layers,
        config,
        fbc: false,
        _files: files,
        _made: None,
    })
}

/// A layer's media type in an OCI manifest: Docker's names are the same bytes.
fn oci_media_type(media_type: &str) -> Option<&'static str> {
    match media_type {
        "application/vnd.oci.image.layer.v1.tar+gzip"
        | "application/vnd.docker.image.rootfs.diff.tar.gzip" => Some(OCI_LAYER),
        "application/vnd.oci.image.layer.v1.tar"
        | "application/vnd.docker.image.rootfs.diff.tar" => {
            Some("application/vnd.oci.image.layer.v1.tar")
        }
        "application/vnd.oci.image.layer.v1.tar+zstd" => {
            Some("application/vnd.oci.image.layer.v1.tar+zstd")
        }
        _ => None,
    }
}

/// Go's name of this machine's architecture, as image configs give it.
pub(super) fn go_arch() -> &'static str {
    match std::env::consts::ARCH {
        "x86_64" => "amd64",
        "aarch64" => "arm64",
        "powerpc64" => "ppc64le",
        "x86" => "386",
        other => other,
    }
}

/// Whether an ELF file has no program interpreter (a static executable).
fn is_static(bytes: &[u8]) -> bool {
    let read = |at: usize, len: usize| -> Option<u64> {
        let field = bytes.get(at..at + len)?;
        Some(
            field
                .iter()
                .rev()
                .fold(0, |value, byte| value << 8 | u64::from(*byte)),
        )
    };
    // 64-bit, little-endian ELF.
    if bytes.get(..6) != Some(b"\x7fELF\x02\x01") {
        return false;
    }
    let (Some(offset), Some(size), Some(count)) = (read(32, 8), read(54, 2), read(56, 2)) else {
        return false;
    };
    (0..count).all(|index| {
        let at = usize::try_from(offset + index * size).unwrap_or(usize::MAX);
        // PT_INTERP names the dynamic loader.
        read(at, 4).is_some_and(|kind| kind != 3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn static_executables_are_told_from_dynamic_ones() {
        let mut elf = vec![0u8; 64 + 2 * 56];
        elf[..6].copy_from_slice(b"\x7fELF\x02\x01");
        elf[32] = 64; // program headers right after the header
        elf[54] = 56; // of 56 bytes
        elf[56] = 2; // two of them
        elf[64] = 1; // PT_LOAD
        elf[64 + 56] = 6; // PT_PHDR
        assert!(is_static(&elf));
        elf[64 + 56] = 3; // PT_INTERP
        assert!(!is_static(&elf));
        assert!(!is_static(b"#!/bin/sh\n"));
        // This test binary is linked dynamically (the GNU target).
        let own = std::fs::read(std::env::current_exe().expect("the test binary")).expect("read");
        assert_eq!(is_static(&own), cfg!(target_env = "musl"));
    }
}
