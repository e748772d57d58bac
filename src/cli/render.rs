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
    about = "Render catalog directories into a stream of FBC blobs, as `opm render` does",
    long_about = "Render catalog directories into a stream of FBC blobs, as `opm render` does.\n\n\
Each argument is a file-based catalog directory. Blobs are grouped by package and \
written in opm's order and format, byte for byte. Several directories are written \
one after the other, in argument order, without de-duplication."
)]
pub struct RenderArgs {
    /// Catalog directories to render
    #[arg(required = true, value_name = "DIR")]
    pub references: Vec<PathBuf>,

    /// Output format
    #[arg(short, long, value_enum, default_value_t = OutputFormat::Json)]
    pub output: OutputFormat,
}
