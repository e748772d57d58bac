//! The upgrade graph as Graphviz dot: one cluster per channel, edges from the bundle
//! one upgrades from to the entry that declares the edge, styled by kind.

use std::collections::HashSet;
use std::fmt::Write as _;

use super::deprecations::Deprecations;
use super::edges::{EdgeKind, channel_edges, drawn_names};
use super::selection::{DrawnChannel, Selection};
use crate::model::Text;

const DEPRECATED_FILL: &str = "#E8960F";
const DEPRECATED_CHANNEL_FILL: &str = "#DCD0FF";

/// Writes every drawn channel, packages and channels in name order, entries newest
/// first. `draw_v0_semantics` outlines in red the entries a channel skips (OLM
/// classic never offers them).
pub(crate) fn write_dot(
    selection: &Selection,
    deprecations: &Deprecations,
    draw_v0_semantics: bool,
    warnings: &mut Vec<String>,
) -> String {
    let mut channels: Vec<&DrawnChannel> = selection.channels.iter().collect();
    channels.sort_by(|a, b| (&a.package, &a.name).cmp(&(&b.package, &b.name)));
    let mut out =
        String::from("digraph upgrades {\n  rankdir=LR;\n  node [shape=box, style=rounded];\n");
    for (index, channel) in channels.into_iter().enumerate() {
        let writer = ChannelWriter {
            selection,
            deprecations,
            draw_v0_semantics,
            channel,
        };
        writer.write(index, &mut out, warnings);
    }
    out.push_str("}\n");
    out
}

struct ChannelWriter<'a> {
    selection: &'a Selection,
    deprecations: &'a Deprecations,
    draw_v0_semantics: bool,
    channel: &'a DrawnChannel,
}

impl ChannelWriter<'_> {
    fn write(&self, index: usize, out: &mut String, warnings: &mut Vec<String>) {
        let channel = self.channel;
        let mut label = format!("{} / {}", channel.package, channel.name);
        if self.deprecations.package(&channel.package).is_some() {
            label = format!(
                "{} (deprecated package) / {}",
                channel.package, channel.name
            );
        }
        let _ = writeln!(out, "  subgraph cluster_{index} {{");
        let _ = write!(out, "    label={};", quote(&label));
        if self
            .deprecations
            .channel(&channel.package, &channel.name)
            .is_some()
        {
            let _ = write!(
                out,
                " style=filled; fillcolor={};",
                quote(DEPRECATED_CHANNEL_FILL)
            );
        }
        out.push('\n');
        let edges = channel_edges(
            &channel.package,
            &channel.entries,
            &self.selection.versions,
            warnings,
        );
        let skipped: HashSet<&str> = channel
            .entries
            .iter()
            .flat_map(|entry| entry.skips.iter().map(Text::as_str))
            .collect();
        for name in drawn_names(&channel.entries, &edges, &self.selection.versions) {
            self.write_node(out, name, skipped.contains(name));
        }
        out.push_str("  }\n");
        for edge in &edges {
            let (label, style) = match edge.kind {
                EdgeKind::Replaces => ("replaces".to_owned(), "solid"),
                EdgeKind::Skips => ("skips".to_owned(), "dashed"),
                EdgeKind::SkipRange => (
                    format!("skipRange({})", edge.skip_range.unwrap_or_default()),
                    "dotted",
                ),
            };
            let _ = writeln!(
                out,
                "  {} -> {} [label={}, style={style}];",
                self.id(edge.from),
                self.id(edge.to),
                quote(&label)
            );
        }
    }

    fn write_node(&self, out: &mut String, name: &str, skipped: bool) {
        let is_entry = self.channel.entries.iter().any(|entry| entry.name == name);
        let mut attributes = vec![format!("label={}", quote(name))];
        let mut styles = vec!["rounded"];
        if !is_entry {
            styles.push("dashed");
            attributes.push(format!("tooltip={}", quote("not an entry of this channel")));
        }
        if self
            .deprecations
            .bundle(&self.channel.package, name)
            .is_some()
        {
            styles.push("filled");
            attributes.push(format!("fillcolor={}", quote(DEPRECATED_FILL)));
        }
        if self.draw_v0_semantics && skipped {
            attributes.push("color=\"#FF0000\", penwidth=2".to_owned());
        }
        attributes.push(format!("style={}", quote(&styles.join(","))));
        let _ = writeln!(out, "    {} [{}];", self.id(name), attributes.join(", "));
    }

    fn id(&self, name: &str) -> String {
        quote(&format!(
            "{}/{}/{name}",
            self.channel.package, self.channel.name
        ))
    }
}

/// A dot string: quotes and backslashes escaped, newlines as `\n`.
fn quote(text: &str) -> String {
    let mut quoted = String::with_capacity(text.len() + 2);
    quoted.push('"');
    for character in text.chars() {
        match character {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            '\n' => quoted.push_str("\\n"),
            other => quoted.push(other),
        }
    }
    quoted.push('"');
    quoted
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::selection::{Filters, select};
    use crate::graph::testing::{DEPRECATED_ETCD as CATALOG, catalog};

    #[test]
    fn clusters_nodes_and_styled_edges() {
        let catalog = catalog(CATALOG);
        let selection = select(&catalog, &Filters::default()).expect("valid");
        let deprecations = Deprecations::new(&catalog.deprecations);
        let mut warnings = Vec::new();
        let dot = write_dot(&selection, &deprecations, true, &mut warnings);
        let expected = r##"digraph upgrades {
  rankdir=LR;
  node [shape=box, style=rounded];
  subgraph cluster_0 {
    label="etcd / alpha"; style=filled; fillcolor="#DCD0FF";
    "etcd/alpha/etcd.v0.9.2" [label="etcd.v0.9.2", style="rounded"];
    "etcd/alpha/etcd.v0.9.0" [label="etcd.v0.9.0", fillcolor="#E8960F", style="rounded,filled"];
    "etcd/alpha/etcd.v0.9.1" [label="etcd.v0.9.1", tooltip="not an entry of this channel", color="#FF0000", penwidth=2, style="rounded,dashed"];
  }
  "etcd/alpha/etcd.v0.9.0" -> "etcd/alpha/etcd.v0.9.2" [label="replaces", style=solid];
  "etcd/alpha/etcd.v0.9.1" -> "etcd/alpha/etcd.v0.9.2" [label="skips", style=dashed];
  "etcd/alpha/etcd.v0.9.0" -> "etcd/alpha/etcd.v0.9.2" [label="skipRange(<0.9.2)", style=dotted];
}
"##;
        assert_eq!(dot, expected);
        assert!(warnings.is_empty());
    }

    #[test]
    fn dot_strings_are_escaped() {
        assert_eq!(quote("a\"b\\c\nd"), r#""a\"b\\c\nd""#);
    }
}
