//! `fbc render` on fixtures and on the corpus, compared with opm's output.

use std::io::Read;
use std::process::Stdio;

use sha2::{Digest, Sha256};

use crate::{
    assert_matches_file, assert_same_text, beside, corpus, fbc, run, stderr, stdout, testdata,
};

/// The corpus catalogs for which opm's full render output is available.
const SMALL_CATALOGS: [&str; 5] = [
    "community-v4.18",
    "kueue-v4.18",
    "mtv-v4.14",
    "submariner-4-16",
    "trustee-v4.16",
];

fn render_corpus_catalog(name: &str, format: &str) -> (String, String) {
    let corpus = corpus();
    let dir = corpus.join("catalogs").join(name);
    let output = run(&["render", "-o", format, dir.to_str().expect("UTF-8 path")]);
    assert_eq!(output.status.code(), Some(0), "{name}: {}", stderr(&output));
    let expected_path = corpus.join(format!("expected/catalogs/{name}.render.{format}"));
    let expected = std::fs::read_to_string(expected_path).expect("opm's output is readable");
    (stdout(&output), expected)
}

#[test]
#[cfg_attr(fbc_no_corpus, ignore = "needs ../shared/corpus")]
fn corpus_catalogs_render_like_opm_as_json() {
    for name in SMALL_CATALOGS {
        let (actual, expected) = render_corpus_catalog(name, "json");
        assert_same_text(&actual, &expected, name);
    }
}

/// Every YAML output opm left in the corpus whose catalog is there, byte for byte.
#[test]
#[cfg_attr(fbc_no_corpus, ignore = "needs ../shared/corpus")]
fn corpus_catalogs_render_like_opm_as_yaml() {
    let corpus = corpus();
    let expected_dir = corpus.join("expected/catalogs");
    let mut names: Vec<String> = std::fs::read_dir(&expected_dir)
        .expect("expected outputs are listed")
        .map(|entry| entry.expect("readable entry").file_name())
        .filter_map(|file| {
            let file = file.to_str()?.to_owned();
            file.strip_suffix(".render.yaml").map(str::to_owned)
        })
        .filter(|name| corpus.join("catalogs").join(name).is_dir())
        .collect();
    names.sort();
    assert!(names.len() >= SMALL_CATALOGS.len(), "{names:?}");
    for name in &names {
        let (actual, expected) = render_corpus_catalog(name, "yaml");
        assert_same_text(&actual, &expected, name);
    }
}

/// `sha256 bytes package` lines of opm's output for the large catalog.
fn digest_lines(output: &[u8]) -> String {
    let digest = Sha256::digest(output);
    let hex = digest.iter().fold(String::new(), |mut hex, byte| {
        use std::fmt::Write as _;
        write!(hex, "{byte:02x}").expect("writing to a String");
        hex
    });
    format!("{hex} {} *", output.len())
}

#[test]
#[cfg_attr(fbc_no_corpus, ignore = "needs ../shared/corpus")]
fn certified_catalog_renders_like_opm() {
    let corpus = corpus();
    for format in ["json", "yaml"] {
        let dir = corpus.join("catalogs/certified-v4.16");
        let output = run(&["render", "-o", format, dir.to_str().expect("UTF-8 path")]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let expected = std::fs::read_to_string(corpus.join(format!(
            "expected/catalogs/certified-v4.16.render.{format}.sha256"
        )))
        .expect("digests are readable");
        let whole = expected
            .lines()
            .last()
            .expect("a last line for the whole output");
        assert_eq!(
            digest_lines(&output.stdout),
            whole,
            "{format} output differs from opm's"
        );
    }
}

#[test]
#[cfg_attr(fbc_no_corpus, ignore = "needs ../shared/corpus")]
fn rendering_a_rendered_catalog_is_stable() {
    let corpus = corpus();
    let temp = tempfile::tempdir().expect("temporary directory");
    for format in ["json", "yaml"] {
        let dir = corpus.join("catalogs/community-v4.18");
        let first = run(&["render", "-o", format, dir.to_str().expect("UTF-8 path")]);
        assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
        let rendered = temp.path().join(format);
        std::fs::create_dir(&rendered).expect("create directory");
        std::fs::write(rendered.join(format!("catalog.{format}")), &first.stdout).expect("write");
        let second = run(&[
            "render",
            "-o",
            format,
            rendered.to_str().expect("UTF-8 path"),
        ]);
        assert_eq!(second.status.code(), Some(0), "{}", stderr(&second));
        assert!(
            first.stdout == second.stdout,
            "{format}: a second render changed the output"
        );
    }
}

#[test]
#[cfg_attr(fbc_no_corpus, ignore = "needs ../shared/corpus")]
fn closed_stdout_ends_quietly() {
    let corpus = corpus();
    let dir = corpus.join("catalogs/community-v4.18");
    let mut child = fbc()
        .args(["render", dir.to_str().expect("UTF-8 path")])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("fbc starts");
    let mut first = [0u8; 16];
    child
        .stdout
        .take()
        .expect("stdout")
        .read_exact(&mut first)
        .expect("some output");
    // Dropping our end of the pipe is what `head -c 16` does.
    let output = child.wait_with_output().expect("fbc ends");
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stderr(&output), "");
}

/// A string yaml.v2's reader rejects (here DEL) fails the YAML render with opm's
/// message, and nothing is printed; JSON output is unaffected (see the fixture's
/// `render.json`).
#[test]
fn control_characters_fail_yaml_output_before_anything_is_written() {
    let case = testdata("catalogs/yaml-control-characters");
    let output = run(&["render", "-o", "yaml", case.to_str().expect("UTF-8 path")]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stdout(&output), "");
    assert_eq!(
        stderr(&output),
        "error: yaml: control characters are not allowed\n"
    );
}

/// Each fixture of `testdata/catalogs/` renders to the expected files beside it:
/// one test per fixture, named after it (see build.rs).
mod fixtures {
    include!(concat!(env!("OUT_DIR"), "/catalogs_cases.rs"));
}

fn check(name: &str) {
    let case = testdata(&format!("catalogs/{name}"));
    let has_expectation = ["render.json", "render.yaml", "render.stderr"]
        .iter()
        .any(|suffix| beside(&case, suffix).exists());
    assert!(
        has_expectation,
        "{}: no expected output beside it",
        case.display()
    );
    for format in ["json", "yaml"] {
        let expected = beside(&case, &format!("render.{format}"));
        let errors = beside(&case, "render.stderr");
        if !expected.exists() && !errors.exists() {
            continue;
        }
        let output = run(&["render", "-o", format, case.to_str().expect("UTF-8 path")]);
        if errors.exists() {
            assert_eq!(output.status.code(), Some(2), "{}", case.display());
            assert_matches_file(&relative(&stderr(&output)), &errors);
            assert_eq!(stdout(&output), "", "{}: no partial output", case.display());
        } else {
            assert_eq!(
                output.status.code(),
                Some(0),
                "{}: {}",
                case.display(),
                stderr(&output)
            );
            assert_matches_file(&stdout(&output), &expected);
        }
    }
}

/// Paths in messages are absolute in tests; the expected files hold them relative
/// to the repository.
fn relative(text: &str) -> String {
    text.replace(concat!(env!("CARGO_MANIFEST_DIR"), "/"), "")
}

/// opm's registry flag rules, with its texts.
#[test]
fn registry_flag_combinations_are_checked_as_opm_does() {
    let cases = [
        (
            ["--use-http", "--skip-tls-verify"],
            "error: invalid flag combination: --use-http and --skip-tls-verify cannot both be true\n",
        ),
        (
            ["--use-http", "--skip-tls"],
            "error: invalid flag combination: cannot use --use-http with --skip-tls\n",
        ),
        (
            ["--skip-tls-verify", "--skip-tls"],
            "error: invalid flag combination: cannot use --skip-tls-verify with --skip-tls\n",
        ),
    ];
    for (flags, message) in cases {
        let output = run(&[
            "render",
            flags[0],
            flags[1],
            "testdata/examples/hello-catalog",
        ]);
        assert_eq!(output.status.code(), Some(2));
        assert_eq!(stderr(&output), message);
        assert_eq!(stdout(&output), "");
    }
}

/// opm pulls only references written out in full and takes anything it cannot stat
/// for an image; fbc says which of the two a reference that does not exist is.
#[test]
fn missing_paths_and_short_image_names_are_refused_without_a_pull() {
    for (reference, help) in [
        ("busybox", "an image reference with its registry host"),
        ("busybox:latest", "repository name must be canonical"),
        ("./hello-catalog", "give a catalog directory"),
        (
            "testdata/exmples/hello-catalg",
            "did you mean `testdata/examples/hello-catalog`?",
        ),
    ] {
        let output = run(&["render", reference]);
        assert_eq!(output.status.code(), Some(2));
        assert_eq!(stdout(&output), "");
        let text = stderr(&output);
        assert!(
            text.starts_with(&format!(
                "error: stat {reference}: no such file or directory\n"
            )),
            "{text}"
        );
        assert!(text.contains(help), "{reference}: {text}");
    }
}

/// The folder above bundle directories fails every file the same way: a few of each
/// kind are shown, the rest counted, and the bundle directories named.
#[test]
fn a_folder_of_bundle_directories_gets_a_short_report() {
    let output = run(&["render", "testdata/bundles"]);
    assert_eq!(output.status.code(), Some(2));
    let text = stderr(&output);
    let shown = text.matches("\nerror: ").count();
    let total: usize = text
        .strip_prefix("error: testdata/bundles: ")
        .and_then(|rest| rest.split(' ').next())
        .and_then(|count| count.parse().ok())
        .expect("a count of the files");
    assert!(shown < total / 2, "{shown} of {total} shown:\n{text}");
    assert!(
        text.contains(&format!(
            "{} more file(s) fail in the same ways",
            total - shown
        )),
        "{text}"
    );
    assert!(
        text.contains("bundle directories are here, not catalog files: render them with `fbc render testdata/bundles/api-services testdata/bundles/crd-v1beta1 "),
        "{text}"
    );
}

/// Colour as cargo and ripgrep decide it, and no internal error codes in any style.
#[test]
fn colour_follows_the_flag_and_the_environment() {
    let styled = |args: &[&str], env: &[(&str, &str)]| {
        let mut command = crate::fbc();
        command.env_remove("NO_COLOR").args(args);
        for (name, value) in env {
            command.env(name, value);
        }
        let output = command.output().expect("fbc runs");
        assert_eq!(output.status.code(), Some(2));
        let text = stderr(&output);
        assert!(!text.contains("fbc::"), "{text}");
        text.starts_with("\x1b[1;31merror")
    };
    let missing = ["render", "./no-such-catalog"];
    assert!(styled(
        &[&["--color", "always"][..], &missing].concat(),
        &[]
    ));
    assert!(!styled(
        &[&["--color", "never"][..], &missing].concat(),
        &[("CLICOLOR_FORCE", "1")]
    ));
    // Not a terminal: plain unless forced, and NO_COLOR wins over the force.
    assert!(!styled(&missing, &[]));
    assert!(styled(&missing, &[("CLICOLOR_FORCE", "1")]));
    assert!(styled(
        &missing,
        &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "")]
    ));
    assert!(!styled(
        &missing,
        &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]
    ));
    assert!(!styled(&missing, &[("CLICOLOR_FORCE", "0")]));
}
