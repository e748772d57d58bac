//! `fbc render <image>` against a real registry: Debian's `docker-registry` started on
//! a free port with temporary storage, images built and pushed by the test itself,
//! and their renders compared with the renders of the directories they hold.
//! Skipped, with a message, where the registry binary is missing (CI installs it).

use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use oci_client::client::{ClientConfig, ClientProtocol, Config, ImageLayer};
use oci_client::secrets::RegistryAuth;
use oci_client::{Client, Reference};

use std::process::Output;

use crate::{fbc, run, stderr, stdout, testdata};

const REGISTRY: &str = "/usr/bin/docker-registry";
const BUNDLE_LABEL: &str = "operators.operatorframework.io.bundle.package.v1";
pub(crate) const CONFIGS_LABEL: &str = "operators.operatorframework.io.index.configs.v1";

pub(crate) struct Registry {
    child: Child,
    pub(crate) address: String,
    /// What the registry logs: one line per request it answered.
    pub(crate) log: std::path::PathBuf,
    _storage: tempfile::TempDir,
}

impl Registry {
    /// Requests answered so far whose log line contains `text` (a method, a path).
    pub(crate) fn requests(&self, text: &str) -> usize {
        let log = std::fs::read_to_string(&self.log).unwrap_or_default();
        log.lines()
            .filter(|line| line.contains("response completed") && line.contains(text))
            .count()
    }
}

impl Drop for Registry {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        // The kept client's connections went with the registry.
        CLIENT.with_borrow_mut(Option::take);
    }
}

pub(crate) fn start_registry() -> Registry {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port();
    start_registry_at(&format!("127.0.0.1:{port}"))
}

/// A registry on `address`. Tests that start one are marked
/// `#[cfg_attr(fbc_no_registry, ignore = ...)]`, which build.rs sets where
/// docker-registry is not installed (never under `CI`, where its absence fails here).
pub(crate) fn start_registry_at(address: &str) -> Registry {
    start_registry_with(address, "")
}

/// [`start_registry_at`] with more lines of the registry's configuration
/// (`auth:`, ...), which may name `{storage}`, the registry's own directory.
pub(crate) fn start_registry_with(address: &str, more: &str) -> Registry {
    assert!(
        Path::new(REGISTRY).exists(),
        "{REGISTRY} is not installed (apt-get install docker-registry); after installing \
         it, `touch build.rs` so that the tests are built again"
    );
    let address = address.to_owned();
    let storage = tempfile::tempdir().expect("registry storage");
    let config = storage.path().join("config.yml");
    let text = format!(
        "version: 0.1\nlog:\n  level: info\n  accesslog:\n    disabled: true\nstorage:\n  filesystem:\n    rootdirectory: {}\nhttp:\n  addr: {address}\n{}",
        storage.path().join("data").display(),
        more.replace("{storage}", &storage.path().display().to_string())
    );
    std::fs::write(&config, text).expect("registry config");
    let log = storage.path().join("registry.log");
    let child = Command::new(REGISTRY)
        .arg("serve")
        .arg(&config)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).expect("a log file"))
        .spawn()
        .expect("the registry starts");
    let deadline = Instant::now() + Duration::from_secs(20);
    while TcpStream::connect(&address).is_err() {
        assert!(Instant::now() < deadline, "the registry did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    Registry {
        child,
        address,
        log,
        _storage: storage,
    }
}

/// A gzipped tar of `dir`'s files, placed under `prefix` in the image.
pub(crate) fn layer_of(dir: &Path, prefix: &str) -> Vec<u8> {
    let encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let mut builder = tar::Builder::new(encoder);
    builder
        .append_dir_all(prefix, dir)
        .expect("the directory is archived");
    builder
        .into_inner()
        .and_then(flate2::write::GzEncoder::finish)
        .expect("the layer is written")
}

/// A gzipped tar with one file at a raw (possibly hostile) path.
fn raw_layer(path: &str) -> Vec<u8> {
    let mut header = tar::Header::new_gnu();
    header.set_entry_type(tar::EntryType::Regular);
    header.set_mode(0o644);
    header.set_size(1);
    header.as_old_mut().name[..path.len()].copy_from_slice(path.as_bytes());
    header.set_cksum();
    let encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let mut builder = tar::Builder::new(encoder);
    builder.append(&header, &b"x"[..]).expect("an entry");
    builder
        .into_inner()
        .and_then(flate2::write::GzEncoder::finish)
        .expect("the layer is written")
}

fn push(address: &str, name: &str, layers: Vec<Vec<u8>>, labels: &[(&str, &str)]) -> String {
    push_image(address, name, layers, labels, false)
}

/// Pushes an image with an OCI manifest, or a Docker schema 2 one when `docker`.
pub(crate) fn push_image(
    address: &str,
    name: &str,
    layers: Vec<Vec<u8>>,
    labels: &[(&str, &str)],
    docker: bool,
) -> String {
    let (manifest_type, config_type, layer_type) = if docker {
        (
            "application/vnd.docker.distribution.manifest.v2+json",
            "application/vnd.docker.container.image.v1+json",
            "application/vnd.docker.image.rootfs.diff.tar.gzip",
        )
    } else {
        (
            "application/vnd.oci.image.manifest.v1+json",
            "application/vnd.oci.image.config.v1+json",
            "application/vnd.oci.image.layer.v1.tar+gzip",
        )
    };
    let reference_text = format!("{address}/{name}");
    let reference: Reference = reference_text.parse().expect("a reference");
    let labels: serde_json::Map<String, serde_json::Value> = labels
        .iter()
        .map(|(key, value)| ((*key).to_owned(), serde_json::Value::from(*value)))
        .collect();
    let config = serde_json::json!({
        "architecture": "amd64", "os": "linux",
        "config": {"Labels": labels},
        "rootfs": {"type": "layers", "diff_ids": []}
    });
    let config = Config {
        data: serde_json::to_vec(&config).expect("JSON").into(),
        media_type: config_type.to_owned(),
        annotations: None,
    };
    let layers: Vec<ImageLayer> = layers
        .into_iter()
        .map(|data| ImageLayer::new(data, layer_type.to_owned(), None))
        .collect();
    let mut manifest = oci_client::manifest::OciImageManifest::build(&layers, &config, None);
    manifest.media_type = Some(manifest_type.to_owned());
    with_client(|client| async move {
        client
            .push(
                &reference,
                &layers,
                config,
                &RegistryAuth::Anonymous,
                Some(manifest),
            )
            .await
    })
    .expect("the image is pushed");
    reference_text
}

thread_local! {
    /// The tests' own OCI client on this thread, with its runtime: see [`with_client`].
    static CLIENT: std::cell::RefCell<Option<(tokio::runtime::Runtime, Client)>> =
        const { std::cell::RefCell::new(None) };
}

/// Runs `ask` with the tests' own OCI client, over plain HTTP, on this thread's
/// runtime. The client is kept until a registry stops (building one reads the
/// system's certificates), so that no kept connection outlives its registry.
/// rustls's provider is installed first, as fbc installs its own: the HTTP client is
/// built with TLS and panics without one.
fn with_client<T, F: Future<Output = T>>(ask: impl FnOnce(Client) -> F) -> T {
    CLIENT.with_borrow_mut(|kept| {
        let (runtime, client) = kept.get_or_insert_with(|| {
            let _ = rustls::crypto::ring::default_provider().install_default();
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a runtime");
            let client = Client::new(ClientConfig {
                protocol: ClientProtocol::Http,
                ..ClientConfig::default()
            });
            (runtime, client)
        });
        runtime.block_on(ask(client.clone()))
    })
}

/// The digest the registry gives a pushed image.
pub(crate) fn digest_of(reference: &str) -> String {
    let reference: Reference = reference.parse().expect("a reference");
    with_client(|client| async move {
        client
            .fetch_manifest_digest(&reference, &RegistryAuth::Anonymous)
            .await
    })
    .expect("the digest")
}

/// `fbc render` with its cache in `cache`, away from the user's.
fn render_cached(args: &[&str], cache: &Path) -> Output {
    fbc()
        .env("XDG_CACHE_HOME", cache)
        .args(args)
        .output()
        .expect("the fbc binary runs")
}

#[test]
#[cfg_attr(fbc_no_registry, ignore = "needs docker-registry")]
fn images_render_like_the_directories_they_hold() {
    let registry = start_registry();
    let bundle_dir = testdata("examples/hello-bundle");
    let bundle = push(
        &registry.address,
        "hello-bundle:v0.3.0",
        vec![layer_of(&bundle_dir, ".")],
        &[(BUNDLE_LABEL, "hello")],
    );
    let from_image = run(&["render", "--no-cache", "--use-http", &bundle]);
    assert_eq!(from_image.status.code(), Some(0), "{}", stderr(&from_image));
    let dir = bundle_dir.to_str().expect("UTF-8");
    let from_dir = run(&["render", "--image-ref-template", &bundle, dir]);
    assert_eq!(stdout(&from_image), stdout(&from_dir));

    let catalog_dir = testdata("examples/hello-catalog");
    let catalog = push(
        &registry.address,
        "hello-catalog:latest",
        vec![layer_of(&catalog_dir, "configs")],
        &[(CONFIGS_LABEL, "/configs")],
    );
    let from_image = run(&["render", "--no-cache", "--use-http", "-o", "yaml", &catalog]);
    assert_eq!(from_image.status.code(), Some(0), "{}", stderr(&from_image));
    let dir = catalog_dir.to_str().expect("UTF-8");
    assert_eq!(
        stdout(&from_image),
        stdout(&run(&["render", "-o", "yaml", dir]))
    );
}

#[test]
#[cfg_attr(fbc_no_registry, ignore = "needs docker-registry")]
fn graphs_and_upgrade_paths_read_catalog_images() {
    let registry = start_registry();
    let catalog_dir = testdata("examples/hello-catalog");
    let dir = catalog_dir.to_str().expect("UTF-8");
    let catalog = push(
        &registry.address,
        "hello-catalog:latest",
        vec![layer_of(&catalog_dir, "configs")],
        &[(CONFIGS_LABEL, "/configs")],
    );
    for command in [
        &["graph", "-o", "json"][..],
        &["alpha", "render-graph"],
        &["alpha", "upgrade-path", "--every-bundle", "-o", "json"],
    ] {
        let from_image = run(&[command, &["--no-cache", "--use-http", &catalog]].concat());
        assert_eq!(from_image.status.code(), Some(0), "{}", stderr(&from_image));
        let from_dir = run(&[command, &[dir]].concat());
        assert_eq!(stdout(&from_image), stdout(&from_dir), "{command:?}");
        assert!(!stdout(&from_dir).is_empty());
    }

    let bundle = push(
        &registry.address,
        "hello-bundle:v0.3.0",
        vec![layer_of(&testdata("examples/hello-bundle"), ".")],
        &[(BUNDLE_LABEL, "hello")],
    );
    let output = run(&["graph", "--no-cache", "--use-http", &bundle]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stdout(&output), "");
    assert!(
        stderr(&output).contains(&format!(
            "render reference \"{bundle}\": cannot render bundle image: not allowed"
        )),
        "{}",
        stderr(&output)
    );
    let output = run(&["graph", "--use-http", "--skip-tls-verify", &catalog]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("--use-http and --skip-tls-verify cannot both be true"));
}

#[test]
#[cfg_attr(fbc_no_registry, ignore = "needs docker-registry")]
fn hostile_and_unknown_images_are_refused() {
    let registry = start_registry();
    let escape = push(
        &registry.address,
        "escape:latest",
        vec![raw_layer("../../evil")],
        &[(BUNDLE_LABEL, "evil")],
    );
    let output = run(&["render", "--no-cache", "--use-http", &escape]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stdout(&output), "");
    assert!(
        stderr(&output).contains(&format!(
            "render reference \"{escape}\": failed to unpack image \"{escape}\": layer entry \"../../evil\" would be written outside the image root"
        )),
        "{}",
        stderr(&output)
    );

    let sqlite = push(
        &registry.address,
        "index:v1",
        vec![raw_layer("database/index.db")],
        &[(
            "operators.operatorframework.io.index.database.v1",
            "/database/index.db",
        )],
    );
    let output = run(&["render", "--no-cache", "--use-http", &sqlite]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains(&format!(
            "render \"{sqlite}\": sqlite-based index images are no longer supported, migrate to a file-based catalog: not allowed"
        )),
        "{}",
        stderr(&output)
    );

    let unknown = push(
        &registry.address,
        "other:v1",
        vec![raw_layer("file")],
        &[("b", "2"), ("a", "1")],
    );
    let output = run(&["render", "--no-cache", "--use-http", &unknown]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains(&format!(
            "render \"{unknown}\": image type could not be determined, found labels\n  a=1\n  b=2"
        )),
        "{}",
        stderr(&output)
    );
}

#[test]
#[cfg_attr(fbc_no_registry, ignore = "needs docker-registry")]
fn a_second_render_by_digest_needs_no_network() {
    let registry = start_registry();
    let bundle_dir = testdata("examples/hello-bundle");
    let tagged = push(
        &registry.address,
        "cached-bundle:v0.3.0",
        vec![layer_of(&bundle_dir, ".")],
        &[(BUNDLE_LABEL, "hello")],
    );
    let pinned = format!("{}/cached-bundle@{}", registry.address, digest_of(&tagged));
    let cache = tempfile::tempdir().expect("a cache directory");
    let first = render_cached(&["render", "--use-http", &pinned], cache.path());
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    assert!(stdout(&first).contains(&format!("\"image\": \"{pinned}\"")));
    drop(registry);
    let second = render_cached(&["render", "--use-http", &pinned], cache.path());
    assert_eq!(second.status.code(), Some(0), "{}", stderr(&second));
    assert_eq!(stdout(&second), stdout(&first));
    let uncached = render_cached(
        &["render", "--no-cache", "--use-http", &pinned],
        cache.path(),
    );
    assert_eq!(uncached.status.code(), Some(2));
    assert!(
        stderr(&uncached).contains("failed to pull image"),
        "{}",
        stderr(&uncached)
    );
}

/// Pushes an index of already pushed images, each with its architecture.
fn push_index(address: &str, name: &str, entries: &[(&str, &str)]) -> String {
    let text = format!("{address}/{name}");
    let reference: Reference = text.parse().expect("a reference");
    with_client(|client| async move {
        let media_type = oci_client::manifest::OCI_IMAGE_MEDIA_TYPE;
        let mut manifests = Vec::new();
        for (image, architecture) in entries {
            let image: Reference = image.parse().expect("a reference");
            let (raw, digest) = client
                .pull_manifest_raw(&image, &RegistryAuth::Anonymous, &[media_type])
                .await
                .expect("the manifest");
            manifests.push(serde_json::json!({
                "mediaType": media_type, "digest": digest, "size": raw.len(),
                "platform": {"architecture": architecture, "os": "linux"}
            }));
        }
        let index = serde_json::json!({
            "schemaVersion": 2,
            "mediaType": oci_client::manifest::OCI_IMAGE_INDEX_MEDIA_TYPE,
            "manifests": manifests
        });
        let index = serde_json::from_value(index).expect("an image index");
        client
            .push_manifest_list(&reference, &RegistryAuth::Anonymous, index)
            .await
    })
    .expect("the index is pushed");
    text
}

#[test]
#[cfg_attr(fbc_no_registry, ignore = "needs docker-registry")]
fn an_index_resolves_to_the_host_platform() {
    let registry = start_registry();
    let bundle_dir = testdata("examples/hello-bundle");
    let amd64 = push(
        &registry.address,
        "multi:amd64",
        vec![layer_of(&bundle_dir, ".")],
        &[(BUNDLE_LABEL, "hello")],
    );
    let arm64 = push(
        &registry.address,
        "multi:arm64",
        vec![raw_layer("file")],
        &[("arch", "arm64")],
    );
    let index = push_index(
        &registry.address,
        "multi:v1",
        &[(&arm64, "arm64"), (&amd64, "amd64")],
    );
    let output = run(&["render", "--no-cache", "--use-http", &index]);
    if std::env::consts::ARCH == "x86_64" {
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        assert!(stdout(&output).contains("\"name\": \"hello.v0.3.0\""));
    } else if std::env::consts::ARCH == "aarch64" {
        assert!(
            stderr(&output).contains("arch=arm64"),
            "{}",
            stderr(&output)
        );
    }
}

/// A registry served over TLS with a self-signed certificate: fbc's TLS (rustls with
/// ring's cryptography) reaches it with `--skip-tls-verify`, gets the registry's own
/// answer (no such image), and refuses the certificate without.
#[test]
#[cfg_attr(fbc_no_registry, ignore = "needs docker-registry")]
fn a_registry_over_tls_is_reached_and_its_certificate_checked() {
    let certified =
        rcgen::generate_simple_self_signed(vec!["127.0.0.1".to_owned()]).expect("a certificate");
    let keys = tempfile::tempdir().expect("a directory");
    let (certificate, key) = (keys.path().join("cert.pem"), keys.path().join("key.pem"));
    std::fs::write(&certificate, certified.cert.pem()).expect("write");
    std::fs::write(&key, certified.signing_key.serialize_pem()).expect("write");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port();
    let registry = start_registry_with(
        &format!("127.0.0.1:{port}"),
        &format!(
            "  tls:\n    certificate: {}\n    key: {}\n",
            certificate.display(),
            key.display()
        ),
    );
    let missing = format!("{}/missing:v1", registry.address);
    let skipped = run(&["render", "--no-cache", "--skip-tls-verify", &missing]);
    assert_eq!(skipped.status.code(), Some(2), "{}", stderr(&skipped));
    assert!(
        stderr(&skipped).contains("manifest unknown"),
        "{}",
        stderr(&skipped)
    );
    assert!(registry.requests("/v2/missing/manifests/v1") > 0);
    let checked = run(&["render", "--no-cache", &missing]);
    assert_eq!(checked.status.code(), Some(2), "{}", stderr(&checked));
    assert!(
        stderr(&checked).contains("certificate"),
        "{}",
        stderr(&checked)
    );
}
