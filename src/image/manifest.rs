//! Manifests and configs read with bounded bodies. oci-client buffers these whole,
//! however long the registry keeps sending; here a manifest stops at 4 MiB (the
//! bound containers/image applies) and a config at its declared size, which must
//! be within `FBC_MAX_FILE_SIZE`.

use oci_client::manifest::{
    IMAGE_MANIFEST_LIST_MEDIA_TYPE, IMAGE_MANIFEST_MEDIA_TYPE, OCI_IMAGE_INDEX_MEDIA_TYPE,
    OCI_IMAGE_MEDIA_TYPE, OciImageManifest, OciManifest,
};
use oci_client::secrets::RegistryAuth;
use oci_client::{Client, Reference, RegistryOperation};

use super::FetchError;

/// The most bytes a manifest may have.
pub(super) const MAX_MANIFEST: u64 = 4 << 20;

/// The clients of one protocol: oci-client for authentication and blobs, and a
/// plain HTTP client for the manifests it would buffer without bound.
#[derive(Clone)]
pub(super) struct Clients {
    pub(super) oci: Client,
    pub(super) http: reqwest::Client,
    pub(super) scheme: &'static str,
}

/// The image manifest `reference` names (through an index, for this platform) and
/// its config's text.
pub(super) async fn manifest_and_config(
    clients: &Clients,
    reference: &Reference,
    credentials: &RegistryAuth,
) -> Result<(OciImageManifest, String), FetchError> {
    let authorization = authorization(clients, reference, credentials).await?;
    let mut target = reference.clone();
    let manifest = loop {
        match get_manifest(clients, &target, authorization.as_deref()).await? {
            OciManifest::Image(manifest) => break manifest,
            OciManifest::ImageIndex(index) if target.digest() == reference.digest() => {
                let digest = super::resolve_platform(&index.manifests).ok_or_else(|| {
                    FetchError::Manifest("no image in the index is for this platform".to_owned())
                })?;
                target = Reference::with_digest(
                    reference.registry().to_owned(),
                    reference.repository().to_owned(),
                    digest,
                );
            }
            OciManifest::ImageIndex(_) => {
                return Err(FetchError::Manifest(
                    "the index names another index".to_owned(),
                ));
            }
        }
    };
    let config = config(clients, reference, &manifest).await?;
    Ok((manifest, config))
}

/// The images of the index `reference` names, or `None` when it names one image.
pub(super) async fn index_entries(
    clients: &Clients,
    reference: &Reference,
    credentials: &RegistryAuth,
) -> Result<Option<Vec<oci_client::manifest::ImageIndexEntry>>, FetchError> {
    let authorization = authorization(clients, reference, credentials).await?;
    Ok(
        match get_manifest(clients, reference, authorization.as_deref()).await? {
            OciManifest::Image(_) => None,
            OciManifest::ImageIndex(index) => Some(index.manifests),
        },
    )
}

/// The `Authorization` header for pulls from the registry, if it needs one.
async fn authorization(
    clients: &Clients,
    reference: &Reference,
    credentials: &RegistryAuth,
) -> Result<Option<String>, FetchError> {
    let token = clients
        .oci
        .auth(reference, credentials, RegistryOperation::Pull)
        .await?;
    Ok(match (token, credentials) {
        (Some(token), _) => Some(format!("Bearer {token}")),
        (None, RegistryAuth::Basic(user, password)) => {
            let pair = format!("{user}:{password}");
            Some(format!(
                "Basic {}",
                crate::go::base64::encode(pair.as_bytes())
            ))
        }
        (None, _) => None,
    })
}

/// The digest a reference names now: the registry's `Docker-Content-Digest` for a
/// HEAD request or, when it sends none, the digest of the manifest it serves.
pub(super) async fn digest(
    clients: &Clients,
    reference: &Reference,
    credentials: &RegistryAuth,
) -> Result<String, FetchError> {
    let authorization = authorization(clients, reference, credentials).await?;
    let url = manifest_url(clients, reference);
    let failed = |error: reqwest::Error| FetchError::Manifest(format!("HEAD {url}: {error}"));
    let response = request(clients.http.head(&url), authorization.as_deref())
        .send()
        .await
        .map_err(failed)?;
    let header = response
        .headers()
        .get("Docker-Content-Digest")
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    if response.status().is_success()
        && let Some(digest) = header
    {
        return Ok(digest);
    }
    let body = get_manifest_bytes(clients, reference, authorization.as_deref()).await?;
    Ok(format!("sha256:{}", crate::digest::sha256_hex(&body)))
}

fn manifest_url(clients: &Clients, reference: &Reference) -> String {
    let name = reference.digest().or(reference.tag()).unwrap_or("latest");
    format!(
        "{}://{}/v2/{}/manifests/{name}",
        clients.scheme,
        reference.resolve_registry(),
        reference.repository()
    )
}

fn request(
    builder: reqwest::RequestBuilder,
    authorization: Option<&str>,
) -> reqwest::RequestBuilder {
    let accept = [
        OCI_IMAGE_MEDIA_TYPE,
        IMAGE_MANIFEST_MEDIA_TYPE,
        OCI_IMAGE_INDEX_MEDIA_TYPE,
        IMAGE_MANIFEST_LIST_MEDIA_TYPE,
    ]
    .join(", ");
    let builder = builder.header("Accept", accept);
    match authorization {
        Some(authorization) => builder.header("Authorization", authorization),
        None => builder,
    }
}

async fn get_manifest(
    clients: &Clients,
    reference: &Reference,
    authorization: Option<&str>,
) -> Result<OciManifest, FetchError> {
    let url = manifest_url(clients, reference);
    let body = get_manifest_bytes(clients, reference, authorization).await?;
    serde_json::from_slice(&body)
        .map_err(|error| FetchError::Manifest(format!("the manifest at {url}: {error}")))
}

/// A manifest's bytes, at most [`MAX_MANIFEST`] of them, checked against the
/// reference's digest when it has one.
async fn get_manifest_bytes(
    clients: &Clients,
    reference: &Reference,
    authorization: Option<&str>,
) -> Result<Vec<u8>, FetchError> {
    let url = manifest_url(clients, reference);
    let limit = crate::files::limits::get().pull_timeout;
    let started = std::time::Instant::now();
    // A request that fails once the client's read timeout has run out timed out,
    // whatever form the timeout took in the chain of causes; other failures say
    // what they were, causes included.
    let failed = |error: reqwest::Error| {
        if super::timed_out(&error) || started.elapsed() >= limit {
            FetchError::Silent {
                what: "manifest",
                limit,
            }
        } else {
            FetchError::Manifest(format!("GET {url}: {}", super::with_causes(&error)))
        }
    };
    let mut response = request(clients.http.get(&url), authorization)
        .send()
        .await
        .map_err(failed)?;
    let status = response.status();
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(failed)? {
        if (body.len() + chunk.len()) as u64 > MAX_MANIFEST {
            return Err(FetchError::Manifest(format!(
                "the manifest at {url} is larger than {}",
                crate::files::limits::show_size(MAX_MANIFEST)
            )));
        }
        body.extend_from_slice(&chunk);
    }
    if !status.is_success() {
        let text = String::from_utf8_lossy(&body);
        let shown: String = text.chars().take(200).collect();
        return Err(FetchError::Manifest(format!(
            "GET {url}: {status}: {}",
            shown.trim()
        )));
    }
    if let Some(digest) = reference.digest()
        && let Some(hex) = digest.strip_prefix("sha256:")
        && crate::digest::sha256_hex(&body) != hex
    {
        return Err(FetchError::Manifest(format!(
            "the manifest at {url} does not match its digest"
        )));
    }
    Ok(body)
}

/// The config blob, refused before it is fetched when it is declared larger than a
/// file may be, and cut off past its declared size.
async fn config(
    clients: &Clients,
    reference: &Reference,
    manifest: &OciImageManifest,
) -> Result<String, FetchError> {
    let declared = u64::try_from(manifest.config.size).unwrap_or(u64::MAX);
    let limit = crate::files::limits::get().max_file_size;
    if declared > limit {
        return Err(FetchError::Manifest(format!(
            "the image config is declared as {declared} bytes, more than the {} that FBC_MAX_FILE_SIZE allows",
            crate::files::limits::show_size(limit)
        )));
    }
    let mut writer = super::LimitedWriter {
        file: Vec::new(),
        written: 0,
        limit: declared,
    };
    // oci-client checks the content against the config's digest.
    clients
        .oci
        .pull_blob(reference, &manifest.config, &mut writer)
        .await?;
    String::from_utf8(writer.file)
        .map_err(|_| FetchError::Manifest("the image config is not UTF-8".to_owned()))
}
