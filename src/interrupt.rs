//! Ctrl-C (and SIGTERM, SIGHUP) leave nothing half-made behind: the temporary files
//! and directories a command is writing are registered here and removed before the
//! process exits with 130.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Installs the handler; called once at start-up. Failing to install it only
/// loses the clean-up, so the error is ignored.
pub(crate) fn install() {
    let _ = ctrlc::set_handler(|| {
        let pending = PENDING
            .lock()
            .map(|paths| paths.clone())
            .unwrap_or_default();
        for path in pending {
            let _ = std::fs::remove_dir_all(&path).or_else(|_| std::fs::remove_file(&path));
        }
        std::process::exit(130);
    });
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
        if let Ok(mut pending) = PENDING.lock()
            && let Some(index) = pending.iter().rposition(|path| *path == self.0)
        {
            pending.swap_remove(index);
        }
    }
}
