//! The mermaid graph of `opm alpha render-graph`, byte for byte (spec §6.3).

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;

use crate::go::fmt::quote;
use crate::go::semver::range::Range;
use crate::model::channel::ChannelEntry;

use super::deprecations::NameSets;
use super::selection::{DrawnChannel, Selection};
use crate::go::sort::slice_by;

/// The mermaid text, and the warnings opm prints on stderr while building it.
#[derive(Debug, Default)]
pub(crate) struct Mermaid {
    pub(crate) text: String,
    pub(crate) warnings: Vec<String>,
}

/// State shared across channels: decorations and the global link counter.
#[derive(Default)]
struct Decorations {
    deprecated_package: Option<String>,
    deprecated_channels: Vec<String>,
    /// Node ids per class: `deprecated`, `deprecatedskipped`, `skipped` (sorted keys).
    classes: BTreeMap<&'static str, Vec<String>>,
    link: usize,
    flagged_links: Vec<usize>,
}

/// Writes the selected channels as opm does; `draw_v0_semantics` adds the
/// `skipped` class and the dashed link style.
pub(crate) fn write_mermaid(
    selection: &Selection,
    deprecated: &NameSets,
    draw_v0_semantics: bool,
) -> Mermaid {
    let mut packages: BTreeMap<&str, String> = BTreeMap::new();
    let mut decorations = Decorations::default();
    let mut warnings = Vec::new();
    for channel in &selection.channels {
        let out = packages.entry(&channel.package).or_default();
        let writer = ChannelWriter {
            selection,
            deprecated,
            draw_v0_semantics,
            channel,
            id: format!("{}-{}", channel.package, channel.name),
        };
        writer.write(out, &mut decorations, &mut warnings);
    }
    let mut text = String::from(
        "graph LR\n  classDef deprecated fill:#E8960F\n  classDef skipped stroke:#FF0000,stroke-width:4px\n  classDef deprecatedskipped fill:#E8960F,stroke:#FF0000,stroke-width:4px\n",
    );
    for (package, body) in &packages {
        let _ = write!(
            text,
            "  %% package {name}\n  subgraph {name}\n{body}  end\n",
            name = quote(package)
        );
    }
    if let Some(package) = &decorations.deprecated_package {
        let _ = writeln!(text, "style {package} fill:#989695");
    }
    for channel in &decorations.deprecated_channels {
        let _ = writeln!(text, "style {channel} fill:#DCD0FF");
    }
    for (class, ids) in &mut decorations.classes {
        if !ids.is_empty() {
            ids.sort();
            let _ = writeln!(text, "class {} {class}", ids.join(","));
        }
    }
    if !decorations.flagged_links.is_empty() {
        let links: Vec<String> = decorations
            .flagged_links
            .iter()
            .map(usize::to_string)
            .collect();
        let _ = writeln!(
            text,
            "linkStyle {} stroke:#FF0000,stroke-width:3px,stroke-dasharray:5;",
            links.join(",")
        );
    }
    Mermaid { text, warnings }
}

struct ChannelWriter<'a> {
    selection: &'a Selection,
    deprecated: &'a NameSets,
    draw_v0_semantics: bool,
    channel: &'a DrawnChannel,
    id: String,
}

impl ChannelWriter<'_> {
    fn write(&self, out: &mut String, decorations: &mut Decorations, warnings: &mut Vec<String>) {
        let channel = self.channel;
        let _ = writeln!(out, "    %% channel {}", quote(&channel.name));
        let _ = writeln!(out, "    subgraph {}[{}]", self.id, quote(&channel.name));
        if self.deprecated.packages.contains(&channel.package) {
            decorations.deprecated_package = Some(channel.package.clone());
        }
        if self.deprecated.channels.contains(&channel.name) {
            decorations.deprecated_channels.push(self.id.clone());
        }
        // Newest first, with Go's unstable sort deciding the order of equal versions.
        let mut entries: Vec<&ChannelEntry> = channel.entries.iter().collect();
        let versions = self.selection;
        slice_by(&mut entries, |a, b| {
            versions.version(&a.name) > versions.version(&b.name)
        });
        // v0 semantics: bundles already skipped by a newer entry of this channel.
        let mut skipped: HashSet<&str> = HashSet::new();
        for entry in entries {
            self.write_entry(out, entry, &mut skipped, decorations, warnings);
        }
        out.push_str("    end\n");
    }

    fn write_entry<'e>(
        &self,
        out: &mut String,
        entry: &'e ChannelEntry,
        skipped: &mut HashSet<&'e str>,
        decorations: &mut Decorations,
        warnings: &mut Vec<String>,
    ) {
        let target = format!("{}-{}[{}]", self.id, entry.name, quote(&entry.name));
        let _ = writeln!(out, "      {target}");
        let is_deprecated = self.deprecated.bundles.contains(entry.name.as_str());
        let is_skipped = skipped.contains(entry.name.as_str());
        let class = match (is_deprecated, is_skipped) {
            (true, true) => Some("deprecatedskipped"),
            (true, false) => Some("deprecated"),
            (false, true) => Some("skipped"),
            (false, false) => None,
        };
        if let Some(class) = class {
            let ids = decorations.classes.entry(class).or_default();
            ids.push(format!("{}-{}", self.id, entry.name));
        }
        for skip in &entry.skips {
            self.write_edge(out, skip, "skip", &target);
            // A skip of something already skipped is flagged; otherwise it is recorded.
            if self.draw_v0_semantics && !skipped.insert(skip) {
                decorations.flagged_links.push(decorations.link);
            }
            decorations.link += 1;
        }
        let already_skipped = skipped.contains(entry.name.as_str());
        if !entry.skip_range.is_empty() {
            match Range::parse(&entry.skip_range) {
                Ok(range) => {
                    let label = format!("\"skipRange({})\"", entry.skip_range);
                    for source in &self.channel.entries {
                        if range.contains(&self.selection.version(&source.name)) {
                            self.write_edge(out, &source.name, &label, &target);
                            self.flag_if(already_skipped, decorations);
                        }
                    }
                }
                Err(error) => warnings.push(format!(
                    "warning: ignoring invalid SkipRange for package/edge {}/{}: {error}",
                    quote(&self.channel.package),
                    quote(&entry.name)
                )),
            }
        }
        if !entry.replaces.is_empty() {
            self.write_edge(out, &entry.replaces, "replace", &target);
            self.flag_if(already_skipped, decorations);
        }
    }

    fn write_edge(&self, out: &mut String, source: &str, label: &str, target: &str) {
        let _ = writeln!(
            out,
            "      {}-{source}[{}]-- {label} --> {target}",
            self.id,
            quote(source)
        );
    }

    /// skipRange and replace edges into an entry that is itself skipped are flagged.
    fn flag_if(&self, entry_skipped: bool, decorations: &mut Decorations) {
        if self.draw_v0_semantics && entry_skipped {
            decorations.flagged_links.push(decorations.link);
        }
        decorations.link += 1;
    }
}

#[cfg(test)]
mod tests;
