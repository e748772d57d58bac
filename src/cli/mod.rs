//! Command-line syntax: clap derive types only. Commands resolve these into settings.

mod render;

pub use render::{OutputFormat, RenderArgs};

/// Render, validate and graph OLM file-based catalogs, compatible with opm.
#[derive(Debug, clap::Parser)]
#[command(name = "fbc", version, about, long_about = None, max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Render catalog directories into a stream of FBC blobs, as `opm render` does
    Render(RenderArgs),
}
