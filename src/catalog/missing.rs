//! A reference that is neither an existing path nor an image: what the user most
//! likely meant (a mistyped directory, or an image without its registry).

use std::path::{Component, Path, PathBuf};

/// Why a missing path cannot be an image, and what could fix it.
#[derive(Debug)]
pub(crate) enum Hint {
    /// An existing path one or two keystrokes away.
    Similar(PathBuf),
    /// `name:tag` or `org/name@digest`: an image named without its registry.
    ImageWithoutRegistry,
    /// Nothing better to say than what the command takes (`references`: images and
    /// bundle directories too).
    Nothing { references: bool },
}

impl std::fmt::Display for Hint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Similar(path) => write!(
                f,
                "did you mean `{}`?",
                crate::text::shown::path(path, crate::text::shown::Form::Text)
            ),
            Self::ImageWithoutRegistry => f.write_str(
                "to use an image, give its whole reference with the registry host, e.g. \
                 `quay.io/ORG/NAME:TAG` or `docker.io/library/NAME:TAG` (opm: repository \
                 name must be canonical)",
            ),
            Self::Nothing { references: true } => f.write_str(
                "give a catalog directory, a bundle directory, or an image reference with \
                 its registry host (`quay.io/ORG/NAME:TAG`)",
            ),
            Self::Nothing { references: false } => {
                f.write_str("give the directory that holds the catalog")
            }
        }
    }
}

/// The hint for a path that does not exist, given to a command that also takes
/// image references (or not).
pub(crate) fn hint(path: &Path, references: bool) -> Hint {
    if let Some(similar) = similar(path) {
        return Hint::Similar(similar);
    }
    let text = path.to_string_lossy();
    let plain = !text.starts_with(['.', '/', '~']) && !text.contains("//");
    let tagged = text.contains('@')
        || text
            .rsplit('/')
            .next()
            .is_some_and(|last| last.contains(':'));
    if references && plain && tagged && text.parse::<oci_client::Reference>().is_ok() {
        Hint::ImageWithoutRegistry
    } else {
        Hint::Nothing { references }
    }
}

/// The existing path whose every missing component is replaced by the nearest name
/// in its directory (an edit or two away), when there is one.
fn similar(path: &Path) -> Option<PathBuf> {
    let mut found = PathBuf::new();
    let mut changed = false;
    for component in path.components() {
        let Component::Normal(name) = component else {
            found.push(component);
            continue;
        };
        let candidate = found.join(name);
        if candidate.symlink_metadata().is_ok() {
            found = candidate;
            continue;
        }
        let directory = if found.as_os_str().is_empty() {
            Path::new(".")
        } else {
            found.as_path()
        };
        let wanted = name.to_str()?;
        // Short names are near too many others to guess.
        if wanted.chars().count() < 4 {
            return None;
        }
        let nearest = std::fs::read_dir(directory)
            .ok()?
            .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
            .map(|entry| (edit_distance(wanted, &entry), entry))
            .filter(|(distance, _)| *distance <= (wanted.chars().count() / 4).clamp(1, 2))
            .min()?;
        found.push(nearest.1);
        changed = true;
    }
    changed.then_some(found)
}

/// Levenshtein distance between two short names.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current.push(substitution.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(edit_distance("exmples", "examples"), 1);
        assert_eq!(edit_distance("catalog", "catalog"), 0);
        assert_eq!(edit_distance("abc", "xyz"), 3);
    }

    #[test]
    fn a_mistyped_directory_is_found() {
        let root = tempfile::tempdir().expect("temporary directory");
        std::fs::create_dir_all(root.path().join("testdata/examples/hello-catalog"))
            .expect("mkdir");
        let typo = root.path().join("testdata/exmples/hello-catalg");
        match hint(&typo, true) {
            Hint::Similar(path) => {
                assert_eq!(path, root.path().join("testdata/examples/hello-catalog"));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            hint(&root.path().join("nothing/like/it"), false),
            Hint::Nothing { references: false }
        ));
    }

    #[test]
    fn images_without_a_registry_are_named() {
        let digest = format!("name@sha256:{}", "a".repeat(64));
        for reference in ["hello-catalog:latest", "org/name:v1", &digest] {
            let hint = hint(Path::new(reference), true);
            assert!(
                matches!(hint, Hint::ImageWithoutRegistry),
                "{reference}: {hint:?}"
            );
        }
        assert!(matches!(
            hint(Path::new("./catalog:v1"), true),
            Hint::Nothing { references: true }
        ));
        // validate takes directories only: no word of images.
        assert!(matches!(
            hint(Path::new("hello-catalog:latest"), false),
            Hint::Nothing { references: false }
        ));
    }
}
