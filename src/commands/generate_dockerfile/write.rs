//! Paths and the one write `generate dockerfile` makes: a new file, complete or absent.

use std::io::Write as _;
use std::path::{Component, Path, PathBuf};

/// Go's `filepath.Clean`, lexically: no `.` parts, `a/..` pairs removed, no trailing
/// separator, `.` for an empty result. opm cleans the directory before naming the file.
pub(crate) fn clean(path: &Path) -> PathBuf {
    let mut parts: Vec<Component<'_>> = Vec::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => match parts.last() {
                Some(Component::Normal(_)) => {
                    parts.pop();
                }
                // `/..` is `/`.
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => parts.push(component),
            },
            _ => parts.push(component),
        }
    }
    if parts.is_empty() {
        return PathBuf::from(".");
    }
    parts.iter().collect()
}

/// `<dir>.Dockerfile` beside a cleaned directory, and the directory's last name (what the
/// Dockerfile `ADD`s). `None` for a root, which has no name.
pub(crate) fn dockerfile_beside(directory: &Path) -> Option<(PathBuf, &std::ffi::OsStr)> {
    let name = match directory.components().next_back()? {
        Component::Normal(name) => name,
        Component::CurDir => ".".as_ref(),
        Component::ParentDir => "..".as_ref(),
        Component::RootDir | Component::Prefix(_) => return None,
    };
    let mut file_name = name.to_os_string();
    file_name.push(".Dockerfile");
    let parent = directory.parent().unwrap_or(Path::new(""));
    Some((parent.join(file_name), name))
}

/// Writes `contents` to a new file at `path`, never replacing anything there: the text
/// goes to a temporary file beside it, which is then renamed without replacement. On
/// any error nothing is left behind. The file gets mode 0666 less the umask, as opm's.
pub(crate) fn write_new(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let directory = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let (mut file, temporary) = create_temporary(directory)?;
    let _interrupt = crate::interrupt::remove_on_interrupt(&temporary);
    file.write_all(contents)?;
    file.sync_all()?;
    drop(file);
    // Renames with RENAME_NOREPLACE, or links then unlinks where that is missing.
    temporary
        .persist_noclobber(path)
        .map_err(|error| error.error)
}

/// A new, uniquely named file in `directory`, removed again when the handle is dropped.
/// Made here rather than by `tempfile::Builder`, whose errors name the temporary path
/// instead of keeping the operating system's own error.
fn create_temporary(directory: &Path) -> std::io::Result<(std::fs::File, tempfile::TempPath)> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_matches_go_filepath_clean() {
        for (input, expected) in [
            ("catalog/", "catalog"),
            ("./catalog", "catalog"),
            ("a//b/./c/..", "a/b"),
            ("a/../..", ".."),
            ("../../x", "../../x"),
            ("/..", "/"),
            ("/a/b/", "/a/b"),
            ("", "."),
            ("./", "."),
        ] {
            assert_eq!(clean(Path::new(input)), Path::new(expected), "{input:?}");
        }
    }

    #[test]
    fn the_dockerfile_is_a_sibling_named_after_the_directory() {
        let beside = |input: &str| {
            dockerfile_beside(&clean(Path::new(input)))
                .map(|(path, name)| (path, name.to_string_lossy().into_owned()))
        };
        assert_eq!(
            beside("catalog"),
            Some((PathBuf::from("catalog.Dockerfile"), "catalog".to_owned()))
        );
        assert_eq!(
            beside("/a/b/catalog/"),
            Some((
                PathBuf::from("/a/b/catalog.Dockerfile"),
                "catalog".to_owned()
            ))
        );
        assert_eq!(
            beside("."),
            Some((PathBuf::from("..Dockerfile"), ".".to_owned()))
        );
        assert_eq!(
            beside("../x/.."),
            Some((PathBuf::from("...Dockerfile"), "..".to_owned()))
        );
        assert_eq!(beside("/"), None);
    }

    #[test]
    fn write_new_creates_the_file_and_leaves_no_temporary() {
        let directory = tempfile::tempdir().expect("temporary directory");
        let path = directory.path().join("catalog.Dockerfile");
        write_new(&path, b"FROM x\n").expect("the file is new");
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
    fn write_new_never_replaces_and_cleans_up_after_itself() {
        let directory = tempfile::tempdir().expect("temporary directory");
        let path = directory.path().join("catalog.Dockerfile");
        std::fs::write(&path, "mine").expect("writable");
        let error = write_new(&path, b"FROM x\n").expect_err("the file exists");
        assert_eq!(error.kind(), std::io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read_to_string(&path).expect("kept"), "mine");
        assert_eq!(
            std::fs::read_dir(directory.path())
                .expect("listable")
                .count(),
            1
        );
    }
}
