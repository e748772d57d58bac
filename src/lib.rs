//! `fbc`: a toolchain for Operator Lifecycle Manager file-based catalogs (FBC),
//! compatible with the catalog commands of `opm`.
//!
//! The binary is a thin shell over [`run`]; everything it does lives here.

#[doc(hidden)]
pub mod bench;
mod build;
mod bundle;
mod catalog;
pub mod cli;
mod codec;
mod commands;
mod diff;
mod digest;
mod drawing;
mod files;
#[doc(hidden)]
pub mod fuzzing;
mod go;
mod graph;
mod image;
mod init;
mod list;
mod model;
mod output;
mod process;
mod resolve;
mod serve;
mod source;
mod template;
#[cfg(test)]
mod testing;
mod text;
mod validate;

/// How a command ended, mapped to the process exit code in one place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ExitStatus {
    /// The command ran and found nothing wrong.
    Success,
    /// The command ran and found problems (an invalid catalog, for example).
    Failure,
    /// The command could not run: bad usage, unreadable input, registry failure.
    Error,
}

impl From<ExitStatus> for std::process::ExitCode {
    fn from(status: ExitStatus) -> Self {
        match status {
            ExitStatus::Success => Self::SUCCESS,
            ExitStatus::Failure => Self::from(1),
            ExitStatus::Error => Self::from(2),
        }
    }
}

/// fbc's version and the commit it was built from.
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (", env!("FBC_GIT_COMMIT"), ")");

/// Runs one parsed command line.
pub fn run(cli: cli::Cli) -> miette::Result<ExitStatus> {
    output::diagnostics::set_color(match cli.color {
        cli::ColorArg::Auto => output::diagnostics::Color::Auto,
        cli::ColorArg::Always => output::diagnostics::Color::Always,
        cli::ColorArg::Never => output::diagnostics::Color::Never,
    });
    files::limits::init()?;
    process::stack::start_workers()?;
    // A server stops on SIGTERM and SIGINT by itself, finishing its calls.
    if !matches!(cli.command, cli::Command::Serve(_)) {
        process::interrupt::install();
    }
    let outcome = process::stack::on_deep_stack(|| run_command(cli));
    // Library code never prints: what the registries configuration warned about
    // is reported here, once the command is done with it.
    for warning in image::configuration_warnings() {
        output::diagnostics::print_report(&warning);
    }
    // An interrupted command that returns (its workers stopped) leaves the exit to
    // the handler, which is still removing what they wrote.
    process::interrupt::wait_if_stopping();
    outcome
}

fn run_command(cli: cli::Cli) -> miette::Result<ExitStatus> {
    match cli.command {
        cli::Command::Render(args) => commands::render::run(&args),
        cli::Command::Validate(args) => commands::validate::run(&args),
        cli::Command::Generate(args) => match args.command {
            cli::GenerateCommand::Dockerfile(args) => commands::generate_dockerfile::run(&args),
        },
        cli::Command::Graph(args) => commands::graph::run(&args),
        cli::Command::Diff(args) => commands::diff::run(&args),
        cli::Command::Serve(args) => Ok(commands::serve::run(&args)),
        cli::Command::Build(args) => commands::build::run(&args),
        cli::Command::Alpha(args) => match args.command {
            cli::AlphaCommand::RenderGraph(args) => commands::graph::run_render_graph(&args),
            cli::AlphaCommand::UpgradePath(args) => commands::upgrade_path::run(&args),
            cli::AlphaCommand::RenderTemplate(args) => commands::render_template::run(&args),
            cli::AlphaCommand::ConvertTemplate(args) => {
                commands::authoring::convert_template(&args.command)
            }
            cli::AlphaCommand::List(args) => commands::authoring::list(&args.command),
            cli::AlphaCommand::Resolve(args) => commands::resolve::run(&args),
        },
        cli::Command::Init(args) => commands::authoring::init(&args),
        cli::Command::Completions(args) => commands::completions::run(&args),
        cli::Command::Man(args) => commands::man::run(&args),
        cli::Command::Version => commands::version::run(),
    }
}

/// Prints an error that stopped a command, with source snippets when stderr is a
/// terminal and colours are allowed, plain text otherwise.
pub fn report_error(report: &miette::Report) {
    output::diagnostics::print_report(report);
}
