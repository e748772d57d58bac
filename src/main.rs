//! The `fbc` binary: parse arguments, run, turn the outcome into an exit code.

#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() -> std::process::ExitCode {
    let cli = fbc::cli::parse();
    match fbc::run(cli) {
        Ok(status) => status.into(),
        Err(report) => {
            fbc::report_error(&report);
            fbc::ExitStatus::Error.into()
        }
    }
}
