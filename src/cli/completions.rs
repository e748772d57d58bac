//! Arguments of `fbc completions` and `fbc man`, which document the CLI itself.

use std::path::PathBuf;

#[derive(Debug, clap::Args)]
#[command(
    about = "Print a shell completion script on stdout",
    long_about = "Print a shell completion script on stdout.\n\n\
For bash, for example: `fbc completions bash > ~/.local/share/bash-completion/completions/fbc`. \
The scripts are also committed under completions/ in the source repository."
)]
pub struct CompletionsArgs {
    /// Shell to complete for
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, clap::Args)]
#[command(
    about = "Write manual pages: fbc.1 and one page per subcommand",
    long_about = "Write manual pages: fbc.1 and one page per subcommand (fbc-render.1, ...).\n\n\
The directory is created if needed; pages already in it are replaced. The pages are also \
committed under man/ in the source repository."
)]
pub struct ManArgs {
    /// Directory to write the pages into
    #[arg(value_name = "DIR")]
    pub directory: PathBuf,
}
