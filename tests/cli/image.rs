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

use crate::{run, stderr, stdout, testdata};

const REGISTRY: &str = "/usr/bin/docker-registry";
const BUNDLE_LABEL: &str = "operators.operatorframework.io.bundle.package.v1";
const CONFIGS_LABEL: &str = "operators.operatorframework.io.index.configs.v1";

struct Registry {
    child: Child,
    address: String,
    _storage: tempfile::TempDir,
}

impl Drop for Registry {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_registry() -> Option<Registry> {
    if !Path::new(REGISTRY).exists() {
        eprintln!("skipped: {REGISTRY} is not installed (apt-get install docker-registry)");
        return None;
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port();
    let address = format!("127.0.0.1:{port}");
    let storage = tempfile::tempdir().expect("registry storage");
    let config = storage.path().join("config.yml");
    let text = format!(
        "version: 0.1\nlog:\n  level: error\nstorage:\n  filesystem:\n    rootdirectory: {}\nhttp:\n  addr: {address}\n",
        storage.path().join("data").display()
    );
    std::fs::write(&config, text).expect("registry config");
    let child = Command::new(REGISTRY)
        .arg("serve")
        .arg(&config)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the registry starts");
    let deadline = Instant::now() + Duration::from_secs(20);
    while TcpStream::connect(&address).is_err() {
        assert!(Instant::now() < deadline, "the registry did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    Some(Registry {
        child,
        address,
        _storage: storage,
    })
}

/// A gzipped tar of `dir`'s files, placed under `prefix` in the image.
fn layer_of(dir: &Path, prefix: &str) -> Vec<u8> {
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
        media_type: "application/vnd.oci.image.config.v1+json".to_owned(),
        annotations: None,
    };
    let layers: Vec<ImageLayer> = layers
        .into_iter()
        .map(|data| {
            ImageLayer::new(
                data,
                "application/vnd.oci.image.layer.v1.tar+gzip".to_owned(),
                None,
            )
        })
        .collect();
    let client = Client::new(ClientConfig {
        protocol: ClientProtocol::Http,
        ..ClientConfig::default()
    });
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime
        .block_on(client.push(&reference, &layers, config, &RegistryAuth::Anonymous, None))
        .expect("the image is pushed");
    reference_text
}

#[test]
fn images_render_like_the_directories_they_hold() {
    let Some(registry) = start_registry() else {
        return;
    };
    let bundle_dir = testdata("examples/hello-bundle");
    let bundle = push(
        &registry.address,
        "hello-bundle:v0.3.0",
        vec![layer_of(&bundle_dir, ".")],
        &[(BUNDLE_LABEL, "hello")],
    );
    let from_image = run(&["render", "--use-http", &bundle]);
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
    let from_image = run(&["render", "--use-http", "-o", "yaml", &catalog]);
    assert_eq!(from_image.status.code(), Some(0), "{}", stderr(&from_image));
    let dir = catalog_dir.to_str().expect("UTF-8");
    assert_eq!(
        stdout(&from_image),
        stdout(&run(&["render", "-o", "yaml", dir]))
    );
}

#[test]
fn hostile_and_unknown_images_are_refused() {
    let Some(registry) = start_registry() else {
        return;
    };
    let escape = push(
        &registry.address,
        "escape:latest",
        vec![raw_layer("../../evil")],
        &[(BUNDLE_LABEL, "evil")],
    );
    let output = run(&["render", "--use-http", &escape]);
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
    let output = run(&["render", "--use-http", &sqlite]);
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
    let output = run(&["render", "--use-http", &unknown]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains(&format!(
            "render \"{unknown}\": image type could not be determined, found labels\n  a=1\n  b=2"
        )),
        "{}",
        stderr(&output)
    );
}
