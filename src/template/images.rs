//! Bundle images of a template, rendered as opm renders them (spec §10.2: only
//! bundle images are allowed) but fetched in parallel, a bounded number at a time,
//! through the image cache.

use std::path::Path;
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use super::{BundleRenderer, RenderedBundle};
use crate::bundle::migrate::Migrations;
use crate::bundle::{self, BundleImage};
use crate::go::fmt::quote;
use crate::image::{self, ImageError, ImageKind, PullOptions};

/// Progress of a batch: bundles done, bundles in all, bytes downloaded so far.
pub(crate) type OnProgress<'a> = dyn Fn(usize, usize, u64) + Sync + 'a;

pub(crate) struct ImageRenderer<'a> {
    pub(crate) pull: PullOptions,
    pub(crate) migrations: Option<Migrations>,
    /// Images fetched at once.
    pub(crate) jobs: usize,
    pub(crate) on_progress: &'a OnProgress<'a>,
    /// References that `--offline` could not find in the cache, in the order met.
    pub(crate) not_cached: Mutex<Vec<String>>,
}

impl BundleRenderer for ImageRenderer<'_> {
    fn render_all(&self, references: &[&str]) -> Vec<Result<Arc<RenderedBundle>, String>> {
        let total = references.len();
        let done = Mutex::new((0usize, 0u64));
        let digests = image::current_digests(references, self.pull);
        let render = |(reference, digest): (&&str, &Option<String>)| {
            let (result, downloaded) = self.render_one(reference, digest.as_deref());
            let mut done = done.lock().expect("no thread panics holding it");
            done.0 += 1;
            done.1 += downloaded;
            (self.on_progress)(done.0, total, done.1);
            result.map(Arc::new)
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.jobs.clamp(1, total.max(1)))
            .thread_name(|index| format!("fbc-pull-{index}"))
            .stack_size(crate::process::stack::deep_stack())
            .build();
        match pool {
            Ok(pool) => pool.install(|| {
                references
                    .par_iter()
                    .zip(digests.par_iter())
                    .map(render)
                    .collect()
            }),
            // No threads to be had: one image after the other.
            Err(_) => references.iter().zip(&digests).map(render).collect(),
        }
    }
}

impl ImageRenderer<'_> {
    /// One reference: its bundle or opm's error text, and the bytes downloaded.
    fn render_one(
        &self,
        reference: &str,
        digest: Option<&str>,
    ) -> (Result<RenderedBundle, String>, u64) {
        let prefix = format!("render reference {}: ", quote(reference));
        if let Some(refusal) = local_path_refusal(reference) {
            return (Err(format!("{prefix}{refusal}")), 0);
        }
        // A rendering is kept by what the reference names now: a warm tag costs
        // one manifest request, a pinned digest none.
        let key = digest.map(|digest| self.cache_key(reference, digest));
        if let Some(rendered) = key.as_deref().and_then(load_rendered) {
            return (Ok(rendered), 0);
        }
        let pulled = match image::pull_digest(reference, digest, self.pull) {
            Ok(pulled) => pulled,
            Err(error) => {
                if matches!(error, ImageError::NotCached { .. }) {
                    let mut missing = self.not_cached.lock().expect("no thread panics holding it");
                    missing.push(reference.to_owned());
                }
                return (Err(format!("{prefix}{error}")), 0);
            }
        };
        let downloaded = pulled.downloaded;
        let result = match pulled.kind(reference) {
            Ok(ImageKind::Bundle) => self.render_bundle(&pulled, reference),
            Ok(ImageKind::Catalog(_)) => {
                Err("cannot render declarative config image: not allowed".to_owned())
            }
            Err(error) => Err(error.to_string()),
        };
        if let (Ok(rendered), Some(key)) = (&result, &key) {
            store_rendered(key, rendered);
        }
        (
            result.map_err(|error| format!("{prefix}{error}")),
            downloaded,
        )
    }

    /// What a rendering depends on: fbc's version, the image, the reference as
    /// written (it is the bundle's `image`) and the migrations.
    fn cache_key(&self, reference: &str, digest: &str) -> String {
        let migrations = self.migrations.map_or(0, |migrations| {
            usize::from(migrations.replaces_objects()) + 1
        });
        format!("{}\0{digest}\0{reference}\0{migrations}", crate::VERSION)
    }

    fn render_bundle(
        &self,
        pulled: &image::PulledImage,
        reference: &str,
    ) -> Result<RenderedBundle, String> {
        let migrating = self.migrations.is_some_and(Migrations::replaces_objects);
        let rendered = bundle::render_directory(
            pulled.root.path(),
            reference,
            BundleImage::Reference(reference),
            migrating,
        )
        .map_err(|error| error.to_string())?;
        let mut blob = rendered.bundle;
        bundle::post_process(&mut blob);
        if let Some(migrations) = self.migrations {
            migrations
                .apply_to_bundle(&mut blob, &rendered.csv)
                .map_err(|message| format!("migrate: {message}"))?;
        }
        Ok(RenderedBundle {
            bundle: blob,
            csv: Some(rendered.csv),
        })
    }
}

/// Where renderings are kept in the image cache.
const RENDERED: &str = "rendered-bundles";

/// A rendering as kept: every property value as the exact text opm writes, so
/// that the output does not change by a byte.
fn store_rendered(key: &str, rendered: &RenderedBundle) {
    let bundle = &rendered.bundle;
    let properties: Vec<serde_json::Value> = bundle
        .properties
        .iter()
        .map(|property| serde_json::json!([property.kind.as_str(), property.value_text()]))
        .collect();
    let related: Vec<serde_json::Value> = bundle
        .related_images
        .iter()
        .map(|related| serde_json::json!([related.name.as_str(), related.image.as_str()]))
        .collect();
    let entry = serde_json::json!({
        "schema": crate::model::bundle::SCHEMA, "name": bundle.name.as_str(),
        "package": bundle.package.as_str(), "image": bundle.image.as_str(),
        "properties": properties, "relatedImages": related,
        "csv": rendered.csv,
    });
    if let Ok(bytes) = serde_json::to_vec(&entry) {
        image::store_entry(RENDERED, key, &bytes);
    }
}

fn load_rendered(key: &str) -> Option<RenderedBundle> {
    let entry: serde_json::Value =
        serde_json::from_slice(&image::cached_entry(RENDERED, key)?).ok()?;
    let text = |name: &str| entry.get(name)?.as_str().map(str::to_owned);
    let pairs = |name: &str| -> Option<Vec<(String, String)>> {
        entry
            .get(name)?
            .as_array()?
            .iter()
            .map(|pair| {
                Some((
                    pair.get(0)?.as_str()?.to_owned(),
                    pair.get(1)?.as_str()?.to_owned(),
                ))
            })
            .collect()
    };
    let properties = pairs("properties")?
        .into_iter()
        .map(|(kind, value)| {
            // A damaged cache entry is rendered again rather than written out.
            serde_json::from_str::<serde::de::IgnoredAny>(&value).ok()?;
            Some(crate::model::property::Property::raw(kind, value))
        })
        .collect::<Option<Vec<_>>>()?;
    let related_images = pairs("relatedImages")?
        .into_iter()
        .map(|(name, image)| crate::model::bundle::RelatedImage {
            name: name.into(),
            image: image.into(),
        })
        .collect();
    Some(RenderedBundle {
        bundle: crate::model::Bundle {
            name: text("name")?.into(),
            package: text("package")?.into(),
            image: text("image")?.into(),
            properties: properties.into(),
            related_images,
        },
        csv: entry.get("csv").filter(|csv| !csv.is_null()).cloned(),
    })
}

/// opm stats a template's reference first: what exists on disk is never pulled,
/// and is refused with the words of its kind.
fn local_path_refusal(reference: &str) -> Option<String> {
    let path = Path::new(reference);
    let metadata = std::fs::metadata(path).ok()?;
    Some(if !metadata.is_dir() {
        format!("ref {} is not a directory: not allowed", quote(reference))
    } else if path.join("manifests").is_dir() && path.join("metadata").is_dir() {
        format!(
            "cannot render bundle directory {}: not allowed",
            quote(reference)
        )
    } else {
        "cannot render declarative config directory: not allowed".to_owned()
    })
}
