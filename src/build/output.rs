//! Where a built image goes without a registry: an OCI image layout directory
//! (`oci:PATH[:TAG]`) or a `docker save` tarball (`docker-archive:PATH[:NAME]`).
//! Either appears whole or not at all.

use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};

use serde_json::json;

use super::{BuildError, Built, Image};

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Output {
    Oci { path: PathBuf, tag: Option<String> },
    DockerArchive { path: PathBuf, name: Option<String> },
}

impl Output {
    /// `oci:PATH[:TAG]` or `docker-archive:PATH[:NAME]`.
    pub(crate) fn parse(text: &str) -> Result<Output, String> {
        let split = |rest: &str| match rest.split_once(':') {
            Some((path, name)) => (
                PathBuf::from(path),
                Some(name.to_owned()).filter(|name| !name.is_empty()),
            ),
            None => (PathBuf::from(rest), None),
        };
        if let Some(rest) = text.strip_prefix("oci:") {
            let (path, tag) = split(rest);
            Ok(Output::Oci { path, tag })
        } else if let Some(rest) = text.strip_prefix("docker-archive:") {
            let (path, name) = split(rest);
            Ok(Output::DockerArchive { path, name })
        } else {
            Err(format!(
                "{text}: an output is oci:PATH[:TAG] or docker-archive:PATH[:NAME] (--tag pushes to a registry)"
            ))
        }
    }

    /// Writes `built`: every platform's image to a layout, this machine's (a
    /// docker-archive holds one) to an archive.
    pub(crate) fn write(&self, built: &Built) -> Result<(), BuildError> {
        match self {
            Output::Oci { path, tag } => write_layout(built, path, tag.as_deref()),
            Output::DockerArchive { path, name } => {
                write_archive(built.host_image(), path, name.as_deref())
            }
        }
    }
}

fn failed(path: &Path, error: &dyn std::fmt::Display) -> BuildError {
    BuildError::Output(format!("{}: {error}", path.display()))
}

/// An OCI image layout made beside `path`, then renamed to it; an existing
/// `path` is left alone.
fn write_layout(built: &Built, path: &Path, tag: Option<&str>) -> Result<(), BuildError> {
    if std::fs::symlink_metadata(path).is_ok() {
        return Err(failed(
            path,
            &"already exists: give a new directory (an image layout is written whole)",
        ));
    }
    let parent = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let made = tempfile::Builder::new()
        .prefix(".fbc-build-")
        .tempdir_in(parent)
        .map_err(|error| failed(parent, &error))?;
    let _interrupt = crate::process::interrupt::remove_on_interrupt(made.path());
    let blobs = made.path().join("blobs/sha256");
    std::fs::create_dir_all(&blobs).map_err(|error| failed(&blobs, &error))?;
    let write = |name: &str, bytes: &[u8]| {
        let target = made.path().join(name);
        std::fs::write(&target, bytes).map_err(|error| failed(&target, &error))
    };
    for image in &built.images {
        for blob in &image.layers {
            let target = blobs.join(blob.descriptor.hex());
            if !target.exists() {
                std::fs::copy(&blob.path, &target).map_err(|error| failed(&target, &error))?;
            }
        }
        write(
            &format!("blobs/sha256/{}", image.config_descriptor().hex()),
            &image.config,
        )?;
        write(
            &format!("blobs/sha256/{}", image.manifest_descriptor().hex()),
            &image.manifest,
        )?;
    }
    let mut descriptor = built.top_descriptor();
    write(&format!("blobs/sha256/{}", descriptor.hex()), built.top().0)?;
    write("oci-layout", br#"{"imageLayoutVersion":"1.0.0"}"#)?;
    if let Some(tag) = tag {
        descriptor.annotations = Some(
            [(
                "org.opencontainers.image.ref.name".to_owned(),
                tag.to_owned(),
            )]
            .into_iter()
            .collect(),
        );
    }
    let index = json!({
        "schemaVersion": 2,
        "mediaType": "application/vnd.oci.image.index.v1+json",
        "manifests": [descriptor],
    });
    write(
        "index.json",
        &serde_json::to_vec(&index).expect("an index is written"),
    )?;
    let made = made.keep();
    std::fs::rename(&made, path).map_err(|error| {
        let _ = std::fs::remove_dir_all(&made);
        failed(path, &error)
    })
}

/// A `docker save` tarball (layers as plain tar files, named by their digests),
/// written to a temporary file that replaces `path` when it is whole.
fn write_archive(image: &Image, path: &Path, name: Option<&str>) -> Result<(), BuildError> {
    let mut problem = None;
    let written = crate::files::atomic::replace_with(path, |file| {
        archive(image, file, name).map_err(|error| {
            let text = error.to_string();
            problem = Some(error);
            std::io::Error::other(text)
        })
    });
    if let Some(problem) = problem {
        return Err(problem);
    }
    written.map_err(|error| failed(path, &error))
}

fn archive(image: &Image, file: &mut std::fs::File, name: Option<&str>) -> Result<(), BuildError> {
    let mut tar = tar::Builder::new(std::io::BufWriter::new(file));
    let mut layers = Vec::new();
    for blob in &image.layers {
        // The tar file inside, summed as it is taken out of its compression.
        let mut plain =
            tempfile::tempfile().map_err(|error| BuildError::Output(error.to_string()))?;
        let source = std::fs::File::open(&blob.path).map_err(|error| failed(&blob.path, &error))?;
        let reader: Box<dyn std::io::Read> = match blob.descriptor.media_type.as_str() {
            "application/vnd.oci.image.layer.v1.tar+gzip" => Box::new(
                flate2::read::GzDecoder::new(std::io::BufReader::new(source)),
            ),
            "application/vnd.oci.image.layer.v1.tar" => Box::new(source),
            other => {
                return Err(BuildError::Output(format!(
                    "a docker-archive holds plain or gzip layers, not {other}"
                )));
            }
        };
        // A layer unpacks within FBC_MAX_IMAGE_SIZE, as a pulled image does: a
        // small gzip bomb of a base cannot fill the disk.
        let limit = crate::files::limits::get().max_image_size;
        let mut hashing = super::layer::Hashing::new(&mut plain);
        std::io::copy(&mut reader.take(limit.saturating_add(1)), &mut hashing)
            .map_err(|error| failed(&blob.path, &error))?;
        let (digest, size) = (hashing.digest(), hashing.written);
        if size > limit {
            return Err(failed(
                &blob.path,
                &format!(
                    "the layer unpacks to more than the {} that FBC_MAX_IMAGE_SIZE allows",
                    crate::files::limits::show_size(limit)
                ),
            ));
        }
        let entry = format!("{}.tar", digest.trim_start_matches("sha256:"));
        std::io::Seek::rewind(&mut plain).map_err(|error| BuildError::Output(error.to_string()))?;
        append(&mut tar, &entry, size, &mut plain)?;
        layers.push(entry);
    }
    let config_name = format!("{}.json", image.config_descriptor().hex());
    append(
        &mut tar,
        &config_name,
        image.config.len() as u64,
        &mut image.config.as_slice(),
    )?;
    let manifest = json!([{
        "Config": config_name,
        "RepoTags": name.map(|name| vec![name]).unwrap_or_default(),
        "Layers": layers,
    }]);
    let manifest = serde_json::to_vec(&manifest).expect("a manifest is written");
    append(
        &mut tar,
        "manifest.json",
        manifest.len() as u64,
        &mut manifest.as_slice(),
    )?;
    let mut out = tar
        .into_inner()
        .map_err(|error| BuildError::Output(error.to_string()))?;
    out.flush()
        .map_err(|error| BuildError::Output(error.to_string()))
}

fn append<W: std::io::Write>(
    tar: &mut tar::Builder<W>,
    name: &str,
    size: u64,
    data: &mut dyn std::io::Read,
) -> Result<(), BuildError> {
    let mut header = tar::Header::new_gnu();
    header.set_entry_type(tar::EntryType::Regular);
    header.set_mode(0o644);
    header.set_size(size);
    header.set_mtime(0);
    tar.append_data(&mut header, name, data.take(size))
        .map_err(|error| BuildError::Output(format!("{name}: {error}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_are_named_as_containers_image_names_them() {
        assert_eq!(
            Output::parse("oci:out/layout:v1"),
            Ok(Output::Oci {
                path: "out/layout".into(),
                tag: Some("v1".to_owned())
            })
        );
        assert_eq!(
            Output::parse("docker-archive:cat.tar"),
            Ok(Output::DockerArchive {
                path: "cat.tar".into(),
                name: None
            })
        );
        assert!(Output::parse("quay.io/x/y:v1").is_err());
    }
}
