//! Writing a catalog in opm's order: packages sorted by name, each with its package
//! blobs, channels and bundles sorted by name, other blobs by schema, then its
//! deprecations; package-less other blobs last. Blobs without a package are dropped,
//! as opm drops them.

use std::collections::BTreeMap;
use std::io::Write;

use super::node::Node;
use super::{json, yaml};
use crate::catalog::{Catalog, Other};

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
    #[error("writing the output: {0}")]
    #[diagnostic(code(fbc::output::io))]
    Io(#[from] std::io::Error),
}

/// The blobs of one package, in the order they are written.
#[derive(Default)]
struct Group<'a> {
    nodes: Vec<Node<'a>>,
    channels: Vec<(&'a str, Node<'a>)>,
    bundles: Vec<(&'a str, Node<'a>)>,
    others: Vec<(&'a str, Node<'a>)>,
    deprecations: Vec<Node<'a>>,
}

fn other_node(other: &Other) -> Node<'_> {
    Node::from_map(&other.blob)
}

/// The blobs of `catalog` in output order.
fn ordered_nodes(catalog: &Catalog) -> Vec<Node<'_>> {
    let mut groups: BTreeMap<&str, Group<'_>> = BTreeMap::new();
    for package in &catalog.packages {
        if !package.item.name.is_empty() {
            groups
                .entry(&package.item.name)
                .or_default()
                .nodes
                .push(package.item.to_node());
        }
    }
    for channel in &catalog.channels {
        if !channel.item.package.is_empty() {
            let entry = groups.entry(&channel.item.package).or_default();
            entry
                .channels
                .push((&channel.item.name, channel.item.to_node()));
        }
    }
    for bundle in &catalog.bundles {
        if !bundle.item.package.is_empty() {
            let entry = groups.entry(&bundle.item.package).or_default();
            entry
                .bundles
                .push((&bundle.item.name, bundle.item.to_node()));
        }
    }
    let mut root_others = Vec::new();
    for other in &catalog.others {
        if other.item.package.is_empty() {
            root_others.push(other_node(&other.item));
        } else {
            let entry = groups.entry(&other.item.package).or_default();
            entry
                .others
                .push((&other.item.schema, other_node(&other.item)));
        }
    }
    for deprecation in &catalog.deprecations {
        if !deprecation.item.package.is_empty() {
            groups
                .entry(&deprecation.item.package)
                .or_default()
                .deprecations
                .push(deprecation.item.to_node());
        }
    }
    let mut nodes = Vec::new();
    for (_, mut group) in groups {
        // Stable sorts: equal names keep load order (opm leaves it unspecified).
        group.channels.sort_by(|a, b| a.0.cmp(b.0));
        group.bundles.sort_by(|a, b| a.0.cmp(b.0));
        group.others.sort_by(|a, b| a.0.cmp(b.0));
        nodes.extend(group.nodes);
        nodes.extend(group.channels.into_iter().map(|(_, node)| node));
        nodes.extend(group.bundles.into_iter().map(|(_, node)| node));
        nodes.extend(group.others.into_iter().map(|(_, node)| node));
        nodes.extend(group.deprecations);
    }
    nodes.extend(root_others);
    nodes
}

/// Writes the whole catalog. YAML output is checked before anything is written, so
/// a blob that opm's YAML writer would reject leaves no partial output.
pub(crate) fn write_catalog(
    catalog: &Catalog,
    format: Format,
    out: &mut impl Write,
) -> Result<(), WriteError> {
    let nodes = ordered_nodes(catalog);
    if format == Format::Yaml {
        for node in &nodes {
            yaml::check(node)?;
        }
    }
    let mut buffer = Vec::with_capacity(1 << 20);
    for node in &nodes {
        match format {
            Format::Json => json::write_pretty(node, &mut buffer),
            Format::Yaml => yaml::write_document(node, &mut buffer)?,
        }
        if buffer.len() >= 1 << 20 {
            out.write_all(&buffer)?;
            buffer.clear();
        }
    }
    out.write_all(&buffer)?;
    out.flush()?;
    Ok(())
}
