//! Command-line syntax: clap derive types only. Commands resolve these into settings.

mod alpha;
mod build;
mod completions;
mod diff;
mod footer;
mod generate;
mod graph;
mod render;
mod serve;
mod template;
mod validate;

pub use alpha::{
    AlphaArgs, AlphaCommand, PathFormat, ResolveArgs, ResolveFormat, SemanticsArg, UpgradePathArgs,
};
pub use build::BuildArgs;
pub use completions::{CompletionsArgs, ManArgs};
pub use diff::{DiffArgs, DiffFormat, DiffRule};
pub use generate::{
    DEFAULT_IMAGE, DockerfileArgs, FBC_IMAGE, GenerateArgs, GenerateCommand, RuntimeArg,
};
pub use graph::{GraphArgs, GraphFilterArgs, GraphFormat, RenderGraphArgs};
pub use render::{OutputFormat, RegistryArgs, RenderArgs};
pub use serve::ServeArgs;
pub use template::{
    BlobFormat, ConvertArgs, ConvertTemplateArgs, ConvertTemplateCommand, InitArgs, ListArgs,
    ListCommand, ListInPackageArgs, ListPackagesArgs, RenderTemplateArgs, TemplateFormat,
};
pub use validate::{ValidateArgs, ValidateFormat};

pub(crate) use footer::footer;

/// The command line as fbc defines it, each command's help ending with its exit
/// statuses, environment and examples (also for completions and man pages).
#[must_use]
pub fn command() -> clap::Command {
    with_footers(<Cli as clap::CommandFactory>::command(), "")
}

/// Parses the process's arguments (exits with clap's message and status 2 on a
/// usage error).
#[must_use]
pub fn parse() -> Cli {
    let mut command = command();
    let matches = command
        .try_get_matches_from_mut(std::env::args_os())
        .unwrap_or_else(|error| {
            if let Some(value) = template_output(&error) {
                // opm's text for it (a cobra error), so that searches for it find answers.
                eprintln!("error: invalid --output value {value:?}, expected (json|yaml|mermaid)");
                std::process::exit(2);
            }
            if let Some(alpha) = alpha_command(&error, &command) {
                let tip = format!("`{alpha}` is an alpha command: run `fbc alpha {alpha}`");
                let mut error =
                    clap::Error::new(clap::error::ErrorKind::InvalidSubcommand).with_cmd(&command);
                error.insert(
                    clap::error::ContextKind::InvalidSubcommand,
                    clap::error::ContextValue::String(alpha),
                );
                error.insert(
                    clap::error::ContextKind::Suggested,
                    clap::error::ContextValue::StyledStrs(vec![tip.into()]),
                );
                error.exit()
            }
            error.exit()
        });
    <Cli as clap::FromArgMatches>::from_arg_matches(&matches).unwrap_or_else(|error| error.exit())
}

/// The value of a `-o` that `fbc alpha render-template` does not know.
fn template_output(error: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue};
    if error.kind() != clap::error::ErrorKind::InvalidValue {
        return None;
    }
    let words: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|word| word.to_string_lossy().into_owned())
        .filter(|word| !word.starts_with('-'))
        .take(2)
        .collect();
    if words != ["alpha", "render-template"] {
        return None;
    }
    let Some(ContextValue::String(argument)) = error.get(ContextKind::InvalidArg) else {
        return None;
    };
    let Some(ContextValue::String(value)) = error.get(ContextKind::InvalidValue) else {
        return None;
    };
    argument.starts_with("--output").then(|| value.clone())
}

/// The name of an `fbc alpha` subcommand given without `alpha` (`fbc upgrade-path`),
/// which clap alone would call unknown or take for another (`did you mean render`).
fn alpha_command(error: &clap::Error, command: &clap::Command) -> Option<String> {
    if error.kind() != clap::error::ErrorKind::InvalidSubcommand {
        return None;
    }
    let Some(clap::error::ContextValue::String(given)) =
        error.get(clap::error::ContextKind::InvalidSubcommand)
    else {
        return None;
    };
    command
        .find_subcommand("alpha")?
        .get_subcommands()
        .any(|sub| sub.get_name() == given)
        .then(|| given.clone())
}

fn with_footers(mut command: clap::Command, path: &str) -> clap::Command {
    let names: Vec<String> = command
        .get_subcommands()
        .map(|sub| sub.get_name().to_owned())
        .collect();
    for name in names {
        let sub_path = format!("{path} {name}").trim().to_owned();
        command = command.mut_subcommand(&name, |sub| with_footers(sub, &sub_path));
    }
    match footer(path) {
        Some(footer) => command.after_long_help(footer.help()),
        None => command,
    }
}

/// Render, validate and graph OLM file-based catalogs, compatible with opm.
#[derive(Debug, clap::Parser)]
#[command(name = "fbc", version = crate::VERSION, about, long_about = None, max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,

    #[arg(
        long,
        global = true,
        value_enum,
        value_name = "WHEN",
        default_value_t = ColorArg::Auto,
        help = "When to colour stderr and show source snippets: auto (on a terminal, unless \
                NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never"
    )]
    pub color: ColorArg,
}

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorArg {
    Auto,
    Always,
    Never,
}

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Render catalog and bundle directories and images into a stream of FBC blobs, as `opm render` does
    #[command(long_about = render::LONG_ABOUT)]
    Render(RenderArgs),
    // `about` and `long_about` come from the arguments' own `#[command]`.
    Validate(ValidateArgs),
    /// Draw the upgrade graph of catalog directories or images (mermaid, dot or JSON)
    Graph(GraphArgs),
    Diff(DiffArgs),
    Serve(ServeArgs),
    Build(BuildArgs),
    /// Generate various artifacts for file-based catalogs
    Generate(GenerateArgs),
    /// Generate an olm.package blob, as `opm init` does
    Init(InitArgs),
    /// Commands that are not stable yet, among them opm's alpha commands: upgrade-path,
    /// resolve, render-template, list, convert-template, render-graph
    Alpha(AlphaArgs),
    /// Print a shell completion script on stdout
    Completions(CompletionsArgs),
    /// Write manual pages: fbc.1 and one page per subcommand
    Man(ManArgs),
    /// Print the version and the commit fbc was built from, as `--version` does
    Version,
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_command_line_is_well_formed() {
        // clap's own checks: no argument defined twice, no conflicting names.
        <super::Cli as clap::CommandFactory>::command().debug_assert();
    }
}
