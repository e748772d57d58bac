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
    Resolve(ResolveArgs),
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

/// Output formats of `fbc alpha resolve`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ResolveFormat {
    /// The answer, then why each provider was chosen or which constraints clash
    Text,
    /// One JSON object (`schemas/resolve.schema.json`), for jq
    Json,
}

#[derive(Debug, clap::Args)]
#[command(
    about = "Resolve Subscriptions as OLM classic would, offline: what installs, or OLM's error",
    override_usage = "fbc alpha resolve [OPTIONS] <PACKAGE> --catalog <NAME=REF>...\n       \
                      fbc alpha resolve [OPTIONS] --every-package --catalog <NAME=REF>...\n       \
                      fbc alpha resolve [OPTIONS] -f <FILE>... [--catalog <NAME=REF>...]",
    long_about = "Resolve Subscriptions as OLM classic's resolver would, offline: which bundle of \
the subscribed package is installed, which operators its dependencies (olm.gvk.required, \
olm.package.required, olm.label.required, olm.constraint) pull in, or the error OLM would \
write into the Subscription's ResolutionFailed condition, with its reason.\n\n\
Either a new Subscription to PACKAGE from the catalogs given with --catalog (each a \
CatalogSource in the global catalog namespace), or Kubernetes manifests (-f): \
CatalogSources, OperatorGroups, Subscriptions and installed ClusterServiceVersions, every \
Subscription resolved with the others of its namespace. A CatalogSource's content comes \
from --catalog NAME=REF, else its spec.image is pulled."
)]
pub struct ResolveArgs {
    /// Package of a new Subscription (with --catalog)
    #[arg(value_name = "PACKAGE", conflicts_with_all = ["files", "every_package"])]
    pub package: Option<String>,

    /// A CatalogSource's content: NAME=DIR|IMAGE (repeatable)
    #[arg(long = "catalog", value_name = "NAME=REF")]
    pub catalogs: Vec<String>,

    /// Kubernetes manifests: multi-document YAML or JSON (repeatable; `-` reads stdin)
    #[arg(short = 'f', long = "file", value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// One new Subscription per package of the source catalog, to its default channel, each resolved alone
    #[arg(long, conflicts_with = "files")]
    pub every_package: bool,

    /// The catalog of the new Subscription; default: the first --catalog
    #[arg(long, value_name = "NAME", conflicts_with = "files")]
    pub source: Option<String>,

    /// Channel of the new Subscription; default: none (OLM then tries the default channel first)
    #[arg(long, value_name = "CHANNEL", conflicts_with = "files")]
    pub channel: Option<String>,

    /// startingCSV of the new Subscription: that bundle only
    #[arg(long, value_name = "BUNDLE", conflicts_with_all = ["files", "every_package"])]
    pub starting_csv: Option<String>,

    /// A CatalogSource's spec.priority: NAME=N (repeatable; overrides the manifests)
    #[arg(long = "priority", value_name = "NAME=N")]
    pub priorities: Vec<String>,

    /// The global catalog namespace (OLM's --namespace; OpenShift: openshift-marketplace)
    #[arg(long, value_name = "NAMESPACE", default_value = "olm")]
    pub global_namespace: String,

    /// Namespace of the new Subscription
    #[arg(
        long,
        value_name = "NAMESPACE",
        default_value = "operators",
        conflicts_with = "files"
    )]
    pub namespace: String,

    /// Output format
    #[arg(short, long, value_enum, default_value_t = ResolveFormat::Text)]
    pub output: ResolveFormat,

    #[command(flatten)]
    pub registry: RegistryArgs,
}
