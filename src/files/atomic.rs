//! Files written whole or not at all: the contents go to a temporary file beside the
//! target, which is then renamed into place, and removed on any error or Ctrl-C.

use std::io::Write as _;
use std::path::Path;

/// Writes `contents` to a new file at `path`, never replacing anything there (the
/// rename is done with `RENAME_NOREPLACE`, or a link then an unlink where that is
/// missing). On any error nothing is left behind.
pub(crate) fn create_new(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    write_then_rename(
        path,
        |file| file.write_all(contents),
        |temporary| temporary.persist_noclobber(path),
    )
}

/// Writes `contents` to `path`, replacing what is there in one rename: a reader
/// sees the old file or the whole new one. On any error nothing is left behind.
pub(crate) fn replace(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    replace_with(path, |file| file.write_all(contents))
}

/// [`replace`] with contents that `write` writes to the file, as they come.
pub(crate) fn replace_with(
    path: &Path,
    write: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    write_then_rename(path, write, |temporary| temporary.persist(path))
}

/// Writes a temporary file beside `path` (mode 0666 less the umask, as opm's files)
/// and hands it to `rename`; the file is removed on error and on Ctrl-C.
fn write_then_rename(
    path: &Path,
    write: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
    rename: impl FnOnce(tempfile::TempPath) -> Result<(), tempfile::PathPersistError>,
) -> std::io::Result<()> {
    let (mut file, temporary) = create_temporary(parent(path))?;
    let _interrupt = crate::process::interrupt::remove_on_interrupt(&temporary);
    write(&mut file)?;
    file.sync_all()?;
    drop(file);
    rename(temporary).map_err(|error| error.error)
}

/// A new, uniquely named file in `directory`, removed again when the handle is dropped.
/// Made here rather than by `tempfile::Builder`, whose errors name the temporary path
/// instead of keeping the operating system's own error.
fn create_temporary(directory: &Path) -> std::io::Result<(std::fs::File, tempfile::TempPath)> {
    crate::files::stale::sweep(directory, ".fbc-", ".tmp");
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.subsec_nanos());
    let mut attempt = 0_u32;
    loop {
        let name = format!(".fbc-{}-{seed:x}-{attempt}.tmp", std::process::id());
        let candidate = directory.join(name);
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o666);
        match options.open(&candidate) {
            Ok(file) => {
                return match tempfile::TempPath::try_from_path(&candidate) {
                    Ok(temporary) => Ok((file, temporary)),
                    Err(error) => {
                        let _ = std::fs::remove_file(&candidate);
                        Err(error)
                    }
                };
            }
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists && attempt < 100 => {
                attempt += 1;
            }
            Err(error) => return Err(error),
        }
    }
}

fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn create_new_creates_the_file_and_leaves_no_temporary() {
        let directory = tempfile::tempdir().expect("temporary directory");
        let path = directory.path().join("catalog.Dockerfile");
        create_new(&path, b"FROM x\n").expect("the file is new");
        assert_eq!(std::fs::read(&path).expect("written"), b"FROM x\n");
        let names: Vec<_> = std::fs::read_dir(directory.path())
            .expect("listable")
            .map(|entry| entry.expect("entry").file_name())
            .collect();
        assert_eq!(names, ["catalog.Dockerfile"]);
    }

    /// The race the caller's existence check cannot close: a file appearing in between
    /// is kept, and the temporary file is removed.
    #[test]
    fn create_new_never_replaces_and_cleans_up_after_itself() {
        let directory = tempfile::tempdir().expect("temporary directory");
        let path = directory.path().join("catalog.Dockerfile");
        std::fs::write(&path, "mine").expect("writable");
        let error = create_new(&path, b"FROM x\n").expect_err("the file exists");
        assert_eq!(error.kind(), std::io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read_to_string(&path).expect("kept"), "mine");
        assert_eq!(
            std::fs::read_dir(directory.path())
                .expect("listable")
                .count(),
            1
        );
    }

    #[test]
    fn replace_swaps_the_whole_file_and_leaves_no_temporary() {
        let directory = tempfile::tempdir().expect("temporary directory");
        let path = directory.path().join("fbc.1");
        std::fs::write(&path, "old").expect("writable");
        replace(&path, b"new").expect("replaced");
        assert_eq!(std::fs::read_to_string(&path).expect("written"), "new");
        assert_eq!(
            std::fs::read_dir(directory.path())
                .expect("listable")
                .count(),
            1
        );
        let error =
            replace(&directory.path().join("missing/fbc.1"), b"x").expect_err("no such directory");
        assert_eq!(error.kind(), std::io::ErrorKind::NotFound);
    }
}
