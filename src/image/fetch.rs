//! Fetching an image from its registry: the manifest, the config and the layers,
//! through the cache, each download bounded in size and in rate, with a
//! progress line for the layers.

use oci_client::manifest::OciImageManifest;
use oci_client::{Client, Reference};

use super::{LayerFile, cache, manifest};

/// The manifest, the config, the layers and the bytes downloaded for them.
pub(crate) type Fetched = (OciImageManifest, String, Vec<LayerFile>, u64);

/// Where an image comes from: the registry, through the cache.
pub(super) struct Registry<'a> {
    pub(super) clients: &'a manifest::Clients,
    pub(super) credentials: &'a oci_client::secrets::RegistryAuth,
    pub(super) cache: Option<&'a cache::Cache>,
    pub(super) offline: bool,
}

#[derive(Debug, thiserror::Error)]
pub(super) enum FetchError {
    #[error(transparent)]
    Registry(#[from] oci_client::errors::OciDistributionError),
    #[error("create a file for a layer: {0}")]
    File(std::io::Error),
    #[error(
        "the image's layers add up to {size} bytes, more than the {limit} that FBC_MAX_IMAGE_SIZE allows"
    )]
    TooLarge { size: u64, limit: String },
    #[error("not in the cache")]
    NotCached,
    #[error("{0}")]
    Manifest(String),
    #[error(
        "the registry did not finish the {what} request within {} s (FBC_PULL_TIMEOUT{})",
        .limit.as_secs(),
        if *.layer { ", plus a second per 64 KiB of the layer" } else { "" }
    )]
    Timeout {
        what: &'static str,
        limit: std::time::Duration,
        layer: bool,
    },
    #[error(
        "the registry sent nothing for {} s during the {what} request (FBC_PULL_TIMEOUT)",
        .limit.as_secs()
    )]
    Silent {
        what: &'static str,
        limit: std::time::Duration,
    },
}

/// An error and the causes its text leaves out: reqwest says `error sending request
/// for url (...)` where the cause was a failed DNS lookup or a refused connection.
pub(super) fn with_causes(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(error) = cause {
        let said = error.to_string();
        if !said.is_empty() && !text.contains(&said) {
            text.push_str(": ");
            text.push_str(&said);
        }
        cause = error.source();
    }
    text
}

/// Whether a request failed because the registry fell silent for the client's
/// read or connect timeout (somewhere in the error's chain of causes).
pub(super) fn timed_out(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause = Some(error);
    while let Some(error) = cause {
        if error
            .downcast_ref::<reqwest::Error>()
            .is_some_and(reqwest::Error::is_timeout)
            || error
                .downcast_ref::<std::io::Error>()
                .is_some_and(|error| error.kind() == std::io::ErrorKind::TimedOut)
        {
            return true;
        }
        cause = error.source();
    }
    false
}

pub(super) async fn fetch(
    registry: &Registry<'_>,
    reference: &Reference,
    (written, known): (&str, Option<&str>),
    progress: &mut Progress,
) -> Result<Fetched, FetchError> {
    let Registry {
        clients,
        credentials,
        cache,
        offline,
    } = *registry;
    // A digest names the same image for ever; a tag is resolved to one with a single
    // manifest request (or, offline, through the tag the cache last saw).
    let digest = match (reference.digest().or(known), cache) {
        (Some(digest), _) => Some(digest.to_owned()),
        (None, Some(cache)) if offline => cache.tag(written),
        (None, Some(_)) => Some(
            bounded(
                "manifest",
                manifest::digest(clients, reference, credentials),
                0,
            )
            .await?,
        ),
        (None, None) => None,
    };
    let cached = digest
        .as_deref()
        .zip(cache)
        .and_then(|(digest, cache)| cache.resolved(digest));
    let resolved_now = cached.is_none();
    let (manifest, config) = if let Some(resolved) = cached {
        resolved
    } else if offline {
        return Err(FetchError::NotCached);
    } else {
        // Pull what the digest names, so that a tag moved meanwhile cannot mix images.
        let target = match (&digest, reference.digest()) {
            (Some(digest), None) => Reference::with_digest(
                reference.registry().to_owned(),
                reference.repository().to_owned(),
                digest.clone(),
            ),
            _ => reference.clone(),
        };
        bounded(
            "manifest and config",
            manifest::manifest_and_config(clients, &target, credentials),
            0,
        )
        .await?
    };
    // Refuse what is too large before downloading any of it.
    let limit = crate::files::limits::get().max_image_size;
    let size = manifest
        .layers
        .iter()
        .map(|layer| u64::try_from(layer.size).unwrap_or(u64::MAX))
        .fold(0u64, u64::saturating_add);
    if size > limit {
        return Err(FetchError::TooLarge {
            size,
            limit: crate::files::limits::show_size(limit),
        });
    }
    let mut layers = Vec::with_capacity(manifest.layers.len());
    let mut downloaded = 0;
    for (index, layer) in manifest.layers.iter().enumerate() {
        progress.show(index, manifest.layers.len(), downloaded);
        if let Some(path) = cache.and_then(|cache| cache.blob(&layer.digest)) {
            layers.push(LayerFile::Cached(path));
            continue;
        }
        if offline {
            return Err(FetchError::NotCached);
        }
        let (file, written, _interrupt) = download(&clients.oci, reference, layer, cache).await?;
        downloaded += written;
        layers.push(match cache {
            Some(cache) => cache.keep(&layer.digest, file),
            None => LayerFile::Temporary(file.into_temp_path()),
        });
    }
    // Only a whole image is remembered: an interrupted pull leaves no entry.
    if let (Some(digest), Some(cache)) = (digest.as_deref(), cache) {
        if resolved_now {
            cache.store_resolved(digest, &manifest, &config);
        }
        if reference.digest().is_none() && !offline {
            cache.store_tag(written, digest);
        }
    }
    Ok((manifest, config, layers, downloaded))
}

/// Downloads one layer into a new file (in the cache, when there is one): the file,
/// the bytes written, and what removes the file if the run is interrupted.
pub(super) async fn download(
    client: &Client,
    reference: &Reference,
    layer: &oci_client::manifest::OciDescriptor,
    cache: Option<&cache::Cache>,
) -> Result<
    (
        tempfile::NamedTempFile,
        u64,
        crate::process::interrupt::Guard,
    ),
    FetchError,
> {
    let file = match cache.and_then(cache::Cache::download_file) {
        Some(file) => file,
        None => tempfile::NamedTempFile::new().map_err(FetchError::File)?,
    };
    let interrupt = crate::process::interrupt::remove_on_interrupt(file.path());
    // The registry may not send more than the manifest declares.
    let size = u64::try_from(layer.size).unwrap_or(0);
    let mut writer = LimitedWriter {
        file: file.as_file().try_clone().map_err(FetchError::File)?,
        written: 0,
        limit: size,
    };
    // oci-client checks the content against the layer's digest.
    bounded(
        "layer",
        client.pull_blob(reference, layer, &mut writer),
        size,
    )
    .await?;
    Ok((file, writer.written, interrupt))
}

/// Bytes a layer may take a second to arrive: a layer's deadline grows with its size.
pub(super) const SLOWEST_RATE: u64 = 64 << 10;

/// Runs one registry request within `FBC_PULL_TIMEOUT` (plus a second per
/// [`SLOWEST_RATE`] bytes of a layer of `size` bytes): the client's read timeout
/// only bounds silence, and a registry dripping a byte at a time never falls silent.
pub(super) async fn bounded<T, E: Into<FetchError>>(
    what: &'static str,
    request: impl Future<Output = Result<T, E>>,
    size: u64,
) -> Result<T, FetchError> {
    let base = crate::files::limits::get().pull_timeout;
    let limit = base.saturating_add(std::time::Duration::from_secs(size / SLOWEST_RATE));
    match tokio::time::timeout(limit, request).await {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(error)) => match error.into() {
            FetchError::Registry(error) if timed_out(&error) => {
                Err(FetchError::Silent { what, limit: base })
            }
            error => Err(error),
        },
        Err(_) => Err(FetchError::Timeout {
            what,
            limit,
            layer: size > 0,
        }),
    }
}

/// A file (or buffer) written by an async blob download, refusing more than
/// `limit` bytes.
pub(super) struct LimitedWriter<W> {
    pub(super) file: W,
    pub(super) written: u64,
    pub(super) limit: u64,
}

impl<W: std::io::Write + Unpin> tokio::io::AsyncWrite for LimitedWriter<W> {
    fn poll_write(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        this.written += buf.len() as u64;
        let result = if this.written > this.limit {
            Err(std::io::Error::other(format!(
                "the registry sent more than the {} bytes the manifest declares for the layer",
                this.limit
            )))
        } else {
            std::io::Write::write_all(&mut this.file, buf).map(|()| buf.len())
        };
        std::task::Poll::Ready(result)
    }

    fn poll_flush(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::task::Poll::Ready(std::io::Write::flush(&mut self.get_mut().file))
    }

    fn poll_shutdown(
        self: std::pin::Pin<&mut Self>,
        context: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        self.poll_flush(context)
    }
}

/// Progress on stderr, for pulls that take over a second, when stderr is a
/// terminal: which layer is being fetched and how much has arrived.
pub(super) struct Progress {
    pub(super) reference: String,
    pub(super) started: std::time::Instant,
    pub(super) enabled: bool,
    pub(super) shown: bool,
}

impl Progress {
    pub(super) fn new(reference: &str, wanted: bool) -> Progress {
        use std::io::IsTerminal as _;
        Progress {
            reference: reference.to_owned(),
            started: std::time::Instant::now(),
            enabled: wanted && std::io::stderr().is_terminal(),
            shown: false,
        }
    }

    pub(super) fn show(&mut self, index: usize, count: usize, bytes: u64) {
        if self.enabled && self.started.elapsed() >= std::time::Duration::from_secs(1) {
            eprint!(
                "\r\x1b[K{}",
                progress_line(&self.reference, index, count, bytes)
            );
            self.shown = true;
        }
    }

    /// Clears the line, so that the output that follows starts clean.
    pub(super) fn finish(&mut self) {
        if self.shown {
            eprint!("\r\x1b[K");
        }
    }
}

pub(super) fn progress_line(reference: &str, index: usize, count: usize, bytes: u64) -> String {
    #[allow(clippy::cast_precision_loss)] // a display figure
    let megabytes = bytes as f64 / 1_000_000.0;
    format!(
        "pulling {reference}: layer {} of {count}, {megabytes:.1} MB so far",
        index + 1
    )
}
