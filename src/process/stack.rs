//! Deep stacks. A catalog value can nest 10,000 levels (the loader's limit, Go's),
//! and CEL rules and `olm.constraint` trees as deep as they are written; the code
//! that converts, checks, evaluates and writes them recurses. Threads get 2 MiB by
//! default and the main thread 8 MiB, and an unoptimised build needs several times
//! what an optimised one does.

/// The stack of the thread that runs a command, of every worker thread and of
/// [`on_deep_stack`]: reserved address space, of which only the pages a deep value
/// uses are ever touched.
const DEEP_STACK: usize = 256 << 20;

/// Under an address-space limit (`ulimit -v`), stacks take at most this share of
/// it each: three of them must leave the rest for the heap.
const SHARE_OF_LIMIT: u64 = 32;

/// The least a deep stack gets under an address-space limit: an optimised build
/// walks the deepest value fbc accepts (10,000 levels) in a few MiB.
const LEAST: usize = 16 << 20;

/// The size of a deep stack: [`DEEP_STACK`], or less under an address-space limit
/// (reserved stacks count against it, and 256 MiB each would leave a limit of a
/// GiB or two little room for data).
pub(crate) fn deep_stack() -> usize {
    static SIZE: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *SIZE.get_or_init(|| match address_space_limit() {
        Some(limit) => usize::try_from(limit / SHARE_OF_LIMIT)
            .unwrap_or(DEEP_STACK)
            .clamp(LEAST, DEEP_STACK),
        None => DEEP_STACK,
    })
}

/// The soft limit on the process's address space, if any (Linux's
/// `/proc/self/limits`, read once; elsewhere none is known).
pub(crate) fn address_space_limit() -> Option<u64> {
    static LIMIT: std::sync::OnceLock<Option<u64>> = std::sync::OnceLock::new();
    *LIMIT.get_or_init(|| {
        let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
        soft_limit(&limits, "Max address space")
    })
}

/// The soft limit of `name` in the text of `/proc/self/limits`.
fn soft_limit(limits: &str, name: &str) -> Option<u64> {
    let line = limits.lines().find(|line| line.starts_with(name))?;
    line[name.len()..].split_whitespace().next()?.parse().ok()
}

/// The threads could not be started: the worker threads' stacks (and the
/// process's other memory) do not fit in what it may use.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("fbc could not start its worker threads: {0}")]
#[diagnostic(
    code(fbc::process::threads),
    help("each thread reserves a stack; raise the address-space limit (`ulimit -v`)")
)]
pub(crate) struct ThreadsError(String);

/// Starts the worker threads (rayon's global pool) with deep stacks, once per
/// process: a second call (tests run commands in one process) keeps the first
/// pool, or its failure.
pub(crate) fn start_workers() -> Result<(), ThreadsError> {
    static STARTED: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
    STARTED
        .get_or_init(|| {
            rayon::ThreadPoolBuilder::new()
                .stack_size(deep_stack())
                .build_global()
                .map_err(|error| error.to_string())
        })
        .clone()
        .map_err(ThreadsError)
}

/// Runs `work` on a thread with a [`deep_stack`] (on this one if no thread can be
/// made); a panic carries on in the caller.
pub(crate) fn on_deep_stack<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    let work = std::sync::Mutex::new(Some(work));
    let run = || {
        let work = work.lock().ok().and_then(|mut slot| slot.take());
        work.map(|work| work())
    };
    std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new()
            .name("fbc".to_owned())
            .stack_size(deep_stack())
            .spawn_scoped(scope, run);
        let done = match spawned {
            Ok(handle) => handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            // No thread to be had: the work runs here, with this thread's stack.
            Err(_) => None,
        };
        done.or_else(run)
            .expect("the work runs once, here or on the thread")
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_soft_address_space_limit_is_read() {
        let limits = "Limit                     Soft Limit           Hard Limit           Units     \n\
                      Max stack size            8388608              unlimited            bytes     \n\
                      Max address space         1610612736           unlimited            bytes     \n";
        assert_eq!(
            super::soft_limit(limits, "Max address space"),
            Some(1_610_612_736)
        );
        assert_eq!(super::soft_limit(limits, "Max core file size"), None);
        let unlimited =
            "Max address space         unlimited            unlimited            bytes\n";
        assert_eq!(super::soft_limit(unlimited, "Max address space"), None);
    }
}
