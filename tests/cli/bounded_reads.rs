//! Every file fbc reads besides catalog files goes through one bounded reader:
//! regular files only (a FIFO is refused without waiting for a writer, devices and
//! /proc are refused), at most `FBC_MAX_FILE_SIZE` bytes, stdin included. Each case
//! used to block for ever, read without end or print what it read.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::hostile::run_within;
use crate::{fbc, stderr, stdout};

const DEADLINE: Duration = Duration::from_secs(60);

/// A basic template that renders without pulling anything.
const TEMPLATE: &str =
    "schema: olm.template.basic\nentries:\n  - schema: olm.package\n    name: p\n";

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", path.display());
}

fn assert_exit_2(output: &std::process::Output, message: &str) {
    assert_eq!(output.status.code(), Some(2), "{}", stderr(output));
    assert!(
        stderr(output).contains(message),
        "expected {message:?} in:\n{}",
        stderr(output)
    );
}

#[test]
fn check_reads_a_regular_file_only_and_never_through_a_link() {
    let dir = tempfile::tempdir().expect("a directory");
    let template = dir.path().join("template.yaml");
    std::fs::write(&template, TEMPLATE).expect("written");
    std::os::unix::fs::symlink("/proc/self/environ", dir.path().join("environ.json"))
        .expect("a link");
    mkfifo(&dir.path().join("fifo.json"));
    let cases = [
        (
            "environ.json",
            "environ.json: a symbolic link, which --check does not follow",
        ),
        (
            "fifo.json",
            "fifo.json: a FIFO, not a regular file: fbc reads regular files only",
        ),
        (
            "/dev/zero",
            "/dev/zero: a device, not a regular file: fbc reads regular files only",
        ),
    ];
    for (committed, message) in cases {
        let output = run_within(
            fbc()
                .current_dir(dir.path())
                .env("FBC_SECRET_IN_THE_ENVIRONMENT", "s3cr3t")
                .args(["alpha", "render-template", "template.yaml", "--check"])
                .arg(committed),
            DEADLINE,
        );
        assert_exit_2(&output, message);
        assert_eq!(stdout(&output), "", "{committed}: nothing printed");
        assert!(!stderr(&output).contains("s3cr3t"));
    }
}

#[test]
fn an_endless_template_on_stdin_stops_at_the_size_limit() {
    let mut command = fbc();
    command
        .args(["alpha", "render-template", "basic"])
        .env("FBC_MAX_FILE_SIZE", "1MiB");
    let mut child = command
        .stdin(Stdio::from(
            std::fs::File::open("/dev/zero").expect("/dev/zero"),
        ))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("fbc runs");
    let started = std::time::Instant::now();
    while child.try_wait().expect("waitable").is_none() {
        if started.elapsed() > DEADLINE {
            let _ = child.kill();
            panic!("fbc read stdin for over {DEADLINE:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().expect("fbc ends");
    assert_exit_2(
        &output,
        "<stdin>: larger than 1 MiB (FBC_MAX_FILE_SIZE raises the limit)",
    );
}

#[test]
fn oci_layouts_with_fifos_or_devices_are_refused_without_blocking() {
    // index.json a FIFO, then a link to /dev/zero.
    let link_to_zero = |path: &Path| {
        std::os::unix::fs::symlink("/dev/zero", path).expect("a link");
    };
    for make in [mkfifo as fn(&Path), link_to_zero] {
        let layout = tempfile::tempdir().expect("a directory");
        crate::image_sources::oci_layout(layout.path(), "v1");
        let index = layout.path().join("index.json");
        std::fs::remove_file(&index).expect("removed");
        make(&index);
        let output = run_within(
            fbc()
                .arg("render")
                .arg(format!("oci:{}:v1", layout.path().display())),
            DEADLINE,
        );
        assert_exit_2(&output, "index.json: a ");
        assert!(stderr(&output).contains("not a regular file"));
    }
    // Every blob a FIFO: the manifest's is read first.
    let layout = tempfile::tempdir().expect("a directory");
    crate::image_sources::oci_layout(layout.path(), "v1");
    for blob in std::fs::read_dir(layout.path().join("blobs/sha256")).expect("blobs") {
        let blob = blob.expect("an entry").path();
        std::fs::remove_file(&blob).expect("removed");
        mkfifo(&blob);
    }
    let output = run_within(
        fbc()
            .arg("render")
            .arg(format!("oci:{}:v1", layout.path().display())),
        DEADLINE,
    );
    assert_exit_2(&output, "a FIFO, not a regular file");
}

#[test]
fn a_sparse_config_in_a_docker_archive_is_read_within_the_limit() {
    let dir = tempfile::tempdir().expect("a directory");
    let config = "0000000000000000000000000000000000000000000000000000000000000000.json";
    std::fs::write(
        dir.path().join("manifest.json"),
        format!(r#"[{{"Config":"{config}","RepoTags":["x:1"],"Layers":[]}}]"#),
    )
    .expect("written");
    // 4 GiB of holes: a few blocks in the archive, 4 GiB when read.
    std::fs::File::create(dir.path().join(config))
        .expect("created")
        .set_len(4 << 30)
        .expect("sized");
    let archived = Command::new("tar")
        .current_dir(dir.path())
        .args([
            "--sparse",
            "--format=gnu",
            "-cf",
            "image.tar",
            "manifest.json",
            config,
        ])
        .status()
        .expect("tar runs");
    assert!(archived.success());
    let size = std::fs::metadata(dir.path().join("image.tar"))
        .expect("the archive")
        .len();
    assert!(size < 1 << 20, "the archive is sparse: {size} bytes");
    let output = run_within(
        fbc()
            .arg("render")
            .arg(format!(
                "docker-archive:{}",
                dir.path().join("image.tar").display()
            ))
            .env("FBC_MAX_FILE_SIZE", "1MiB"),
        DEADLINE,
    );
    assert_exit_2(&output, &format!("{config}: larger than 1 MiB"));
}

#[test]
fn registries_conf_and_cache_entries_that_are_fifos_never_block() {
    let dir = tempfile::tempdir().expect("a directory");
    let conf = dir.path().join("registries.conf");
    mkfifo(&conf);
    // Nothing listens on port 9 of the loopback: a pull fails at once.
    let reference = format!("127.0.0.1:9/x/y@sha256:{}", "a".repeat(64));
    let output = run_within(
        fbc()
            .args(["render", &reference])
            .env("CONTAINERS_REGISTRIES_CONF", &conf)
            .env("XDG_CACHE_HOME", dir.path()),
        DEADLINE,
    );
    assert_exit_2(
        &output,
        "registries.conf: a FIFO, not a regular file: fbc reads regular files only",
    );
    // The cache's record of what the digest resolved to, a FIFO.
    let resolved = dir.path().join("fbc/resolved");
    std::fs::create_dir_all(&resolved).expect("created");
    mkfifo(&resolved.join("a".repeat(64)));
    let output = run_within(
        fbc()
            .args(["render", "--use-http", &reference])
            .env("CONTAINERS_REGISTRIES_CONF", dir.path().join("none.conf"))
            .env("XDG_CACHE_HOME", dir.path()),
        DEADLINE,
    );
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("127.0.0.1:9"),
        "{}",
        stderr(&output)
    );
}
