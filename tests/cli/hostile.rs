//! Hostile and broken input: each case gets a clear error naming the file (and the
//! line where there is one) and exit code 2, or is read correctly; never a panic
//! (exit 101) and never a hang (every run has a deadline). The inputs are made
//! here, in temporary directories: some are large, some cannot be committed.

use std::fmt::Write as _;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::{fbc, stderr, stdout};

/// Runs fbc with a deadline: a hang fails the test instead of blocking it.
pub(crate) fn run_within(command: &mut Command, deadline: Duration) -> Output {
    run_to(command, Stdio::piped(), deadline)
}

/// [`run_within`] with stdout sent to `out` (the output then holds no stdout).
fn run_to(command: &mut Command, out: Stdio, deadline: Duration) -> Output {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(Stdio::piped())
        .spawn()
        .expect("the fbc binary runs");
    // Drain the pipes while waiting, so a large output cannot block the child.
    let out = child.stdout.take();
    let mut err = child.stderr.take().expect("piped");
    let out_reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut out) = out {
            let _ = out.read_to_end(&mut bytes);
        }
        bytes
    });
    let err_reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = err.read_to_end(&mut bytes);
        bytes
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waitable") {
            break status;
        }
        if started.elapsed() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("fbc did not finish within {deadline:?}: {command:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: out_reader.join().expect("stdout read"),
        stderr: err_reader.join().expect("stderr read"),
    }
}

/// A catalog directory holding one file with `contents`.
fn catalog_with(name: &str, contents: &[u8]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a directory");
    std::fs::write(dir.path().join(name), contents).expect("written");
    dir
}

fn render(dir: &Path) -> Output {
    run_within(fbc().arg("render").arg(dir), Duration::from_secs(60))
}

/// Expects exit 2 with `message` (and no output) from every command that loads a
/// catalog.
fn assert_refused(dir: &Path, message: &str) {
    // (arguments before the directory, arguments after it)
    let commands: [(&[&str], &[&str]); 5] = [
        (&["render"], &[]),
        (&["validate"], &[]),
        (&["graph"], &[]),
        (&["alpha", "render-graph"], &[]),
        (
            &["alpha", "upgrade-path"],
            &["--package", "a", "--every-bundle"],
        ),
    ];
    for (before, after) in commands {
        let output = run_within(
            fbc().args(before).arg(dir).args(after),
            Duration::from_secs(60),
        );
        let command = before.join(" ");
        assert_eq!(
            output.status.code(),
            Some(2),
            "{command} {}: {}",
            dir.display(),
            stderr(&output)
        );
        assert_eq!(stdout(&output), "", "{command}: nothing on stdout");
        assert!(
            stderr(&output).contains(message),
            "{command}: expected {message:?} in:\n{}",
            stderr(&output)
        );
    }
}

fn package(name: &str) -> String {
    format!("schema: olm.package\nname: {name}\n")
}

#[test]
fn a_yaml_alias_bomb_is_refused_as_opm_refuses_it() {
    let mut text = package("a") + "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
    for level in 1..10 {
        let refs = vec![format!("*a{}", level - 1); 10].join(", ");
        writeln!(text, "a{level}: &a{level} [{refs}]").expect("written");
    }
    let dir = catalog_with("catalog.yaml", text.as_bytes());
    assert_refused(
        dir.path(),
        "error converting YAML to JSON: yaml: document contains excessive aliasing",
    );
    assert_refused(dir.path(), "catalog.yaml:");
}

#[test]
fn very_deep_nesting_is_refused_without_overflowing_the_stack() {
    let depth = 100_000;
    let yaml = package("a") + "x: " + &"[".repeat(depth) + &"]".repeat(depth) + "\n";
    let dir = catalog_with("catalog.yaml", yaml.as_bytes());
    assert_refused(
        dir.path(),
        "nesting deeper than 255 levels is not supported",
    );
    assert_refused(dir.path(), "catalog.yaml:3:");
    let block: String = (0..2_000).map(|level| " ".repeat(level) + "- \n").collect();
    let dir = catalog_with("catalog.yaml", (package("a") + "x:\n" + &block).as_bytes());
    assert_refused(
        dir.path(),
        "nesting deeper than 255 levels is not supported",
    );
    let json = format!(
        "{{\"schema\":\"olm.package\",\"name\":\"a\",\"x\":{}{}}}",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let dir = catalog_with("catalog.json", json.as_bytes());
    assert_refused(dir.path(), "exceeded max depth");
    assert_refused(dir.path(), "catalog.json:1:");
}

/// Values as deep as the loader accepts (9,800 levels), beside another file so
/// that worker threads decode them, and in a bundle property that validation
/// decodes and checks: read and written like shallow ones. (Pretty JSON of such a
/// value is hundreds of megabytes of indentation: YAML is written instead.)
#[test]
fn values_as_deep_as_the_loader_accepts_are_rendered_and_validated() {
    let depth = 4_900;
    let deep = format!("{}1{}", "{\"a\":[".repeat(depth), "]}".repeat(depth));
    let dir = tempfile::tempdir().expect("a temporary directory");
    let blob = format!("{{\"schema\":\"x.y\",\"name\":\"n\",\"v\":{deep}}}");
    std::fs::write(dir.path().join("deep.json"), blob).expect("written");
    let constraint = format!(
        "{}{{\"package\":{{\"packageName\":\"q\",\"versionRange\":\">=1\"}}}}{}",
        "{\"not\":{\"constraints\":[".repeat(3_000),
        "]}}".repeat(3_000)
    );
    let bundle = format!(
        "{}\n{}\n{{\"schema\":\"olm.bundle\",\"name\":\"p.v1\",\"package\":\"p\",\"image\":\"q.io/p@sha256:{}\",\"properties\":[{{\"type\":\"olm.package\",\"value\":{{\"packageName\":\"p\",\"version\":\"1.0.0\"}}}},{{\"type\":\"olm.constraint\",\"value\":{constraint}}}]}}",
        r#"{"schema":"olm.package","name":"p","defaultChannel":"s"}"#,
        r#"{"schema":"olm.channel","name":"s","package":"p","entries":[{"name":"p.v1"}]}"#,
        "a".repeat(64)
    );
    std::fs::write(dir.path().join("p.json"), bundle).expect("written");
    let output = run_within(
        fbc().args(["render", "-o", "yaml"]).arg(dir.path()),
        Duration::from_secs(120),
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    // The outermost `a` is the only one that is not in a list.
    assert_eq!(stdout(&output).matches("- a:").count(), depth - 1);
    let output = fbc()
        .arg("validate")
        .arg(dir.path())
        .output()
        .expect("fbc runs");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let output = fbc()
        .args(["validate", "-o", "json"])
        .arg(dir.path())
        .output()
        .expect("fbc runs");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("nested deeper than 256 levels: not checked further"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn a_multi_megabyte_line_is_read_whole() {
    let long = "x".repeat(8 << 20);
    for (name, text) in [
        (
            "catalog.yaml",
            format!("{}description: {long}\n", package("a")),
        ),
        (
            "catalog.json",
            format!("{{\"schema\":\"olm.package\",\"name\":\"a\",\"description\":\"{long}\"}}"),
        ),
    ] {
        let dir = catalog_with(name, text.as_bytes());
        let output = render(dir.path());
        assert_eq!(output.status.code(), Some(0), "{name}: {}", stderr(&output));
        assert!(stdout(&output).contains(&format!("\"description\": \"{long}\"")));
    }
}

/// Objects that follow each other on one line cost what they cost on separate
/// lines: a 4 MB one-line stream (which took minutes when every blob's column was
/// counted from the start of the line) renders within the deadline, and equals the
/// same stream with newlines.
#[test]
fn a_json_stream_on_one_line_loads_in_linear_time() {
    let blobs: Vec<String> = (0..30_000)
        .map(|i| {
            format!(
                r#"{{"schema":"olm.bundle","package":"p{}","name":"b{i}","image":"q.io/x:{i}","properties":[{{"type":"olm.package","value":{{"packageName":"p","version":"0.0.{i}"}}}}]}}"#,
                i % 40
            )
        })
        .collect();
    let one_line = catalog_with("catalog.json", blobs.concat().as_bytes());
    let lines = catalog_with("catalog.json", blobs.join("\n").as_bytes());
    let output = render(one_line.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(output.stdout == render(lines.path()).stdout);
}

/// Errors name a document by its location and top-level keys or shape: a linked
/// credentials or token file, or a document of megabytes, is not echoed on stderr.
#[test]
fn errors_do_not_echo_documents() {
    let credentials = r#"{"auths":{"quay.io":{"auth":"s3cr3t"}}}"#.to_owned();
    let token = "\"s3cr3t\"".to_owned();
    let huge = format!("[{}1]", "1,".repeat(1 << 19));
    for (name, text, shown) in [
        ("config.json", credentials, r#"object '{"auths":…}"#),
        ("token.json", token, "\"…\" <=="),
        ("huge.json", huge, "[ <== … ]"),
    ] {
        let dir = catalog_with(name, text.as_bytes());
        let output = render(dir.path());
        assert_eq!(output.status.code(), Some(2), "{name}");
        assert!(
            stderr(&output).len() < 2_000,
            "{name}: {} bytes on stderr",
            stderr(&output).len()
        );
        assert!(!stderr(&output).contains("s3cr3t"), "{name}");
        assert!(!stderr(&output).contains("1,1"), "{name}");
        assert!(
            stderr(&output).contains(shown),
            "{name}: {}",
            stderr(&output)
        );
    }
}

/// `.indexignore` patterns are looked up by their literal parts: 10,000 files
/// against 10,000 patterns (20,000 took minutes when every file was tried against
/// every pattern) render within the deadline, ignoring exactly what they name.
#[test]
fn many_files_against_many_ignore_patterns_stay_fast() {
    let dir = tempfile::tempdir().expect("a directory");
    let count = 10_000;
    let mut patterns = String::new();
    for index in 0..count {
        std::fs::write(
            dir.path().join(format!("f{index}.json")),
            format!(r#"{{"schema":"olm.package","name":"p{index}"}}"#),
        )
        .expect("written");
        let pattern = if index % 2 == 0 {
            format!("f{index}.json\n")
        } else {
            format!("/other/g{index}\n")
        };
        patterns.push_str(&pattern);
    }
    std::fs::write(dir.path().join(".indexignore"), patterns).expect("written");
    let output = render(dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert_eq!(text.matches("\"olm.package\"").count(), count / 2);
    assert!(text.contains("\"p1\"") && !text.contains("\"p2\""));
}

/// Aliases of a large value pass yaml.v2's node ratio yet copy megabytes: the bytes
/// they copy are bounded (`FBC_MAX_ALIAS_EXPANSION`, at least 16 times the document).
#[test]
fn yaml_aliases_that_copy_too_much_are_refused() {
    let text = format!(
        "{}x: &big \"{}\"\nlist:\n{}",
        package("a"),
        "y".repeat(20_000),
        "- *big\n".repeat(100)
    );
    let dir = catalog_with("catalog.yaml", text.as_bytes());
    let refused = run_within(
        fbc()
            .env("FBC_MAX_ALIAS_EXPANSION", "1MiB")
            .arg("render")
            .arg(dir.path()),
        Duration::from_secs(60),
    );
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr(&refused).contains("aliases copy more than 1 MiB in this document (FBC_MAX_ALIAS_EXPANSION raises the limit)"),
        "{}",
        stderr(&refused)
    );
    assert!(
        stderr(&refused).contains("catalog.yaml:"),
        "{}",
        stderr(&refused)
    );
    let raised = run_within(
        fbc()
            .env("FBC_MAX_ALIAS_EXPANSION", "4MiB")
            .arg("render")
            .arg(dir.path()),
        Duration::from_secs(60),
    );
    assert_eq!(raised.status.code(), Some(0), "{}", stderr(&raised));
}

/// What a killed run left behind (named after its process, which is gone) is
/// removed by the next run: an unpacked image in `$TMPDIR`, a Dockerfile's
/// temporary file; what a running process owns, and other files, stay.
#[test]
fn leftovers_of_killed_runs_are_removed_by_the_next_run() {
    let mut child = Command::new("true").spawn().expect("runs");
    let dead = child.id();
    child.wait().expect("ended");
    let scratch = tempfile::tempdir().expect("a directory");
    let temp = scratch.path().join("tmp");
    std::fs::create_dir_all(temp.join(format!("fbc-unpack-{dead}-abc/manifests")))
        .expect("created");
    std::fs::create_dir_all(temp.join("fbc-unpack-1-abc")).expect("created");
    let catalog = scratch.path().join("catalog");
    crate::copy_dir(&crate::testdata("examples/hello-catalog"), &catalog);
    let leftover = scratch.path().join(format!(".fbc-{dead}-5-0.tmp"));
    std::fs::write(&leftover, "half a Dockerfile").expect("written");
    let output = run_within(
        fbc()
            .env("TMPDIR", &temp)
            .args(["render", "oci:testdata/examples/hello-bundle-oci:v0.3.0"]),
        Duration::from_secs(60),
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(!temp.join(format!("fbc-unpack-{dead}-abc")).exists());
    assert!(temp.join("fbc-unpack-1-abc").exists(), "pid 1 runs");
    let output = run_within(
        fbc()
            .current_dir(scratch.path())
            .args(["generate", "dockerfile", "catalog"]),
        Duration::from_secs(60),
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(!leftover.exists());
    assert!(scratch.path().join("catalog.Dockerfile").exists());
}

#[test]
fn encodings_and_control_bytes() {
    let dir = catalog_with(
        "catalog.yaml",
        b"schema: olm.package\nname: a\ndescription: \xff\xfe\n",
    );
    assert_refused(
        dir.path(),
        "catalog.yaml: the file is not valid UTF-8 at line 3, column 14",
    );
    // A byte-order mark and CRLF line ends are read as opm reads them.
    for (name, contents) in [
        ("catalog.yaml", &b"\xef\xbb\xbfschema: olm.package\r\nname: a\r\n---\r\nschema: olm.package\r\nname: b\r\n"[..]),
        ("catalog.json", b"\xef\xbb\xbf{\"schema\":\"olm.package\",\"name\":\"a\"}\r\n{\"schema\":\"olm.package\",\"name\":\"b\"}"),
    ] {
        let dir = catalog_with(name, contents);
        let output = render(dir.path());
        if name == "catalog.json" {
            // opm would keep only the first object of a JSON stream behind a BOM.
            assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
            assert!(stderr(&output).contains("catalog.json:"), "{}", stderr(&output));
        } else {
            assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
            assert!(stdout(&output).contains("\"name\": \"b\""));
        }
    }
    let dir = catalog_with("catalog.yaml", b"schema: olm.package\nname: a\x00b\n");
    assert_refused(dir.path(), "yaml: control characters are not allowed");
    assert_refused(dir.path(), "catalog.yaml:2:");
    let dir = catalog_with(
        "catalog.json",
        b"{\"schema\":\"olm.package\",\"name\":\"a\x00\"}",
    );
    assert_refused(dir.path(), "invalid character '\\x00' in string literal");
    assert_refused(dir.path(), "catalog.json:1:");
}

#[test]
fn a_file_over_the_size_limit_is_refused_and_the_limit_can_be_raised() {
    let text = package("a") + &format!("description: {}\n", "x".repeat(4096));
    let dir = catalog_with("catalog.yaml", text.as_bytes());
    let limited = |limit: &str| {
        run_within(
            fbc()
                .env("FBC_MAX_FILE_SIZE", limit)
                .arg("render")
                .arg(dir.path()),
            Duration::from_secs(60),
        )
    };
    let output = limited("1KiB");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("catalog.yaml: the file is larger than 1 KiB"),
        "{}",
        stderr(&output)
    );
    assert!(stderr(&output).contains("FBC_MAX_FILE_SIZE"));
    assert_eq!(limited("1MiB").status.code(), Some(0));
    let output = limited("lots");
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("FBC_MAX_FILE_SIZE=\"lots\": expected a size"));
}

/// A catalog directory with a good file and `make` applied to `<dir>/odd`.
fn directory_with(make: impl FnOnce(&Path) -> std::io::Result<()>) -> Option<tempfile::TempDir> {
    let dir = tempfile::tempdir().expect("a directory");
    std::fs::write(dir.path().join("a.yaml"), package("a")).expect("written");
    match make(&dir.path().join("odd")) {
        Ok(()) => Some(dir),
        Err(error) => {
            eprintln!("skipped a case: cannot make it here: {error}");
            None
        }
    }
}

fn mknod(path: &Path, kind: &str) -> std::io::Result<()> {
    let status = Command::new("mknod")
        .arg(path)
        .args(if kind == "p" {
            vec!["p"]
        } else {
            vec!["c", "1", "3"]
        })
        .stderr(Stdio::null())
        .status()?;
    if status.success() {
        Ok(())
    } else {
        Err(std::io::Error::other(format!("mknod {kind} failed")))
    }
}

#[test]
fn special_files_are_refused_without_blocking() {
    let fifo = directory_with(|path| mknod(path, "p"));
    let device = directory_with(|path| mknod(path, "c"));
    let socket = directory_with(|path| std::os::unix::net::UnixListener::bind(path).map(drop));
    for dir in [fifo, device, socket].into_iter().flatten() {
        assert_refused(dir.path(), "odd: not a regular file");
    }
}

/// procfs files report a size of 0 and may never end (`/proc/self/pagemap`) or
/// block (`/proc/kmsg`): refused unread, through links too; in a bundle directory
/// as well.
#[test]
fn procfs_files_are_refused_unread() {
    for target in ["/proc/self/pagemap", "/proc/kmsg", "/proc/self/status"] {
        let dir = directory_with(|path| std::os::unix::fs::symlink(target, path)).expect("a link");
        assert_refused(dir.path(), "odd: not a regular file");
    }
    let bundle = tempfile::tempdir().expect("a directory");
    std::fs::create_dir_all(bundle.path().join("metadata")).expect("created");
    std::fs::create_dir_all(bundle.path().join("manifests")).expect("created");
    std::os::unix::fs::symlink(
        "/proc/self/pagemap",
        bundle.path().join("manifests/csv.yaml"),
    )
    .expect("a link");
    let output = render(bundle.path());
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output)
            .contains("manifests/csv.yaml: a file of /proc or /sys, which fbc does not read"),
        "{}",
        stderr(&output)
    );
}

/// A manifest nested deeper than fbc reads is not left out of the bundle (opm would
/// include it): the render fails naming the file.
#[test]
fn a_bundle_manifest_too_deep_to_read_fails_the_render() {
    for (name, text) in [
        (
            "deep.json",
            format!(
                r#"{{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"x"}},"data":{}"1"{}}}"#,
                r#"{"a":"#.repeat(300),
                "}".repeat(300)
            ),
        ),
        (
            "deep.yaml",
            (1..300).fold(
                String::from("apiVersion: v1\nkind: ConfigMap\ndata:\n"),
                |text, depth| text + &"  ".repeat(depth) + "a:\n",
            ),
        ),
    ] {
        let bundle = tempfile::tempdir().expect("a directory");
        crate::copy_dir(&crate::testdata("examples/hello-bundle"), bundle.path());
        std::fs::write(bundle.path().join("manifests").join(name), text).expect("written");
        let output = render(bundle.path());
        assert_eq!(output.status.code(), Some(2), "{name}: {}", stderr(&output));
        assert!(
            stderr(&output).contains(&format!(
                "manifests/{name}: the document is nested deeper than fbc reads"
            )),
            "{}",
            stderr(&output)
        );
    }
}

#[test]
fn links_that_loop_or_lead_to_directories_are_refused() {
    let looped = directory_with(|path| {
        std::os::unix::fs::symlink(path.with_file_name("odd2"), path)?;
        std::os::unix::fs::symlink(path, path.with_file_name("odd2"))
    })
    .expect("links");
    assert_refused(looped.path(), "odd: Too many levels of symbolic links");
    let to_dir = directory_with(|path| std::os::unix::fs::symlink("/", path)).expect("a link");
    assert_refused(
        to_dir.path(),
        "odd: a symbolic link to a directory cannot be read as a catalog file",
    );
    // A link to a file is read as the file, as opm reads it.
    let to_file = directory_with(|path| {
        std::fs::write(path.with_file_name("b.txt"), package("b"))?;
        std::os::unix::fs::symlink("b.txt", path)
    })
    .expect("a link");
    let output = render(to_file.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
}

/// Runs `fbc render dir` as an unprivileged user when this runs as root (root reads
/// anything), or directly otherwise; `None` when neither can show the case.
fn render_unprivileged(dir: &Path) -> Option<Output> {
    let is_root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|output| output.stdout.starts_with(b"0\n"));
    if !is_root {
        return Some(render(dir));
    }
    let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"]
        .into_iter()
        .find(|path| Path::new(path).exists());
    let Some(setpriv) = setpriv else {
        eprintln!("skipped: running as root without setpriv, unreadable files cannot be shown");
        return None;
    };
    let mut command = Command::new(setpriv);
    command
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .arg(env!("CARGO_BIN_EXE_fbc"))
        .arg("render")
        .arg(dir)
        .env("NO_COLOR", "1")
        .current_dir("/");
    Some(run_within(&mut command, Duration::from_secs(60)))
}

/// A directory that the unprivileged user can enter, with an unreadable entry.
fn unreadable(make_dir: bool) -> tempfile::TempDir {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().expect("a directory");
    let open = std::fs::Permissions::from_mode(0o755);
    std::fs::set_permissions(dir.path(), open.clone()).expect("chmod");
    // Every parent must be enterable too; temporary directories usually are.
    std::fs::write(dir.path().join("a.yaml"), package("a")).expect("written");
    let odd = dir.path().join("odd");
    if make_dir {
        std::fs::create_dir(&odd).expect("created");
    } else {
        std::fs::write(&odd, package("b")).expect("written");
    }
    std::fs::set_permissions(&odd, std::fs::Permissions::from_mode(0o000)).expect("chmod");
    dir
}

#[test]
fn unreadable_files_and_directories_are_named() {
    for make_dir in [false, true] {
        let dir = unreadable(make_dir);
        let Some(output) = render_unprivileged(dir.path()) else {
            return;
        };
        assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
        assert_eq!(stdout(&output), "");
        assert!(
            stderr(&output).contains("odd: Permission denied"),
            "{}",
            stderr(&output)
        );
    }
}

#[test]
fn special_files_in_a_bundle_are_refused_without_blocking() {
    let dir = tempfile::tempdir().expect("a directory");
    let bundle = crate::testdata("examples/hello-bundle");
    for sub in ["manifests", "metadata"] {
        std::fs::create_dir(dir.path().join(sub)).expect("created");
        for entry in std::fs::read_dir(bundle.join(sub)).expect("listed") {
            let entry = entry.expect("an entry");
            std::fs::copy(entry.path(), dir.path().join(sub).join(entry.file_name()))
                .expect("copied");
        }
    }
    if mknod(&dir.path().join("manifests/pipe.yaml"), "p").is_err() {
        eprintln!("skipped: mknod cannot make a FIFO here");
        return;
    }
    let output = render(dir.path());
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("manifests/pipe.yaml: not a regular file"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_full_disk_is_an_error_naming_what_was_written() {
    let full = PathBuf::from("/dev/full");
    if !full.exists() {
        eprintln!("skipped: /dev/full is missing");
        return;
    }
    let catalog = crate::testdata("examples/hello-catalog");
    for args in [
        vec!["render"],
        vec!["graph"],
        vec!["validate", "-o", "json"],
        vec!["alpha", "upgrade-path", "--every-bundle"],
        vec!["generate", "dockerfile", "--output", "-"],
    ] {
        let stdout_file = std::fs::OpenOptions::new()
            .write(true)
            .open(&full)
            .expect("/dev/full opens");
        let output = run_to(
            fbc().args(&args).arg(&catalog),
            Stdio::from(stdout_file),
            Duration::from_secs(60),
        );
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(
            stderr(&output)
                .to_lowercase()
                .contains("write <stdout>: no space left on device"),
            "{args:?}: {}",
            stderr(&output)
        );
    }
}

/// `fbc` under an address-space limit (`ulimit -v`, in KiB), as a container or a
/// careful administrator sets it.
fn fbc_limited(kib: u64, args: &[&str]) -> Output {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_fbc"))
        .args(args)
        .env("NO_COLOR", "1");
    run_within(&mut command, Duration::from_secs(120))
}

/// Under an address-space limit the worker threads' stacks shrink to fit (256 MiB
/// each would leave a few hundred MiB nothing), and a large file whose decoding
/// may need more than is left is refused with a message before decoding starts,
/// instead of the process aborting where an allocation fails.
#[test]
fn an_address_space_limit_is_met_with_a_message_not_an_abort() {
    let small = catalog_with("c.json", br#"{"schema":"olm.package","name":"p"}"#);
    let output = fbc_limited(400_000, &["render", small.path().to_str().expect("UTF-8")]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stdout(&output).contains("\"olm.package\""));

    // A bundle of 700,000 tiny properties on one line (21 MB), each a node of the
    // decoded tree: it may need 32 times its size.
    let mut text = String::from(
        r#"{"schema":"olm.bundle","package":"p","name":"b","image":"i","properties":["#,
    );
    for index in 0..700_000 {
        if index > 0 {
            text.push(',');
        }
        let _ = write!(text, r#"{{"type":"t{index}","value":[1]}}"#);
    }
    text.push_str("]}\n");
    let large = catalog_with("c.json", text.as_bytes());
    let output = fbc_limited(400_000, &["render", large.path().to_str().expect("UTF-8")]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("c.json: out of memory: reading a file of 20.6 MiB"),
        "{}",
        stderr(&output)
    );
    assert!(!stderr(&output).contains("memory allocation of"));
    assert_eq!(stdout(&output), "");
}

mod images {
    //! Registries and images that misbehave, served by the fake registry.

    use std::io::Write as _;
    use std::path::Path;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    use super::{run_within, stderr, stdout};
    use crate::fake_registry::{self, Answer, MANIFEST_TYPE, digest, manifest};
    use crate::fbc;

    const CONFIG: &[u8] = br#"{"architecture":"amd64","os":"linux","config":{"Labels":{"operators.operatorframework.io.index.configs.v1":"/configs"}},"rootfs":{"type":"layers","diff_ids":[]}}"#;

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        encoder.write_all(data).expect("compressed");
        encoder.finish().expect("compressed")
    }

    /// A tar with one file of `size` zero bytes.
    fn tar_of_zeros(size: u64) -> Vec<u8> {
        let mut builder = tar::Builder::new(Vec::new());
        let mut header = tar::Header::new_gnu();
        header.set_size(size);
        header.set_mode(0o644);
        header.set_cksum();
        builder
            .append_data(
                &mut header,
                "configs/zeros",
                std::io::Read::take(std::io::repeat(0), size),
            )
            .expect("archived");
        builder.into_inner().expect("a tar")
    }

    /// Serves one image whose manifest is `manifest_body` and whose blobs are the
    /// config and `layer` (answered by `layer_answer`).
    fn serve_image(
        manifest_body: Vec<u8>,
        layer: Vec<u8>,
        layer_answer: impl Fn(&[u8]) -> Answer + Send + Sync + 'static,
    ) -> String {
        let config_path = format!("/v2/test/image/blobs/{}", digest(CONFIG));
        let layer_path = format!("/v2/test/image/blobs/{}", digest(&layer));
        let registry = fake_registry::start(move |path| {
            if path.starts_with("/v2/test/image/manifests/") {
                Answer::Body(MANIFEST_TYPE, manifest_body.clone())
            } else if path == config_path {
                Answer::Body("application/octet-stream", CONFIG.to_vec())
            } else if path == layer_path {
                layer_answer(&layer)
            } else {
                Answer::NotFound
            }
        });
        format!("{}/test/image", registry.address)
    }

    fn body(layer: &[u8]) -> Answer {
        Answer::Body("application/octet-stream", layer.to_vec())
    }

    fn pull(reference: &str, env: &[(&str, &str)]) -> std::process::Output {
        let cache = tempfile::tempdir().expect("a cache");
        let mut command = fbc();
        command
            .env("XDG_CACHE_HOME", cache.path())
            .args(["render", "--use-http", reference]);
        for (name, value) in env {
            command.env(name, value);
        }
        run_within(&mut command, Duration::from_secs(60))
    }

    /// The `what` request failed with `message`, the timeout of a whole request;
    /// or, for a registry that fell silent for `FBC_PULL_TIMEOUT` (the client's
    /// read timeout, as long: either can fire first; and a dripping registry whose
    /// thread a loaded machine does not run for that long), as silent.
    fn assert_timed_out(output: &std::process::Output, seconds: u32, what: &str, message: &str) {
        let silent = format!(
            "the registry sent nothing for {seconds} s during the {what} request (FBC_PULL_TIMEOUT)"
        );
        if stderr(output).contains(&silent) {
            assert_pull_fails(output, &silent);
        } else {
            assert_pull_fails(output, message);
        }
    }

    fn assert_pull_fails(output: &std::process::Output, message: &str) {
        assert_eq!(output.status.code(), Some(2), "{}", stderr(output));
        assert_eq!(stdout(output), "");
        assert!(
            stderr(output).contains(message),
            "expected {message:?} in:\n{}",
            stderr(output)
        );
    }

    #[test]
    fn a_manifest_that_does_not_match_its_digest_is_refused() {
        let layer = gzip(&tar_of_zeros(10));
        let reference = serve_image(manifest(CONFIG, &layer), layer, body);
        let pinned = format!("{reference}@sha256:{}", "0".repeat(64));
        let output = pull(&pinned, &[]);
        assert_pull_fails(&output, &format!("failed to pull image \"{pinned}\""));
        assert_pull_fails(&output, "does not match its digest");
    }

    #[test]
    fn a_layer_that_is_larger_than_declared_is_refused() {
        let layer = gzip(&tar_of_zeros(10));
        let mut declared =
            serde_json::from_slice::<serde_json::Value>(&manifest(CONFIG, &layer)).expect("JSON");
        declared["layers"][0]["size"] = serde_json::json!(layer.len() - 8);
        let reference = serve_image(serde_json::to_vec(&declared).expect("JSON"), layer, body);
        let output = pull(&format!("{reference}:v1"), &[]);
        assert_pull_fails(&output, "more than the");
    }

    #[test]
    fn a_gzip_bomb_stops_at_the_image_size_limit() {
        // 256 MiB of zeros, about 256 KiB compressed.
        let layer = gzip(&tar_of_zeros(256 << 20));
        let reference = serve_image(manifest(CONFIG, &layer), layer, body);
        let output = pull(
            &format!("{reference}:v1"),
            &[("FBC_MAX_IMAGE_SIZE", "16MiB")],
        );
        assert_pull_fails(
            &output,
            "the layers unpack to more than 16 MiB (FBC_MAX_IMAGE_SIZE",
        );
        // The declared sizes are checked before anything is downloaded.
        let output = pull(
            &format!("{reference}:v1"),
            &[("FBC_MAX_IMAGE_SIZE", "1KiB")],
        );
        assert_pull_fails(
            &output,
            "more than the 1 KiB that FBC_MAX_IMAGE_SIZE allows",
        );
    }

    /// A layer entry: path, kind, and content or link target.
    type Entry<'a> = (&'a str, tar::EntryType, &'a str);

    /// A tar of `entries`, names written raw so that `..` and absolute paths go
    /// in as they are.
    fn tar_with(entries: &[Entry<'_>]) -> Vec<u8> {
        let mut builder = tar::Builder::new(Vec::new());
        for (path, kind, data) in entries {
            let mut header = tar::Header::new_gnu();
            header.set_entry_type(*kind);
            header.set_mode(0o644);
            header.as_old_mut().name[..path.len()].copy_from_slice(path.as_bytes());
            if kind.is_symlink() || kind.is_hard_link() {
                header.set_size(0);
                header.set_link_name(data).expect("a link name");
                header.set_cksum();
                builder.append(&header, std::io::empty()).expect("an entry");
            } else {
                header.set_size(data.len() as u64);
                header.set_cksum();
                builder.append(&header, data.as_bytes()).expect("an entry");
            }
        }
        builder.into_inner().expect("a tar")
    }

    #[test]
    fn layers_that_reach_outside_the_image_are_refused() {
        use tar::EntryType::{Link, Regular, Symlink};
        let cases: &[(&[Entry<'_>], &str)] = &[
            (
                &[("configs/../../evil", Regular, "x")],
                "layer entry \"configs/../../evil\" would be written outside the image root",
            ),
            (
                &[("/tmp/evil", Regular, "x")],
                "layer entry \"/tmp/evil\" would be written outside the image root",
            ),
            (
                &[("configs", Symlink, "/etc")],
                "layer entry \"configs\" is a link to \"/etc\", outside the image root",
            ),
            (
                &[("configs/passwd", Link, "/etc/passwd")],
                "layer entry \"configs/passwd\" is a link to \"/etc/passwd\", outside the image root",
            ),
            (
                &[("up", Symlink, "."), ("up/configs/x", Regular, "x")],
                "layer entry \"up/configs/x\" would be written through the link \"up\"",
            ),
            (
                &[("a/b", Symlink, ".."), ("configs", Symlink, "a/b/..")],
                "layer entry \"configs\" is a link to \"a/b/..\", outside the image root",
            ),
        ];
        for (entries, message) in cases {
            let layer = gzip(&tar_with(entries));
            let reference = serve_image(manifest(CONFIG, &layer), layer, body);
            let output = pull(&format!("{reference}:v1"), &[]);
            assert_pull_fails(&output, "failed to unpack image");
            assert_pull_fails(&output, message);
        }
    }

    #[test]
    fn a_truncated_layer_is_refused() {
        let whole = gzip(&tar_of_zeros(1 << 20));
        let layer = whole[..whole.len() / 2].to_vec();
        let reference = serve_image(manifest(CONFIG, &layer), layer, body);
        let output = pull(&format!("{reference}:v1"), &[]);
        assert_pull_fails(&output, "failed to unpack image");
    }

    #[test]
    fn a_registry_that_stalls_times_out_with_a_message() {
        let registry = fake_registry::start(|_| Answer::Stall {
            sent: Vec::new(),
            total: 100,
        });
        let reference = format!("{}/test/image:v1", registry.address);
        let started = Instant::now();
        let output = pull(&reference, &[("FBC_PULL_TIMEOUT", "1")]);
        assert!(started.elapsed() < Duration::from_secs(30));
        assert_pull_fails(&output, &format!("failed to pull image \"{reference}\""));
        assert_timed_out(
            &output,
            1,
            "manifest",
            "did not finish the manifest request within 1 s (FBC_PULL_TIMEOUT)",
        );
    }

    /// A manifest without end, and a config declared as 7 GB: neither is buffered
    /// beyond its bound (4 MiB for a manifest, `FBC_MAX_FILE_SIZE` for a config).
    #[test]
    fn endless_manifests_and_huge_configs_are_refused() {
        let endless = fake_registry::start(|_| Answer::Endless(MANIFEST_TYPE));
        let reference = format!("{}/test/image:v1", endless.address);
        let started = Instant::now();
        let output = pull(&reference, &[]);
        assert!(started.elapsed() < Duration::from_secs(30));
        assert_pull_fails(&output, "is larger than 4 MiB");

        let layer = gzip(&tar_of_zeros(10));
        let mut declared =
            serde_json::from_slice::<serde_json::Value>(&manifest(CONFIG, &layer)).expect("JSON");
        declared["config"]["size"] = serde_json::json!(7_000_000_000_u64);
        let reference = serve_image(serde_json::to_vec(&declared).expect("JSON"), layer, body);
        let output = pull(
            &format!("{reference}:v1"),
            &[("FBC_MAX_FILE_SIZE", "100MB")],
        );
        assert_pull_fails(
            &output,
            "the image config is declared as 7000000000 bytes, more than the 100000000 bytes that FBC_MAX_FILE_SIZE allows",
        );
    }

    /// A registry that keeps the connection alive with a byte every half second is
    /// never silent for `FBC_PULL_TIMEOUT`: the timeout bounds the whole request.
    #[test]
    fn a_registry_that_drips_times_out_with_a_message() {
        let layer = gzip(&tar_of_zeros(10));
        let manifest_body = manifest(CONFIG, &layer);
        let dripping_manifest = fake_registry::start(move |_| {
            Answer::Drip(
                MANIFEST_TYPE,
                manifest_body.clone(),
                Duration::from_millis(500),
            )
        });
        let reference = format!("{}/test/image:v1", dripping_manifest.address);
        let started = Instant::now();
        let output = pull(&reference, &[("FBC_PULL_TIMEOUT", "2")]);
        assert!(started.elapsed() < Duration::from_secs(20));
        assert_timed_out(
            &output,
            2,
            "manifest",
            "did not finish the manifest request within 2 s (FBC_PULL_TIMEOUT)",
        );

        let reference = serve_image(manifest(CONFIG, &layer), layer, |layer| {
            Answer::Drip(
                "application/octet-stream",
                layer.to_vec(),
                Duration::from_millis(500),
            )
        });
        let started = Instant::now();
        let output = pull(&format!("{reference}:v1"), &[("FBC_PULL_TIMEOUT", "2")]);
        assert!(started.elapsed() < Duration::from_secs(20));
        assert_timed_out(
            &output,
            2,
            "layer",
            "did not finish the layer request within 2 s (FBC_PULL_TIMEOUT, plus a second per 64 KiB of the layer)",
        );
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut found = Vec::new();
        if let Ok(listing) = std::fs::read_dir(dir) {
            for entry in listing.flatten() {
                found.push(entry.path().display().to_string());
                if entry.file_type().is_ok_and(|kind| kind.is_dir()) {
                    found.extend(entries(&entry.path()));
                }
            }
        }
        found
    }

    /// SIGINT or SIGTERM while a layer of many files is being unpacked: the
    /// workers stop before their directory is removed, so nothing is left.
    #[test]
    fn a_signal_during_an_unpack_leaves_nothing() {
        let mut builder = tar::Builder::new(Vec::new());
        for index in 0..20_000 {
            let mut header = tar::Header::new_gnu();
            header.set_size(64);
            header.set_mode(0o644);
            header.set_cksum();
            let path = format!("configs/d{}/f{index}.json", index % 100);
            builder
                .append_data(&mut header, path, &[b' '; 64][..])
                .expect("archived");
        }
        let layer = gzip(&builder.into_inner().expect("a tar"));
        let reference = serve_image(manifest(CONFIG, &layer), layer, body);
        for signal in ["-INT", "-TERM", "-INT", "-TERM"] {
            let temp = tempfile::tempdir().expect("a directory");
            let mut child = fbc()
                .env("TMPDIR", temp.path())
                .args([
                    "render",
                    "--use-http",
                    "--no-cache",
                    &format!("{reference}:v1"),
                ])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("fbc runs");
            // Wait until files are being unpacked.
            let deadline = Instant::now() + Duration::from_secs(30);
            while entries(temp.path()).len() < 50 {
                assert!(Instant::now() < deadline, "no unpack started");
                std::thread::sleep(Duration::from_millis(5));
            }
            let killed = Command::new("kill")
                .args([signal, &child.id().to_string()])
                .status()
                .expect("kill runs");
            assert!(killed.success());
            let status = child.wait().expect("fbc ends");
            let left = entries(temp.path());
            assert!(
                left.is_empty(),
                "{signal}: {} left, e.g. {:?}",
                left.len(),
                left.first()
            );
            // Interrupted (130), unless the unpack had just finished.
            assert!(matches!(status.code(), Some(130 | 0)), "{signal}: {status}");
        }
    }

    #[test]
    fn ctrl_c_during_a_pull_leaves_no_partial_file() {
        let layer = gzip(&tar_of_zeros(1 << 20));
        let reference = serve_image(manifest(CONFIG, &layer), layer, |layer| Answer::Stall {
            sent: layer[..layer.len() / 2].to_vec(),
            total: layer.len(),
        });
        for no_cache in [false, true] {
            let scratch = tempfile::tempdir().expect("a directory");
            let (cache, temp) = (scratch.path().join("cache"), scratch.path().join("tmp"));
            std::fs::create_dir(&temp).expect("created");
            let mut command = fbc();
            command
                .env("XDG_CACHE_HOME", &cache)
                .env("TMPDIR", &temp)
                .args(["render", "--use-http"])
                .args(no_cache.then_some("--no-cache"))
                .arg(format!("{reference}:v1"))
                .stdout(Stdio::null())
                .stderr(Stdio::null());
            let mut child = command.spawn().expect("fbc runs");
            // Wait until the download has started: a partial file exists.
            let deadline = Instant::now() + Duration::from_secs(30);
            let partial = || {
                let downloads = cache.join("fbc/blobs/sha256");
                let started = if no_cache { &temp } else { &downloads };
                !entries(started).is_empty()
            };
            while !partial() {
                assert!(
                    Instant::now() < deadline,
                    "no download started: {:?}",
                    entries(scratch.path())
                );
                std::thread::sleep(Duration::from_millis(20));
            }
            let killed = Command::new("kill")
                .args(["-INT", &child.id().to_string()])
                .status()
                .expect("kill runs");
            assert!(killed.success());
            let status = child.wait().expect("fbc ends");
            assert_eq!(status.code(), Some(130));
            let left: Vec<String> = entries(scratch.path())
                .into_iter()
                .filter(|path| !Path::new(path).is_dir())
                .collect();
            assert!(left.is_empty(), "left behind: {left:?}");
        }
    }
}

/// Findings beyond `FBC_FINDINGS_IN_MEMORY` wait in unnamed temporary files: with
/// none kept in memory every report reads as with all of them kept, nothing is
/// left in `$TMPDIR`, and a `$TMPDIR` that cannot be written keeps them in memory.
#[test]
fn findings_written_away_report_as_findings_held() {
    let mut text = String::new();
    for number in 0..200 {
        // A package without channels, and a bundle of a missing package with a
        // tag for an image: errors, warnings and opm's tree in one group and many.
        write!(
            text,
            r#"{{"schema":"olm.package","name":"p{number:04}"}}{{"schema":"olm.bundle","name":"b{number}","package":"zz","image":"q.io/b:{number}"}}"#
        )
        .expect("written");
    }
    let dir = catalog_with("catalog.json", text.as_bytes());
    let temp = tempfile::tempdir().expect("a directory");
    let validate = |format: &str, budget: &str, tmpdir: &Path| {
        run_within(
            fbc()
                .env("FBC_FINDINGS_IN_MEMORY", budget)
                .env("TMPDIR", tmpdir)
                .args(["validate", "-o", format])
                .arg(dir.path())
                .arg(dir.path()),
            Duration::from_secs(120),
        )
    };
    for format in ["text", "json", "yaml", "sarif", "github", "gitlab"] {
        let held = validate(format, "1GiB", temp.path());
        assert_eq!(held.status.code(), Some(1), "{format}: {}", stderr(&held));
        for (budget, tmpdir) in [
            ("0", temp.path()),
            ("3KiB", temp.path()),
            ("0", Path::new("/nonexistent")),
        ] {
            let written = validate(format, budget, tmpdir);
            assert_eq!(written.status.code(), Some(1), "{format} {budget}");
            assert_eq!(
                written.stdout,
                held.stdout,
                "{format} {budget} {}",
                tmpdir.display()
            );
            assert_eq!(
                written.stderr,
                held.stderr,
                "{format} {budget} {}",
                tmpdir.display()
            );
        }
    }
    let left: Vec<_> = std::fs::read_dir(temp.path()).expect("listed").collect();
    assert!(left.is_empty(), "{left:?}");
}

/// Commands that look up package after package cost what the catalog does: diff
/// of 10,000 changed packages, `--every-bundle` over them and `graph -o json`
/// each read the whole catalog per package before (a minute and more for 40,000
/// here in a debug build; seconds now). The deadline only stops a hang.
#[test]
fn per_package_lookups_take_linear_time() {
    let catalog = |version: &str| {
        let mut text = String::new();
        for number in 0..10_000 {
            writeln!(
                text,
                r#"{{"schema":"olm.package","name":"p{number}","defaultChannel":"s"}}
{{"schema":"olm.channel","name":"s","package":"p{number}","entries":[{{"name":"p{number}.v{version}"}}]}}
{{"schema":"olm.bundle","name":"p{number}.v{version}","package":"p{number}","image":"q.io/p@sha256:{}","properties":[{{"type":"olm.package","value":{{"packageName":"p{number}","version":"{version}"}}}}]}}"#,
                "a".repeat(64)
            )
            .expect("written");
        }
        catalog_with("catalog.json", text.as_bytes())
    };
    let (old, new) = (catalog("1.0.0"), catalog("1.0.1"));
    let deadline = Duration::from_secs(120);
    let diff = run_within(
        fbc()
            .args(["diff", "-o", "json"])
            .arg(old.path())
            .arg(new.path()),
        deadline,
    );
    assert!(
        diff.status.code().is_some_and(|code| code < 2),
        "{}",
        stderr(&diff)
    );
    let report: serde_json::Value = serde_json::from_slice(&diff.stdout).expect("JSON");
    assert_eq!(report["packages"].as_array().map(Vec::len), Some(10_000));
    let walks = run_within(
        fbc()
            .args(["alpha", "upgrade-path", "--every-bundle"])
            .arg(old.path()),
        deadline,
    );
    assert_eq!(walks.status.code(), Some(0), "{}", stderr(&walks));
    assert!(
        stdout(&walks).contains("10000 starting points"),
        "{}",
        stderr(&walks)
    );
    let graph = run_within(
        fbc().args(["graph", "-o", "json"]).arg(new.path()),
        deadline,
    );
    assert_eq!(graph.status.code(), Some(0), "{}", stderr(&graph));
    let graph: serde_json::Value = serde_json::from_slice(&graph.stdout).expect("JSON");
    assert_eq!(graph["nodes"].as_array().map(Vec::len), Some(10_000));
}

/// Every installation of a long channel walks to the head along shared tails: a
/// channel of 3,000 entries with one new head (cubic before: 1,000 entries took
/// over 30 s, 2,000 never finished).
#[test]
fn a_long_channel_diffs_in_linear_time() {
    let catalog = |entries: usize| {
        let mut text = String::from(r#"{"schema":"olm.package","name":"p","defaultChannel":"s"}"#);
        let mut channel = Vec::new();
        for number in 0..entries {
            let replaces = if number == 0 {
                String::new()
            } else {
                format!(r#","replaces":"p.v1.0.{}""#, number - 1)
            };
            channel.push(format!(r#"{{"name":"p.v1.0.{number}"{replaces}}}"#));
            write!(
                text,
                r#"
{{"schema":"olm.bundle","name":"p.v1.0.{number}","package":"p","image":"q.io/p@sha256:{}","properties":[{{"type":"olm.package","value":{{"packageName":"p","version":"1.0.{number}"}}}}]}}"#,
                "a".repeat(64)
            )
            .expect("written");
        }
        write!(
            text,
            r#"
{{"schema":"olm.channel","name":"s","package":"p","entries":[{}]}}
"#,
            channel.join(",")
        )
        .expect("written");
        catalog_with("catalog.json", text.as_bytes())
    };
    let (old, new) = (catalog(3_000), catalog(3_001));
    let diff = run_within(
        fbc().arg("diff").arg(old.path()).arg(new.path()),
        Duration::from_secs(60),
    );
    assert_eq!(diff.status.code(), Some(0), "{}", stderr(&diff));
    assert!(
        stdout(&diff).contains("3000 installation(s) checked, 0 no longer reach the head"),
        "{}",
        stdout(&diff)
    );
}

/// A registries.conf of 40,000 `[[registry]]` tables, and a drop-in repeating
/// them, load in linear time (the duplicate-prefix checks took 26 s for 80,000).
#[test]
fn a_huge_registries_conf_loads_in_linear_time() {
    let dir = tempfile::tempdir().expect("a directory");
    let mut text = String::new();
    for number in 0..40_000 {
        writeln!(
            text,
            "[[registry]]\nprefix = \"r{number}.example.com/x\"\nlocation = \"r{number}.example.com/x\"\n"
        )
        .expect("written");
    }
    std::fs::write(dir.path().join("registries.conf"), &text).expect("written");
    std::fs::create_dir(dir.path().join("registries.conf.d")).expect("created");
    std::fs::write(dir.path().join("registries.conf.d/again.conf"), &text).expect("written");
    // Nothing listens on port 9 of the loopback: the pull fails once loaded.
    let output = run_within(
        fbc()
            .args(["render", "127.0.0.1:9/x/y:1"])
            .env(
                "CONTAINERS_REGISTRIES_CONF",
                dir.path().join("registries.conf"),
            )
            .env("XDG_CACHE_HOME", dir.path()),
        Duration::from_secs(60),
    );
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("127.0.0.1:9"),
        "{}",
        stderr(&output)
    );
}

/// A CEL rule nesting `properties.all` five deep, against a bundle with 42
/// properties, would evaluate its body 42^5 (130 million) times: the rule's cost
/// bound is charged to the step budget first, and the search gives up at once.
#[test]
fn nested_cel_comprehensions_are_bounded_by_the_step_budget() {
    let rule = "properties.all(a, properties.all(b, properties.all(c, properties.all(d, \
                properties.all(e, e.type != 'x')))))";
    let mut catalog = String::new();
    let _ = writeln!(
        catalog,
        r#"{{"schema":"olm.package","name":"gadget","defaultChannel":"stable"}}
{{"schema":"olm.channel","name":"stable","package":"gadget","entries":[{{"name":"gadget.v1.0.0"}}]}}
{{"schema":"olm.bundle","name":"gadget.v1.0.0","package":"gadget","image":"quay.io/x/gadget@sha256:{digest}","properties":[{{"type":"olm.package","value":{{"packageName":"gadget","version":"1.0.0"}}}},{{"type":"olm.constraint","value":{{"failureMessage":"needs a gizmo","cel":{{"rule":"{rule}"}}}}}}]}}
{{"schema":"olm.package","name":"gizmo","defaultChannel":"stable"}}
{{"schema":"olm.channel","name":"stable","package":"gizmo","entries":[{{"name":"gizmo.v1.0.0"}}]}}"#,
        digest = "a".repeat(64)
    );
    let labels: Vec<String> = (0..40)
        .map(|i| format!(r#"{{"type":"olm.label","value":{{"label":"l{i}"}}}}"#))
        .collect();
    let _ = writeln!(
        catalog,
        r#"{{"schema":"olm.bundle","name":"gizmo.v1.0.0","package":"gizmo","image":"quay.io/x/gizmo@sha256:{digest}","properties":[{{"type":"olm.package","value":{{"packageName":"gizmo","version":"1.0.0"}}}},{{"type":"olm.gvk","value":{{"group":"g","kind":"K","version":"v1"}}}},{labels}]}}"#,
        digest = "a".repeat(64),
        labels = labels.join(",")
    );
    let dir = catalog_with("catalog.json", catalog.as_bytes());
    let output = run_within(
        fbc().args([
            "validate",
            "--check-dependencies",
            dir.path().to_str().expect("UTF-8 path"),
        ]),
        Duration::from_secs(60),
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        stderr(&output).contains(
            "warning[dependency-search-gave-up]: the dependency search for channel head \
             gadget.v1.0.0 of package gadget (channel stable) gave up after 20000000 steps"
        ),
        "{}",
        stderr(&output)
    );
}

/// `render-template --check` against a file in which every one of 20,000
/// packages changed: the diff anchors on lines found once on each side (11 s in
/// a release build when it searched the whole file for the shortest diff).
#[test]
fn a_check_with_thousands_of_changed_blobs_stays_fast() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (mut template, mut committed) = (
        String::from("schema: olm.template.basic\nentries:\n"),
        String::new(),
    );
    for i in 0..20_000 {
        let _ = write!(
            template,
            "- schema: olm.package\n  name: p{i:05}\n  defaultChannel: stable\n  description: new\n"
        );
        let _ = write!(
            committed,
            "---\ndefaultChannel: stable\ndescription: old\nname: p{i:05}\nschema: olm.package\n"
        );
    }
    std::fs::write(dir.path().join("t.yaml"), template).expect("write");
    std::fs::write(dir.path().join("c.yaml"), committed).expect("write");
    let output = run_within(
        fbc().current_dir(dir.path()).args([
            "alpha",
            "render-template",
            "basic",
            "t.yaml",
            "--check",
            "c.yaml",
        ]),
        Duration::from_secs(60),
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let diff = stdout(&output);
    assert_eq!(
        diff.matches("\n-description: old\n+description: new\n")
            .count(),
        20_000
    );
    assert_eq!(
        diff.lines()
            .filter(|line| line.starts_with(['-', '+']))
            .count(),
        40_002
    );
}
