//! Writing a catalog in opm's order: packages sorted by name, each with its package
//! blobs, channels and bundles sorted by name, other blobs by schema, then its
//! deprecations; package-less other blobs last. Blobs without a package are dropped,
//! as opm drops them.

use std::collections::BTreeMap;
use std::io::Write;

use super::node::Node;
use super::sink::{Capped, Sink, Spill};
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

/// A blob as opm's JSON writer prints it, with what names it.
pub(crate) struct NamedBlob {
    /// `package`, `channel`, `bundle`, `deprecations` or the blob's own schema.
    pub(crate) kind: String,
    pub(crate) package: String,
    pub(crate) name: String,
    pub(crate) text: String,
}

/// Every blob that would be written, in output order, each with its JSON text.
pub(crate) fn named_blobs(catalog: &Catalog) -> Vec<NamedBlob> {
    ordered_blobs(catalog)
        .into_iter()
        .map(|blob| {
            let (kind, package, name) = match blob {
                Blob::Package(package) => ("package".to_owned(), &package.name, &package.name),
                Blob::Channel(channel) => ("channel".to_owned(), &channel.package, &channel.name),
                Blob::Bundle(bundle) => ("bundle".to_owned(), &bundle.package, &bundle.name),
                Blob::Other(other) => (other.schema.clone(), &other.package, &other.name),
                Blob::Deprecation(deprecation) => (
                    "deprecations".to_owned(),
                    &deprecation.package,
                    &deprecation.package,
                ),
            };
            let mut text = Vec::new();
            json::write_pretty(&blob.node(), &mut text);
            NamedBlob {
                kind,
                package: package.clone(),
                name: name.clone(),
                text: String::from_utf8(text).expect("JSON output is UTF-8"),
            }
        })
        .collect()
}

/// Blobs encoded per parallel task, and tasks per window written at once: enough
/// work for every core while only a few megabytes of output wait in memory.
const BLOBS_PER_TASK: usize = 4;
const TASKS_PER_WINDOW: usize = 8;
/// Most bytes a task keeps in memory; past it, its blobs are written again
/// straight to the output, so a window never holds more than a few of these.
const TASK_CAP: usize = 8 << 20;
/// How much of a blob written straight to the output is buffered between writes.
const SPILL_SIZE: usize = 1 << 20;

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
        let parts: Vec<Result<Option<Vec<u8>>, WriteError>> = window
            .par_chunks(BLOBS_PER_TASK)
            .map(|task| {
                let mut sink = Capped::new(TASK_CAP);
                encode(task, format, &mut sink)?;
                Ok(sink.into_bytes())
            })
            .collect();
        for (task, part) in window.chunks(BLOBS_PER_TASK).zip(parts) {
            if let Some(bytes) = part? {
                out.write_all(&bytes)?;
            } else {
                let mut sink = Spill::new(&mut *out, SPILL_SIZE);
                encode(task, format, &mut sink)?;
                sink.finish()?;
            }
        }
    }
    out.flush()?;
    Ok(())
}

fn encode(blobs: &[Blob<'_>], format: Format, sink: &mut impl Sink) -> Result<(), WriteError> {
    for blob in blobs {
        let node = blob.node();
        match format {
            Format::Json => json::write_pretty(&node, sink),
            Format::Yaml => yaml::write_document(&node, sink)?,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Blobs nested deeply enough that a task's output passes `TASK_CAP` are
    /// written straight to the output, byte for byte as when buffered.
    #[test]
    fn blobs_past_the_task_cap_are_written_the_same() {
        let depth = 1500;
        let blob = |name: &str| {
            format!(
                "{{\"schema\":\"custom\",\"package\":\"a\",\"name\":\"{name}\",\"x\":{}{}}}\n",
                "[".repeat(depth),
                "]".repeat(depth)
            )
        };
        let text =
            blob("one") + &blob("two") + r#"{"schema":"custom","package":"a","name":"small"}"#;
        let catalog =
            crate::catalog::decode_bytes(std::path::Path::new("c.json"), text.into_bytes())
                .expect("a catalog");
        for format in [Format::Json, Format::Yaml] {
            let blobs = ordered_blobs(&catalog);
            let mut expected = Vec::new();
            encode(&blobs, format, &mut expected).expect("encoded");
            assert!(expected.len() > TASK_CAP || format == Format::Yaml);
            let mut written = Vec::new();
            write_catalog(&catalog, format, &mut written).expect("written");
            assert!(written == expected, "{format:?} output differs");
        }
    }
}
