//! Writing a catalog in opm's order: packages sorted by name, each with its package
//! blobs, channels and bundles sorted by name, other blobs by schema, then its
//! deprecations; package-less other blobs last. Blobs without a package are dropped,
//! as opm drops them.

use std::collections::BTreeMap;
use std::io::Write;

use super::node::Node;
use super::{json, yaml};
use rayon::prelude::*;

use crate::catalog::{Catalog, Other};
use crate::model::{Bundle, Channel, Deprecation, Package};

/// Output encodings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    Json,
    Yaml,
}

#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub(crate) enum WriteError {
    #[error(transparent)]
    #[diagnostic(code(fbc::output::yaml))]
    Yaml(#[from] yaml::YamlWriteError),
    #[error("write <stdout>: {0}")]
    #[diagnostic(code(fbc::output::io))]
    Io(#[from] std::io::Error),
}

/// One blob to write, borrowed from the catalog; its output tree is built only when
/// it is written, so the trees of the whole catalog never exist at once.
#[derive(Clone, Copy)]
enum Blob<'a> {
    Package(&'a Package),
    Channel(&'a Channel),
    Bundle(&'a Bundle),
    Other(&'a Other),
    Deprecation(&'a Deprecation),
}

impl<'a> Blob<'a> {
    fn node(self) -> Node<'a> {
        match self {
            Blob::Package(package) => package.to_node(),
            Blob::Channel(channel) => channel.to_node(),
            Blob::Bundle(bundle) => bundle.to_node(),
            Blob::Other(other) => Node::from_map(&other.blob),
            Blob::Deprecation(deprecation) => deprecation.to_node(),
        }
    }
}

/// The blobs of one package, in the order they are written.
#[derive(Default)]
struct Group<'a> {
    packages: Vec<Blob<'a>>,
    channels: Vec<(&'a str, Blob<'a>)>,
    bundles: Vec<(&'a str, Blob<'a>)>,
    others: Vec<(&'a str, Blob<'a>)>,
    deprecations: Vec<Blob<'a>>,
}

fn group<'m, 'a>(
    groups: &'m mut BTreeMap<&'a str, Group<'a>>,
    package: &'a str,
) -> &'m mut Group<'a> {
    groups.entry(package).or_default()
}

/// The blobs of `catalog` in output order.
fn ordered_blobs(catalog: &Catalog) -> Vec<Blob<'_>> {
    let mut groups: BTreeMap<&str, Group<'_>> = BTreeMap::new();
    for package in catalog.packages.iter().map(|located| &located.item) {
        if !package.name.is_empty() {
            group(&mut groups, &package.name)
                .packages
                .push(Blob::Package(package));
        }
    }
    for channel in catalog.channels.iter().map(|located| &located.item) {
        if !channel.package.is_empty() {
            let blob = (channel.name.as_str(), Blob::Channel(channel));
            group(&mut groups, &channel.package).channels.push(blob);
        }
    }
    for bundle in catalog.bundles.iter().map(|located| &located.item) {
        if !bundle.package.is_empty() {
            let blob = (bundle.name.as_str(), Blob::Bundle(bundle));
            group(&mut groups, &bundle.package).bundles.push(blob);
        }
    }
    let mut root_others = Vec::new();
    for other in catalog.others.iter().map(|located| &located.item) {
        if other.package.is_empty() {
            root_others.push(Blob::Other(other));
        } else {
            let blob = (other.schema.as_str(), Blob::Other(other));
            group(&mut groups, &other.package).others.push(blob);
        }
    }
    for deprecation in catalog.deprecations.iter().map(|located| &located.item) {
        if !deprecation.package.is_empty() {
            let blob = Blob::Deprecation(deprecation);
            group(&mut groups, &deprecation.package)
                .deprecations
                .push(blob);
        }
    }
    let mut blobs = Vec::new();
    for (_, mut group) in groups {
        // Stable sorts: equal names keep load order (opm leaves it unspecified).
        group.channels.sort_by(|a, b| a.0.cmp(b.0));
        group.bundles.sort_by(|a, b| a.0.cmp(b.0));
        group.others.sort_by(|a, b| a.0.cmp(b.0));
        blobs.extend(group.packages);
        blobs.extend(group.channels.into_iter().map(|(_, blob)| blob));
        blobs.extend(group.bundles.into_iter().map(|(_, blob)| blob));
        blobs.extend(group.others.into_iter().map(|(_, blob)| blob));
        blobs.extend(group.deprecations);
    }
    blobs.extend(root_others);
    blobs
}

/// Blobs encoded per parallel task, and tasks per window written at once: enough
/// work for every core while only a few megabytes of output wait in memory.
const BLOBS_PER_TASK: usize = 4;
const TASKS_PER_WINDOW: usize = 8;

/// Writes the whole catalog. YAML output is checked before anything is written, so
/// a blob that opm's YAML writer would reject leaves no partial output.
pub(crate) fn write_catalog(
    catalog: &Catalog,
    format: Format,
    out: &mut impl Write,
) -> Result<(), WriteError> {
    let blobs = ordered_blobs(catalog);
    if format == Format::Yaml
        && let Some(error) = blobs
            .par_iter()
            .find_map_first(|blob| yaml::check(&blob.node()).err())
    {
        return Err(error.into());
    }
    for window in blobs.chunks(BLOBS_PER_TASK * TASKS_PER_WINDOW) {
        let parts: Vec<Result<Vec<u8>, WriteError>> = window
            .par_chunks(BLOBS_PER_TASK)
            .map(|task| encode(task, format))
            .collect();
        for part in parts {
            out.write_all(&part?)?;
        }
    }
    out.flush()?;
    Ok(())
}

fn encode(blobs: &[Blob<'_>], format: Format) -> Result<Vec<u8>, WriteError> {
    let mut buffer = Vec::new();
    for blob in blobs {
        let node = blob.node();
        match format {
            Format::Json => json::write_pretty(&node, &mut buffer),
            Format::Yaml => yaml::write_document(&node, &mut buffer)?,
        }
    }
    Ok(buffer)
}
