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

/// A deterministic source of choices for generated test cases: each call gives a
/// number below its bound (a linear congruential generator; one seed, one run).
pub(crate) fn choices(seed: u64) -> impl FnMut(usize) -> usize {
    let mut state = seed;
    move |bound| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        usize::try_from(state >> 33).expect("31 bits") % bound
    }
}
