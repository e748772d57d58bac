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
        let render = |reference: &&str| {
            let (result, downloaded) = self.render_one(reference);
            let mut done = done.lock().expect("no thread panics holding it");
            done.0 += 1;
            done.1 += downloaded;
            (self.on_progress)(done.0, total, done.1);
            result.map(Arc::new)
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.jobs.clamp(1, total.max(1)))
            .thread_name(|index| format!("fbc-pull-{index}"))
            .build();
        match pool {
            Ok(pool) => pool.install(|| references.par_iter().map(render).collect()),
            // No threads to be had: one image after the other.
            Err(_) => references.iter().map(render).collect(),
        }
    }
}

impl ImageRenderer<'_> {
    /// One reference: its bundle or opm's error text, and the bytes downloaded.
    fn render_one(&self, reference: &str) -> (Result<RenderedBundle, String>, u64) {
        let prefix = format!("render reference {}: ", quote(reference));
        if let Some(refusal) = local_path_refusal(reference) {
            return (Err(format!("{prefix}{refusal}")), 0);
        }
        let pulled = match image::pull(reference, self.pull) {
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
        (
            result.map_err(|error| format!("{prefix}{error}")),
            downloaded,
        )
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
