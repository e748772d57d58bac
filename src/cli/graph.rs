//! Arguments of `fbc graph` and of its opm-compatible spelling `fbc alpha render-graph`.

use std::path::PathBuf;

use super::render::RegistryArgs;

/// Output formats of `fbc graph`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GraphFormat {
    /// Mermaid text, byte for byte what `opm alpha render-graph` prints
    Mermaid,
    /// Graphviz: one cluster per channel, edge kinds styled, deprecated items marked
    Dot,
    /// Nodes (bundles) and edges (replaces, skips, skipRange) as one JSON object, for jq
    Json,
    /// A picture per channel as one SVG file that fbc lays out itself: no JavaScript, no network
    Svg,
}

#[derive(Debug, clap::Args)]
#[command(
    about = "Draw the upgrade graph of catalog directories or images (mermaid, dot, SVG or JSON)",
    long_about = "Draw the upgrade graph of catalog directories or images (mermaid, dot, SVG or JSON).\n\n\
Every channel is drawn with its edges: `replaces`, `skips` and `skipRange`, each from the \
bundle one upgrades from to the entry that declares the edge. The mermaid output is \
byte for byte what `opm alpha render-graph` prints for the same catalog and flags."
)]
pub struct GraphArgs {
    /// Catalog directories or catalog image references to draw (several are merged)
    #[arg(required = true, value_name = "DIR|IMAGE")]
    pub references: Vec<PathBuf>,

    /// Output format
    #[arg(short, long, value_enum, default_value_t = GraphFormat::Mermaid)]
    pub output: GraphFormat,

    #[command(flatten)]
    pub filters: GraphFilterArgs,

    #[command(flatten)]
    pub registry: RegistryArgs,
}

/// The filters `opm alpha render-graph` has, shared by both spellings.
#[derive(Debug, clap::Args)]
pub struct GraphFilterArgs {
    /// Bundle to use as the lower bound of the drawn edges; default is to draw all edges
    #[arg(
        long,
        value_name = "BUNDLE",
        default_value = "",
        hide_default_value = true
    )]
    pub minimum_edge: String,

    /// Draw only the channels of this package
    #[arg(
        short = 'p',
        long = "package",
        visible_alias = "package-name",
        value_name = "PACKAGE",
        default_value = "",
        hide_default_value = true
    )]
    pub package: String,

    /// Mark what OLM classic skips: in mermaid as opm does, in dot the skipped bundles
    #[arg(long)]
    pub draw_v0_semantics: bool,
}

#[derive(Debug, clap::Args)]
#[command(
    about = "Draw the upgrade graph in mermaid, as `opm alpha render-graph` does",
    long_about = "Draw the upgrade graph in mermaid, as `opm alpha render-graph` does.\n\n\
Same output and flags as opm; `fbc graph` also writes Graphviz dot and JSON."
)]
pub struct RenderGraphArgs {
    /// Catalog directories or catalog image references to draw (several are merged)
    #[arg(required = true, value_name = "DIR|IMAGE")]
    pub references: Vec<PathBuf>,

    /// The channel edge to be used as the lower bound of the set of edges composing the upgrade graph; default is to include all edges
    #[arg(
        long,
        value_name = "BUNDLE",
        default_value = "",
        hide_default_value = true
    )]
    pub minimum_edge: String,

    /// A specific package name to filter output; default is to include all packages in reference
    #[arg(
        short = 'p',
        long = "package-name",
        value_name = "PACKAGE",
        default_value = "",
        hide_default_value = true
    )]
    pub package_name: String,

    #[arg(
        long,
        help = "Whether to indicate OLMv0 semantics in the output; default is to simply represent the upgrade graph"
    )]
    pub draw_v0_semantics: bool,

    #[command(flatten)]
    pub registry: RegistryArgs,
}
