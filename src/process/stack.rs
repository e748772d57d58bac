//! Deep stacks. A catalog value can nest 10,000 levels (the loader's limit, Go's),
//! and CEL rules and `olm.constraint` trees as deep as they are written; the code
//! that converts, checks, evaluates and writes them recurses. Threads get 2 MiB by
//! default and the main thread 8 MiB, and an unoptimised build needs several times
//! what an optimised one does.

/// The stack of the thread that runs a command, of every worker thread and of
/// [`on_deep_stack`]: reserved address space, of which only the pages a deep value
/// uses are ever touched.
pub(crate) const DEEP_STACK: usize = 256 << 20;

/// Runs `work` on a thread with [`DEEP_STACK`] (on this one if no thread can be
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
            .stack_size(DEEP_STACK)
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
