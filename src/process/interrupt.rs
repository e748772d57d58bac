//! Ctrl-C (and SIGTERM, SIGHUP) leave nothing half-made behind: the temporary files
//! and directories a command is writing are registered here and removed before the
//! process exits with 130.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
static STOPPING: AtomicBool = AtomicBool::new(false);

/// How long the handler keeps removing what workers may still be writing.
const SETTLE: Duration = Duration::from_millis(100);
const GIVE_UP: Duration = Duration::from_secs(3);

/// Installs the handler; called once at start-up. Failing to install it only
/// loses the clean-up, so the error is ignored.
pub(crate) fn install() {
    let _ = ctrlc::set_handler(|| {
        // Workers check the flag between the files they write; until they have
        // all stopped, one may create a file after its directory was removed. So
        // the paths are removed until they have stayed gone for a while.
        STOPPING.store(true, Ordering::SeqCst);
        let started = Instant::now();
        let mut quiet_since = Instant::now();
        while started.elapsed() < GIVE_UP && quiet_since.elapsed() < SETTLE {
            let pending = PENDING
                .lock()
                .map(|paths| paths.clone())
                .unwrap_or_default();
            let mut removed = false;
            for path in pending {
                if path.symlink_metadata().is_ok() {
                    removed = true;
                    let _ = std::fs::remove_dir_all(&path).or_else(|_| std::fs::remove_file(&path));
                }
            }
            if removed {
                quiet_since = Instant::now();
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        std::process::exit(130);
    });
}

/// Blocks while an interrupted run is being cleaned up (the handler then exits
/// the process); returns at once otherwise.
pub(crate) fn wait_if_stopping() {
    if stopping() {
        std::thread::sleep(GIVE_UP + Duration::from_secs(1));
    }
}

/// Whether the run was interrupted: long work stops at its next step.
pub(crate) fn stopping() -> bool {
    STOPPING.load(Ordering::Relaxed)
}

/// Removes `path` if the process is interrupted while the guard lives.
#[must_use = "the path is only removed while the guard lives"]
pub(crate) fn remove_on_interrupt(path: &Path) -> Guard {
    if let Ok(mut pending) = PENDING.lock() {
        pending.push(path.to_path_buf());
    }
    Guard(path.to_path_buf())
}

pub(crate) struct Guard(PathBuf);

impl Drop for Guard {
    fn drop(&mut self) {
        // Once interrupted, the handler owns the paths: a worker finishing its
        // step must not take its path off the list before the handler removes it.
        if stopping() {
            return;
        }
        if let Ok(mut pending) = PENDING.lock()
            && let Some(index) = pending.iter().rposition(|path| *path == self.0)
        {
            pending.swap_remove(index);
        }
    }
}
