//! `fbc`: a toolchain for Operator Lifecycle Manager file-based catalogs (FBC),
//! compatible with the catalog commands of `opm`.
//!
//! The binary is a thin shell over [`run`]; everything it does lives here.

mod atomic;
mod bundle;
mod bytes;
mod catalog;
pub mod cli;
mod commands;
mod diff;
mod digest;
#[doc(hidden)]
pub mod fuzzing;
mod go;
mod graph;
mod image;
mod init;
mod interrupt;
mod limits;
mod list;
mod model;
mod output;
mod resolve;
mod semver;
mod semver_range;
mod shown;
mod stale;
mod template;
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

/// The stack of the thread that runs a command and of every worker thread. A
/// catalog value can nest 10,000 levels (the loader's limit, Go's), and the code
/// that converts, checks and writes values recurses into them; threads get 2 MiB
/// by default, the main thread 8 MiB, and an unoptimised build needs several times
/// what an optimised one does. Only the pages a deep value uses are ever touched.
pub(crate) const WORKER_STACK: usize = 256 << 20;

/// Runs one parsed command line.
pub fn run(cli: cli::Cli) -> miette::Result<ExitStatus> {
    output::diagnostics::set_color(cli.color);
    limits::init()?;
    // Built once per process: a second call (tests run commands in one process)
    // keeps the first pool.
    let _ = rayon::ThreadPoolBuilder::new()
        .stack_size(WORKER_STACK)
        .build_global();
    interrupt::install();
    let outcome = on_deep_stack(|| run_command(cli));
    // An interrupted command that returns (its workers stopped) leaves the exit to
    // the handler, which is still removing what they wrote.
    interrupt::wait_if_stopping();
    outcome
}

/// Runs `work` on a thread with [`WORKER_STACK`] (on this one if no thread can be
/// made); a panic carries on in the caller.
fn on_deep_stack<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    let work = std::sync::Mutex::new(Some(work));
    let take = || {
        work.lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
            .expect("the work runs once")
    };
    std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new()
            .name("fbc".to_owned())
            .stack_size(WORKER_STACK)
            .spawn_scoped(scope, || take()());
        match spawned.map(std::thread::ScopedJoinHandle::join) {
            Ok(Ok(value)) => value,
            Ok(Err(panic)) => std::panic::resume_unwind(panic),
            Err(_) => take()(),
        }
    })
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
