//! Temporary files and directories named after the process that made them
//! (`<prefix><pid>-…`), so that a later run recognises what a killed run left
//! behind (its process is gone) and removes it. Ctrl-C and SIGTERM clean up at
//! once (see `interrupt`); this is for SIGKILL, a power cut, an out-of-memory kill.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The start of this process's temporary names: `<prefix><pid>-`.
pub(crate) fn prefix(prefix: &str) -> String {
    format!("{prefix}{}-", std::process::id())
}

/// Removes, once per run and directory, the entries of `directory` named
/// `<prefix><pid>-…<suffix>` whose process no longer runs. Entries of running
/// processes (another fbc at work) and everything else are left alone.
pub(crate) fn sweep(directory: &Path, prefix: &str, suffix: &str) {
    static SWEPT: Mutex<Option<HashSet<(PathBuf, String)>>> = Mutex::new(None);
    {
        let mut swept = SWEPT
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if !swept
            .get_or_insert_with(HashSet::new)
            .insert((directory.to_path_buf(), prefix.to_owned()))
        {
            return;
        }
    }
    let Ok(entries) = std::fs::read_dir(directory) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|name| name.strip_prefix(prefix)?.strip_suffix(suffix))
            .and_then(|rest| rest.split_once('-'))
            .and_then(|(pid, _)| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if pid == std::process::id() || running(pid) {
            continue;
        }
        let path = entry.path();
        let _ = if entry.file_type().is_ok_and(|kind| kind.is_dir()) {
            std::fs::remove_dir_all(&path)
        } else {
            std::fs::remove_file(&path)
        };
    }
}

/// Whether a process runs with this id; where that cannot be told, it is taken
/// to run, so nothing is removed.
fn running(pid: u32) -> bool {
    let proc = Path::new("/proc");
    !proc.join("self").exists() || proc.join(pid.to_string()).exists()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_dead_processes_left_is_removed_and_nothing_else() {
        let dir = tempfile::tempdir().expect("a directory");
        let mut child = std::process::Command::new("true").spawn().expect("runs");
        let dead = child.id();
        child.wait().expect("ended");
        let ours = std::process::id();
        for name in [
            format!("fbc-unpack-{dead}-abc"),
            format!("fbc-unpack-{ours}-abc"),
            "fbc-unpack-1-abc".to_owned(),
            "fbc-unpack-x-abc".to_owned(),
            "other".to_owned(),
        ] {
            std::fs::create_dir(dir.path().join(&name)).expect("created");
            std::fs::write(dir.path().join(name).join("f"), "x").expect("written");
        }
        std::fs::write(dir.path().join(format!(".download-{dead}-q")), "x").expect("written");
        sweep(dir.path(), "fbc-unpack-", "");
        sweep(dir.path(), ".download-", "");
        std::fs::write(dir.path().join(format!(".fbc-{dead}-1-0.tmp")), "x").expect("written");
        std::fs::write(dir.path().join(format!(".fbc-{dead}-mine")), "x").expect("written");
        sweep(dir.path(), ".fbc-", ".tmp");
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .expect("listed")
            .map(|entry| {
                entry
                    .expect("an entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        left.sort();
        // pid 1 (init) runs; `x` is not a pid.
        let mut expected = vec![
            format!(".fbc-{dead}-mine"),
            "fbc-unpack-1-abc".to_owned(),
            format!("fbc-unpack-{ours}-abc"),
            "fbc-unpack-x-abc".to_owned(),
            "other".to_owned(),
        ];
        expected.sort();
        assert_eq!(left, expected);
    }
}
