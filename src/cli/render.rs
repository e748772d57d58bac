//! Arguments of `fbc render`.

use std::path::PathBuf;

/// Output encodings of `fbc render`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    /// A stream of pretty-printed JSON objects, as `opm render` prints by default
    Json,
    /// YAML documents separated by `---`, as `opm render -o yaml` prints
    Yaml,
}

/// The long description of `fbc render`.
pub(crate) const LONG_ABOUT: &str = "Render catalog and bundle directories and images into a \
stream of FBC blobs, as `opm render` does.\n\n\
Each argument is a file-based catalog directory, a bundle directory (one with `manifests/` \
and `metadata/` sub-directories), which becomes one `olm.bundle` blob with the properties opm \
derives from its manifests and metadata, or, when no such path exists, a catalog or bundle \
image to pull. Blobs are grouped by package and written in opm's order and format, byte for \
byte. Several references are written one after the other, in argument order, without \
de-duplication.";

#[derive(Debug, clap::Args)]
pub struct RenderArgs {
    /// Catalog or bundle directories, or catalog or bundle image references, to render
    #[arg(required = true, value_name = "DIR|IMAGE")]
    pub references: Vec<PathBuf>,

    /// Output format
    #[arg(short, long, value_enum, default_value_t = OutputFormat::Json)]
    pub output: OutputFormat,

    /// Name of the last migration to run (default: none)
    #[arg(long, value_name = "LEVEL", long_help = crate::bundle::migrate::help_text())]
    pub migrate_level: Option<String>,

    /// Perform all available schema migrations on the rendered FBC
    #[arg(long, conflicts_with = "migrate_level")]
    pub migrate: bool,

    /// Image reference of bundles rendered from bundle directories (a Go template)
    #[arg(
        long,
        value_name = "TEMPLATE",
        alias = "alpha-image-ref-template",
        long_help = "Image reference of bundles rendered from bundle directories, which have \
none (opm's `--alpha-image-ref-template`, also accepted). A Go template with the variables:\n  \
- {{.Package}} : the package name the bundle belongs to\n  \
- {{.Name}}    : the name of the bundle (the CSV name)\n  \
- {{.Version}} : the version of the bundle\n\n\
Bundles need an image for `--migrate` to turn their objects into `olm.csv.metadata`."
    )]
    pub image_ref_template: Option<String>,

    #[command(flatten)]
    pub registry: RegistryArgs,
}

/// How images are pulled (opm's root flags).
#[derive(Debug, clap::Args)]
#[allow(clippy::struct_excessive_bools)] // each is a command-line switch
pub struct RegistryArgs {
    /// Pull images over plain HTTP instead of HTTPS (local or test registries)
    #[arg(long)]
    pub use_http: bool,

    /// Pull images over HTTPS without verifying the registry's certificate
    #[arg(long)]
    pub skip_tls_verify: bool,

    /// Deprecated: use --use-http and --skip-tls-verify instead (same as --use-http)
    #[arg(long, hide = true)]
    pub skip_tls: bool,

    /// Download image blobs again instead of using the cache (`$XDG_CACHE_HOME/fbc`)
    #[arg(long)]
    pub no_cache: bool,
}
