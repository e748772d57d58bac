//! What the unit tests share.

use std::path::PathBuf;

/// A folder of the shared corpus (`../shared/corpus`); `None`, with a note, when
/// the corpus is missing outside CI (under CI the test fails: it needs it).
pub(crate) fn corpus(folder: &str) -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if !root.is_dir() {
        assert!(
            std::env::var_os("CI").is_none(),
            "corpus not found at {}",
            root.display()
        );
        eprintln!("SKIPPED: corpus not found at {}", root.display());
        return None;
    }
    Some(root.join(folder))
}
