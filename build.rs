//! Build script: records the git commit the binary is built from, for `fbc --version`,
//! and which test prerequisites this machine has (see `test_prerequisites`).
//!
//! A source tarball has no `.git` and a build machine may have no `git`: both give
//! "unknown" rather than a failed build. Packagers can set `FBC_GIT_COMMIT` themselves.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=FBC_GIT_COMMIT");
    println!("cargo:rerun-if-changed=build.rs");
    let commit = std::env::var("FBC_GIT_COMMIT")
        .ok()
        .filter(|commit| !commit.is_empty())
        .or_else(|| git(&["rev-parse", "--short", "HEAD"]))
        .unwrap_or_else(|| "unknown".to_owned());
    watch_git_head();
    println!("cargo:rustc-env=FBC_GIT_COMMIT={commit}");
    test_prerequisites();
    fixture_cases();
    registry_api();
    function_order();
}

/// Release builds for `x86_64` Linux, which rustc links with rust-lld (from Rust
/// 1.90 on, unless another linker is named), place the functions that everyday
/// commands run side by side (`link/hot-functions.txt`, written by
/// `scripts/hot-functions.sh`): the kernel reads code into memory in blocks
/// around each page touched, so scattered code costs a render megabytes of memory.
/// `FBC_FUNCTION_ORDER=off` leaves the order to the linker (for a linker named in
/// a cargo configuration file, which a build script cannot see).
fn function_order() {
    println!("cargo:rerun-if-changed=link/hot-functions.txt");
    println!("cargo:rerun-if-env-changed=FBC_FUNCTION_ORDER");
    println!("cargo:rerun-if-env-changed=CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER");
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let list = Path::new(&var("CARGO_MANIFEST_DIR")).join("link/hot-functions.txt");
    let flags = var("CARGO_ENCODED_RUSTFLAGS");
    let other_linker = ["linker", "fuse-ld", "link-self-contained"]
        .iter()
        .any(|flag| flags.contains(flag))
        || !var("CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER").is_empty();
    if var("PROFILE") == "release"
        && var("TARGET") == "x86_64-unknown-linux-gnu"
        && var("FBC_FUNCTION_ORDER") != "off"
        && !other_linker
        && links_with_lld()
        && list.is_file()
    {
        println!(
            "cargo:rustc-link-arg-bins=-Wl,--symbol-ordering-file={}",
            list.display()
        );
        // Names a later build no longer has are skipped, not errors.
        println!("cargo:rustc-link-arg-bins=-Wl,--no-warn-symbol-ordering");
    }
}

/// Whether the compiler is Rust 1.90 or later, the first to link
/// `x86_64-unknown-linux-gnu` with rust-lld by default.
fn links_with_lld() -> bool {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let Ok(output) = Command::new(rustc).arg("--version").output() else {
        return false;
    };
    // `rustc 1.95.0 (59807616e 2026-04-14)`
    let version = String::from_utf8_lossy(&output.stdout);
    let mut numbers = version
        .split_whitespace()
        .nth(1)
        .unwrap_or_default()
        .split(['.', '-'])
        .map(|part| part.parse::<u32>().unwrap_or(0));
    let (major, minor) = (numbers.next().unwrap_or(0), numbers.next().unwrap_or(0));
    (major, minor) >= (1, 90)
}

/// The stubs of the API `fbc serve` answers (`proto/registry.proto`), and its
/// encoded descriptors for server reflection (`$OUT_DIR/registry.bin`). protox
/// compiles the file, so building needs no `protoc`.
fn registry_api() {
    use prost::Message as _;
    println!("cargo:rerun-if-changed=proto");
    let descriptors = match protox::compile(["registry.proto"], ["proto"]) {
        Ok(descriptors) => descriptors,
        Err(error) => panic!("proto/registry.proto: {error}"),
    };
    let out = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR");
    std::fs::write(
        Path::new(&out).join("registry.bin"),
        descriptors.encode_to_vec(),
    )
    .expect("OUT_DIR is writable");
    tonic_prost_build::configure()
        .build_client(false)
        .build_transport(false)
        .compile_fds(descriptors)
        .expect("the registry API's stubs are generated");
}

/// One test per fixture: for each `testdata/<kind>/` whose cases are checked one
/// by one, `$OUT_DIR/<kind>_cases.rs` holds a test per case directory, named after
/// it, calling `super::check("dir-name")`; the tests include it in a module, so
/// that a failure names its case and never hides the others. Adding a fixture
/// reruns this.
fn fixture_cases() {
    let Some(manifest) = std::env::var_os("CARGO_MANIFEST_DIR") else {
        return;
    };
    let Some(out) = std::env::var_os("OUT_DIR") else {
        return;
    };
    for kind in ["validate", "catalogs", "bundles"] {
        let dir = Path::new(&manifest).join("testdata").join(kind);
        println!("cargo:rerun-if-changed={}", dir.display());
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .filter(|entry| entry.path().is_dir())
                    .filter_map(|entry| entry.file_name().into_string().ok())
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        let mut text = String::new();
        for name in names {
            let mut function: String = name
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() {
                        c.to_ascii_lowercase()
                    } else {
                        '_'
                    }
                })
                .collect();
            if function.starts_with(|c: char| c.is_ascii_digit()) {
                function.insert_str(0, "case_");
            }
            let _ = writeln!(
                text,
                "#[test]\nfn {function}() {{\n    super::check({name:?});\n}}"
            );
        }
        let path = Path::new(&out).join(format!("{kind}_cases.rs"));
        if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            std::fs::write(&path, text).expect("OUT_DIR is writable");
        }
    }
}

/// Tests that need the shared corpus, docker-registry or pre-commit are marked
/// `ignored, needs ...` when this machine lacks them, so that cargo's summary shows
/// the skip instead of a pass. Under `CI` nothing is ignored: such a test runs and
/// fails, naming what to install.
fn test_prerequisites() {
    println!("cargo:rerun-if-env-changed=CI");
    let ci = std::env::var_os("CI").is_some();
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR").map(std::path::PathBuf::from);
    let corpus = manifest.map(|dir| dir.join("../shared/corpus"));
    let on_path = |program: &str| {
        std::env::var_os("PATH")
            .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(program).is_file()))
    };
    // The mermaid parser of the markdown pictures' test: node, and the npm packages
    // .ci/run installs (mermaid and jsdom) in FBC_MERMAID_DIR.
    println!("cargo:rerun-if-env-changed=FBC_MERMAID_DIR");
    let mermaid_dir = mermaid_dir();
    // The test asks the parser in the same directory.
    println!("cargo:rustc-env=FBC_MERMAID_DIR={}", mermaid_dir.display());
    let mermaid = mermaid_dir.join("node_modules/mermaid/package.json");
    let prerequisites = [
        (
            "fbc_no_corpus",
            corpus.as_ref().is_some_and(|dir| dir.is_dir()),
        ),
        (
            "fbc_no_registry",
            Path::new("/usr/bin/docker-registry").exists(),
        ),
        ("fbc_no_pre_commit", on_path("pre-commit")),
        ("fbc_no_skopeo", on_path("skopeo")),
        ("fbc_no_jq", on_path("jq")),
        ("fbc_no_mermaid", on_path("node") && mermaid.is_file()),
        // The SVG pictures' screenshot test (tests/cli/pictures.rs).
        ("fbc_no_chromium", on_path("chromium")),
        // The serve tests' client: Python's grpcio with its tools, health and
        // reflection packages (.ci/run installs them).
        (
            "fbc_no_grpcio",
            Command::new("python3")
                .args([
                    "-c",
                    "import grpc, grpc_tools, grpc_health.v1, grpc_reflection.v1alpha",
                ])
                .output()
                .is_ok_and(|output| output.status.success()),
        ),
        // The HTTP view's tests: curl asks, and Python's PyYAML reads the catalog.
        (
            "fbc_no_curl",
            on_path("curl")
                && Command::new("python3")
                    .args(["-c", "import yaml"])
                    .output()
                    .is_ok_and(|output| output.status.success()),
        ),
    ];
    for (cfg, present) in prerequisites {
        println!("cargo:rustc-check-cfg=cfg({cfg})");
        if !present && !ci {
            println!("cargo:rustc-cfg={cfg}");
        }
    }
    // Noticed when they appear: the corpus (the file every copy of it has), the
    // registry binary.
    if let Some(corpus) = corpus.filter(|dir| dir.is_dir()) {
        println!(
            "cargo:rerun-if-changed={}",
            corpus.join("PROVENANCE.md").display()
        );
    }
}

/// Where the tests find the mermaid npm package: `FBC_MERMAID_DIR`, else
/// `~/.cache/fbc-tests/mermaid` (tests/cli/diff.rs reads the same).
fn mermaid_dir() -> std::path::PathBuf {
    std::env::var_os("FBC_MERMAID_DIR")
        .filter(|dir| !dir.is_empty())
        .map_or_else(
            || {
                std::path::PathBuf::from(std::env::var_os("HOME").unwrap_or_default())
                    .join(".cache/fbc-tests/mermaid")
            },
            std::path::PathBuf::from,
        )
}

/// Asks cargo to rerun this script when HEAD moves: HEAD itself (a branch switch),
/// the branch's ref (a commit) and packed-refs (a ref packed by `git gc`). In a
/// worktree, HEAD lives in the worktree's git dir and refs in the common one.
fn watch_git_head() {
    let (Some(git_dir), Some(common_dir)) = (
        git(&["rev-parse", "--git-dir"]),
        git(&["rev-parse", "--git-common-dir"]),
    ) else {
        return;
    };
    let mut watched = vec![
        Path::new(&git_dir).join("HEAD"),
        Path::new(&common_dir).join("packed-refs"),
    ];
    if let Some(reference) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watched.push(Path::new(&common_dir).join(reference));
    }
    for path in watched.iter().filter(|path| path.exists()) {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}

/// The trimmed stdout of a successful git command run in the package directory.
fn git(args: &[&str]) -> Option<String> {
    let output = Command::new("git")
        .args(args)
        .current_dir(std::env::var_os("CARGO_MANIFEST_DIR")?)
        .output()
        .ok()?;
    let text = String::from_utf8(output.stdout).ok()?;
    let text = text.trim();
    (output.status.success() && !text.is_empty()).then(|| text.to_owned())
}
