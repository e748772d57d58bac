//! The README and the pages of `docs/` cannot rot: every ```console block in them
//! is run, one test per page. Lines starting with
//! `$ ` are commands (bash, `pipefail`, with the built `fbc` first on `PATH`, in a
//! scratch directory holding a copy of `testdata/`); the lines after a command, up
//! to the next command, are its expected stdout. `$ cargo run --release -- ARGS`
//! runs `fbc ARGS`. A command that is meant to fail says so with a trailing
//! `# exit N` comment. Blocks marked ```sh are shown, not run (they need a network,
//! a registry or CI).

use std::path::Path;
use std::process::Command;

struct Example {
    line: usize,
    command: String,
    exit: i32,
    expected: String,
}

fn examples(readme: &str) -> Vec<Example> {
    let mut examples: Vec<Example> = Vec::new();
    let mut in_console = false;
    for (index, line) in readme.lines().enumerate() {
        if let Some(info) = line.strip_prefix("```") {
            in_console = !in_console && info.trim() == "console";
            continue;
        }
        if !in_console {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            let (command, exit) = match command.rsplit_once(" # exit ") {
                Some((command, code)) => (command, code.parse().expect("`# exit N`")),
                None => (command, 0),
            };
            let command = match command.strip_prefix("cargo run --release -- ") {
                Some(arguments) => format!("fbc {arguments}"),
                None => command.to_owned(),
            };
            examples.push(Example {
                line: index + 1,
                command,
                exit,
                expected: String::new(),
            });
        } else if let Some(example) = examples.last_mut() {
            example.expected.push_str(line);
            example.expected.push('\n');
        }
    }
    examples
}

/// The pages whose examples are run, each by its own test.
macro_rules! pages {
    ($($test:ident => $page:literal),* $(,)?) => {
        $(
            #[test]
            #[cfg_attr(fbc_no_jq, ignore = "needs jq")]
            fn $test() {
                console_examples_run_as_shown($page);
            }
        )*
        const PAGES: &[&str] = &[$($page),*];
    };
}

pages! {
    readme => "README.md",
    docs_render => "docs/render.md",
    docs_validate => "docs/validate.md",
    docs_diff => "docs/diff.md",
    docs_graphs => "docs/graphs.md",
    docs_templates => "docs/templates.md",
    docs_resolve => "docs/resolve.md",
    docs_generate => "docs/generate.md",
    docs_build => "docs/build.md",
    docs_limits => "docs/limits.md",
    docs_differences => "docs/differences.md",
    docs_development => "docs/development.md",
    docs_serve => "docs/serve.md",
}

/// Every page of `docs/` has its test.
#[test]
fn every_page_is_run() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages: Vec<String> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.extension().is_some_and(|extension| extension == "md"))
        .map(|path| {
            format!(
                "docs/{}",
                path.file_name().expect("a name").to_string_lossy()
            )
        })
        .collect();
    pages.push("README.md".to_owned());
    pages.sort();
    let mut listed: Vec<String> = PAGES.iter().map(|page| (*page).to_owned()).collect();
    listed.sort();
    assert_eq!(pages, listed);
}

fn console_examples_run_as_shown(page: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join(page)).expect("the page");
    let examples = examples(&readme);
    let scratch = tempfile::tempdir().expect("a scratch directory");
    crate::copy_dir(&root.join("testdata"), &scratch.path().join("testdata"));
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_fbc"))
        .parent()
        .expect("the binary has a directory");
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    // Twice over, in the same directory: every recipe can be run again.
    for example in examples.iter().chain(&examples) {
        assert!(
            !example.command.contains("jq ") || has_jq(),
            "{page} line {}: jq is not installed (apt-get install jq); after installing it, \
             `touch build.rs` so that the tests are built again",
            example.line
        );
        let output = Command::new("bash")
            .args(["-o", "pipefail", "-c", &example.command])
            .current_dir(scratch.path())
            .env("PATH", &path)
            .env("NO_COLOR", "1")
            .output()
            .expect("bash runs");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert_eq!(
            output.status.code(),
            Some(example.exit),
            "{page} line {}: `{}`\nstderr:\n{}",
            example.line,
            example.command,
            String::from_utf8_lossy(&output.stderr)
        );
        if !example.expected.is_empty() {
            assert_eq!(
                stdout, example.expected,
                "{page} line {}: `{}` printed something else",
                example.line, example.command
            );
        }
    }
}

fn has_jq() -> bool {
    Command::new("jq")
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success())
}

#[test]
fn console_blocks_are_parsed_into_commands_and_output() {
    let readme = "text\n```console\n$ fbc render x | jq -r .name # exit 1\nhello\nworld\n$ cargo run --release -- render y\n```\n```sh\n$ not run\n```\n";
    let examples = examples(readme);
    assert_eq!(examples.len(), 2);
    assert_eq!(examples[0].command, "fbc render x | jq -r .name");
    assert_eq!(examples[0].exit, 1);
    assert_eq!(examples[0].expected, "hello\nworld\n");
    assert_eq!(examples[1].command, "fbc render y");
    assert_eq!(examples[1].line, 6);
}
