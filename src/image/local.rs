//! Images that were never pushed: `oci:PATH[:TAG]` (an OCI image layout directory)
//! and `docker-archive:PATH[:REFERENCE]` (a `docker save` or `podman save`
//! tarball). Their manifest, config and layers are checked against their digests
//! where the format records them, then unpacked like pulled layers.

use std::collections::HashMap;
use std::io::Read as _;
use std::path::{Path, PathBuf};

use oci_client::manifest::{OciDescriptor, OciImageManifest};
use serde_json::Value;

use super::{Fetched, LayerFile};

const OCI_PREFIX: &str = "oci:";
const ARCHIVE_PREFIX: &str = "docker-archive:";
const REF_NAME: &str = "org.opencontainers.image.ref.name";

/// Whether `reference` names a local image rather than a registry's.
pub(crate) fn is_local(reference: &str) -> bool {
    reference.starts_with(OCI_PREFIX) || reference.starts_with(ARCHIVE_PREFIX)
}

/// Reads a local image: its manifest (layer media types), config and layer files.
pub(crate) fn read(reference: &str) -> Result<Fetched, String> {
    if let Some(rest) = reference.strip_prefix(OCI_PREFIX) {
        let (path, tag) = split_path(rest);
        read_layout(Path::new(path), tag)
    } else if let Some(rest) = reference.strip_prefix(ARCHIVE_PREFIX) {
        let (path, name) = split_path(rest);
        read_archive(Path::new(path), name)
    } else {
        Err("not a local image reference".to_owned())
    }
}

/// `PATH[:NAME]`, split at the first `:` as containers/image splits it.
fn split_path(text: &str) -> (&str, Option<&str>) {
    match text.split_once(':') {
        Some((path, name)) => (path, Some(name).filter(|name| !name.is_empty())),
        None => (text, None),
    }
}

fn read_json(bytes: &[u8], what: &str) -> Result<Value, String> {
    serde_json::from_slice(bytes).map_err(|error| format!("{what}: {error}"))
}

/// A blob of an OCI layout, checked against its digest.
fn layout_blob(layout: &Path, digest: &str) -> Result<PathBuf, String> {
    let (algorithm, hex) = digest
        .split_once(':')
        .filter(|(algorithm, hex)| {
            *algorithm == "sha256" && hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit())
        })
        .ok_or_else(|| format!("unsupported digest {digest:?}"))?;
    let path = layout.join("blobs").join(algorithm).join(hex);
    let file = crate::files::limits::open_regular(&path)
        .map_err(|error| format!("{}: {error}", path.display()))?;
    let size = file
        .metadata()
        .map_err(|error| format!("{}: {error}", path.display()))?
        .len();
    let limit = crate::files::limits::get().max_image_size;
    if size > limit {
        return Err(format!(
            "{}: larger than {} (FBC_MAX_IMAGE_SIZE raises the limit)",
            path.display(),
            crate::files::limits::show_size(limit)
        ));
    }
    let actual =
        super::cache::sha256_of(file).map_err(|error| format!("{}: {error}", path.display()))?;
    if actual != digest {
        return Err(format!(
            "{}: content does not match its digest {digest}",
            path.display()
        ));
    }
    Ok(path)
}

fn read_layout(layout: &Path, tag: Option<&str>) -> Result<Fetched, String> {
    if !layout.join("oci-layout").is_file() {
        return Err(format!(
            "{}: not an OCI image layout (no oci-layout file)",
            layout.display()
        ));
    }
    let index_path = layout.join("index.json");
    let index = crate::files::limits::read_file(&index_path)
        .map_err(|error| format!("{}: {error}", index_path.display()))?;
    let index = read_json(&index, "index.json")?;
    let manifests = index
        .get("manifests")
        .and_then(Value::as_array)
        .ok_or("index.json has no manifests")?;
    let chosen: Vec<&Value> = match tag {
        Some(tag) => manifests
            .iter()
            .filter(|entry| {
                entry
                    .pointer(&format!("/annotations/{}", REF_NAME.replace('/', "~1")))
                    .and_then(Value::as_str)
                    == Some(tag)
            })
            .collect(),
        None => manifests.iter().collect(),
    };
    let descriptor = match chosen.as_slice() {
        [one] => *one,
        [] => {
            return Err(format!(
                "no image tagged {:?} in {}",
                tag.unwrap_or_default(),
                layout.display()
            ));
        }
        _ => {
            return Err(format!(
                "{} holds several images: name one as oci:{}:TAG",
                layout.display(),
                layout.display()
            ));
        }
    };
    let mut manifest = layout_document(layout, descriptor)?;
    // An index: the host platform's image, linux/amd64 otherwise.
    if manifest.get("manifests").is_some() {
        let entries = manifest
            .get("manifests")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let platform = |os: &str, arch: &str| {
            entries.iter().find(|entry| {
                entry.pointer("/platform/os").and_then(Value::as_str) == Some(os)
                    && entry
                        .pointer("/platform/architecture")
                        .and_then(Value::as_str)
                        == Some(arch)
            })
        };
        let host = match std::env::consts::ARCH {
            "x86_64" => "amd64",
            "aarch64" => "arm64",
            other => other,
        };
        let entry = platform("linux", host)
            .or_else(|| platform("linux", "amd64"))
            .ok_or("the image index has no linux/amd64 image")?;
        manifest = layout_document(layout, entry)?;
    }
    let manifest: OciImageManifest =
        serde_json::from_value(manifest).map_err(|error| format!("image manifest: {error}"))?;
    let config_path = layout_blob(layout, &manifest.config.digest)?;
    let config = crate::files::limits::read_file(&config_path)
        .map_err(|error| error.to_string())
        .and_then(|bytes| String::from_utf8(bytes).map_err(|error| error.to_string()))
        .map_err(|error| format!("{}: {error}", config_path.display()))?;
    let layers = manifest
        .layers
        .iter()
        .map(|layer| layout_blob(layout, &layer.digest).map(LayerFile::Cached))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((manifest, config, layers, 0))
}

fn layout_document(layout: &Path, descriptor: &Value) -> Result<Value, String> {
    let digest = descriptor
        .get("digest")
        .and_then(Value::as_str)
        .ok_or("a manifest descriptor has no digest")?;
    let path = layout_blob(layout, digest)?;
    let bytes = crate::files::limits::read_file(&path)
        .map_err(|error| format!("{}: {error}", path.display()))?;
    read_json(&bytes, digest)
}

/// The entries of a `docker save` tarball that the image needs, as temporary
/// files, by their path in the archive.
fn read_archive(path: &Path, name: Option<&str>) -> Result<Fetched, String> {
    let open = || {
        crate::files::limits::open_regular(path)
            .map_err(|error| format!("{}: {error}", path.display()))
    };
    let manifest_text = archive_entry(open()?, "manifest.json")?
        .ok_or_else(|| format!("{}: no manifest.json: not a docker-archive", path.display()))?;
    let manifest = read_json(&manifest_text, "manifest.json")?;
    let images = manifest.as_array().ok_or("manifest.json is not a list")?;
    let image = archive_image(images, name, path)?;
    let config_name = image
        .get("Config")
        .and_then(Value::as_str)
        .ok_or("manifest.json names no Config")?;
    let layer_names: Vec<&str> = image
        .get("Layers")
        .and_then(Value::as_array)
        .ok_or("manifest.json names no Layers")?
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let mut wanted: HashMap<&str, Option<tempfile::NamedTempFile>> =
        layer_names.iter().map(|name| (*name, None)).collect();
    let mut config = None;
    let limit = crate::files::limits::get().max_image_size;
    let mut archive = tar::Archive::new(open()?);
    let mut total: u64 = 0;
    for entry in archive
        .entries()
        .map_err(|error| format!("{}: {error}", path.display()))?
    {
        let mut entry = entry.map_err(|error| format!("{}: {error}", path.display()))?;
        let entry_path = entry
            .path()
            .map_err(|error| error.to_string())?
            .to_string_lossy()
            .into_owned();
        let entry_path = entry_path.trim_start_matches("./");
        let too_large = || {
            format!(
                "the archive holds more than the {} that FBC_MAX_IMAGE_SIZE allows",
                crate::files::limits::show_size(limit)
            )
        };
        total = total.saturating_add(entry.size());
        if total > limit {
            return Err(too_large());
        }
        // Bytes are counted as they come: a sparse entry unpacks to more than the
        // size its header gives.
        if entry_path == config_name {
            let bytes = crate::files::limits::read_limited(
                &mut entry,
                0,
                crate::files::limits::get().max_file_size,
            )
            .map_err(|error| format!("{config_name}: {error}"))?;
            let text =
                String::from_utf8(bytes).map_err(|error| format!("{config_name}: {error}"))?;
            config = Some(text);
        } else if let Some(slot) = wanted.get_mut(entry_path) {
            let mut file = tempfile::NamedTempFile::new().map_err(|error| error.to_string())?;
            let left = limit - (total - entry.size());
            let copied = std::io::copy(&mut (&mut entry).take(left.saturating_add(1)), &mut file)
                .map_err(|error| format!("{entry_path}: {error}"))?;
            total = total - entry.size() + copied;
            if total > limit {
                return Err(too_large());
            }
            *slot = Some(file);
        }
    }
    let config =
        config.ok_or_else(|| format!("{}: no {config_name} in the archive", path.display()))?;
    let mut layers = Vec::new();
    let mut descriptors = Vec::new();
    for name in layer_names {
        let file = wanted
            .get_mut(name)
            .and_then(Option::take)
            .ok_or_else(|| format!("{}: no {name} in the archive", path.display()))?;
        descriptors.push(OciDescriptor {
            media_type: "application/vnd.oci.image.layer.v1.tar".to_owned(),
            ..OciDescriptor::default()
        });
        layers.push(LayerFile::Temporary(file.into_temp_path()));
    }
    let manifest = OciImageManifest {
        layers: descriptors,
        ..OciImageManifest::default()
    };
    Ok((manifest, config, layers, 0))
}

/// The image of a `manifest.json` that `name` picks (any, when there is one).
fn archive_image<'a>(
    images: &'a [Value],
    name: Option<&str>,
    path: &Path,
) -> Result<&'a Value, String> {
    let chosen: Vec<&Value> = match name {
        Some(name) => images
            .iter()
            .filter(|image| {
                image
                    .get("RepoTags")
                    .and_then(Value::as_array)
                    .is_some_and(|tags| {
                        tags.iter().any(|tag| {
                            tag.as_str().is_some_and(|tag| {
                                tag == name || tag.ends_with(&format!("/{name}"))
                            })
                        })
                    })
            })
            .collect(),
        None => images.iter().collect(),
    };
    match chosen.as_slice() {
        [one] => Ok(one),
        [] => Err(format!(
            "no image named {:?} in {}",
            name.unwrap_or_default(),
            path.display()
        )),
        _ => Err(format!(
            "{} holds several images: name one as docker-archive:PATH:NAME",
            path.display()
        )),
    }
}

/// One small entry of a tarball, read whole.
fn archive_entry(file: std::fs::File, wanted: &str) -> Result<Option<Vec<u8>>, String> {
    let mut archive = tar::Archive::new(file);
    for entry in archive.entries().map_err(|error| error.to_string())? {
        let mut entry = entry.map_err(|error| error.to_string())?;
        let path = entry
            .path()
            .map_err(|error| error.to_string())?
            .to_string_lossy()
            .into_owned();
        if path.trim_start_matches("./") == wanted {
            let mut bytes = Vec::new();
            entry
                .by_ref()
                .take(16 << 20)
                .read_to_end(&mut bytes)
                .map_err(|error| error.to_string())?;
            return Ok(Some(bytes));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    #[test]
    fn names_are_split_from_paths_as_containers_image_does() {
        assert_eq!(super::split_path("./layout:v1"), ("./layout", Some("v1")));
        assert_eq!(super::split_path("layout"), ("layout", None));
        assert_eq!(super::split_path("layout:"), ("layout", None));
        assert_eq!(
            super::split_path("img.tar:quay.io/x/y:1"),
            ("img.tar", Some("quay.io/x/y:1"))
        );
    }
}
