//! Benchmark (not a test): `fbc alpha render-template` of a semver template of
//! over 100 bundle images served by a loopback docker-registry, with a cold cache
//! and with a warm one.
//!
//! Run with `cargo bench --bench template` (needs `docker-registry` and
//! `../shared/corpus`). The bundles are the corpus directories of three operators,
//! relabelled as one package `bench` (the semver template takes one package), one
//! per distinct version.

use std::collections::BTreeSet;
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use oci_client::client::{ClientConfig, ClientProtocol, Config, ImageLayer};
use oci_client::secrets::RegistryAuth;
use oci_client::{Client, Reference};

const REGISTRY: &str = "/usr/bin/docker-registry";
const OPERATORS: [&str; 3] = [
    "ack-s3-controller",
    "koku-metrics-operator",
    "kepler-operator",
];
const BUNDLE_LABEL: &str = "operators.operatorframework.io.bundle.package.v1";

/// docker-registry on a free loopback port, stopped when dropped.
struct Registry {
    child: std::process::Child,
    address: String,
    _storage: tempfile::TempDir,
}

impl Drop for Registry {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_registry() -> Registry {
    let storage = tempfile::tempdir().expect("registry storage");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port();
    let address = format!("127.0.0.1:{port}");
    let config = storage.path().join("config.yml");
    std::fs::write(
        &config,
        format!(
            "version: 0.1\nlog:\n  level: error\n  accesslog:\n    disabled: true\nstorage:\n  filesystem:\n    rootdirectory: {}\nhttp:\n  addr: {address}\n",
            storage.path().join("data").display()
        ),
    )
    .expect("registry config");
    let child = Command::new(REGISTRY)
        .arg("serve")
        .arg(&config)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the registry starts");
    while TcpStream::connect(&address).is_err() {
        std::thread::sleep(Duration::from_millis(50));
    }
    Registry {
        child,
        address,
        _storage: storage,
    }
}

/// Pushes the bundles and writes a semver template naming them.
fn setup(registry: &Registry, corpus: &Path, work: &Path) -> (PathBuf, usize) {
    let bundles = choose_bundles(corpus);
    let started = Instant::now();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    // The HTTP client is built with TLS, whose provider fbc installs itself (ring):
    // without one it panics.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = Client::new(ClientConfig {
        protocol: ClientProtocol::Http,
        ..ClientConfig::default()
    });
    let mut lines = String::from("schema: olm.semver\nstable:\n  bundles:\n");
    for (index, directory) in bundles.iter().enumerate() {
        let reference = format!("{}/bench/bundle:v{index}", registry.address);
        runtime.block_on(push(&client, &reference, directory));
        lines.push_str("  - image: ");
        lines.push_str(&reference);
        lines.push('\n');
    }
    let bytes: u64 = bundles.iter().map(|dir| size_of(dir)).sum();
    eprintln!(
        "pushed {} bundle images ({} kB of manifests and metadata) in {:.1} s",
        bundles.len(),
        bytes / 1000,
        started.elapsed().as_secs_f64()
    );
    let template = work.join("semver.yaml");
    std::fs::write(&template, lines).expect("the template");
    (template, bundles.len())
}

/// One render of the template with its cache in `cache`: the wall time.
fn render(template: &Path, cache: &Path, extra: &[&str]) -> f64 {
    let started = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_fbc"))
        .env("XDG_CACHE_HOME", cache)
        .env("CONTAINERS_REGISTRIES_CONF", "/dev/null")
        .args(["alpha", "render-template", "--use-http"])
        .args(extra)
        .arg(template)
        .stdin(Stdio::null())
        .output()
        .expect("fbc runs");
    let elapsed = started.elapsed().as_secs_f64();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    elapsed
}

fn main() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/bundles");
    if !corpus.is_dir() || !Path::new(REGISTRY).exists() {
        eprintln!("skipped: needs ../shared/corpus and {REGISTRY}");
        return;
    }
    let registry = start_registry();
    let work = tempfile::tempdir().expect("a directory");
    let (template, count) = setup(&registry, &corpus, work.path());
    // FBC_BENCH_KEEP=1: leave the registry and the template for profiling.
    if std::env::var_os("FBC_BENCH_KEEP").is_some() {
        println!(
            "registry {} (pid {}), template {}",
            registry.address,
            registry.child.id(),
            template.display()
        );
        let _ = work.keep();
        std::mem::forget(registry);
        return;
    }
    let cold = |extra: &[&str]| {
        let cache = tempfile::tempdir().expect("a cache");
        render(&template, cache.path(), extra)
    };
    let cold_parallel: Vec<f64> = (0..3).map(|_| cold(&[])).collect();
    let cold_serial: Vec<f64> = (0..2).map(|_| cold(&["--jobs", "1"])).collect();
    let warm_cache = tempfile::tempdir().expect("a cache");
    render(&template, warm_cache.path(), &[]);
    let warm: Vec<f64> = (0..7)
        .map(|_| render(&template, warm_cache.path(), &[]))
        .collect();
    let offline: Vec<f64> = (0..7)
        .map(|_| render(&template, warm_cache.path(), &["--offline"]))
        .collect();
    report(
        &format!("cold cache, {count} images, --jobs 8"),
        &cold_parallel,
    );
    report(
        "cold cache, --jobs 1 (one pull at a time, as opm)",
        &cold_serial,
    );
    report("warm cache (one manifest request per tag)", &warm);
    report("warm cache, --offline (no request)", &offline);
}

fn report(name: &str, times: &[f64]) {
    let mut sorted = times.to_vec();
    sorted.sort_by(f64::total_cmp);
    println!(
        "{name:<55} best {:.3} s  median {:.3} s",
        sorted[0],
        sorted[sorted.len() / 2]
    );
}

/// Bundle directories with distinct versions (directory names are versions).
fn choose_bundles(corpus: &Path) -> Vec<PathBuf> {
    let mut seen = BTreeSet::new();
    let mut chosen = Vec::new();
    for operator in OPERATORS {
        let mut versions: Vec<PathBuf> = std::fs::read_dir(corpus.join(operator))
            .expect("the operator's bundles")
            .map(|entry| entry.expect("an entry").path())
            .collect();
        versions.sort();
        for directory in versions {
            let version = directory
                .file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned();
            let base = version.split('+').next().unwrap_or_default().to_owned();
            if seen.insert(base) {
                chosen.push(directory);
            }
        }
    }
    chosen
}

fn size_of(directory: &Path) -> u64 {
    let mut total = 0;
    for part in ["manifests", "metadata"] {
        for entry in std::fs::read_dir(directory.join(part))
            .into_iter()
            .flatten()
            .flatten()
        {
            total += entry.metadata().map_or(0, |metadata| metadata.len());
        }
    }
    total
}

/// One image: `manifests/` and `metadata/` (the package renamed `bench`), labelled
/// as a bundle of `bench`.
async fn push(client: &Client, reference: &str, directory: &Path) {
    let encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let mut builder = tar::Builder::new(encoder);
    builder
        .append_dir_all("manifests", directory.join("manifests"))
        .expect("archived");
    let annotations =
        std::fs::read_to_string(directory.join("metadata/annotations.yaml")).expect("annotations");
    let renamed: String = annotations
        .lines()
        .map(|line| {
            if line.trim_start().starts_with(BUNDLE_LABEL) {
                format!("  {BUNDLE_LABEL}: bench\n")
            } else {
                format!("{line}\n")
            }
        })
        .collect();
    for entry in std::fs::read_dir(directory.join("metadata"))
        .expect("metadata")
        .flatten()
    {
        let name = format!("metadata/{}", entry.file_name().to_string_lossy());
        if name == "metadata/annotations.yaml" {
            let mut header = tar::Header::new_gnu();
            header.set_size(renamed.len() as u64);
            header.set_mode(0o644);
            header.set_cksum();
            builder
                .append_data(&mut header, &name, renamed.as_bytes())
                .expect("archived");
        } else {
            builder
                .append_path_with_name(entry.path(), &name)
                .expect("archived");
        }
    }
    let layer = builder
        .into_inner()
        .and_then(flate2::write::GzEncoder::finish)
        .expect("the layer");
    let config = serde_json::json!({
        "architecture": "amd64", "os": "linux",
        "config": {"Labels": {BUNDLE_LABEL: "bench"}},
        "rootfs": {"type": "layers", "diff_ids": []}
    });
    let config = Config {
        data: serde_json::to_vec(&config).expect("JSON").into(),
        media_type: "application/vnd.oci.image.config.v1+json".to_owned(),
        annotations: None,
    };
    let layers = [ImageLayer::new(
        layer,
        "application/vnd.oci.image.layer.v1.tar+gzip".to_owned(),
        None,
    )];
    let parsed: Reference = reference.parse().expect("a reference");
    client
        .push(&parsed, &layers, config, &RegistryAuth::Anonymous, None)
        .await
        .expect("pushed");
}
