//! `fbc build`: a catalog image made from a directory without a container
//! engine. The image is the base image's layers (fbc's own by default, see
//! [`base`]) and one layer holding the catalog at `/configs` (and, with
//! `--cache`, fbc's serve cache at `/tmp/cache`), with opm's configs label and a
//! command line that serves the catalog. Everything that goes into it is fixed
//! (entry order, owners, modes, times from `SOURCE_DATE_EPOCH` or the newest
//! commit, gzip level), so the same directory on the same base gives the same
//! digest. The caller validates the catalog first.

mod base;
mod layer;
mod output;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::image::PullOptions;

pub(crate) use output::Output;

/// Where the catalog is in the image, as opm's Dockerfile puts it.
const CONFIGS: &str = "configs";

/// opm's label naming the catalog's directory in the image.
const CONFIGS_LABEL: &str = "operators.operatorframework.io.index.configs.v1";

/// Where `--cache` puts fbc's serve cache in the image.
const CACHE: &str = "tmp/cache";

const MANIFEST_TYPE: &str = "application/vnd.oci.image.manifest.v1+json";
const INDEX_TYPE: &str = "application/vnd.oci.image.index.v1+json";
const CONFIG_TYPE: &str = "application/vnd.oci.image.config.v1+json";

/// What to build.
pub(crate) struct Options {
    pub(crate) directory: PathBuf,
    /// The base image's reference; `None`: fbc's own.
    pub(crate) base: Option<String>,
    pub(crate) labels: Vec<(String, String)>,
    pub(crate) cache: bool,
    pub(crate) pull: PullOptions,
}

#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub(crate) enum BuildError {
    #[error("the base image: {0}")]
    #[diagnostic(code(fbc::build::base))]
    Base(String),
    #[error("{} is linked dynamically: it cannot be the image's server", .binary.display())]
    #[diagnostic(
        code(fbc::build::not_static),
        help(
            "fbc's own base takes the running binary, which must be the static build (scripts/static-rootfs.sh, or the Containerfile's image); give --base REF for another base, e.g. an fbc image or quay.io/operator-framework/opm"
        )
    )]
    NotStatic { binary: PathBuf },
    #[error("the catalog layer: {0}")]
    #[diagnostic(code(fbc::build::layer))]
    Layer(String),
    #[error("SOURCE_DATE_EPOCH={0:?} is not a number of seconds")]
    #[diagnostic(code(fbc::build::epoch))]
    Epoch(String),
    #[error("--label {0}: the image's catalog label is set by fbc build")]
    #[diagnostic(code(fbc::build::label))]
    Label(String),
    #[error("{0}")]
    #[diagnostic(code(fbc::build::output))]
    Output(String),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Push(crate::image::ImageError),
    #[error("the serve cache: {0}")]
    #[diagnostic(code(fbc::build::cache))]
    Cache(String),
}

/// A content descriptor, as manifests write it.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Descriptor {
    #[serde(rename = "mediaType")]
    pub(crate) media_type: String,
    pub(crate) digest: String,
    pub(crate) size: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) annotations: Option<BTreeMap<String, String>>,
}

impl Descriptor {
    fn new(media_type: &str, digest: String, size: u64) -> Descriptor {
        Descriptor {
            media_type: media_type.to_owned(),
            digest,
            size,
            annotations: None,
        }
    }

    /// The digest's hex, the blob's name in a layout.
    pub(crate) fn hex(&self) -> &str {
        self.digest.trim_start_matches("sha256:")
    }
}

/// A blob of the image on disk.
pub(crate) struct Blob {
    pub(crate) descriptor: Descriptor,
    pub(crate) path: PathBuf,
}

/// One platform's image: its manifest and config, and its layers' files (kept
/// until it is dropped).
pub(crate) struct Image {
    pub(crate) manifest: Vec<u8>,
    pub(crate) config: Vec<u8>,
    pub(crate) layers: Vec<Blob>,
    /// The platform, as the base's index gives it (none for a single image).
    platform: Option<oci_client::manifest::Platform>,
    _base: base::Base,
}

impl Image {
    /// `sha256:...` of the manifest: the image's digest.
    pub(crate) fn digest(&self) -> String {
        format!("sha256:{}", crate::digest::sha256_hex(&self.manifest))
    }

    pub(crate) fn manifest_descriptor(&self) -> Descriptor {
        Descriptor::new(MANIFEST_TYPE, self.digest(), self.manifest.len() as u64)
    }

    pub(crate) fn config_descriptor(&self) -> Descriptor {
        Descriptor::new(
            CONFIG_TYPE,
            format!("sha256:{}", crate::digest::sha256_hex(&self.config)),
            self.config.len() as u64,
        )
    }

    /// Whether this is the image for this machine (linux on its architecture).
    fn is_host(&self) -> bool {
        self.platform.as_ref().is_none_or(|platform| {
            platform.os.to_string() == "linux"
                && platform.architecture.to_string() == base::go_arch()
        })
    }
}

/// What `fbc build` made: an image per platform of the base, and the index
/// naming them when there are several; the catalog's layer is shared.
pub(crate) struct Built {
    pub(crate) images: Vec<Image>,
    index: Option<Vec<u8>>,
    _catalog: tempfile::TempPath,
    _cache: Option<tempfile::TempDir>,
}

impl Built {
    /// The document a tag names: the index, or the one image's manifest.
    pub(crate) fn top(&self) -> (&[u8], &'static str) {
        match &self.index {
            Some(index) => (index, INDEX_TYPE),
            None => (&self.images[0].manifest, MANIFEST_TYPE),
        }
    }

    /// `sha256:...` of [`Built::top`]: the digest `--print-digest` gives.
    pub(crate) fn digest(&self) -> String {
        format!("sha256:{}", crate::digest::sha256_hex(self.top().0))
    }

    pub(crate) fn top_descriptor(&self) -> Descriptor {
        let (bytes, media_type) = self.top();
        Descriptor::new(media_type, self.digest(), bytes.len() as u64)
    }

    /// The image for this machine's platform, else the first.
    pub(crate) fn host_image(&self) -> &Image {
        self.images
            .iter()
            .find(|image| image.is_host())
            .unwrap_or(&self.images[0])
    }

    /// Pushes every image (each manifest by its digest) and then the document
    /// the tag names; its digest.
    pub(crate) fn push(&self, reference: &str, options: PullOptions) -> Result<String, BuildError> {
        use crate::image::{Contents, PushBlob};
        let mut blobs: Vec<PushBlob<'_>> = Vec::new();
        let mut manifests: Vec<(&[u8], &str)> = Vec::new();
        for image in &self.images {
            for blob in &image.layers {
                if !blobs
                    .iter()
                    .any(|known| known.digest == blob.descriptor.digest)
                {
                    blobs.push(PushBlob {
                        digest: blob.descriptor.digest.clone(),
                        contents: Contents::File(blob.path.clone()),
                    });
                }
            }
            blobs.push(PushBlob {
                digest: image.config_descriptor().digest,
                contents: Contents::Bytes(&image.config),
            });
            manifests.push((&image.manifest, MANIFEST_TYPE));
        }
        if self.index.is_none() {
            manifests.clear();
        }
        manifests.push(self.top());
        crate::image::push(reference, &blobs, &manifests, options).map_err(BuildError::Push)
    }
}

/// Builds the image of `options.directory` (checked already): one per platform
/// when the base is an index of several.
pub(crate) fn build(options: &Options) -> Result<Built, BuildError> {
    let mtime = epoch(&options.directory)?;
    for (key, _) in &options.labels {
        if key == CONFIGS_LABEL {
            return Err(BuildError::Label(key.clone()));
        }
    }
    let bases = match &options.base {
        None => vec![(base::own(mtime)?, None)],
        Some(reference) => match crate::image::platforms(reference, options.pull)
            .map_err(|error| BuildError::Base(error.to_string()))?
        {
            Some(platforms) if !platforms.is_empty() => platforms
                .into_iter()
                .map(|(image, platform)| Ok((base::pulled(&image, options.pull)?, Some(platform))))
                .collect::<Result<Vec<_>, BuildError>>()?,
            _ => vec![(base::pulled(reference, options.pull)?, None)],
        },
    };
    let mut entries = layer::tree(&options.directory, CONFIGS)
        .map_err(|error| BuildError::Layer(error.to_string()))?;
    let cache = if options.cache {
        let dir = tempfile::tempdir().map_err(|error| BuildError::Cache(error.to_string()))?;
        crate::serve::write_cache(&options.directory, dir.path()).map_err(BuildError::Cache)?;
        entries.push(layer::Entry {
            path: "tmp".to_owned(),
            kind: layer::Kind::Directory { mode: 0o1777 },
        });
        entries.extend(
            layer::tree(dir.path(), CACHE).map_err(|error| BuildError::Cache(error.to_string()))?,
        );
        Some(dir)
    } else {
        None
    };
    let catalog =
        layer::write(&entries, mtime).map_err(|error| BuildError::Layer(error.to_string()))?;
    let several = bases.len() > 1;
    let images: Vec<Image> = bases
        .into_iter()
        .map(|(base, platform)| {
            let config = config(&base, &catalog.diff_id, options, mtime);
            let config = serde_json::to_vec(&config).expect("a JSON value is written");
            let mut layers: Vec<Blob> = base
                .layers
                .iter()
                .map(|blob| Blob {
                    descriptor: blob.descriptor.clone(),
                    path: blob.path.clone(),
                })
                .collect();
            layers.push(Blob {
                descriptor: Descriptor::new(base::OCI_LAYER, catalog.digest.clone(), catalog.size),
                path: catalog.file.to_path_buf(),
            });
            let mut image = Image {
                manifest: Vec::new(),
                config,
                layers,
                platform,
                _base: base,
            };
            image.manifest = manifest(&image);
            image
        })
        .collect();
    let index = several.then(|| index(&images));
    Ok(Built {
        images,
        index,
        _catalog: catalog.file,
        _cache: cache,
    })
}

/// The OCI index of several platforms' images.
fn index(images: &[Image]) -> Vec<u8> {
    let manifests: Vec<Value> = images
        .iter()
        .map(|image| {
            let mut entry =
                serde_json::to_value(image.manifest_descriptor()).expect("a descriptor is written");
            if let (Value::Object(entry), Some(platform)) = (&mut entry, &image.platform) {
                entry.insert(
                    "platform".to_owned(),
                    serde_json::to_value(platform).expect("a platform is written"),
                );
            }
            entry
        })
        .collect();
    serde_json::to_vec(&json!({
        "schemaVersion": 2,
        "mediaType": INDEX_TYPE,
        "manifests": manifests,
    }))
    .expect("an index is written")
}

/// The base's config with the catalog: its layer's diff ID and history entry,
/// the labels, and the command line that serves `/configs`.
fn config(base: &base::Base, diff_id: &str, options: &Options, mtime: u64) -> Value {
    let mut config = base.config.clone();
    let created = crate::text::time::rfc3339(mtime);
    config.insert("created".to_owned(), json!(created));
    let rootfs = object(&mut config, "rootfs");
    rootfs.insert("type".to_owned(), json!("layers"));
    match rootfs.get_mut("diff_ids") {
        Some(Value::Array(ids)) => ids.push(json!(diff_id)),
        _ => {
            rootfs.insert("diff_ids".to_owned(), json!([diff_id]));
        }
    }
    // A base without history gets none: entries must match the layers.
    if let Some(Value::Array(history)) = config.get_mut("history") {
        history.push(json!({
            "created": created,
            "created_by": format!("fbc build: the catalog at /{CONFIGS}"),
        }));
    }
    let run = object(&mut config, "config");
    let labels = object(run, "Labels");
    labels.insert(CONFIGS_LABEL.to_owned(), json!(format!("/{CONFIGS}")));
    for (key, value) in &options.labels {
        labels.insert(key.clone(), json!(value));
    }
    let mut command = vec!["serve".to_owned(), format!("/{CONFIGS}")];
    if options.cache {
        command.push(format!("--cache-dir=/{CACHE}"));
    }
    run.insert("Cmd".to_owned(), json!(command));
    if base.fbc {
        run.insert("Entrypoint".to_owned(), json!(["/fbc"]));
    }
    Value::Object(config)
}

/// The object at `key` of `map`, made (or made an object) when it is not one.
fn object<'a>(map: &'a mut Map<String, Value>, key: &str) -> &'a mut Map<String, Value> {
    if !map.get(key).is_some_and(Value::is_object) {
        map.insert(key.to_owned(), Value::Object(Map::new()));
    }
    match map.get_mut(key) {
        Some(Value::Object(object)) => object,
        _ => unreachable!("an object was put there"),
    }
}

fn manifest(image: &Image) -> Vec<u8> {
    #[derive(Serialize)]
    struct Manifest<'a> {
        #[serde(rename = "schemaVersion")]
        schema_version: u32,
        #[serde(rename = "mediaType")]
        media_type: &'a str,
        config: Descriptor,
        layers: Vec<&'a Descriptor>,
    }
    let manifest = Manifest {
        schema_version: 2,
        media_type: MANIFEST_TYPE,
        config: image.config_descriptor(),
        layers: image.layers.iter().map(|blob| &blob.descriptor).collect(),
    };
    serde_json::to_vec(&manifest).expect("a manifest is written")
}

/// The time stamped on every entry and in the config: `SOURCE_DATE_EPOCH`, else
/// the newest commit's time of the repository holding `directory`, else zero.
fn epoch(directory: &Path) -> Result<u64, BuildError> {
    if let Ok(text) = std::env::var("SOURCE_DATE_EPOCH") {
        return text.trim().parse().map_err(|_| BuildError::Epoch(text));
    }
    let output = std::process::Command::new("git")
        .arg("-C")
        .arg(directory)
        .args(["log", "-1", "--format=%ct"])
        .stderr(std::process::Stdio::null())
        .output();
    Ok(output
        .ok()
        .filter(|output| output.status.success())
        .and_then(|output| String::from_utf8(output.stdout).ok()?.trim().parse().ok())
        .unwrap_or(0))
}
