//! `fbc serve`: started on a port it chooses on 127.0.0.1's host, asked by a client
//! fbc did not write (tests/serve/probe.py: Python's grpcio), and stopped by
//! process id. The answers are compared record by record with opm's
//! (`../shared/corpus/serve/expected/`).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::{corpus, fbc, run, stderr};

/// A running `fbc serve`, stopped (SIGKILL) when dropped if a test did not stop it.
pub(crate) struct Server {
    child: Child,
    port: u16,
    log: Arc<Mutex<String>>,
}

impl Server {
    /// Starts serving `directory` on a port the system chooses, and waits until
    /// the server says it serves (the port opens only then).
    pub(crate) fn start(directory: &Path, extra: &[&str]) -> Server {
        Server::start_with(directory, extra, &[])
    }

    /// [`Server::start`] with environment variables set.
    fn start_with(directory: &Path, extra: &[&str], env: &[(&str, &str)]) -> Server {
        let log_dir = tempfile::tempdir().expect("a temporary directory");
        let mut child = fbc()
            .arg("serve")
            .arg(directory)
            .args(["-p", "0", "-t"])
            .arg(log_dir.path().join("termination-log"))
            .args(extra)
            .envs(env.iter().copied())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("fbc serve starts");
        let log = Arc::new(Mutex::new(String::new()));
        let stream = child.stderr.take().expect("piped stderr");
        let (sender, receiver) = std::sync::mpsc::channel();
        let shared = Arc::clone(&log);
        std::thread::spawn(move || {
            for line in BufReader::new(stream).lines().map_while(Result::ok) {
                if line.contains("msg=\"serving registry\"") {
                    let _ = sender.send(line.clone());
                }
                if let Ok(mut log) = shared.lock() {
                    log.push_str(&line);
                    log.push('\n');
                }
            }
        });
        let line = receiver
            .recv_timeout(Duration::from_secs(120))
            .unwrap_or_else(|_| {
                let _ = child.kill();
                panic!("fbc serve did not start: {}", log.lock().expect("log"))
            });
        let port = line
            .split_whitespace()
            .find_map(|field| field.strip_prefix("port="))
            .and_then(|port| port.parse().ok())
            .expect("the serving line names the port");
        Server { child, port, log }
    }

    /// The HTTP view's port, from its log line.
    fn http_port(&self) -> String {
        let log = self.log();
        log.lines()
            .find(|line| line.contains("msg=\"serving the catalog over HTTP\""))
            .and_then(|line| {
                line.split_whitespace()
                    .find_map(|field| field.strip_prefix("port="))
            })
            .unwrap_or_else(|| panic!("the log names the HTTP port: {log}"))
            .to_owned()
    }

    pub(crate) fn address(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    pub(crate) fn log(&self) -> String {
        self.log.lock().expect("log").clone()
    }

    /// Peak resident memory so far, in kB (Linux's `VmHWM`).
    fn peak_kb(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("the server's /proc status");
        status
            .lines()
            .find_map(|line| line.strip_prefix("VmHWM:"))
            .and_then(|value| value.trim().trim_end_matches(" kB").trim().parse().ok())
            .expect("VmHWM")
    }

    /// SIGTERM, then the exit status (within 20 s: the grace period is 10 s).
    pub(crate) fn stop(mut self) -> ExitStatus {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success());
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "the server did not stop on SIGTERM"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

pub(crate) fn probe(args: &[&str]) -> std::process::Output {
    Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/serve/probe.py"))
        .args(args)
        .output()
        .expect("python3 runs")
}

fn served_catalog(name: &str) -> PathBuf {
    if name == "fixture" {
        corpus().join("serve/fixture")
    } else {
        corpus().join("catalogs").join(name)
    }
}

/// Every request of the serve corpus, answered as opm answers it.
fn answers_as_opm(name: &str, schemas: &[&str]) {
    answers_as_opm_with(name, schemas, &[]);
}

/// [`answers_as_opm`], the server started with `extra` arguments.
fn answers_as_opm_with(name: &str, schemas: &[&str], extra: &[&str]) {
    let server = Server::start(&served_catalog(name), extra);
    // Served as asked: from the cache's snapshot when one is given.
    assert!(!server.log().contains("level=warning"), "{}", server.log());
    let expected = corpus().join("serve/expected").join(name).join("regprobe");
    let address = server.address();
    let mut args = vec![address.as_str(), expected.to_str().expect("UTF-8 path")];
    for schema in schemas {
        args.extend(["--schema", schema]);
    }
    let output = probe(&args);
    assert!(
        output.status.success(),
        "{name}: answers differ from opm's\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let status = server.stop();
    assert_eq!(status.code(), Some(0), "SIGTERM ends the server with 0");
}

/// Without a temporary directory, the large values (trustee's embedded CRDs)
/// stay in memory, with a warning, and the answers are the same.
#[test]
#[cfg_attr(fbc_no_corpus, ignore = "needs ../shared/corpus")]
#[cfg_attr(fbc_no_grpcio, ignore = "needs python3 with grpcio (see .ci/run)")]
fn large_values_stay_in_memory_without_a_temporary_directory() {
    let name = "trustee-v4.16";
    let server = Server::start_with(
        &served_catalog(name),
        &[],
        &[("TMPDIR", "/nonexistent/fbc-test")],
    );
    assert!(
        server
            .log()
            .contains("no temporary file for large catalog values: they stay in memory"),
        "{}",
        server.log()
    );
    let expected = corpus().join("serve/expected").join(name).join("regprobe");
    let output = probe(&[&server.address(), expected.to_str().expect("UTF-8 path")]);
    assert!(
        output.status.success(),
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(server.stop().code(), Some(0));
}

/// A property value large enough to wait in the temporary file (16 KiB or
/// more) is answered as it was written, whatever its type.
#[test]
#[cfg_attr(fbc_no_grpcio, ignore = "needs python3 with grpcio (see .ci/run)")]
fn large_values_of_any_type_are_answered_whole() {
    large_value_answered_whole(false);
}

/// ... and so it is from the cache, whose snapshot holds a marker in its place.
#[test]
#[cfg_attr(fbc_no_grpcio, ignore = "needs python3 with grpcio (see .ci/run)")]
fn large_values_from_the_cache_are_answered_whole() {
    large_value_answered_whole(true);
}

fn large_value_answered_whole(cached: bool) {
    let catalog = tempfile::tempdir().expect("a temporary directory");
    let text = "0123456789abcdef".repeat(2048);
    let blobs = format!(
        concat!(
            r#"{{"schema":"olm.package","name":"big","defaultChannel":"stable"}}"#,
            "\n",
            r#"{{"schema":"olm.channel","package":"big","name":"stable","entries":[{{"name":"big.v1.0.0"}}]}}"#,
            "\n",
            r#"{{"schema":"olm.bundle","package":"big","name":"big.v1.0.0","image":"example.com/big:v1","#,
            r#""properties":[{{"type":"olm.package","value":{{"packageName":"big","version":"1.0.0"}}}},"#,
            r#"{{"type":"example.com/notes","value":{{"text":"{}"}}}}]}}"#,
            "\n"
        ),
        text
    );
    std::fs::write(catalog.path().join("catalog.json"), blobs).expect("written");
    let cache = cached.then(|| written_cache(catalog.path()));
    let mut args = Vec::new();
    if let Some((dir, arg)) = &cache {
        let values = cache_files(dir.path(), ".values");
        let snapshot = cache_files(dir.path(), ".jsonl");
        let read = |path: &PathBuf| std::fs::read_to_string(path).expect("readable");
        assert!(read(&values[0]).contains(&text));
        assert!(!read(&snapshot[0]).contains(&text));
        args.push(arg.as_str());
    }
    let server = Server::start(catalog.path(), &args);
    let records = tempfile::tempdir().expect("a temporary directory");
    let output = probe(&[
        &server.address(),
        "--write",
        records.path().to_str().expect("UTF-8 path"),
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let listed =
        std::fs::read_to_string(records.path().join("ListBundles.jsonl")).expect("records");
    let value = format!(r#""type":"example.com/notes","value":"{{\"text\":\"{text}\"}}""#);
    assert!(
        listed.contains(&value),
        "{}",
        &listed[..listed.len().min(2000)]
    );
    assert_eq!(server.stop().code(), Some(0));
}

/// A cache of `catalog` written by `--cache-only` (as a catalog image's build
/// stage writes it), and the `--cache-dir` argument naming it.
fn written_cache(catalog: &Path) -> (tempfile::TempDir, String) {
    let cache = tempfile::tempdir().expect("a temporary directory");
    let cache_arg = format!("--cache-dir={}", cache.path().display());
    let output = fbc()
        .arg("serve")
        .arg(catalog)
        .args(["--cache-only", "-t", "/dev/null", &cache_arg])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    (cache, cache_arg)
}

/// The cache's files in `dir` whose names end in `suffix`, in order.
fn cache_files(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("the cache directory")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| {
            path.file_name()
                .and_then(|name| name.to_str())
                .is_some_and(|name| name.starts_with("fbc-serve.") && name.ends_with(suffix))
        })
        .collect();
    files.sort();
    files
}

/// Served from the cache's snapshot (written by `--cache-only`, as a catalog
/// image's build stage does): the same answers, custom schemas included.
#[test]
#[cfg_attr(fbc_no_corpus, ignore = "needs ../shared/corpus")]
#[cfg_attr(fbc_no_grpcio, ignore = "needs python3 with grpcio (see .ci/run)")]
fn answers_from_the_cache_are_opms() {
    for (name, schemas) in [
        ("fixture", &["io.example.custom"][..]),
        ("trustee-v4.16", &[]),
    ] {
        let (cache, cache_arg) = written_cache(&served_catalog(name));
        assert_eq!(cache_files(cache.path(), ".jsonl").len(), 1);
        answers_as_opm_with(name, schemas, &[&cache_arg]);
    }
}

/// Two caches of the same catalog are the same files, byte for byte (a catalog
/// image built twice holds the same layer).
#[test]
#[cfg_attr(fbc_no_corpus, ignore = "needs ../shared/corpus")]
fn the_cache_of_a_catalog_is_reproducible() {
    let catalog = served_catalog("trustee-v4.16");
    let (first, _) = written_cache(&catalog);
    let (second, _) = written_cache(&catalog);
    let contents = |dir: &Path| -> Vec<(std::ffi::OsString, Vec<u8>)> {
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .expect("the cache directory")
            .map(|entry| {
                let path = entry.expect("an entry").path();
                let name = path.file_name().expect("a name").to_owned();
                (name, std::fs::read(&path).expect("readable"))
            })
            .collect();
        files.sort();
        files
    };
    let files = contents(first.path());
    // The digest, one snapshot file and the values (trustee's CRDs).
    assert_eq!(files.len(), 3);
    assert!(
        cache_files(first.path(), ".values")[0]
            .metadata()
            .expect("a file")
            .len()
            > 100_000
    );
    assert!(files == contents(second.path()));
}

#[test]
#[cfg_attr(fbc_no_corpus, ignore = "needs ../shared/corpus")]
#[cfg_attr(fbc_no_grpcio, ignore = "needs python3 with grpcio (see .ci/run)")]
fn fixture_answers_as_opm() {
    answers_as_opm("fixture", &["io.example.custom"]);
}

#[test]
#[cfg_attr(fbc_no_corpus, ignore = "needs ../shared/corpus")]
#[cfg_attr(fbc_no_grpcio, ignore = "needs python3 with grpcio (see .ci/run)")]
fn kueue_answers_as_opm() {
    answers_as_opm("kueue-v4.18", &[]);
}

#[test]
#[cfg_attr(fbc_no_corpus, ignore = "needs ../shared/corpus")]
#[cfg_attr(fbc_no_grpcio, ignore = "needs python3 with grpcio (see .ci/run)")]
fn trustee_answers_as_opm() {
    answers_as_opm("trustee-v4.16", &[]);
}

#[test]
#[cfg_attr(fbc_no_corpus, ignore = "needs ../shared/corpus")]
#[cfg_attr(fbc_no_grpcio, ignore = "needs python3 with grpcio (see .ci/run)")]
fn community_answers_as_opm() {
    answers_as_opm("community-v4.18", &[]);
}

/// 32 clients streaming `ListBundles` at once get the same answer, while a client
/// holds a stream open without reading; the server's memory stays bounded.
#[test]
#[cfg_attr(fbc_no_corpus, ignore = "needs ../shared/corpus")]
#[cfg_attr(fbc_no_grpcio, ignore = "needs python3 with grpcio (see .ci/run)")]
fn concurrent_and_stalled_clients() {
    let server = Server::start(&served_catalog("community-v4.18"), &[]);
    let address = server.address();
    let mut stalled = Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/serve/probe.py"))
        .args([address.as_str(), "--stall", "60"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("python3 runs");
    let mut first = String::new();
    BufReader::new(stalled.stdout.take().expect("piped"))
        .read_line(&mut first)
        .expect("the stalled client reports");
    assert_eq!(first.trim(), "stalled");
    let before = server.peak_kb();
    let output = probe(&[address.as_str(), "--concurrent", "32"]);
    let _ = stalled.kill();
    let _ = stalled.wait();
    assert!(
        output.status.success(),
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let after = server.peak_kb();
    // 32 streams of the whole catalog (about 6 MB each, 190 MB in all) were sent;
    // what the server holds for them is bounded by the connections' windows.
    assert!(
        after < before + 150_000,
        "peak memory grew from {before} kB to {after} kB"
    );
    assert_eq!(server.stop().code(), Some(0));
}

/// Garbage, HTTP/1.1 and a connection that sends nothing close their own
/// connection only: the server answers health checks throughout.
#[test]
#[cfg_attr(fbc_no_corpus, ignore = "needs ../shared/corpus")]
#[cfg_attr(fbc_no_grpcio, ignore = "needs python3 with grpcio (see .ci/run)")]
fn bad_connections_close_alone() {
    let server = Server::start(&served_catalog("fixture"), &[]);
    let address = server.address();
    let half_open = TcpStream::connect(&address).expect("connects");
    for bytes in [
        &b"\x00\xff garbage \r\n\r\n\x16\x03\x01"[..],
        b"GET / HTTP/1.1\r\nHost: x\r\n\r\n",
    ] {
        let mut stream = TcpStream::connect(&address).expect("connects");
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .expect("timeout");
        stream.write_all(bytes).expect("written");
        let mut answer = Vec::new();
        // The server closes the connection (possibly after a GOAWAY frame).
        let _ = stream.read_to_end(&mut answer);
        assert!(answer.len() < 1024, "{answer:?}");
    }
    let output = probe(&[address.as_str(), "--health"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // A silent connection would hold a graceful stop for its grace period.
    drop(half_open);
    assert_eq!(server.stop().code(), Some(0));
}

/// A port in use is a one-line error naming the address, exit 2.
#[test]
fn a_port_in_use_is_refused() {
    let server = Server::start(&super::testdata("examples/hello-catalog"), &[]);
    let port = server.port.to_string();
    let output = run(&[
        "serve",
        "testdata/examples/hello-catalog",
        "-p",
        &port,
        "-t",
        "/dev/null",
    ]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let text = stderr(&output);
    assert!(
        text.contains(&format!(
            "level=fatal msg=\"failed to listen: listen tcp :{port}: bind: "
        )),
        "{text}"
    );
    // The HTTP view's port too, and a catalog name catalogd would not take.
    let output = run(&[
        "serve",
        "testdata/examples/hello-catalog",
        "-p",
        "0",
        "-t",
        "/dev/null",
        "--http-port",
        &port,
    ]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains(&format!("listen tcp :{port}: bind: ")),
        "{}",
        stderr(&output)
    );
    let output = run(&[
        "serve",
        "testdata/examples/hello-catalog",
        "-t",
        "/dev/null",
        "--http-port",
        "0",
        "--catalog-name",
        "Hello_Catalog",
    ]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains(
            "--catalog-name: Hello_Catalog is not a catalog name OLM takes: lower-case letters"
        ),
        "{}",
        stderr(&output)
    );
    assert_eq!(server.stop().code(), Some(0));
}

/// An invalid catalog never opens the port: its findings, then opm's fatal line
/// (also in the termination log), exit 1.
#[test]
fn an_invalid_catalog_is_not_served() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(
        dir.path().join("catalog.json"),
        r#"{"schema":"olm.package","name":"p","defaultChannel":"missing"}"#,
    )
    .expect("written");
    let log = dir.path().join("termination-log");
    let output = fbc()
        .arg("serve")
        .arg(dir.path())
        .args(["-p", "0", "-t"])
        .arg(&log)
        .output()
        .expect("runs");
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(text.contains("catalog.json:1:1"), "{text}");
    assert!(
        text.contains("level=fatal msg=\"build package index: invalid index:"),
        "{text}"
    );
    assert!(!text.contains("serving registry"), "{text}");
    let logged = std::fs::read_to_string(&log).expect("the termination log");
    assert!(logged.contains("level=fatal"), "{logged}");
}

/// `--cache-only` writes the cache and exits; a server whose catalog changed
/// since then refuses to start, naming the file; an empty cache directory (or
/// opm's) is served from the catalog with a warning.
#[test]
fn the_cache_guards_integrity() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let catalog = dir.path().join("configs");
    let cache = dir.path().join("cache");
    std::fs::create_dir(&catalog).expect("created");
    for name in ["package.yaml", "channel.yaml", "bundles.yaml"] {
        std::fs::copy(
            super::testdata("examples/hello-catalog/hello").join(name),
            catalog.join(name),
        )
        .expect("copied");
    }
    let cache_arg = format!("--cache-dir={}", cache.display());
    let serve = |extra: &[&str]| {
        fbc()
            .arg("serve")
            .arg(&catalog)
            .args(["-p", "0", "-t", "/dev/null", &cache_arg])
            .args(extra)
            .output()
            .expect("runs")
    };
    let output = serve(&["--cache-only"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(cache.join("fbc-serve.digest").is_file());

    // Unchanged: served (stopped at once).
    let server = Server::start(&catalog, &[&cache_arg]);
    assert!(!server.log().contains("level=warning"), "{}", server.log());
    assert_eq!(server.stop().code(), Some(0));

    let channel = "schema: olm.channel\npackage: hello\nname: stable\nentries:\n- name: hello.v0.1.0\n- name: hello.v0.2.0\n  skips: [hello.v0.1.0]\n";
    std::fs::write(catalog.join("channel.yaml"), channel).expect("written");
    let output = serve(&[]);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(
        text.contains("integrity check failed: cache requires rebuild: channel.yaml changed"),
        "{text}"
    );
    // Without the check, the cache is rebuilt.
    let output = serve(&["--cache-only", "--cache-enforce-integrity=false"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));

    // A snapshot that is not the one written: a warning, then served from the
    // catalog (and the cache is written again).
    let snapshot = cache_files(&cache, ".jsonl").remove(0);
    std::fs::write(
        &snapshot,
        "{\"schema\":\"olm.package\",\"name\":\"other\"}\n",
    )
    .expect("written");
    let server = Server::start(&catalog, &[&cache_arg]);
    assert!(
        server.log().contains("is not the file written"),
        "{}",
        server.log()
    );
    assert_eq!(server.stop().code(), Some(0));
    assert!(
        std::fs::read_to_string(&snapshot)
            .expect("the snapshot")
            .contains("hello")
    );

    // A cache directory without fbc's digest: a warning, then served.
    std::fs::remove_file(cache.join("fbc-serve.digest")).expect("removed");
    std::fs::write(cache.join("digest"), "opm's digest").expect("written");
    let server = Server::start(&catalog, &[&cache_arg]);
    assert!(
        server.log().contains("no fbc cache to check"),
        "{}",
        server.log()
    );
    assert_eq!(server.stop().code(), Some(0));

    let output = fbc()
        .args([
            "serve",
            "testdata/examples/hello-catalog",
            "--cache-enforce-integrity",
        ])
        .output()
        .expect("runs");
    assert!(
        stderr(&output).contains("--cache-dir must be specified with --cache-enforce-integrity"),
        "{}",
        stderr(&output)
    );
}

/// Started under the name `opm`, the binary takes `opm serve` command lines: an
/// opm-based catalog image needs only fbc at `/bin/opm`.
#[test]
fn answers_to_the_name_opm() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let opm = dir.path().join("opm");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_fbc"), &opm).expect("linked");
    let cache = dir.path().join("cache");
    let output = Command::new(&opm)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "serve",
            "testdata/examples/hello-catalog",
            &format!("--cache-dir={}", cache.display()),
            "--cache-only",
            "-t",
            "/dev/null",
        ])
        .output()
        .expect("runs as opm");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(cache.join("fbc-serve.digest").is_file());
}

/// `curl` with `args` against the view: the status line and headers, and the body.
fn curl(args: &[&str]) -> (String, Vec<u8>) {
    // The body goes to a file of its own: the headers are on stdout.
    let body = tempfile::NamedTempFile::new().expect("a temporary file");
    let output = Command::new("curl")
        .args(["-sS", "-D", "-", "-o"])
        .arg(body.path())
        .args(args)
        .output()
        .expect("curl runs");
    assert!(
        output.status.success(),
        "curl {args:?}: {}",
        stderr(&output)
    );
    let headers = String::from_utf8_lossy(&output.stdout).into_owned();
    (headers, std::fs::read(body.path()).expect("the body"))
}

/// OLM v1's view (`--http-port`), asked with curl: `/all` holds every document in
/// the walk's order as Go writes it (checked by tests/serve/view.py, which reads
/// the catalog itself), gzip, ranges, conditional requests and `/metas` as
/// catalogd answers them.
#[test]
#[cfg_attr(fbc_no_corpus, ignore = "needs ../shared/corpus")]
#[cfg_attr(
    fbc_no_curl,
    ignore = "needs curl and python3 with PyYAML (see .ci/run)"
)]
fn the_http_view_answers_as_catalogd() {
    let catalog = corpus().join("catalogs/submariner-4-16");
    let server = Server::start(
        &catalog,
        &["--http-port", "0", "--catalog-name", "operatorhubio"],
    );
    let port = server.http_port();
    let base = format!("http://127.0.0.1:{port}/catalogs/operatorhubio/api/v1");
    let all_url = format!("{base}/all");

    let (headers, all) = curl(&[&all_url]);
    assert!(headers.starts_with("HTTP/1.1 200"), "{headers}");
    assert!(
        headers.contains("content-type: application/jsonl\r\n"),
        "{headers}"
    );
    assert!(
        headers.contains(&format!("content-length: {}\r\n", all.len())),
        "{headers}"
    );
    let download = tempfile::NamedTempFile::new().expect("a temporary file");
    std::fs::write(download.path(), &all).expect("written");
    let check = Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/serve/view.py"))
        .arg(&catalog)
        .arg(download.path())
        .output()
        .expect("python3 runs");
    assert!(
        check.status.success(),
        "{}{}",
        String::from_utf8_lossy(&check.stdout),
        stderr(&check)
    );

    // gzip for clients that ask (curl --compressed decompresses it again).
    let (headers, gzipped) = curl(&["--compressed", &all_url]);
    assert!(headers.contains("content-encoding: gzip\r\n"), "{headers}");
    assert!(!headers.contains("accept-ranges"), "{headers}");
    assert!(gzipped == all, "the gzipped view differs");

    // A range, and one past the end.
    let (headers, range) = curl(&["-r", "10-109", &all_url]);
    assert!(headers.starts_with("HTTP/1.1 206"), "{headers}");
    assert!(
        headers.contains(&format!("content-range: bytes 10-109/{}\r\n", all.len())),
        "{headers}"
    );
    assert_eq!(range, all[10..110]);
    let (headers, _) = curl(&["-r", &format!("{}-", all.len()), &all_url]);
    assert!(headers.starts_with("HTTP/1.1 416"), "{headers}");

    // Not modified since it was last modified.
    let modified = headers_value(&curl(&["-I", &all_url]).0, "last-modified");
    let (headers, body) = curl(&["-H", &format!("If-Modified-Since: {modified}"), &all_url]);
    assert!(headers.starts_with("HTTP/1.1 304"), "{headers}");
    assert!(body.is_empty());

    // /metas: the lines of /all of one schema and package, in the same order.
    let text = String::from_utf8(all).expect("UTF-8");
    let wanted: String = text
        .lines()
        .filter(|line| {
            serde_json::from_str::<serde_json::Value>(line).is_ok_and(|value| {
                value["package"] == "submariner" && value["schema"] == "olm.channel"
            })
        })
        .flat_map(|line| [line, "\n"])
        .collect();
    assert!(!wanted.is_empty());
    let (headers, metas) = curl(&[&format!(
        "{base}/metas?schema=olm.channel&package=submariner"
    )]);
    assert!(headers.starts_with("HTTP/1.1 200"), "{headers}");
    assert_eq!(String::from_utf8(metas).expect("UTF-8"), wanted);
    let (headers, body) = curl(&[&format!("{base}/metas?package=submariner&limit=1")]);
    assert!(headers.starts_with("HTTP/1.1 400"), "{headers}");
    assert_eq!(body, b"400 Bad Request\n");

    // Other methods, names and paths.
    let (headers, _) = curl(&["-X", "POST", &all_url]);
    assert!(headers.starts_with("HTTP/1.1 405"), "{headers}");
    let (headers, body) = curl(&[&format!(
        "http://127.0.0.1:{port}/catalogs/other/api/v1/all"
    )]);
    assert!(headers.starts_with("HTTP/1.1 404"), "{headers}");
    assert_eq!(body, b"404 Not Found\n");
    assert_eq!(server.stop().code(), Some(0));
}

/// The view of a server started from the cache's snapshot (its lines served as
/// they are, from several snapshot files) equals the view of one that read the
/// catalog.
#[test]
#[cfg_attr(fbc_no_corpus, ignore = "needs ../shared/corpus")]
#[cfg_attr(
    fbc_no_curl,
    ignore = "needs curl and python3 with PyYAML (see .ci/run)"
)]
fn the_http_view_from_the_cache_is_the_same() {
    let catalog = corpus().join("catalogs/community-v4.18");
    let (cache, cache_arg) = written_cache(&catalog);
    // community-v4.18's 11 MB of lines take several snapshot files.
    assert!(cache_files(cache.path(), ".jsonl").len() > 1);
    let answers = |extra: &[&str]| {
        let mut args = vec!["--http-port", "0"];
        args.extend(extra);
        let server = Server::start(&catalog, &args);
        assert!(!server.log().contains("level=warning"), "{}", server.log());
        let base = format!(
            "http://127.0.0.1:{}/catalogs/community-v4.18/api/v1",
            server.http_port()
        );
        let answers = [
            curl(&[&format!("{base}/all")]).1,
            curl(&[&format!("{base}/metas?schema=olm.package&name=infinispan")]).1,
            curl(&["-r", "100-199", &format!("{base}/all")]).1,
        ];
        assert_eq!(server.stop().code(), Some(0));
        answers
    };
    let read = answers(&[]);
    assert!(
        read[1].starts_with(b"{"),
        "{}",
        String::from_utf8_lossy(&read[1])
    );
    assert!(answers(&[&cache_arg]) == read, "the views differ");
}

fn headers_value(headers: &str, name: &str) -> String {
    headers
        .lines()
        .find_map(|line| line.strip_prefix(&format!("{name}: ")))
        .unwrap_or_else(|| panic!("no {name}: {headers}"))
        .trim()
        .to_owned()
}
