//! Arguments of the authoring commands: `alpha render-template`, `alpha
//! convert-template`, `init` and `alpha list`.

use std::path::PathBuf;

use super::render::RegistryArgs;

/// Output encodings of `fbc alpha render-template`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TemplateFormat {
    /// A stream of pretty-printed JSON objects, as `opm render` prints
    Json,
    /// YAML documents separated by `---`
    Yaml,
    /// The upgrade graph in mermaid, with OLM classic's skipped bundles marked
    Mermaid,
}

/// Output encodings of `convert-template` and `init`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum BlobFormat {
    /// JSON, as opm writes it
    Json,
    /// YAML, as opm writes it
    Yaml,
}

pub(crate) const RENDER_TEMPLATE_ABOUT: &str = "Render a catalog template (basic, semver or \
substitutes) into a file-based catalog, as `opm alpha render-template` does.\n\n\
Arguments as opm's: no argument reads the template from stdin and detects its type from its \
`schema`; one argument is a TYPE (then stdin is read) or a FILE (type detected); two are TYPE \
and FILE. `-` is stdin.\n\n\
Bundle images are pulled in parallel (--jobs) through the content-addressed cache: an image \
pinned by digest is fetched once, a cached tag costs one manifest request, and --offline uses \
the cache alone. Mirrors and blocked registries come from containers-registries.conf, as \
podman reads it. The rendered `image` of each bundle is the reference as written. When the template cannot \
be rendered, opm's message is printed and nothing on stdout.";

#[derive(Debug, clap::Args)]
#[command(
    about = "Render a catalog template (basic, semver, substitutes), as `opm alpha render-template` does",
    long_about = RENDER_TEMPLATE_ABOUT
)]
pub struct RenderTemplateArgs {
    /// [TYPE] [FILE|-]: the template type (basic, semver, substitutes) and the template file
    #[arg(value_name = "TYPE|FILE", num_args = 0..=2)]
    pub arguments: Vec<String>,

    /// Output format
    #[arg(short, long, value_enum, default_value_t = TemplateFormat::Json)]
    pub output: TemplateFormat,

    /// Name of the last migration to run on the rendered bundles (default: none)
    #[arg(long, value_name = "LEVEL", long_help = crate::bundle::migrate::help_text())]
    pub migrate_level: Option<String>,

    /// Bundle images pulled at once
    #[arg(short, long, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: u16,

    /// Render from the image cache alone; fail naming every image that is not in it
    #[arg(long, conflicts_with = "no_cache")]
    pub offline: bool,

    /// Compare the rendering with this committed catalog file instead of printing it: exit 1 with a summary and a unified diff when they differ
    #[arg(long, value_name = "RENDERED_FILE", conflicts_with = "output")]
    pub check: Option<PathBuf>,

    #[command(flatten)]
    pub registry: RegistryArgs,
}

#[derive(Debug, clap::Args)]
#[command(about = "Turn a catalog file into a template, as `opm alpha convert-template` does")]
pub struct ConvertTemplateArgs {
    #[command(subcommand)]
    pub command: ConvertTemplateCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum ConvertTemplateCommand {
    /// Generate a basic template from a catalog file: bundles become image references
    Basic(ConvertArgs),
    /// Generate a substitutes template from a catalog file: every blob, no substitutions yet
    Substitutes(ConvertArgs),
}

#[derive(Debug, clap::Args)]
pub struct ConvertArgs {
    /// A file of catalog blobs (JSON or YAML); `-` or nothing reads stdin
    #[arg(value_name = "FILE|-")]
    pub input: Option<PathBuf>,

    /// Output format
    #[arg(short, long, value_enum, default_value_t = BlobFormat::Json)]
    pub output: BlobFormat,
}

#[derive(Debug, clap::Args)]
#[command(
    about = "Generate an olm.package blob, as `opm init` does",
    long_about = "Generate an olm.package blob, as `opm init` does.\n\n\
The icon's media type is detected from its first bytes (SVG, PNG, JPEG, GIF, ...); a file that \
is not an image is refused. Nothing else is checked."
)]
pub struct InitArgs {
    /// The package name
    #[arg(value_name = "PACKAGE")]
    pub package: String,

    /// The channel that subscriptions default to if unspecified
    #[arg(short = 'c', long, value_name = "CHANNEL", default_value = "")]
    pub default_channel: String,

    /// Path to the package's description file (its content becomes the description, verbatim)
    #[arg(short, long, value_name = "FILE")]
    pub description: Option<PathBuf>,

    /// Path to the package's icon
    #[arg(short, long, value_name = "FILE")]
    pub icon: Option<PathBuf>,

    /// Output format
    #[arg(short, long, value_enum, default_value_t = BlobFormat::Json)]
    pub output: BlobFormat,
}

#[derive(Debug, clap::Args)]
#[command(about = "List the contents of a catalog, as `opm alpha list` does")]
pub struct ListArgs {
    #[command(subcommand)]
    pub command: ListCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum ListCommand {
    /// List packages: name, display name and default channel
    Packages(ListPackagesArgs),
    /// List channels: package, channel and head
    Channels(ListInPackageArgs),
    /// List bundles per channel: edges and image
    Bundles(ListInPackageArgs),
}

#[derive(Debug, clap::Args)]
pub struct ListPackagesArgs {
    /// Catalog directory or catalog image
    #[arg(value_name = "DIR|IMAGE")]
    pub reference: PathBuf,

    #[command(flatten)]
    pub registry: RegistryArgs,
}

#[derive(Debug, clap::Args)]
pub struct ListInPackageArgs {
    /// Catalog directory or catalog image
    #[arg(value_name = "DIR|IMAGE")]
    pub reference: PathBuf,

    /// Only this package
    #[arg(value_name = "PACKAGE")]
    pub package: Option<String>,

    #[command(flatten)]
    pub registry: RegistryArgs,
}
