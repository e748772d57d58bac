//! Arguments of `fbc alpha` and its subcommands: opm's alpha commands, and the
//! upgrade-path explorer.

use std::path::PathBuf;

use super::graph::RenderGraphArgs;
use super::render::RegistryArgs;

#[derive(Debug, clap::Args)]
#[command(about = "Commands that are not stable yet, among them opm's alpha commands")]
pub struct AlphaArgs {
    #[command(subcommand)]
    pub command: AlphaCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum AlphaCommand {
    RenderGraph(RenderGraphArgs),
    UpgradePath(UpgradePathArgs),
    RenderTemplate(super::template::RenderTemplateArgs),
    ConvertTemplate(super::template::ConvertTemplateArgs),
    List(super::template::ListArgs),
}

/// Which OLM's upgrade rules to follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SemanticsArg {
    /// OLM classic (Subscription): one step at a time along the channel's replaces chain
    Classic,
    /// OLM v1 (ClusterExtension): the highest non-deprecated successor
    V1,
    /// Both, and where they differ
    Both,
}

/// Output formats of `fbc alpha upgrade-path`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PathFormat {
    /// A readable report
    Text,
    /// One JSON object, for jq
    Json,
}

#[derive(Debug, clap::Args)]
#[command(
    about = "Show the upgrades OLM takes from an installed bundle, and why it stops",
    override_usage = "fbc alpha upgrade-path [OPTIONS] --package <PACKAGE> --from <BUNDLE|VERSION> <DIR|IMAGE>\n       \
                      fbc alpha upgrade-path [OPTIONS] --every-bundle <DIR|IMAGE>",
    long_about = "Show the upgrades OLM takes from an installed bundle, and why it stops.\n\n\
Each step names the edge that allows it (replaces, skips or skipRange) and the entry that \
declares it. OLM classic (a Subscription) follows one channel: it orders the channel along \
its replaces chain, leaving out skipped entries, and takes the candidate nearest the head. \
OLM v1 (a ClusterExtension) takes, among every entry of the selected channels that \
replaces, skips or skipRange-covers the installed bundle, the non-deprecated one with the \
highest version. When there is no path, the report says why."
)]
pub struct UpgradePathArgs {
    /// Catalog directory or catalog image reference
    #[arg(value_name = "DIR|IMAGE")]
    pub directory: PathBuf,

    /// Package of the installed bundle
    #[arg(long, value_name = "PACKAGE", required_unless_present = "every_bundle")]
    pub package: Option<String>,

    /// Installed bundle: a bundle name or a bundle version of the package
    #[arg(
        long,
        value_name = "BUNDLE|VERSION",
        required_unless_present_any = ["from_version", "every_bundle"]
    )]
    pub from: Option<String>,

    /// Version of an installed bundle that is not in the catalog (`--from` then only names it)
    #[arg(long, value_name = "VERSION")]
    pub from_version: Option<String>,

    /// Where to go: a bundle name or version of the package; default: as far as upgrades go. OLM v1 then caps versions at the target's (`version: "<=T"`) and takes the target as soon as it is a successor (a pinned version)
    #[arg(long, value_name = "BUNDLE|VERSION")]
    pub to: Option<String>,

    /// Channel to follow (repeat for OLM v1); default: classic uses every channel, the default channel first, v1 all channels
    #[arg(long = "channel", value_name = "CHANNEL")]
    pub channels: Vec<String>,

    /// Walk from every bundle of every channel (of --package, or of every package) to its head, one report each
    #[arg(long, conflicts_with_all = ["from", "from_version", "to"])]
    pub every_bundle: bool,

    /// With --every-bundle: walk from every bundle of the package without a channel
    /// (classic: the default channel first; v1: all channels), not channel by channel
    #[arg(long, requires = "every_bundle", conflicts_with = "channels")]
    pub all_channels: bool,

    /// Upgrade rules to follow
    #[arg(long, value_enum, default_value_t = SemanticsArg::Both)]
    pub semantics: SemanticsArg,

    /// Output format
    #[arg(short, long, value_enum, default_value_t = PathFormat::Text)]
    pub output: PathFormat,

    #[command(flatten)]
    pub registry: RegistryArgs,
}
