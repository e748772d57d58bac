//! The upgrade graph as SVG that fbc lays out itself ([`crate::drawing`]): a
//! picture per channel, packages and channels in name order, edges styled by kind
//! as in the dot output, deprecated bundles filled, heads in bold.

use std::collections::{HashMap, HashSet};

use super::deprecations::Deprecations;
use super::edges::{EdgeKind, channel_edges, drawn_names};
use super::selection::{DrawnChannel, Selection};
use crate::drawing::{self, Drawing, Line, Mark, Node};
use crate::model::Text;

/// Writes every drawn channel as one SVG element. `draw_v0_semantics` outlines in
/// red the bundles a channel skips (OLM classic never offers them).
pub(crate) fn write_svg(
    selection: &Selection,
    deprecations: &Deprecations,
    draw_v0_semantics: bool,
    warnings: &mut Vec<String>,
) -> String {
    let mut channels: Vec<&DrawnChannel> = selection.channels.iter().collect();
    channels.sort_by(|a, b| (&a.package, &a.name).cmp(&(&b.package, &b.name)));
    let drawings: Vec<Drawing> = channels
        .into_iter()
        .map(|channel| {
            let edges = channel_edges(
                &channel.package,
                &channel.entries,
                &selection.versions,
                warnings,
            );
            channel_drawing(
                channel,
                &edges,
                &selection.versions,
                deprecations,
                draw_v0_semantics,
            )
        })
        .collect();
    let mut out = String::new();
    drawing::svg::write(&mut out, &drawings);
    out
}

fn channel_drawing(
    channel: &DrawnChannel,
    edges: &[super::edges::Edge<'_>],
    versions: &HashMap<String, crate::go::semver::Version>,
    deprecations: &Deprecations,
    draw_v0_semantics: bool,
) -> Drawing {
    let mut names = drawn_names(&channel.entries, edges, versions);
    // Oldest first, so that the first rows follow the order installations move in.
    names.reverse();
    let entries: HashSet<&str> = channel.entries.iter().map(|e| e.name.as_str()).collect();
    let skipped: HashSet<&str> = channel
        .entries
        .iter()
        .flat_map(|entry| entry.skips.iter().map(Text::as_str))
        .collect();
    let upgraded: HashSet<&str> = edges
        .iter()
        .filter(|edge| edge.kind != EdgeKind::SkipRange)
        .map(|edge| edge.from)
        .collect();
    let index: HashMap<&str, usize> = names.iter().enumerate().map(|(i, &n)| (n, i)).collect();
    let nodes = names
        .iter()
        .map(|&name| {
            let mut marks = Vec::new();
            if !entries.contains(name) {
                marks.push(Mark::Outside);
            } else if !upgraded.contains(name) {
                marks.push(Mark::Head);
            }
            if deprecations.bundle(&channel.package, name).is_some() {
                marks.push(Mark::Deprecated);
            }
            if draw_v0_semantics && skipped.contains(name) {
                marks.push(Mark::Skipped);
            }
            Node {
                label: name.to_owned(),
                marks,
            }
        })
        .collect();
    let edges = edges
        .iter()
        .map(|edge| drawing::Edge {
            from: index[edge.from],
            to: index[edge.to],
            line: match edge.kind {
                EdgeKind::Replaces => Line::Replaces,
                EdgeKind::Skips => Line::Skips,
                EdgeKind::SkipRange => Line::SkipRange,
            },
            mark: None,
        })
        .collect();
    let mut title = format!("{} / {}", channel.package, channel.name);
    if deprecations.package(&channel.package).is_some() {
        title = format!(
            "{} (deprecated package) / {}",
            channel.package, channel.name
        );
    }
    if deprecations
        .channel(&channel.package, &channel.name)
        .is_some()
    {
        title.push_str(" (deprecated channel)");
    }
    Drawing {
        title,
        nodes,
        edges,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::selection::{Filters, select};
    use crate::graph::testing::{DEPRECATED_ETCD as CATALOG, catalog};

    #[test]
    fn a_channel_becomes_a_drawing_with_its_marks() {
        let catalog = catalog(CATALOG);
        let selection = select(&catalog, &Filters::default()).expect("valid");
        let deprecations = Deprecations::new(&catalog.deprecations);
        let mut warnings = Vec::new();
        let channel = &selection.channels[0];
        let edges = channel_edges("etcd", &channel.entries, &selection.versions, &mut warnings);
        let drawing = channel_drawing(channel, &edges, &selection.versions, &deprecations, true);
        assert_eq!(drawing.title, "etcd / alpha (deprecated channel)");
        let nodes: Vec<(&str, &[Mark])> = drawing
            .nodes
            .iter()
            .map(|n| (n.label.as_str(), n.marks.as_slice()))
            .collect();
        assert_eq!(
            nodes,
            [
                ("etcd.v0.9.1", &[Mark::Outside, Mark::Skipped][..]),
                ("etcd.v0.9.0", &[Mark::Deprecated][..]),
                ("etcd.v0.9.2", &[Mark::Head][..]),
            ]
        );
        let edges: Vec<(usize, usize, Line)> = drawing
            .edges
            .iter()
            .map(|e| (e.from, e.to, e.line))
            .collect();
        assert_eq!(
            edges,
            [
                (1, 2, Line::Replaces),
                (0, 2, Line::Skips),
                (1, 2, Line::SkipRange)
            ]
        );
        let svg = write_svg(&selection, &deprecations, true, &mut warnings);
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(warnings.is_empty());
    }
}
