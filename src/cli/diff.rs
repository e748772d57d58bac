//! Arguments of `fbc diff`.

use super::alpha::SemanticsArg;
use super::render::RegistryArgs;

/// Output formats of `fbc diff`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DiffFormat {
    /// A readable report
    Text,
    /// A pull-request comment: a summary table and a collapsible section per package
    Markdown,
    /// One self-contained HTML page, each changed channel drawn as SVG
    Html,
    /// One JSON object (schemas/diff.schema.json), for jq and tests
    Json,
    /// GitLab Code Quality JSON, one entry per problem
    Gitlab,
}

/// A kind of change that can break installations; `--allow` accepts one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, clap::ValueEnum)]
pub enum DiffRule {
    /// A package removed while installations run it
    PackageRemoved,
    /// A channel removed while installations follow it
    ChannelRemoved,
    /// An installed bundle removed from its channel, with no way left to the head
    InstallationStranded,
    /// A bundle still in its channel that no longer reaches the head
    InstallationStuck,
    /// A channel head replaced by a lower version
    HeadMovedBack,
    /// A channel head removed from its channel (a warning)
    HeadRemoved,
    /// A bundle whose image or properties changed under the same name
    BundleChanged,
}

#[derive(Debug, clap::Args)]
#[command(
    about = "Compare catalogs and report what the change does to installations",
    override_usage = "fbc diff [OPTIONS] OLD NEW [OLD NEW]...\n       fbc diff [OPTIONS] --base REV DIR...",
    long_about = "Compare catalogs and report what the change does to installations.\n\n\
OLD and NEW are each a catalog directory, a catalog image, or REV:PATH: the directory PATH \
(from the top of the repository) at revision REV of the git repository around the working \
directory, read from git's objects without a checkout (for example \
`fbc diff origin/main:catalogs/v4.18 catalogs/v4.18`). Several OLD NEW pairs give one report \
with a section per pair.\n\n\
With --base REV, each DIR of the repository is compared with the same path at REV \
(`fbc diff --base origin/main catalogs/*`): git is read once, a DIR absent at REV is reported \
as an added catalog and one absent from the working tree as a removed one.\n\n\
Per package: packages, channels and channel entries added or removed, default channels and \
channel heads before and after, upgrade edges changed, deprecations added or removed, and \
bundles changed under the same name. Then the upgrade impact: every bundle of every channel of \
OLD is an installation that a cluster could be running; each is walked in NEW under OLM \
classic's and OLM v1's rules (as `fbc alpha upgrade-path` walks), and an installation that \
reached its channel head in OLD but no longer reaches it in NEW is a problem, with the reason \
and each runtime's answer. The exit status is the worst of all catalogs: 0 nothing breaks, 1 a \
change breaks installations, 2 a catalog could not be read."
)]
pub struct DiffArgs {
    /// OLD NEW pairs (each a directory, an image, or REV:PATH), or with --base the
    /// catalog directories to compare with REV
    #[arg(value_name = "CATALOG", required = true)]
    pub catalogs: Vec<String>,

    /// Compare each CATALOG directory with the same path at this git revision
    #[arg(long, value_name = "REV")]
    pub base: Option<String>,

    /// Output format
    #[arg(short, long, value_enum, default_value_t = DiffFormat::Text)]
    pub output: DiffFormat,

    /// Accept a kind of change: reported, but the check passes (repeatable)
    #[arg(long, value_enum, value_name = "RULE")]
    pub allow: Vec<DiffRule>,

    /// Upgrade rules to check installations under
    #[arg(long, value_enum, default_value_t = SemanticsArg::Both)]
    pub semantics: SemanticsArg,

    #[command(flatten)]
    pub registry: RegistryArgs,
}
