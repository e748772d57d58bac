//! The upgrade graph as one JSON object for jq: packages, channels, nodes (one per
//! bundle of a package) and edges (`from` -> `to`, the entry that declares it).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use serde::Serialize;

use super::deprecations::Deprecations;
use super::edges::{EdgeKind, channel_edges};
use super::selection::Selection;
use crate::catalog::Catalog;

/// The graph as the JSON report holds it (see [`graph`]).
#[derive(Serialize)]
pub(crate) struct Graph<'a> {
    packages: Vec<PackageNode<'a>>,
    channels: Vec<ChannelNode<'a>>,
    nodes: Vec<BundleNode<'a>>,
    edges: Vec<EdgeNode<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PackageNode<'a> {
    name: &'a str,
    default_channel: Option<&'a str>,
    deprecated: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ChannelNode<'a> {
    package: &'a str,
    name: &'a str,
    deprecated: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct BundleNode<'a> {
    bundle: &'a str,
    package: &'a str,
    /// `null` for names that only edges mention (no bundle of that name).
    version: Option<String>,
    channels: Vec<&'a str>,
    deprecated: bool,
    in_catalog: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct EdgeNode<'a> {
    from: &'a str,
    to: &'a str,
    kind: EdgeKind,
    package: &'a str,
    channel: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    skip_range: Option<&'a str>,
}

/// The selected channels as the JSON report shows them: nodes newest first within
/// a package, edges in channel-name then entry order.
pub(crate) fn graph<'a>(
    selection: &'a Selection,
    catalog: &'a Catalog,
    deprecations: &Deprecations,
    warnings: &mut Vec<String>,
) -> Graph<'a> {
    let mut channels: Vec<_> = selection.channels.iter().collect();
    channels.sort_by(|a, b| (&a.package, &a.name).cmp(&(&b.package, &b.name)));
    let mut graph = Graph {
        packages: Vec::new(),
        channels: Vec::new(),
        nodes: Vec::new(),
        edges: Vec::new(),
    };
    // (package, bundle) -> channels where it is an entry.
    let mut members: BTreeMap<(&str, &str), BTreeSet<&str>> = BTreeMap::new();
    for channel in &channels {
        graph.channels.push(ChannelNode {
            package: &channel.package,
            name: &channel.name,
            deprecated: deprecations
                .channel(&channel.package, &channel.name)
                .is_some(),
        });
        for entry in &channel.entries {
            let key = (channel.package.as_str(), entry.name.as_str());
            members.entry(key).or_default().insert(&channel.name);
        }
        let edges = channel_edges(
            &channel.package,
            &channel.entries,
            &selection.versions,
            warnings,
        );
        for edge in edges {
            members.entry((&channel.package, edge.from)).or_default();
            graph.edges.push(EdgeNode {
                from: edge.from,
                to: edge.to,
                kind: edge.kind,
                package: &channel.package,
                channel: &channel.name,
                skip_range: edge.skip_range,
            });
        }
    }
    let packages: BTreeSet<&str> = channels.iter().map(|c| c.package.as_str()).collect();
    // Looked up by name, not searched for each (a catalog can have 100,000s).
    let mut blobs: HashMap<&str, &crate::model::Package> = HashMap::new();
    for package in catalog.packages.iter().rev() {
        blobs.insert(&package.item.name, &package.item);
    }
    for package in packages {
        graph.packages.push(PackageNode {
            name: package,
            default_channel: blobs.get(package).map(|p| &*p.default_channel),
            deprecated: deprecations.package(package).is_some(),
        });
    }
    drop(blobs);
    let bundles: HashSet<(&str, &str)> = catalog
        .bundles
        .iter()
        .map(|b| (b.item.package.as_str(), b.item.name.as_str()))
        .collect();
    for ((package, bundle), in_channels) in members {
        let in_catalog = bundles.contains(&(package, bundle));
        graph.nodes.push(BundleNode {
            bundle,
            package,
            version: selection.versions.get(bundle).map(ToString::to_string),
            channels: in_channels.into_iter().collect(),
            deprecated: deprecations.bundle(package, bundle).is_some(),
            in_catalog,
        });
    }
    // Newest first within a package, as the other writers draw them.
    graph.nodes.sort_by(|a, b| {
        let version = |node: &BundleNode| selection.versions.get(node.bundle).cloned();
        a.package
            .cmp(b.package)
            .then_with(|| version(b).cmp(&version(a)))
            .then_with(|| a.bundle.cmp(b.bundle))
    });
    graph
}

/// Writes the graph to `out` as it is serialized (the report is several times the
/// catalog), ending with a newline.
pub(crate) fn write_json(graph: &Graph<'_>, out: &mut impl std::io::Write) -> std::io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, graph)?;
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::graph::selection::{Filters, select};
    use crate::graph::testing::catalog;

    #[test]
    fn nodes_and_edges_for_jq() {
        let lines = r#"
{"schema":"olm.package","name":"p","defaultChannel":"stable"}
{"schema":"olm.channel","package":"p","name":"stable","entries":[{"name":"p.v1"},{"name":"p.v2","replaces":"p.v1","skips":["p.v0"],"skipRange":"<2.0.0"}]}
{"schema":"olm.bundle","package":"p","name":"p.v1","properties":[{"type":"olm.package","value":{"packageName":"p","version":"1.0.0"}}]}
{"schema":"olm.bundle","package":"p","name":"p.v2","properties":[{"type":"olm.package","value":{"packageName":"p","version":"2.0.0"}}]}
{"schema":"olm.deprecations","package":"p","entries":[{"reference":{"schema":"olm.bundle","name":"p.v1"},"message":"old"}]}
"#;
        let catalog = catalog(lines);
        let selection = select(&catalog, &Filters::default()).expect("valid");
        let deprecations = Deprecations::new(&catalog.deprecations);
        let mut text = Vec::new();
        let graph = graph(&selection, &catalog, &deprecations, &mut Vec::new());
        write_json(&graph, &mut text).expect("written to memory");
        let value: Value = serde_json::from_slice(&text).expect("valid JSON");
        assert_eq!(
            value["packages"],
            json!([{"name": "p", "defaultChannel": "stable", "deprecated": false}])
        );
        let nodes: Vec<(&str, &Value, bool)> = value["nodes"]
            .as_array()
            .expect("nodes")
            .iter()
            .map(|n| {
                (
                    n["bundle"].as_str().expect("name"),
                    &n["version"],
                    n["deprecated"] == true,
                )
            })
            .collect();
        assert_eq!(
            nodes,
            [
                ("p.v2", &json!("2.0.0"), false),
                ("p.v1", &json!("1.0.0"), true),
                ("p.v0", &Value::Null, false)
            ]
        );
        assert_eq!(
            value["edges"],
            json!([
                {"from": "p.v1", "to": "p.v2", "kind": "replaces", "package": "p", "channel": "stable"},
                {"from": "p.v0", "to": "p.v2", "kind": "skips", "package": "p", "channel": "stable"},
                {"from": "p.v1", "to": "p.v2", "kind": "skipRange", "package": "p", "channel": "stable", "skipRange": "<2.0.0"}
            ])
        );
    }
}
