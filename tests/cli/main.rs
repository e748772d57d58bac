//! End-to-end tests: run the real `fbc` binary and compare its output with expected
//! files in `testdata/` and with opm's own output for the shared corpus.

mod authoring;
mod bounded_reads;
mod build;
mod bundle;
mod diff;
mod fake_registry;
mod generate;
mod graph;
mod hostile;
mod image;
mod image_sources;
mod integrations;
mod pictures;
mod readme;
mod render;
mod resolve;
mod schemas;
mod serve;
mod template;
mod upgrade_path;
mod validate;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `fbc` binary with a plain-text environment.
pub(crate) fn fbc() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_fbc"));
    command
        .env("NO_COLOR", "1")
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    command
}

pub(crate) fn run(args: &[&str]) -> Output {
    fbc().args(args).output().expect("the fbc binary runs")
}

pub(crate) fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

pub(crate) fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("stderr is UTF-8")
}

/// A command that could not run: exit 2, nothing on stdout, `message` on stderr.
pub(crate) fn assert_refused(output: &Output, what: &str, message: &str) {
    assert_eq!(output.status.code(), Some(2), "{what}: {}", stderr(output));
    assert_eq!(stdout(output), "", "{what}");
    assert!(
        stderr(output).contains(message),
        "{what}: {}",
        stderr(output)
    );
}

pub(crate) fn testdata(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata")
        .join(path)
}

/// The fixture directories under `testdata/<kind>/`, sorted (there must be some).
pub(crate) fn fixture_dirs(kind: &str) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(testdata(kind))
        .unwrap_or_else(|error| panic!("testdata/{kind}: {error}"))
        .map(|entry| entry.expect("readable entry").path())
        .filter(|path| path.is_dir())
        .collect();
    dirs.sort();
    assert!(!dirs.is_empty(), "testdata/{kind} holds no fixtures");
    dirs
}

/// The file `<case>.<suffix>` next to a fixture directory (`with_extension` would
/// cut names such as `yaml-1.1-scalars` at their dot).
pub(crate) fn beside(case: &Path, suffix: &str) -> PathBuf {
    let name = case.file_name().expect("a fixture directory has a name");
    case.with_file_name(format!("{}.{suffix}", name.to_string_lossy()))
}

/// The shared corpus next to the checkout. Tests that read it are marked
/// `#[cfg_attr(fbc_no_corpus, ignore = ...)]`, which build.rs sets where it is absent
/// (and never under `CI`, where its absence fails them here).
pub(crate) fn corpus() -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    assert!(
        path.is_dir(),
        "this test needs ../shared/corpus next to the checkout (the shared reference corpus); \
         after adding it, `touch build.rs` so that the tests are built again"
    );
    path
}

/// Compares text with an expected file, showing the first differing line.
/// `FBC_BLESS=1` rewrites the expected file instead (review the diff before committing).
pub(crate) fn assert_matches_file(actual: &str, expected_path: &Path) {
    if std::env::var_os("FBC_BLESS").is_some() {
        std::fs::write(expected_path, actual).expect("expected file is writable");
        return;
    }
    let expected = std::fs::read_to_string(expected_path)
        .unwrap_or_else(|error| panic!("{}: {error}", expected_path.display()));
    assert_same_text(actual, &expected, &expected_path.display().to_string());
}

pub(crate) fn assert_same_text(actual: &str, expected: &str, what: &str) {
    if actual == expected {
        return;
    }
    let line = actual
        .lines()
        .zip(expected.lines())
        .position(|(a, e)| a != e);
    match line {
        Some(index) => panic!(
            "{what}: line {} differs\n  actual:   {:?}\n  expected: {:?}",
            index + 1,
            actual.lines().nth(index).unwrap_or_default(),
            expected.lines().nth(index).unwrap_or_default()
        ),
        None => panic!(
            "{what}: lengths differ: actual {} bytes / {} lines, expected {} bytes / {} lines",
            actual.len(),
            actual.lines().count(),
            expected.len(),
            expected.lines().count()
        ),
    }
}

/// Runs git in `dir` with a fixed identity; the command must succeed.
pub(crate) fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args(["-c", "user.name=fbc", "-c", "user.email=fbc@example.com"])
        .args(args)
        .current_dir(dir)
        .status()
        .expect("git runs");
    assert!(status.success(), "git {args:?}");
}

/// Copies a directory tree.
pub(crate) fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("readable") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).expect("copy");
        }
    }
}
