//! Pushing an image to a registry (`fbc build --tag`): each blob the registry
//! does not hold yet, then the manifest under the reference's tag. The
//! registry is reached as pulls reach it: registries.conf's location for the
//! reference (mirrors are for pulls only), its `insecure` flag, `--use-http`,
//! `--skip-tls-verify` and the same credentials.

use std::path::PathBuf;

use oci_client::{Reference, RegistryOperation};

use super::fetch::{FetchError, bounded, with_causes};
use super::{
    ImageError, PullOptions, check_reference, protocols, reach, registries_conf, with_session,
};

/// A blob to push: its digest and where its bytes are.
pub(crate) struct PushBlob<'a> {
    pub(crate) digest: String,
    pub(crate) contents: Contents<'a>,
}

pub(crate) enum Contents<'a> {
    File(PathBuf),
    Bytes(&'a [u8]),
}

/// Pushes `blobs`, then the manifests (bytes and media type): each but the last
/// by its digest, the last under `reference`; the last one's digest.
pub(crate) fn push(
    reference: &str,
    blobs: &[PushBlob<'_>],
    manifests: &[(&[u8], &str)],
    options: PullOptions,
) -> Result<String, ImageError> {
    let failed = |message: String| ImageError::Push {
        reference: reference.to_owned(),
        message,
    };
    check_reference(reference, failed)?;
    let registries = registries_conf()?;
    let source = registries
        .sources(reference)
        .map_err(failed)?
        .pop()
        .ok_or_else(|| failed("registries.conf gives no location".to_owned()))?;
    let (target, credentials) = reach(&source, failed)?;
    let digest_of = |bytes: &[u8]| format!("sha256:{}", crate::digest::sha256_hex(bytes));
    let mut documents = Vec::with_capacity(manifests.len());
    for (index, (bytes, media_type)) in manifests.iter().enumerate() {
        let content_type = reqwest::header::HeaderValue::from_str(media_type)
            .map_err(|error| failed(error.to_string()))?;
        let place = if index + 1 == manifests.len() {
            target.clone()
        } else {
            Reference::with_digest(
                target.registry().to_owned(),
                target.repository().to_owned(),
                digest_of(bytes),
            )
        };
        documents.push((place, *bytes, content_type));
    }
    let digest = manifests
        .last()
        .map(|(bytes, _)| digest_of(bytes))
        .unwrap_or_default();
    let mut last_error = String::new();
    for (http, skip_verify) in protocols(options, source.insecure) {
        let pushed = with_session(http, skip_verify, |runtime, clients| {
            runtime.block_on(async {
                let client = &clients.oci;
                bounded(
                    "authentication",
                    client.auth(&target, &credentials, RegistryOperation::Push),
                    0,
                )
                .await?;
                for blob in blobs {
                    if bounded("blob check", client.blob_exists(&target, &blob.digest), 0).await? {
                        continue;
                    }
                    let data = match &blob.contents {
                        Contents::File(path) => std::fs::read(path).map_err(FetchError::File)?,
                        Contents::Bytes(bytes) => bytes.to_vec(),
                    };
                    let size = data.len() as u64;
                    bounded("blob", client.push_blob(&target, data, &blob.digest), size).await?;
                }
                for (place, bytes, content_type) in &documents {
                    bounded(
                        "manifest",
                        client.push_manifest_raw(place, bytes.to_vec(), content_type.clone()),
                        0,
                    )
                    .await?;
                }
                Ok::<_, FetchError>(())
            })
        })
        .map_err(|error| failed(error.to_string()))?;
        match pushed {
            Ok(()) => return Ok(digest),
            Err(error) => last_error = with_causes(&error),
        }
    }
    Err(failed(last_error))
}
