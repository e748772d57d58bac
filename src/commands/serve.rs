//! `fbc serve`: the command line into `serve::Options`, and the outcome into an
//! exit status (the server itself is `crate::serve`).

use crate::ExitStatus;
use crate::cli::ServeArgs;
use crate::serve::{self, Options, Stop};

pub(crate) fn run(args: &ServeArgs) -> ExitStatus {
    let options = Options {
        directory: args.directory.clone(),
        port: args.port.clone(),
        termination_log: args.termination_log.clone(),
        debug: args.debug,
        cache_dir: args.cache_dir.clone(),
        cache_only: args.cache_only,
        cache_enforce_integrity: args.cache_enforce_integrity,
        http_port: args.http_port,
        catalog_name: args.catalog_name.clone(),
    };
    match serve::run(&options) {
        Ok(status) => status,
        // Logged already, in opm's form.
        Err(Stop::Fatal(_)) => ExitStatus::Failure,
        Err(Stop::Listen(_) | Stop::Usage(_)) => ExitStatus::Error,
        Err(Stop::Load(errors)) => {
            crate::report_error(&miette::Report::new(errors));
            ExitStatus::Failure
        }
    }
}
