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

/// Expects exit 2 with `message` (and no output), for render and for validate.
fn assert_refused(dir: &Path, message: &str) {
    for command in ["render", "validate"] {
        let output = run_within(fbc().arg(command).arg(dir), Duration::from_secs(60));
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
    let block: String = (0..100_000)
        .map(|level| " ".repeat(level % 2000) + "- \n")
        .collect();
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
