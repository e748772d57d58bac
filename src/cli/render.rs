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

#[derive(Debug, clap::Args)]
#[command(
    about = "Render catalog and bundle directories into a stream of FBC blobs, as `opm render` does",
    long_about = "Render catalog and bundle directories into a stream of FBC blobs, as `opm render` does.\n\n\
Each argument is a file-based catalog directory or a bundle directory (one with `manifests/` \
and `metadata/` sub-directories), which becomes one `olm.bundle` blob. Blobs are grouped by \
package and written in opm's order and format, byte for byte. Several directories are written \
one after the other, in argument order, without de-duplication."
)]
pub struct RenderArgs {
    /// Catalog or bundle directories to render
    #[arg(required = true, value_name = "DIR")]
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

    /// Image reference of bundles rendered from directories, from a template with
    /// `{{.Package}}`, `{{.Name}}` (the CSV name) and `{{.Version}}`
    #[arg(long, value_name = "TEMPLATE", alias = "alpha-image-ref-template")]
    pub image_ref_template: Option<String>,
}
