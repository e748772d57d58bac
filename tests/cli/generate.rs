//! `fbc generate dockerfile` against opm's text, its refusals and its atomic write;
//! `--version`; and the committed completions and man pages against the binary.
//!
//! The expected Dockerfiles in testdata/dockerfile/ are opm's own test expectations
//! (`alpha/action/generate_dockerfile_test.go`) with these cases' images and names.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::{assert_matches_file, fbc, run, stderr, stdout, testdata};

/// A scratch directory holding an empty catalog directory `catalog/`.
fn workspace() -> tempfile::TempDir {
    let workspace = tempfile::tempdir().expect("temporary directory");
    std::fs::create_dir(workspace.path().join("catalog")).expect("catalog directory");
    workspace
}

fn generate_in(workspace: &Path, args: &[&str]) -> Output {
    fbc()
        .current_dir(workspace)
        .args(["generate", "dockerfile"])
        .args(args)
        .output()
        .expect("the fbc binary runs")
}

fn names_in(directory: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(directory)
        .expect("listable")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

#[test]
fn dockerfiles_match_opms_text() {
    let cases: [(&str, &[&str]); 5] = [
        ("default", &["catalog"]),
        (
            "custom-images",
            &[
                "catalog/",
                "-i",
                "quay.io/example/base:v1",
                "--builder-image",
                "quay.io/example/builder:v1",
            ],
        ),
        (
            "scratch",
            &[
                "catalog",
                "--base-image",
                "scratch",
                "-l",
                "key2=value2,key1=value1",
            ],
        ),
        (
            "labels",
            &[
                "./catalog",
                "-l",
                "zeta=last",
                "--extra-labels",
                "alpha=1,beta=x=y",
                "-l",
                "\"desc=a, b\"",
                "-l",
                "alpha=2",
            ],
        ),
        (
            "binary-image",
            &["catalog", "--binary-image", "quay.io/example/old:v1"],
        ),
    ];
    for (case, args) in cases {
        let workspace = workspace();
        let output = generate_in(workspace.path(), args);
        assert_eq!(output.status.code(), Some(0), "{case}: {}", stderr(&output));
        assert_eq!(stdout(&output), "", "{case}");
        let written = std::fs::read_to_string(workspace.path().join("catalog.Dockerfile"))
            .unwrap_or_else(|error| panic!("{case}: {error}"));
        assert_matches_file(
            &written,
            &testdata(&format!("dockerfile/{case}.Dockerfile")),
        );
        assert_eq!(
            names_in(workspace.path()),
            ["catalog", "catalog.Dockerfile"],
            "{case}"
        );
    }
}

#[test]
fn binary_image_warns_that_it_is_deprecated() {
    let workspace = workspace();
    let output = generate_in(
        workspace.path(),
        &["catalog", "--binary-image", "x", "-o", "-"],
    );
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        stderr(&output),
        "warning: flag --binary-image has been deprecated, use --base-image instead\n"
    );
    let both = generate_in(
        workspace.path(),
        &["catalog", "--binary-image", "x", "-i", "y"],
    );
    assert_eq!(both.status.code(), Some(2), "{}", stderr(&both));
    assert!(
        stderr(&both).contains("cannot be used with"),
        "{}",
        stderr(&both)
    );
}

#[test]
fn the_file_lands_beside_a_nested_directory_named_after_it() {
    let workspace = workspace();
    let nested = workspace.path().join("a/b/index");
    std::fs::create_dir_all(&nested).expect("nested directory");
    let output = generate_in(workspace.path(), &["a/./b/index/"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let written = std::fs::read_to_string(workspace.path().join("a/b/index.Dockerfile"))
        .expect("written beside the directory");
    assert!(written.contains("\nADD index /configs\n"), "{written}");
    // Where it went is said on stderr (opm says nothing).
    assert_eq!(stderr(&output), "wrote a/b/index.Dockerfile\n");
}

#[test]
fn output_dash_prints_the_dockerfile_and_writes_nothing() {
    let workspace = workspace();
    let output = generate_in(workspace.path(), &["catalog", "--output", "-"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_matches_file(&stdout(&output), &testdata("dockerfile/default.Dockerfile"));
    assert_eq!(names_in(workspace.path()), ["catalog"]);
}

/// `--runtime fbc`: the image runs `/fbc serve` on fbc's own image, by default
/// `fbc:latest`; other images are named as with opm's runtime.
#[test]
fn the_fbc_runtime_serves_with_fbc() {
    let workspace = workspace();
    let output = generate_in(
        workspace.path(),
        &["catalog", "--runtime", "fbc", "-o", "-"],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_matches_file(
        &stdout(&output),
        &testdata("dockerfile/fbc-runtime.Dockerfile"),
    );
    let output = generate_in(
        workspace.path(),
        &[
            "catalog",
            "--runtime=fbc",
            "-i",
            "registry.example.com/fbc:v1",
            "-o",
            "-",
        ],
    );
    let text = stdout(&output);
    assert!(text.contains("FROM fbc:latest as builder\n"), "{text}");
    assert!(
        text.contains("FROM registry.example.com/fbc:v1\n"),
        "{text}"
    );
}

#[test]
fn output_names_another_file() {
    let workspace = workspace();
    let output = generate_in(workspace.path(), &["catalog", "-o", "Containerfile"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let written = std::fs::read_to_string(workspace.path().join("Containerfile")).expect("written");
    assert_matches_file(&written, &testdata("dockerfile/default.Dockerfile"));
}

#[test]
fn an_existing_file_is_never_overwritten() {
    let workspace = workspace();
    let path = workspace.path().join("catalog.Dockerfile");
    std::fs::write(&path, "FROM mine\n").expect("writable");
    let output = generate_in(workspace.path(), &["catalog"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "error: path \"catalog.Dockerfile\": file already exists\n  \
         help: the Dockerfile is never overwritten: remove or rename it first, or choose \
         another file with `--output` (`-` for stdout)\n"
    );
    assert_eq!(std::fs::read_to_string(&path).expect("kept"), "FROM mine\n");
    assert_eq!(
        names_in(workspace.path()),
        ["catalog", "catalog.Dockerfile"]
    );
}

#[test]
fn a_directory_or_a_broken_link_in_the_way_is_an_existing_file() {
    let workspace = workspace();
    std::fs::create_dir(workspace.path().join("catalog.Dockerfile")).expect("directory");
    let output = generate_in(workspace.path(), &["catalog"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("file already exists"),
        "{}",
        stderr(&output)
    );
    assert!(names_in(&workspace.path().join("catalog.Dockerfile")).is_empty());

    #[cfg(unix)]
    {
        // Following the link would create its target: opm does, we refuse.
        let workspace = self::workspace();
        let link = workspace.path().join("catalog.Dockerfile");
        std::os::unix::fs::symlink("elsewhere", &link).expect("symlink");
        let output = generate_in(workspace.path(), &["catalog"]);
        assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
        assert!(!workspace.path().join("elsewhere").exists());
    }
}

#[test]
fn a_failed_write_leaves_no_file() {
    let workspace = workspace();
    let output = generate_in(
        workspace.path(),
        &["catalog", "-o", "missing/catalog.Dockerfile"],
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output)
            .starts_with("error: write missing/catalog.Dockerfile: no such file or directory\n"),
        "{}",
        stderr(&output)
    );
    assert_eq!(names_in(workspace.path()), ["catalog"]);
}

#[cfg(unix)]
#[test]
fn a_read_only_directory_gets_no_file() {
    use std::os::unix::fs::PermissionsExt as _;
    let workspace = workspace();
    let locked = workspace.path().join("locked");
    std::fs::create_dir_all(locked.join("catalog")).expect("directory");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).expect("chmod");
    // Permissions do not stop root (tests often run as root in containers).
    if std::fs::write(locked.join("probe"), "").is_ok() {
        eprintln!("skipped: this user can write into read-only directories (root?)");
        return;
    }
    let output = generate_in(workspace.path(), &["locked/catalog"]);
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("permission denied"),
        "{}",
        stderr(&output)
    );
    assert_eq!(names_in(&locked), ["catalog"]);
}

#[test]
fn bad_input_is_refused_naming_what_is_wrong() {
    let workspace = workspace();
    std::fs::write(workspace.path().join("file"), "").expect("writable");
    let cases: [(&[&str], &str); 6] = [
        (
            &["catalog", "-b", "scratch"],
            "error: invalid builder image: \"scratch\"\n",
        ),
        (
            &["catalog", "--binary-image", "scratch"],
            "error: invalid builder image: \"scratch\"\n",
        ),
        (&["catalog", "-l", "a=1,b"], "error: invalid label \"b\"\n"),
        (
            &["missing"],
            "error: stat missing: no such file or directory\n",
        ),
        (
            &["file"],
            "error: provided root path \"file\" is not a directory\n",
        ),
        (
            &["/"],
            "error: index directory is unset: \"/\" has no name to add to the image\n",
        ),
    ];
    for (args, first_line) in cases {
        let output = generate_in(workspace.path(), args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let message = stderr(&output);
        assert!(
            message.starts_with(first_line) || message.contains(&format!("\n{first_line}")),
            "{args:?}: {message}"
        );
        assert_eq!(stdout(&output), "");
    }
    assert_eq!(names_in(workspace.path()), ["catalog", "file"]);
}

#[test]
fn every_flag_and_argument_has_help_text() {
    fn check(command: &clap::Command, path: &str, missing: &mut Vec<String>) {
        for argument in command.get_arguments() {
            let id = argument.get_id().as_str();
            if argument.get_help().is_none() && !matches!(id, "help" | "version") {
                missing.push(format!("{path} {id}"));
            }
        }
        for subcommand in command.get_subcommands() {
            if subcommand.get_about().is_none() {
                missing.push(format!("{path} {}", subcommand.get_name()));
            }
            check(
                subcommand,
                &format!("{path} {}", subcommand.get_name()),
                missing,
            );
        }
    }
    let mut command = <fbc::cli::Cli as clap::CommandFactory>::command();
    command.build();
    let mut missing = Vec::new();
    check(&command, "fbc", &mut missing);
    assert!(missing.is_empty(), "no help text: {missing:?}");
}

#[test]
fn version_names_the_commit() {
    let output = fbc().arg("--version").output().expect("runs");
    assert_eq!(output.status.code(), Some(0));
    let commit = std::process::Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|output| output.status.success())
        .map_or_else(
            || "unknown".to_owned(),
            |output| stdout(&output).trim().to_owned(),
        );
    let expected = format!("fbc {} ({commit})\n", env!("CARGO_PKG_VERSION"));
    // FBC_GIT_COMMIT set at build time overrides git, on purpose.
    if std::env::var_os("FBC_GIT_COMMIT").is_none() {
        assert_eq!(stdout(&output), expected);
    }
    assert!(stdout(&output).starts_with(&format!("fbc {} (", env!("CARGO_PKG_VERSION"))));
    // `fbc version`, like `opm version`, prints the same.
    let subcommand = fbc().arg("version").output().expect("runs");
    assert_eq!(subcommand.status.code(), Some(0));
    assert_eq!(stdout(&subcommand), stdout(&output));
}

/// Completion scripts committed under completions/, by shell.
const COMPLETIONS: [(&str, &str); 5] = [
    ("bash", "fbc.bash"),
    ("zsh", "_fbc"),
    ("fish", "fbc.fish"),
    ("powershell", "_fbc.ps1"),
    ("elvish", "fbc.elv"),
];

/// Regenerate everything with: `FBC_BLESS=1 cargo test --test cli generated_files`
/// (run it after adding or changing a subcommand, a flag or a help text).
const REGENERATE: &str = "the committed files differ from what fbc generates now: \
    regenerate them with `FBC_BLESS=1 cargo test --test cli generated_files` and commit them";

#[test]
fn generated_files_are_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bless = std::env::var_os("FBC_BLESS").is_some();
    let generated_man = tempfile::tempdir().expect("temporary directory");
    let output = fbc()
        .arg("man")
        .arg(generated_man.path())
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let mut expected: Vec<(PathBuf, Vec<u8>)> = Vec::new();
    for name in names_in(generated_man.path()) {
        let page = std::fs::read(generated_man.path().join(&name)).expect("page");
        expected.push((root.join("man").join(name), page));
    }
    for (shell, name) in COMPLETIONS {
        let output = fbc().args(["completions", shell]).output().expect("runs");
        assert_eq!(
            output.status.code(),
            Some(0),
            "{shell}: {}",
            stderr(&output)
        );
        expected.push((root.join("completions").join(name), output.stdout));
    }
    if bless {
        rewrite(root, &expected);
    }
    for directory in ["man", "completions"] {
        let mut wanted: Vec<String> = expected
            .iter()
            .filter(|(path, _)| path.parent() == Some(&root.join(directory)))
            .map(|(path, _)| {
                path.file_name()
                    .expect("named")
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        wanted.sort();
        let present = root.join(directory);
        let present = if present.is_dir() {
            names_in(&present)
        } else {
            Vec::new()
        };
        assert_eq!(present, wanted, "{directory}/: {REGENERATE}");
    }
    for (path, contents) in &expected {
        let committed = std::fs::read(path).unwrap_or_default();
        assert!(committed == *contents, "{}: {REGENERATE}", path.display());
    }
}

/// Replaces man/ and completions/ with exactly the generated files.
fn rewrite(root: &Path, files: &[(PathBuf, Vec<u8>)]) {
    for directory in ["man", "completions"] {
        let directory = root.join(directory);
        if directory.is_dir() {
            std::fs::remove_dir_all(&directory).expect("removable");
        }
        std::fs::create_dir_all(&directory).expect("creatable");
    }
    for (path, contents) in files {
        std::fs::write(path, contents).expect("writable");
    }
}

/// Every command's help ends with its exit statuses, environment and examples, and
/// its man page has the same as sections.
#[test]
fn help_and_man_pages_end_with_exit_status_environment_and_examples() {
    let mut examples_run = 0;
    for command in [
        &["validate"][..],
        &["render"],
        &["diff"],
        &["alpha", "upgrade-path"],
        &["alpha", "render-template"],
        &["generate", "dockerfile"],
    ] {
        let output = run(&[command, &["--help"][..]].concat());
        assert_eq!(output.status.code(), Some(0));
        let help = stdout(&output);
        let exit = help.find("\nExit status:\n  0   ").expect("exit statuses");
        let examples = help.find("\nExamples:\n  # ").expect("examples");
        assert!(exit < examples, "{command:?}");
        // The examples that need nothing but this checkout run as shown.
        for example in help[examples..]
            .lines()
            .map(str::trim)
            .filter(|line| line.starts_with("fbc ") && line.contains("testdata/"))
            .filter(|line| !line.contains(['>', '|', '~']))
        {
            let words: Vec<&str> = example.split_whitespace().skip(1).collect();
            let output = run(&words);
            assert!(
                matches!(output.status.code(), Some(0 | 1)),
                "`{example}`: {}",
                stderr(&output)
            );
            examples_run += 1;
        }
        let page = std::fs::read_to_string(format!("man/fbc-{}.1", command.join("-")))
            .expect("a committed man page");
        for section in [".SH \"EXIT STATUS\"", ".SH EXAMPLES"] {
            assert!(page.contains(section), "{command:?}: {section}");
        }
    }
    assert!(examples_run >= 6, "{examples_run} examples run");
    let help = stdout(&run(&["validate", "--help"]));
    assert!(
        help.contains("\nEnvironment:\n  FBC_MAX_FILE_SIZE "),
        "{help}"
    );
    // The default format is stated once, by clap.
    assert_eq!(help.matches("[default: text]").count(), 1, "{help}");
    assert!(!help.contains("(default: text"), "{help}");
    // Required options are shown as required; repeatable arguments with `...`.
    let help = stdout(&run(&["alpha", "upgrade-path", "--help"]));
    assert!(help.contains("Usage: fbc alpha upgrade-path [OPTIONS] --package <PACKAGE> --from <BUNDLE|VERSION> <DIR|IMAGE>\n"), "{help}");
    let page = std::fs::read_to_string("man/fbc-validate.1").expect("the validate page");
    assert!(
        page.contains("<DIR>..."),
        "the synopsis shows the repeatable argument"
    );
}
