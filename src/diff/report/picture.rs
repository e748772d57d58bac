//! A changed channel drawn as a mermaid flowchart, for `fbc diff -o markdown`
//! (GitHub and GitLab draw mermaid blocks in comments and job summaries): the
//! entries of OLD and NEW in one picture, upgrade edges (`replaces` solid,
//! `skips` dotted) pointing the way installations move, what NEW removes struck
//! through in red, what it adds in green, the bundles whose installations lose
//! their way to the head filled red, the heads in bold. `skipRange` edges are not
//! drawn (they depend on versions; the text report lists their changes).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use crate::diff::Problem;
use crate::diff::changes::ChannelDiff;
use crate::drawing::{self, Drawing, Line, Mark, Node};
use crate::model::Channel;
use crate::model::channel::ChannelEntry;

/// Pictures of more entries than this are folded away under a summary line.
pub(crate) const FOLDED: usize = 30;
/// Pictures of more entries than this are not drawn at all.
pub(crate) const LARGEST: usize = 300;

const CLASSES: [&str; 4] = [
    "added stroke:#1a7f37,stroke-width:3px,color:#1a7f37",
    "removed stroke:#cf222e,stroke-dasharray:5 3,color:#cf222e",
    "broken fill:#ffebe9,stroke:#cf222e,stroke-width:3px",
    "head font-weight:bold",
];

/// One upgrade edge: from the bundle an installation runs to the one it moves to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Edge<'a> {
    from: &'a str,
    to: &'a str,
    skips: bool,
}

/// A changed channel's picture: its entries (then the bundles only edges name),
/// and the edges of both sides, each marked by what NEW did to it.
pub(crate) fn drawing(channel: &ChannelDiff, problems: &[Problem]) -> Drawing {
    let (before, after) = (entries(channel.before), entries(channel.after));
    let names: BTreeSet<&str> = before.keys().chain(after.keys()).copied().collect();
    let (old_edges, new_edges) = (edges(&before), edges(&after));
    let all: BTreeSet<&Edge> = old_edges.iter().chain(&new_edges).collect();
    // Edges can name bundles the channel does not hold: they get nodes too.
    let outside: BTreeSet<&str> = all
        .iter()
        .flat_map(|edge| [edge.from, edge.to])
        .filter(|name| !names.contains(name))
        .collect();
    let broken: BTreeSet<&str> = problems
        .iter()
        .filter(|p| p.fails() && p.channel.as_deref() == Some(channel.name))
        .filter_map(|p| p.bundle.as_deref())
        .collect();
    let heads: BTreeSet<&str> = [&channel.head_before, &channel.head_after]
        .into_iter()
        .flatten()
        .flat_map(|heads| heads.split(", "))
        .collect();
    let mut nodes: Vec<Node> = names
        .iter()
        .map(|&name| {
            let marks = [
                (!after.contains_key(name), Mark::Removed),
                (!before.contains_key(name), Mark::Added),
                (broken.contains(name), Mark::Broken),
                (heads.contains(name), Mark::Head),
            ];
            Node {
                label: name.to_owned(),
                marks: marks
                    .iter()
                    .filter(|(on, _)| *on)
                    .map(|(_, m)| *m)
                    .collect(),
            }
        })
        .collect();
    nodes.extend(outside.iter().map(|&name| Node {
        label: name.to_owned(),
        marks: vec![Mark::Outside],
    }));
    let ids: BTreeMap<&str, usize> = names
        .iter()
        .chain(&outside)
        .enumerate()
        .map(|(id, &name)| (name, id))
        .collect();
    let edges = all
        .iter()
        .map(|edge| drawing::Edge {
            from: ids[edge.from],
            to: ids[edge.to],
            line: if edge.skips {
                Line::Skips
            } else {
                Line::Replaces
            },
            mark: match (old_edges.contains(edge), new_edges.contains(edge)) {
                (true, false) => Some(Mark::Removed),
                (false, true) => Some(Mark::Added),
                _ => None,
            },
        })
        .collect();
    Drawing {
        title: format!("channel {}", channel.name),
        nodes,
        edges,
    }
}

/// How many of a drawing's bundles are the channel's entries.
pub(crate) fn entry_count(drawing: &Drawing) -> usize {
    drawing
        .nodes
        .iter()
        .filter(|node| !node.marks.contains(&Mark::Outside))
        .count()
}

/// Appends the mermaid picture of `channel` (with the problems of its package)
/// to `out`.
pub(crate) fn mermaid(out: &mut String, channel: &ChannelDiff, problems: &[Problem]) {
    let drawing = drawing(channel, problems);
    let count = entry_count(&drawing);
    let title = format!(
        "channel <code>{}</code>: {count} entries",
        super::html(channel.name),
    );
    if count > LARGEST {
        let _ = writeln!(
            out,
            "<p>{title}: too many to draw (more than {LARGEST}).</p>\n"
        );
        return;
    }
    let folded = count > FOLDED;
    if folded {
        let _ = writeln!(out, "<details><summary>{title}</summary>\n");
    } else {
        let _ = writeln!(out, "{title}\n");
    }
    out.push_str("```mermaid\ngraph LR\n");
    for class in CLASSES {
        let _ = writeln!(out, "  classDef {class}");
    }
    for (id, node) in drawing.nodes.iter().enumerate() {
        let _ = writeln!(out, "  n{id}[\"{}\"]", label(&node.label));
    }
    let mut styles = (Vec::new(), Vec::new());
    for (index, edge) in drawing.edges.iter().enumerate() {
        let arrow = match edge.line {
            Line::Skips => "-. skips .->",
            Line::Replaces | Line::SkipRange => "-- replaces -->",
        };
        let _ = writeln!(out, "  n{} {arrow} n{}", edge.from, edge.to);
        match edge.mark {
            Some(Mark::Removed) => styles.0.push(index.to_string()),
            Some(Mark::Added) => styles.1.push(index.to_string()),
            _ => {}
        }
    }
    for (indices, style) in [
        (&styles.0, "stroke:#cf222e,stroke-dasharray:5 3"),
        (&styles.1, "stroke:#1a7f37,stroke-width:3px"),
    ] {
        if !indices.is_empty() {
            let _ = writeln!(out, "  linkStyle {} {style}", indices.join(","));
        }
    }
    for mark in [Mark::Removed, Mark::Added, Mark::Broken, Mark::Head] {
        let members: Vec<String> = drawing
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, node)| node.marks.contains(&mark))
            .map(|(id, _)| format!("n{id}"))
            .collect();
        if !members.is_empty() {
            let _ = writeln!(out, "  class {} {}", members.join(","), mark.class());
        }
    }
    out.push_str("```\n\n");
    if folded {
        out.push_str("</details>\n\n");
    }
}

type Entries<'a> = BTreeMap<&'a str, &'a ChannelEntry>;

fn entries(channel: Option<&Channel>) -> Entries<'_> {
    channel
        .and_then(|channel| channel.entries.as_deref())
        .unwrap_or_default()
        .iter()
        .map(|entry| (entry.name.as_str(), entry))
        .collect()
}

fn edges<'a>(entries: &Entries<'a>) -> BTreeSet<Edge<'a>> {
    let mut edges = BTreeSet::new();
    for (&name, entry) in entries {
        if !entry.replaces.is_empty() {
            edges.insert(Edge {
                from: entry.replaces.as_str(),
                to: name,
                skips: false,
            });
        }
        for skipped in &entry.skips {
            edges.insert(Edge {
                from: skipped.as_str(),
                to: name,
                skips: true,
            });
        }
    }
    edges
}

/// A name as a mermaid label between double quotes: quotes and markup as
/// entities, control characters shown, so that no name ends the label or the
/// code block.
fn label(name: &str) -> String {
    crate::text::shown::text(name)
        .replace('&', "#amp;")
        .replace('"', "#quot;")
        .replace('<', "#lt;")
        .replace('>', "#gt;")
        .replace('`', "#96;")
}

#[cfg(test)]
mod tests {
    #[test]
    fn labels_cannot_end_the_label_or_the_block() {
        assert_eq!(
            super::label("a\"b<c>`\n```"),
            "a#quot;b#lt;c#gt;#96;\\n#96;#96;#96;"
        );
    }
}
