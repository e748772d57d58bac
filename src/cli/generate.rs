//! Arguments of `fbc generate` and its `dockerfile` subcommand.

use std::path::PathBuf;

/// The image opm uses for both stages unless told otherwise. The flags' help repeats it:
/// clap's own default would hide whether a flag was given, which `--binary-image` needs.
pub const DEFAULT_IMAGE: &str = "quay.io/operator-framework/opm:latest";

/// The image of `--runtime fbc`: the project's Containerfile built as `fbc`
/// (`podman build -t fbc .` or `docker build -f Containerfile -t fbc .`).
pub const FBC_IMAGE: &str = "fbc:latest";

/// What serves the catalog in the image.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RuntimeArg {
    /// `/bin/opm serve`, opm's Dockerfile text exactly
    Opm,
    /// `/fbc serve`, on the image of fbc's Containerfile (no opm in the image)
    Fbc,
}

#[derive(Debug, clap::Args)]
#[command(about = "Generate various artifacts for file-based catalogs")]
pub struct GenerateArgs {
    #[command(subcommand)]
    pub command: GenerateCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum GenerateCommand {
    Dockerfile(DockerfileArgs),
}

#[derive(Debug, clap::Args)]
#[command(
    about = "Generate a Dockerfile for a file-based catalog, as `opm generate dockerfile` does",
    long_about = "Generate a Dockerfile for a file-based catalog, as `opm generate dockerfile` does.\n\n\
The Dockerfile is written beside the catalog directory, named <DIR>.Dockerfile, with \
opm's exact text. An existing file is never overwritten: the command fails instead. \
The builder stage pre-populates the `opm serve` cache, so the builder image needs \
/bin/opm and cannot be `scratch`; the base image can.\n\n\
With `--runtime fbc` the image runs `fbc serve` instead, from the image of fbc's \
Containerfile (`fbc:latest` unless named): a catalog image without opm."
)]
pub struct DockerfileArgs {
    /// Catalog directory to build into the image
    #[arg(value_name = "DIR")]
    pub directory: PathBuf,

    /// What serves the catalog: opm's `/bin/opm serve`, or `/fbc serve` from fbc's own image
    #[arg(long, value_name = "RUNTIME", value_enum, default_value = "opm")]
    pub runtime: RuntimeArg,

    /// Image the catalog runs in, `scratch` for a binary-less image [default: quay.io/operator-framework/opm:latest; fbc:latest with --runtime fbc]
    #[arg(short = 'i', long, value_name = "IMAGE")]
    pub base_image: Option<String>,

    /// Deprecated spelling of --base-image; also sets the builder image unless --builder-image is given
    #[arg(long, value_name = "IMAGE", hide = true, conflicts_with = "base_image")]
    pub binary_image: Option<String>,

    /// Image of the build stage, which runs `serve --cache-only` on the catalog [default: quay.io/operator-framework/opm:latest; fbc:latest with --runtime fbc]
    #[arg(short = 'b', long, value_name = "IMAGE")]
    pub builder_image: Option<String>,

    /// Extra image labels as key=value, repeated or comma-separated (quote a value holding a comma: '"key=a,b"')
    #[arg(short = 'l', long, value_name = "KEY=VALUE")]
    pub extra_labels: Vec<String>,

    /// Where to write the Dockerfile instead of <DIR>.Dockerfile; `-` prints it on stdout
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}
