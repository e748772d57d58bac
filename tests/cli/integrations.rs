//! The ready-made integrations: the GitHub Action's shell steps (`action/run.sh`, run
//! here with the files and variables GitHub Actions gives a step) and the pre-commit
//! hooks (`.pre-commit-hooks.yaml`, run by the real pre-commit).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

use crate::{copy_dir, git, testdata};

fn repository_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `PATH` with the fbc under test first.
fn path_with_fbc(extra: Option<&Path>) -> std::ffi::OsString {
    let fbc_dir = Path::new(env!("CARGO_BIN_EXE_fbc"))
        .parent()
        .expect("the binary has a directory")
        .to_path_buf();
    let mut dirs: Vec<PathBuf> = extra.into_iter().map(Path::to_path_buf).collect();
    dirs.push(fbc_dir);
    dirs.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(dirs).expect("a joinable PATH")
}

/// A step of the action: `action/run.sh STEP` in `dir`, with GitHub's files in `github`.
struct Step<'a> {
    dir: &'a Path,
    github: &'a Path,
}

impl Step<'_> {
    fn run(&self, step: &str, env: &[(&str, &str)], extra_path: Option<&Path>) -> Output {
        let mut command = Command::new(repository_root().join("action/run.sh"));
        command
            .arg(step)
            .current_dir(self.dir)
            .env("NO_COLOR", "1")
            .env("PATH", path_with_fbc(extra_path))
            .env("GITHUB_OUTPUT", self.github.join("output"))
            .env("GITHUB_PATH", self.github.join("path"))
            .env("GITHUB_STEP_SUMMARY", self.github.join("summary"));
        for (name, value) in env {
            command.env(name, value);
        }
        command.output().expect("bash runs the step")
    }

    fn file(&self, name: &str) -> String {
        std::fs::read_to_string(self.github.join(name)).unwrap_or_default()
    }

    /// `name=value` lines written to `$GITHUB_OUTPUT`, last one wins.
    fn output(&self, name: &str) -> Option<String> {
        self.file("output")
            .lines()
            .filter_map(|line| line.split_once('='))
            .filter(|(key, _)| *key == name)
            .map(|(_, value)| value.to_owned())
            .next_back()
    }
}

/// A repository whose `main` holds the example catalog and whose working tree holds
/// `change`'s edit of it.
fn catalog_repository(change: impl FnOnce(&Path)) -> tempfile::TempDir {
    let repo = tempfile::tempdir().expect("temporary directory");
    let root = repo.path();
    git(root, &["init", "-q", "-b", "main"]);
    copy_dir(&testdata("examples/hello-catalog"), &root.join("catalog"));
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "catalog"]);
    git(root, &["checkout", "-q", "-b", "pull-request"]);
    change(&root.join("catalog"));
    repo
}

/// The pull request drops the channel head, hello.v0.2.0: the catalog stays valid,
/// but installations of it are stranded.
fn drop_the_head(catalog: &Path) {
    let channel =
        "schema: olm.channel\npackage: hello\nname: stable\nentries:\n  - name: hello.v0.1.0\n";
    std::fs::write(catalog.join("hello/channel.yaml"), channel).expect("write");
    let bundles = std::fs::read_to_string(catalog.join("hello/bundles.yaml")).expect("read");
    let (kept, dropped) = bundles.rsplit_once("---\n").expect("two documents");
    assert!(dropped.contains("name: hello.v0.2.0"), "{dropped}");
    std::fs::write(catalog.join("hello/bundles.yaml"), kept).expect("write");
}

const STRICT_OFF: (&str, &str) = ("FBC_ACTION_STRICT", "false");

#[test]
fn the_action_validates_and_reports_the_diff_in_the_job_summary() {
    let repo = catalog_repository(drop_the_head);
    let github = tempfile::tempdir().expect("temporary directory");
    let step = Step {
        dir: repo.path(),
        github: github.path(),
    };
    let output = step.run(
        "check",
        &[
            ("FBC_ACTION_CATALOGS", "catalog\n"),
            ("FBC_ACTION_ALLOW", "image-not-pinned"),
            STRICT_OFF,
            ("FBC_ACTION_SARIF", "out/fbc.sarif"),
            ("FBC_ACTION_DIFF", "true"),
            ("FBC_ACTION_BASE", "main"),
        ],
        None,
    );
    let log = String::from_utf8_lossy(&output.stdout);
    // The step itself succeeds so that the SARIF upload can follow; `finish` fails.
    assert_eq!(
        output.status.code(),
        Some(0),
        "{log}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(step.output("validate-status").as_deref(), Some("0"));
    assert_eq!(step.output("diff-status").as_deref(), Some("1"));
    assert_eq!(step.output("status").as_deref(), Some("1"));
    assert_eq!(step.output("sarif-file").as_deref(), Some("out/fbc.sarif"));
    assert!(
        log.contains("::error title=fbc diff::the change breaks installations"),
        "{log}"
    );
    let summary = step.file("summary");
    assert!(
        summary.contains("fbc validate: every catalog is valid"),
        "{summary}"
    );
    // The markdown report of `fbc diff --base main catalog`.
    assert!(summary.contains("| `catalog` | changed |"), "{summary}");
    assert!(summary.contains("<details"), "{summary}");
    assert!(summary.contains("hello.v0.2.0"), "{summary}");
    let sarif: Value = serde_json::from_str(
        &std::fs::read_to_string(repo.path().join("out/fbc.sarif")).expect("the SARIF file"),
    )
    .expect("SARIF is JSON");
    assert_eq!(sarif["version"], "2.1.0");
    assert_eq!(
        sarif["runs"][0]["results"].as_array().map(Vec::len),
        Some(0)
    );

    let finish = step.run("finish", &[("FBC_ACTION_STATUS", "1")], None);
    assert_eq!(finish.status.code(), Some(1));
    let finish = step.run("finish", &[("FBC_ACTION_STATUS", "0")], None);
    assert_eq!(finish.status.code(), Some(0));
}

#[test]
fn the_action_annotates_an_invalid_catalog() {
    let repo = catalog_repository(|catalog| {
        std::fs::write(
            catalog.join("hello/extra.json"),
            "{\"schema\": \"olm.channel\", \"package\": \"hello\", \"name\": \"beta\", \"entries\": [{\"name\": \"hello.v9\"}]}\n",
        )
        .expect("write");
    });
    let github = tempfile::tempdir().expect("temporary directory");
    let step = Step {
        dir: repo.path(),
        github: github.path(),
    };
    // No diff asked: a branch without a base is fine.
    let output = step.run("check", &[("FBC_ACTION_CATALOGS", "catalog")], None);
    let log = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{log}");
    assert_eq!(step.output("validate-status").as_deref(), Some("1"));
    assert_eq!(step.output("diff-status").as_deref(), Some(""));
    assert_eq!(step.output("status").as_deref(), Some("1"));
    assert!(
        log.contains("::error file=catalog/hello/extra.json,line=1,col=1,"),
        "{log}"
    );
    let sarif: Value = serde_json::from_str(
        &std::fs::read_to_string(repo.path().join("fbc.sarif")).expect("SARIF"),
    )
    .expect("SARIF is JSON");
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    assert!(
        results.iter().any(|result| result["message"]["text"]
            .as_str()
            .is_some_and(|text| text.contains("hello.v9"))),
        "{results:#?}"
    );
    // A diff without a base to compare with is an error the step reports.
    let output = step.run(
        "check",
        &[
            ("FBC_ACTION_CATALOGS", "catalog"),
            ("FBC_ACTION_DIFF", "true"),
        ],
        None,
    );
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(step.output("diff-status").as_deref(), Some("2"));
    assert!(String::from_utf8_lossy(&output.stdout).contains("no base to diff against"));
}

#[test]
fn a_catalog_new_in_the_pull_request_has_nothing_to_diff() {
    let repo = catalog_repository(|catalog| {
        copy_dir(catalog, &catalog.with_file_name("catalog-v2"));
    });
    let github = tempfile::tempdir().expect("temporary directory");
    let step = Step {
        dir: repo.path(),
        github: github.path(),
    };
    let output = step.run(
        "check",
        &[
            ("FBC_ACTION_CATALOGS", "catalog catalog-v2"),
            ("FBC_ACTION_ALLOW", "image-not-pinned"),
            ("FBC_ACTION_DIFF_ALLOW", "head-removed bundle-changed"),
            ("FBC_ACTION_DIFF", "true"),
            ("FBC_ACTION_BASE", "main"),
        ],
        None,
    );
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        step.output("status").as_deref(),
        Some("0"),
        "{}",
        step.file("summary")
    );
    assert!(
        step.file("summary").contains("| `catalog-v2` | added |"),
        "{}",
        step.file("summary")
    );
}

#[test]
fn a_catalog_replaced_by_a_link_to_a_renamed_directory_is_compared_with_its_path() {
    // The pull request moves the catalog, drops its head and leaves a link behind:
    // the base's `catalog` must be compared, not the link's new target.
    let repo = catalog_repository(|catalog| {
        drop_the_head(catalog);
        std::fs::rename(catalog, catalog.with_file_name("renamed")).expect("rename");
        std::os::unix::fs::symlink("renamed", catalog).expect("a link");
    });
    let github = tempfile::tempdir().expect("temporary directory");
    let step = Step {
        dir: repo.path(),
        github: github.path(),
    };
    let output = step.run(
        "check",
        &[
            ("FBC_ACTION_CATALOGS", "catalog"),
            ("FBC_ACTION_ALLOW", "image-not-pinned"),
            ("FBC_ACTION_DIFF", "true"),
            ("FBC_ACTION_BASE", "main"),
        ],
        None,
    );
    let log = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{log}");
    assert_eq!(step.output("diff-status").as_deref(), Some("1"), "{log}");
    assert!(
        step.file("summary").contains("| `catalog` | changed |"),
        "{}",
        step.file("summary")
    );

    // A link that leads out of the repository is refused, read neither by
    // validate nor by diff.
    let outside = tempfile::tempdir().expect("temporary directory");
    copy_dir(
        &testdata("examples/hello-catalog"),
        &outside.path().join("c"),
    );
    std::os::unix::fs::symlink(outside.path().join("c"), repo.path().join("out")).expect("a link");
    let output = step.run("check", &[("FBC_ACTION_CATALOGS", "out")], None);
    let log = String::from_utf8_lossy(&output.stdout);
    assert_eq!(step.output("status").as_deref(), Some("2"), "{log}");
    assert!(log.contains("`out` leads outside the repository"), "{log}");
}

#[test]
fn the_action_s_inputs_are_paths_and_values_never_options() {
    let repo = catalog_repository(drop_the_head);
    let github = tempfile::tempdir().expect("temporary directory");
    let step = Step {
        dir: repo.path(),
        github: github.path(),
    };
    // `--help` as a catalog made fbc print its help and exit 0: a green check.
    let output = step.run(
        "check",
        &[
            ("FBC_ACTION_CATALOGS", "--help"),
            ("FBC_ACTION_DIFF", "true"),
            ("FBC_ACTION_BASE", "main"),
        ],
        None,
    );
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(step.output("validate-status").as_deref(), Some("2"));
    assert_eq!(step.output("status").as_deref(), Some("2"));
    // An option among the allowed lints is an unknown lint, not an option.
    let output = step.run(
        "check",
        &[
            ("FBC_ACTION_CATALOGS", "catalog"),
            ("FBC_ACTION_ALLOW", "--help"),
        ],
        None,
    );
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(step.output("status").as_deref(), Some("2"));
}

/// The `build` input: each `DIR=REF` built and pushed (the registry reached as
/// registries.conf says), the digests in the output; an input that is not
/// `DIR=REF`, or an option, builds nothing.
#[test]
#[cfg_attr(fbc_no_registry, ignore = "needs docker-registry")]
fn the_action_builds_and_pushes_catalog_images() {
    let registry = crate::image::start_registry();
    let repo = catalog_repository(|_| {});
    let github = tempfile::tempdir().expect("temporary directory");
    let conf = github.path().join("registries.conf");
    std::fs::write(
        &conf,
        format!(
            "[[registry]]\nlocation = \"{}\"\ninsecure = true\n",
            registry.address
        ),
    )
    .expect("written");
    let step = Step {
        dir: repo.path(),
        github: github.path(),
    };
    let base = format!(
        "oci:{}:v0.3.0",
        testdata("examples/hello-bundle-oci").display()
    );
    let reference = format!("{}/example/catalog:v1", registry.address);
    let conf = conf.to_str().expect("UTF-8 path");
    let run = |build: &str| {
        step.run(
            "build",
            &[
                ("FBC_ACTION_BUILD", build),
                ("FBC_ACTION_BUILD_BASE", &base),
                ("CONTAINERS_REGISTRIES_CONF", conf),
            ],
            None,
        )
    };
    let output = run(&format!("\n  catalog={reference}\n"));
    assert!(output.status.success(), "{}", crate::stderr(&output));
    let digests = step.output("digests").expect("the digests");
    assert!(
        digests.starts_with(&format!("{reference}@sha256:")),
        "{digests}"
    );
    let rendered = crate::fbc()
        .args(["render", &reference, "--use-http"])
        .output()
        .expect("runs");
    assert_eq!(
        crate::stdout(&rendered),
        crate::stdout(&crate::run(&["render", "testdata/examples/hello-catalog"]))
    );
    for bad in ["catalog", "--help=x", "../out=x"] {
        let output = run(bad);
        assert_eq!(output.status.code(), Some(2), "{bad}");
    }
}

#[test]
fn the_action_installs_with_cargo_once_then_from_the_cache() {
    let home = tempfile::tempdir().expect("temporary directory");
    let github = tempfile::tempdir().expect("temporary directory");
    // A stand-in for cargo that records its arguments and installs a binary.
    let tools = home.path().join("tools");
    std::fs::create_dir(&tools).expect("mkdir");
    let cargo = tools.join("cargo");
    std::fs::write(
        &cargo,
        "#!/bin/sh\necho \"$@\" >> \"$HOME/cargo-calls\"\nwhile [ \"$1\" != --root ]; do shift; done\nmkdir -p \"$2/bin\"\nprintf '#!/bin/sh\\necho fbc 0.0.0\\n' > \"$2/bin/fbc\"\nchmod +x \"$2/bin/fbc\"\n",
    )
    .expect("write");
    std::fs::set_permissions(&cargo, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("chmod");
    let step = Step {
        dir: home.path(),
        github: github.path(),
    };
    let key = step.run("key", &[], None);
    assert_eq!(key.status.code(), Some(0));
    let key = step.output("key").expect("a key");
    assert!(key.starts_with("fbc-Linux-"), "{key}");
    assert_eq!(key.rsplit('-').next().map(str::len), Some(16), "{key}");

    let root = format!("~/.cache/fbc-action/{key}");
    let env = [
        ("HOME", home.path().to_str().expect("UTF-8")),
        ("FBC_ACTION_ROOT", root.as_str()),
    ];
    for _ in 0..2 {
        let output = step.run("install", &env, Some(&tools));
        assert_eq!(
            output.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let calls = std::fs::read_to_string(home.path().join("cargo-calls")).expect("cargo ran");
    let expanded = home.path().join(".cache/fbc-action").join(&key);
    assert_eq!(
        calls,
        format!(
            "install --locked --path {} --root {}\n",
            repository_root().display(),
            expanded.display()
        ),
        "cargo runs once; the second install comes from the cache"
    );
    let path = step.file("path");
    let bin = expanded.join("bin").display().to_string();
    assert_eq!(
        path.lines().collect::<Vec<_>>(),
        [bin.as_str(), bin.as_str()]
    );
}

/// Fails unless `program --version` runs. Tests that need a program are marked
/// `#[cfg_attr(fbc_no_..., ignore = ...)]` by build.rs where it is missing (never
/// under `CI`, where its absence fails here).
fn require(program: &str, install: &str) {
    let found = Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success());
    assert!(
        found,
        "{program} is not installed ({install}); after installing it, `touch build.rs` so \
         that the tests are built again"
    );
}

/// This checkout's files (committed or not, without ignored ones) as a new git
/// repository: what pre-commit clones as the hook repository.
fn hook_repository() -> (tempfile::TempDir, String) {
    let copy = tempfile::tempdir().expect("temporary directory");
    let files = Command::new("git")
        .args([
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
        ])
        .current_dir(repository_root())
        .output()
        .expect("git runs");
    for name in files
        .stdout
        .split(|byte| *byte == 0)
        .filter(|name| !name.is_empty())
    {
        let name = std::str::from_utf8(name).expect("UTF-8 file names");
        let from = repository_root().join(name);
        if !from.is_file() {
            continue; // deleted in the working tree
        }
        let to = copy.path().join(name);
        std::fs::create_dir_all(to.parent().expect("a parent")).expect("mkdir");
        std::fs::copy(&from, &to).expect("copy");
    }
    git(copy.path(), &["init", "-q", "-b", "main"]);
    git(copy.path(), &["add", "-A"]);
    git(copy.path(), &["commit", "-q", "-m", "fbc"]);
    let head = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(copy.path())
        .output()
        .expect("git runs");
    let head = String::from_utf8(head.stdout)
        .expect("a hash")
        .trim()
        .to_owned();
    (copy, head)
}

/// `pre-commit run --all-files` in `dir`: its exit status and everything it printed.
///
/// pre-commit installs a `language: rust` hook with `cargo install --bins --root ENV
/// --path .` in its clone of the hook repository. A real install is a second build of
/// fbc and its dependencies (minutes on 2 cores), so a stand-in `cargo` found first on
/// `PATH` answers instead: it writes down how it was asked, checks that it was asked
/// in a checkout of fbc, and puts the fbc under test in `ENV/bin`. Everything else
/// (the clone, the hook definitions, the runs) is pre-commit's own.
fn pre_commit(dir: &Path, home: &Path) -> (Option<i32>, String) {
    let tools = home.join("tools");
    std::fs::create_dir_all(&tools).expect("mkdir");
    let asked = home.join("cargo-asked");
    let cargo = tools.join("cargo");
    std::fs::write(
        &cargo,
        format!(
            r#"#!/bin/sh
set -eu
echo "$*" >> '{asked}'
case "$1" in
  --version) echo 'cargo 1.0.0 (stand-in)'; exit 0 ;;
  install) ;;
  *) echo "stand-in cargo: unexpected $*" >&2; exit 1 ;;
esac
[ "$2 $3 $5 $6" = '--bins --root --path .' ] || {{ echo "stand-in cargo: unexpected $*" >&2; exit 1; }}
grep -q '^name = "fbc"$' Cargo.toml
mkdir -p "$4/bin"
cp '{fbc}' "$4/bin/fbc"
"#,
            asked = asked.display(),
            fbc = env!("CARGO_BIN_EXE_fbc"),
        ),
    )
    .expect("write");
    std::fs::set_permissions(&cargo, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("chmod");
    let mut path = vec![tools];
    path.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    let output = Command::new("pre-commit")
        .args(["run", "--all-files", "--color", "never"])
        .current_dir(dir)
        .env("PRE_COMMIT_HOME", home)
        .env("PATH", std::env::join_paths(path).expect("a joinable PATH"))
        .output()
        .expect("pre-commit runs");
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let asked = std::fs::read_to_string(&asked).unwrap_or_default();
    (
        output.status.code(),
        format!("{log}\ncargo was asked:\n{asked}"),
    )
}

#[test]
#[cfg_attr(fbc_no_pre_commit, ignore = "needs pre-commit")]
fn the_pre_commit_hooks_validate_diff_and_check_templates() {
    require("pre-commit", "pip install pre-commit");
    let (hooks, head) = hook_repository();
    let home = tempfile::tempdir().expect("temporary directory");
    let repo = tempfile::tempdir().expect("temporary directory");
    let root = repo.path();
    git(root, &["init", "-q", "-b", "main"]);
    copy_dir(&testdata("examples/hello-catalog"), &root.join("catalog"));
    // The semver template names its bundle as an OCI layout relative to the top.
    copy_dir(
        &testdata("examples/hello-bundle-oci"),
        &root.join("testdata/examples/hello-bundle-oci"),
    );
    std::fs::copy(
        testdata("examples/hello-semver.yaml"),
        root.join("hello-semver.yaml"),
    )
    .expect("copy");
    let rendered = crate::fbc()
        .args([
            "alpha",
            "render-template",
            "hello-semver.yaml",
            "-o",
            "yaml",
        ])
        .current_dir(root)
        .output()
        .expect("fbc runs");
    assert_eq!(
        rendered.status.code(),
        Some(0),
        "{}",
        crate::stderr(&rendered)
    );
    std::fs::create_dir(root.join("hello")).expect("mkdir");
    std::fs::write(root.join("hello/catalog.yaml"), &rendered.stdout).expect("write");
    let config = format!(
        "repos:\n- repo: {}\n  rev: {head}\n  hooks:\n  - id: fbc-validate\n    args: [catalog, --allow, image-not-pinned]\n  - id: fbc-template-check\n    args: [hello-semver.yaml, --check, hello/catalog.yaml]\n  - id: fbc-diff\n    args: [catalog]\n",
        hooks.path().display()
    );
    std::fs::write(root.join(".pre-commit-config.yaml"), config).expect("write");
    git(root, &["add", "-A"]);
    // The diff hook compares with HEAD.
    git(root, &["commit", "-q", "-m", "catalogs"]);

    let (status, log) = pre_commit(root, home.path());
    assert_eq!(status, Some(0), "{log}");
    assert!(
        log.contains("fbc validate") && log.contains("Passed"),
        "{log}"
    );
    assert!(log.contains("fbc template drift check"), "{log}");
    assert!(log.contains("fbc diff"), "{log}");
    // The three hooks share one environment, installed once from the hook repository.
    assert_eq!(log.matches("install --bins --root").count(), 1, "{log}");

    // A hand edit of the rendered catalog and a broken channel: every hook fails.
    let catalog = std::fs::read_to_string(root.join("hello/catalog.yaml")).expect("read");
    std::fs::write(
        root.join("hello/catalog.yaml"),
        catalog.replace("Says hello.", "Says hi."),
    )
    .expect("write");
    std::fs::write(
        root.join("catalog/hello/channel.yaml"),
        "schema: olm.channel\npackage: hello\nname: stable\nentries:\n  - name: hello.v0.1.0\n  - name: hello.v0.2.0\n",
    )
    .expect("write");
    git(root, &["add", "-A"]);
    let (status, log) = pre_commit(root, home.path());
    assert_eq!(status, Some(1), "{log}");
    assert!(
        log.contains("multiple channel heads found in graph"),
        "{log}"
    );
    assert!(log.contains("+description: Says hello."), "{log}");
    assert!(
        log.contains("1 catalog(s): 1 changed: the change breaks installations in catalog"),
        "{log}"
    );
    assert_eq!(log.matches("Failed").count(), 3, "{log}");
}
