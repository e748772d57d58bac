//! Arguments of `fbc build`.

use std::path::PathBuf;

#[derive(Debug, clap::Args)]
#[command(
    about = "Build a catalog image from a directory, without a container engine",
    long_about = "Build a catalog image from a directory, without a container engine.\n\n\
The catalog is validated first (an invalid catalog fails the build with validate's \
findings). The image is the base image's layers (fbc's own by default: this binary, \
which must be the static build) plus one layer holding the catalog at /configs, with \
opm's label operators.operatorframework.io.index.configs.v1=/configs and a command \
line that serves it (`serve /configs`). Entry order, owners, modes, times \
(SOURCE_DATE_EPOCH, else the newest commit's, else zero) and compression are fixed: \
the same directory on the same base gives the same digest."
)]
pub struct BuildArgs {
    /// Catalog directory to put at /configs
    #[arg(value_name = "DIR")]
    pub directory: PathBuf,

    /// Push the image to a registry under this reference
    #[arg(short, long, value_name = "REF")]
    pub tag: Option<String>,

    /// Write the image to oci:PATH[:TAG] (an OCI image layout) or docker-archive:PATH[:NAME] (repeatable)
    #[arg(short, long, value_name = "DEST")]
    pub output: Vec<String>,

    /// Base image (a registry reference, oci:PATH[:TAG] or docker-archive:PATH) [default: fbc's own, from this binary]
    #[arg(long, value_name = "REF")]
    pub base: Option<String>,

    /// Add a label to the image config (KEY=VALUE, repeatable)
    #[arg(long, value_name = "KEY=VALUE")]
    pub label: Vec<String>,

    /// Also put fbc's serve cache in the image (/tmp/cache) and serve with --cache-dir=/tmp/cache; only for a base whose server is fbc
    #[arg(long)]
    pub cache: bool,

    /// Print the image's digest on stdout (alone, without --tag or --output: nothing is written)
    #[arg(long)]
    pub print_digest: bool,

    #[command(flatten)]
    pub registry: super::render::RegistryArgs,
}
