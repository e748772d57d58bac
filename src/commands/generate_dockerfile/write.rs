//! Where `generate dockerfile` writes: opm's cleaning of the directory and the
//! Dockerfile's name beside it.

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
}
