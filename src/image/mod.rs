//! Pulling bundle and catalog images from OCI registries, as `opm render` does for a
//! reference that is not a path: the manifest (an index resolved to the host
//! platform, linux/amd64 otherwise), the config's labels, and the layers unpacked
//! in order into a temporary directory. Nothing outside this module knows about
//! the network; it runs its own small async runtime.

mod auth;
mod cache;
pub(crate) use cache::sha256_of;
pub(crate) use push::{Contents, PushBlob, push};
mod fetch;
mod local;
mod manifest;
mod push;
mod registries;
mod unpack;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use oci_client::client::{ClientConfig, ClientProtocol};
use oci_client::{Client, Reference};

pub(crate) use fetch::Fetched;
use fetch::{
    FetchError, LimitedWriter, Progress, Registry, bounded, fetch, timed_out, with_causes,
};
pub(crate) use unpack::{Budget, UnpackError, layer as unpack_layer};

/// How to reach the registry (opm's `--use-http` and `--skip-tls-verify`).
#[derive(Debug, Clone, Copy, Default)]
#[allow(clippy::struct_excessive_bools)] // independent switches, set from flags
pub(crate) struct PullOptions {
    pub(crate) use_http: bool,
    pub(crate) skip_tls_verify: bool,
    /// Neither read nor write the blob cache.
    pub(crate) no_cache: bool,
    /// Read the cache alone: an image that is not in it is [`ImageError::NotCached`].
    pub(crate) offline: bool,
    /// Leave progress to the caller (several pulls at once share one line).
    pub(crate) quiet: bool,
}

/// An image's filesystem, unpacked into a temporary directory that is removed when
/// this is dropped, and its config labels.
#[derive(Debug)]
pub(crate) struct PulledImage {
    pub(crate) root: tempfile::TempDir,
    pub(crate) labels: BTreeMap<String, String>,
    /// Bytes fetched from the registry for the layers (0 when all were cached).
    pub(crate) downloaded: u64,
}

/// What an image holds, from its labels (spec 4.3, in opm's precedence).
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum ImageKind {
    /// A file-based catalog image: the catalog directory inside the image.
    Catalog(PathBuf),
    Bundle,
}

/// The start of an unpacked image's temporary directory (then the process id).
const UNPACK: &str = "fbc-unpack-";

const CONFIGS_LABEL: &str = "operators.operatorframework.io.index.configs.v1";
const BUNDLE_LABEL: &str = "operators.operatorframework.io.bundle.package.v1";
const DATABASE_LABEL: &str = "operators.operatorframework.io.index.database.v1";

#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub(crate) enum ImageError {
    #[error("failed to pull image {reference:?}: {message}")]
    #[diagnostic(code(fbc::image::pull))]
    Pull { reference: String, message: String },
    #[error("failed to push image {reference:?}: {message}")]
    #[diagnostic(code(fbc::image::push))]
    Push { reference: String, message: String },
    /// registries.conf could not be read; the message names the file and line.
    #[error("{message}")]
    #[diagnostic(
        code(fbc::image::registries_conf),
        help(
            "see containers-registries.conf(5); CONTAINERS_REGISTRIES_CONF=/dev/null ignores the file"
        )
    )]
    Config { message: String },
    #[error(
        "failed to pull image {reference:?}: not in the cache, and --offline forbids the network"
    )]
    #[diagnostic(
        code(fbc::image::not_cached),
        help("run once without --offline to fill the cache")
    )]
    NotCached { reference: String },
    #[error("failed to unpack image {reference:?}: {source}")]
    #[diagnostic(code(fbc::image::unpack))]
    Unpack {
        reference: String,
        #[source]
        source: UnpackError,
    },
    #[error(
        "render {reference:?}: sqlite-based index images are no longer supported, migrate to a file-based catalog: not allowed"
    )]
    #[diagnostic(code(fbc::image::sqlite))]
    Sqlite { reference: String },
    #[error("render {reference:?}: the configs label {dir:?} leads outside the image")]
    #[diagnostic(code(fbc::image::configs))]
    ConfigsOutside { reference: String, dir: String },
    #[error("render {reference:?}: image type could not be determined{details}")]
    #[diagnostic(code(fbc::image::unknown))]
    Unknown { reference: String, details: String },
}

impl PulledImage {
    /// opm's dispatch on labels: configs label, then bundle package label, then the
    /// refusal of sqlite index images, then "could not be determined".
    pub(crate) fn kind(&self, reference: &str) -> Result<ImageKind, ImageError> {
        if let Some(dir) = self.labels.get(CONFIGS_LABEL) {
            // Read as opm reads it (joined to the root, `..` resolved by name),
            // but never above the root.
            let relative =
                unpack::confine(Path::new(dir.trim_start_matches('/'))).ok_or_else(|| {
                    ImageError::ConfigsOutside {
                        reference: reference.to_owned(),
                        dir: dir.clone(),
                    }
                })?;
            return Ok(ImageKind::Catalog(self.root.path().join(relative)));
        }
        if self.labels.contains_key(BUNDLE_LABEL) {
            return Ok(ImageKind::Bundle);
        }
        if self.labels.contains_key(DATABASE_LABEL) {
            return Err(ImageError::Sqlite {
                reference: reference.to_owned(),
            });
        }
        let details = if self.labels.is_empty() {
            ": image has no labels".to_owned()
        } else {
            let lines: Vec<String> = self
                .labels
                .iter()
                .map(|(key, value)| format!("\n  {key}={value}"))
                .collect();
            format!(", found labels{}", lines.concat())
        };
        Err(ImageError::Unknown {
            reference: reference.to_owned(),
            details,
        })
    }
}

/// The warnings of the registries configuration this run read, if any.
pub(crate) fn configuration_warnings() -> Vec<miette::Report> {
    registries::warnings()
}

/// opm pulls only references written out in full (`reference.ParseNamed`): with a
/// registry host, and on Docker Hub with the repository's namespace, so `busybox`,
/// `foo/bar:1` and `index.docker.io/library/x` are refused without a network call.
/// Whether `reference` can name an image: a local `oci:` or `docker-archive:` one,
/// or a registry's, with its host.
pub(crate) fn could_be_image(reference: &str) -> bool {
    local::is_local(reference)
        || (is_canonical(reference) && reference.parse::<Reference>().is_ok())
}

fn is_canonical(reference: &str) -> bool {
    let Some((domain, remainder)) = reference.split_once('/') else {
        return false;
    };
    let host = domain.contains(['.', ':'])
        || domain == "localhost"
        || domain.chars().any(|c| c.is_ascii_uppercase());
    host && domain != "index.docker.io" && (domain != "docker.io" || remainder.contains('/'))
}

/// Pulls `reference` (or reads a local `oci:` or `docker-archive:` image) and
/// unpacks its layers.
pub(crate) fn pull(reference: &str, options: PullOptions) -> Result<PulledImage, ImageError> {
    pull_digest(reference, None, options)
}

/// [`pull`], for a tag whose digest [`current_digests`] has just given (so the
/// registry is not asked again).
pub(crate) fn pull_digest(
    reference: &str,
    digest: Option<&str>,
    options: PullOptions,
) -> Result<PulledImage, ImageError> {
    let failed = |message: String| ImageError::Pull {
        reference: reference.to_owned(),
        message,
    };
    let (manifest, config, layers, downloaded) = fetch_image(reference, digest, options)?;
    let limits = crate::files::limits::get();
    let labels = labels(&config).map_err(failed)?;
    crate::files::stale::sweep(&std::env::temp_dir(), UNPACK, "");
    let root = tempfile::Builder::new()
        .prefix(&crate::files::stale::prefix(UNPACK))
        .tempdir()
        .map_err(|error| failed(format!("create tempdir: {error}")))?;
    let _interrupt = crate::process::interrupt::remove_on_interrupt(root.path());
    let mut budget = unpack::Budget::new(limits.max_image_size);
    for (descriptor, layer) in manifest.layers.iter().zip(&layers) {
        let unpacked = std::fs::File::open(layer.path())
            .map_err(UnpackError::Archive)
            .and_then(|file| unpack::layer(&descriptor.media_type, file, root.path(), &mut budget));
        unpacked.map_err(|source| ImageError::Unpack {
            reference: reference.to_owned(),
            source,
        })?;
    }
    unpack::links_stay_inside(root.path()).map_err(|source| ImageError::Unpack {
        reference: reference.to_owned(),
        source,
    })?;
    Ok(PulledImage {
        root,
        labels,
        downloaded,
    })
}

/// An image's manifest (for this platform), its config's text and its layer
/// blobs as they are stored (compressed), without unpacking them: from a
/// registry, an OCI layout (`oci:`) or a `docker-archive:`.
pub(crate) fn fetch_image(
    reference: &str,
    digest: Option<&str>,
    options: PullOptions,
) -> Result<Fetched, ImageError> {
    if local::is_local(reference) {
        local::read(reference).map_err(|message| ImageError::Pull {
            reference: reference.to_owned(),
            message,
        })
    } else {
        fetch_from_registry(reference, digest, options)
    }
}

/// The images of a multi-platform image that the registry reference names: each
/// image's reference (by digest) with its platform, in the index's order, without
/// attestations (platform `unknown`). `None` when it names a single image, or
/// for a local image (resolved to this platform when it is read).
pub(crate) fn platforms(
    reference: &str,
    options: PullOptions,
) -> Result<Option<Vec<(String, oci_client::manifest::Platform)>>, ImageError> {
    if local::is_local(reference) {
        return Ok(None);
    }
    let failed = |message: String| ImageError::Pull {
        reference: reference.to_owned(),
        message,
    };
    check_reference(reference, failed)?;
    let registries = registries_conf()?;
    let mut last_error = String::new();
    for source in registries.sources(reference).map_err(failed)? {
        let (parsed, credentials) = reach(&source, failed)?;
        for (http, skip_verify) in protocols(options, source.insecure) {
            let asked = with_session(http, skip_verify, |runtime, clients| {
                runtime.block_on(fetch::bounded(
                    "manifest",
                    manifest::index_entries(clients, &parsed, &credentials),
                    0,
                ))
            })
            .map_err(|error| failed(error.to_string()))?;
            match asked {
                Ok(entries) => {
                    let name: Reference = reference
                        .parse()
                        .map_err(|error: oci_client::ParseError| failed(error.to_string()))?;
                    return Ok(entries.map(|entries| {
                        entries
                            .into_iter()
                            .filter_map(|entry| {
                                let platform = entry.platform?;
                                (platform.os.to_string() != "unknown").then(|| {
                                    let image = Reference::with_digest(
                                        name.registry().to_owned(),
                                        name.repository().to_owned(),
                                        entry.digest,
                                    );
                                    (image.whole(), platform)
                                })
                            })
                            .collect()
                    }));
                }
                Err(error) if source.reference == reference => last_error = with_causes(&error),
                Err(error) => last_error = format!("{}: {}", source.reference, with_causes(&error)),
            }
        }
    }
    Err(failed(last_error))
}

/// Checks that `reference` parses and is canonical; `failed` words the error.
fn check_reference(
    reference: &str,
    failed: impl Fn(String) -> ImageError,
) -> Result<(), ImageError> {
    reference
        .parse::<Reference>()
        .map_err(|error: oci_client::ParseError| failed(error.to_string()))?;
    if is_canonical(reference) {
        Ok(())
    } else {
        Err(failed("repository name must be canonical".to_owned()))
    }
}

/// A source's reference, parsed, and the credentials for its registry.
fn reach(
    source: &registries::Source,
    failed: impl Fn(String) -> ImageError,
) -> Result<(Reference, oci_client::secrets::RegistryAuth), ImageError> {
    let parsed: Reference = source
        .reference
        .parse()
        .map_err(|error: oci_client::ParseError| {
            failed(format!("{}: {error}", source.reference))
        })?;
    let credentials = auth::for_registry(parsed.resolve_registry()).map_err(failed)?;
    Ok((parsed, credentials))
}

/// registries.conf, read once.
fn registries_conf() -> Result<&'static registries::Registries, ImageError> {
    registries::get().map_err(|error| ImageError::Config {
        message: error.to_string(),
    })
}

/// Fetches an image from the places registries.conf names for it: its mirrors in
/// order, then its location; the first that serves it wins.
fn fetch_from_registry(
    reference: &str,
    known: Option<&str>,
    options: PullOptions,
) -> Result<Fetched, ImageError> {
    let failed = |message: String| ImageError::Pull {
        reference: reference.to_owned(),
        message,
    };
    check_reference(reference, failed)?;
    let sources = if options.offline {
        vec![registries::Source {
            reference: reference.to_owned(),
            insecure: false,
        }]
    } else {
        registries_conf()?.sources(reference).map_err(failed)?
    };
    let cache = if options.no_cache {
        None
    } else {
        cache::Cache::open()
    };
    let mut last_error = String::new();
    for source in sources {
        let (parsed, credentials) = reach(&source, failed)?;
        for (http, skip_verify) in protocols(options, source.insecure) {
            let mut progress = Progress::new(reference, !options.quiet);
            let fetched = with_session(http, skip_verify, |runtime, clients| {
                runtime.block_on(fetch(
                    &Registry {
                        clients,
                        credentials: &credentials,
                        cache: cache.as_ref(),
                        offline: options.offline,
                    },
                    &parsed,
                    (reference, known),
                    &mut progress,
                ))
            })
            .map_err(|error| failed(error.to_string()))?;
            progress.finish();
            match fetched {
                Ok(fetched) => return Ok(fetched),
                Err(FetchError::NotCached) => {
                    return Err(ImageError::NotCached {
                        reference: reference.to_owned(),
                    });
                }
                Err(error) if source.reference == reference => last_error = with_causes(&error),
                Err(error) => last_error = format!("{}: {}", source.reference, with_causes(&error)),
            }
        }
    }
    Err(failed(last_error))
}

/// A thread's runtime and its clients by protocol: building a client loads the
/// system's certificates, and a client keeps its connections, so each thread keeps
/// one of each for all its pulls (connections live on the runtime that made them).
struct Session {
    runtime: tokio::runtime::Runtime,
    clients: Clients,
}

thread_local! {
    static SESSION: std::cell::RefCell<Option<Session>> = const { std::cell::RefCell::new(None) };
}

fn with_session<T>(
    http: bool,
    skip_tls_verify: bool,
    run: impl FnOnce(&tokio::runtime::Runtime, &manifest::Clients) -> T,
) -> std::io::Result<T> {
    with_runtime(|runtime, clients| {
        let client = clients
            .entry((http, skip_tls_verify))
            .or_insert_with(|| client(http, skip_tls_verify));
        run(runtime, client)
    })
}

type Clients = std::collections::HashMap<(bool, bool), manifest::Clients>;

fn with_runtime<T>(
    run: impl FnOnce(&tokio::runtime::Runtime, &mut Clients) -> T,
) -> std::io::Result<T> {
    SESSION.with(|session| {
        let mut session = session.borrow_mut();
        if session.is_none() {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()?;
            *session = Some(Session {
                runtime,
                clients: Clients::new(),
            });
        }
        let session = session.as_mut().expect("just made");
        Ok(run(&session.runtime, &mut session.clients))
    })
}

/// Makes ring's cryptography the process's TLS provider, once, before the first client
/// is built (reqwest and oci-client are built without a provider of their own, and
/// panic without one).
fn install_crypto() {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        // An error means a provider is installed already, which is as good.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

fn client(http: bool, skip_tls_verify: bool) -> manifest::Clients {
    install_crypto();
    let limits = crate::files::limits::get();
    let oci = Client::new(ClientConfig {
        protocol: if http {
            ClientProtocol::Http
        } else {
            ClientProtocol::Https
        },
        accept_invalid_certificates: skip_tls_verify,
        platform_resolver: Some(Box::new(resolve_platform)),
        connect_timeout: Some(limits.pull_timeout),
        read_timeout: Some(limits.pull_timeout),
        ..ClientConfig::default()
    });
    // Built like oci-client's own; failing that (no TLS back end), a default one.
    let http_client = reqwest::Client::builder()
        .tls_danger_accept_invalid_certs(skip_tls_verify)
        .connect_timeout(limits.pull_timeout)
        .read_timeout(limits.pull_timeout)
        .build()
        .unwrap_or_default();
    manifest::Clients {
        oci,
        http: http_client,
        scheme: if http { "http" } else { "https" },
    }
}

/// Manifest requests in flight at once when many tags are resolved together.
const CONCURRENT_MANIFEST_REQUESTS: usize = 64;

/// The digests the references name now, without fetching the images: a pinned
/// reference's own digest, the registry's answer for a tag (one manifest request,
/// through the mirrors; all of them at once on this thread, with one client per
/// protocol), or, offline, the digest the cache last saw for the tag. `None` where
/// that cannot be known (a local image, no cache, no answer).
pub(crate) fn current_digests(references: &[&str], options: PullOptions) -> Vec<Option<String>> {
    let mut digests: Vec<Option<String>> = vec![None; references.len()];
    let cache = cache::Cache::open();
    let Some(cache) = cache.filter(|_| !options.no_cache) else {
        return digests;
    };
    let registries = registries::get().ok();
    // Per reference still to ask: the (source, protocol, credentials) to try in order.
    let mut asks = Vec::new();
    for (index, reference) in references.iter().enumerate() {
        if local::is_local(reference) || !is_canonical(reference) {
            continue;
        }
        let Ok(parsed) = reference.parse::<Reference>() else {
            continue;
        };
        if let Some(digest) = parsed.digest() {
            digests[index] = Some(digest.to_owned());
            continue;
        }
        if options.offline {
            digests[index] = cache.tag(reference);
            continue;
        }
        let Some(Ok(sources)) = registries.map(|registries| registries.sources(reference)) else {
            continue;
        };
        let mut attempts = Vec::new();
        for source in sources {
            let Ok(parsed) = source.reference.parse::<Reference>() else {
                continue;
            };
            let Ok(credentials) = auth::for_registry(parsed.resolve_registry()) else {
                continue;
            };
            for protocol in protocols(options, source.insecure) {
                attempts.push((parsed.clone(), protocol, credentials.clone()));
            }
        }
        asks.push((index, attempts));
    }
    let _ = with_runtime(|runtime, clients| {
        for (http, skip_verify) in asks
            .iter()
            .flat_map(|(_, attempts)| attempts.iter().map(|a| a.1))
        {
            clients
                .entry((http, skip_verify))
                .or_insert_with(|| client(http, skip_verify));
        }
        for chunk in asks.chunks(CONCURRENT_MANIFEST_REQUESTS) {
            runtime.block_on(async {
                let mut set = tokio::task::JoinSet::new();
                for (index, attempts) in chunk {
                    let attempts: Vec<_> = attempts
                        .iter()
                        .map(|(reference, protocol, credentials)| {
                            (
                                reference.clone(),
                                clients[protocol].clone(),
                                credentials.clone(),
                            )
                        })
                        .collect();
                    let index = *index;
                    set.spawn(async move {
                        for (reference, client, credentials) in attempts {
                            let request = manifest::digest(&client, &reference, &credentials);
                            if let Ok(digest) = bounded("manifest", request, 0).await {
                                return (index, Some(digest));
                            }
                        }
                        (index, None)
                    });
                }
                while let Some(joined) = set.join_next().await {
                    if let Ok((index, digest)) = joined {
                        digests[index] = digest;
                    }
                }
            });
        }
    });
    digests
}

/// How to reach a source, in order, as (plain HTTP, skip TLS verification): an
/// insecure registry is tried over HTTPS without verification, then over HTTP.
fn protocols(options: PullOptions, insecure: bool) -> Vec<(bool, bool)> {
    match (options.use_http, insecure) {
        (true, _) => vec![(true, false)],
        (false, true) => vec![(false, true), (true, false)],
        (false, false) => vec![(false, options.skip_tls_verify)],
    }
}

/// A small entry of the cache, under `kind`, by `key` (any text): written
/// atomically, `None` when absent or when there is no cache.
pub(crate) fn cached_entry(kind: &str, key: &str) -> Option<Vec<u8>> {
    cache::Cache::open()?.entry(kind, key)
}

pub(crate) fn store_entry(kind: &str, key: &str, data: &[u8]) {
    if let Some(cache) = cache::Cache::open() {
        cache.store_entry(kind, key, data);
    }
}

/// A layer blob on disk, checked against its digest: in the cache, or in a
/// temporary file removed when this is dropped.
pub(crate) enum LayerFile {
    Cached(PathBuf),
    Temporary(tempfile::TempPath),
}

impl LayerFile {
    pub(crate) fn path(&self) -> &std::path::Path {
        match self {
            LayerFile::Cached(path) => path,
            LayerFile::Temporary(path) => path,
        }
    }
}

/// The host platform's image from an index, linux/amd64 when it has none.
fn resolve_platform(manifests: &[oci_client::manifest::ImageIndexEntry]) -> Option<String> {
    oci_client::client::current_platform_resolver(manifests)
        .or_else(|| oci_client::client::linux_amd64_resolver(manifests))
}

/// The labels of an image config (`config.Labels`).
fn labels(config: &str) -> Result<BTreeMap<String, String>, String> {
    let value: serde_json::Value =
        serde_json::from_str(config).map_err(|error| format!("image config: {error}"))?;
    let Some(labels) = value.pointer("/config/Labels").and_then(|v| v.as_object()) else {
        return Ok(BTreeMap::new());
    };
    Ok(labels
        .iter()
        .filter_map(|(key, value)| Some((key.clone(), value.as_str()?.to_owned())))
        .collect())
}

#[cfg(test)]
mod tests;
