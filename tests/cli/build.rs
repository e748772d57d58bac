//! `fbc build`: catalog images made without a container engine, read back by
//! fbc, by skopeo and by `fbc serve` from what skopeo pulled.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use super::serve::{Server, probe};
use super::{fbc, stderr, stdout, testdata};

const CONFIGS_LABEL: &str = "operators.operatorframework.io.index.configs.v1";

/// The base every test builds on: a small image in an OCI layout of the repository.
fn base() -> String {
    format!(
        "--base=oci:{}:v0.3.0",
        testdata("examples/hello-bundle-oci").display()
    )
}

/// `fbc build` with the file times fixed.
fn build(args: &[&str]) -> Output {
    fbc()
        .arg("build")
        .args(args)
        .env("SOURCE_DATE_EPOCH", "1700000000")
        .output()
        .expect("runs")
}

fn catalog() -> PathBuf {
    testdata("examples/hello-catalog")
}

fn render(reference: &str, extra: &[&str]) -> String {
    let output = fbc()
        .arg("render")
        .arg(reference)
        .args(extra)
        .output()
        .expect("runs");
    assert!(output.status.success(), "{}", stderr(&output));
    stdout(&output)
}

/// `skopeo ARGS`'s stdout; it must succeed.
fn skopeo(args: &[&str]) -> Vec<u8> {
    let output = Command::new("skopeo")
        .args(args)
        .output()
        .expect("skopeo runs");
    assert!(output.status.success(), "{}", stderr(&output));
    output.stdout
}

/// The manifest (or index) the registry serves for `reference`, as it is.
fn inspect_raw(reference: &str) -> serde_json::Value {
    let raw = skopeo(&[
        "inspect",
        "--raw",
        "--tls-verify=false",
        &format!("docker://{reference}"),
    ]);
    serde_json::from_slice(&raw).expect("JSON")
}

/// Every file below `dir` with its bytes, in path order.
fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(next) = pending.pop() {
        for entry in std::fs::read_dir(&next).expect("listable") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let bytes = std::fs::read(&path).expect("readable");
                found.push((path.strip_prefix(dir).expect("below").to_path_buf(), bytes));
            }
        }
    }
    found.sort();
    found
}

/// The same directory on the same base gives the same image, byte for byte,
/// whose catalog renders as the directory does.
#[test]
fn the_same_directory_builds_the_same_image() {
    let out = tempfile::tempdir().expect("a temporary directory");
    let layout = |name: &str| out.path().join(name);
    let mut digests = Vec::new();
    for name in ["first", "second"] {
        let dest = format!("--output=oci:{}:v1", layout(name).display());
        let output = build(&[
            catalog().to_str().expect("UTF-8"),
            &base(),
            &dest,
            "--print-digest",
        ]);
        assert!(output.status.success(), "{}", stderr(&output));
        digests.push(stdout(&output));
    }
    assert_eq!(digests[0], digests[1]);
    assert!(digests[0].starts_with("sha256:") && digests[0].ends_with('\n'));
    assert!(files(&layout("first")) == files(&layout("second")));
    let index = std::fs::read_to_string(layout("first").join("index.json")).expect("an index");
    assert!(index.contains(digests[0].trim()), "{index}");
    let expected = render(catalog().to_str().expect("UTF-8"), &[]);
    assert_eq!(
        render(&format!("oci:{}:v1", layout("first").display()), &[]),
        expected
    );
    // The config: opm's label, the serve command line, the fixed time.
    let manifest_hex = digests[0].trim().trim_start_matches("sha256:");
    let blob = |hex: &str| layout("first").join("blobs/sha256").join(hex);
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(blob(manifest_hex)).expect("the manifest"))
            .expect("JSON");
    let config_hex = manifest["config"]["digest"]
        .as_str()
        .expect("a config")
        .trim_start_matches("sha256:");
    let config: serde_json::Value =
        serde_json::from_slice(&std::fs::read(blob(config_hex)).expect("the config"))
            .expect("JSON");
    assert_eq!(config["config"]["Labels"][CONFIGS_LABEL], "/configs");
    assert_eq!(
        config["config"]["Cmd"],
        serde_json::json!(["serve", "/configs"])
    );
    assert_eq!(config["created"], "2023-11-14T22:13:20Z");
    // The base's layers come first, as they were.
    let layers = manifest["layers"].as_array().expect("layers");
    assert_eq!(layers.len(), 2);

    // A docker-archive of the same image renders the same.
    let archive = out.path().join("catalog.tar");
    let dest = format!("--output=docker-archive:{}:hello:v1", archive.display());
    let output = build(&[catalog().to_str().expect("UTF-8"), &base(), &dest]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        render(&format!("docker-archive:{}", archive.display()), &[]),
        expected
    );
}

/// An invalid catalog fails the build with validate's findings, and nothing
/// is written.
#[test]
fn an_invalid_catalog_is_not_built() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let catalog = dir.path().join("catalog");
    std::fs::create_dir(&catalog).expect("made");
    std::fs::write(
        catalog.join("index.yaml"),
        "schema: olm.package\nname: hello\ndefaultChannel: stable\n---\nschema: olm.channel\npackage: hello\nname: stable\nentries:\n- name: hello.v1.0.0\n",
    )
    .expect("written");
    let layout = dir.path().join("layout");
    let dest = format!("--output=oci:{}", layout.display());
    let output = build(&[catalog.to_str().expect("UTF-8"), &base(), &dest]);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(text.contains("hello.v1.0.0"), "{text}");
    assert!(text.contains("no image was built"), "{text}");
    assert!(!layout.exists());
}

/// An output that exists already is left alone; a build with nowhere to go says so.
#[test]
fn outputs_are_never_overwritten_half_way() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(dir.path().join("mine"), "kept").expect("written");
    let dest = format!("--output=oci:{}", dir.path().display());
    let output = build(&[catalog().to_str().expect("UTF-8"), &base(), &dest]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("already exists"),
        "{}",
        stderr(&output)
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("mine")).expect("kept"),
        "kept"
    );
    let output = build(&[catalog().to_str().expect("UTF-8"), &base()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("nothing to do"),
        "{}",
        stderr(&output)
    );
}

/// fbc's own base takes the running binary, which must be static: this test
/// build is not.
#[test]
fn fbcs_own_base_needs_a_static_fbc() {
    let output = build(&[catalog().to_str().expect("UTF-8"), "--print-digest"]);
    if cfg!(target_env = "musl") {
        assert!(output.status.success(), "{}", stderr(&output));
    } else {
        assert_eq!(output.status.code(), Some(2));
        assert!(
            stderr(&output).contains("linked dynamically"),
            "{}",
            stderr(&output)
        );
        assert!(stdout(&output).is_empty());
    }
}

/// Pushed to a registry, the image is the one `--print-digest` names; skopeo
/// reads it and copies it to an OCI layout, whose catalog (and cache) `fbc
/// serve` serves from the unpacked layers.
#[test]
#[cfg_attr(fbc_no_registry, ignore = "needs docker-registry")]
#[cfg_attr(fbc_no_skopeo, ignore = "needs skopeo (apt-get install skopeo)")]
#[cfg_attr(fbc_no_grpcio, ignore = "needs python3 with grpcio (see .ci/run)")]
fn pushed_images_are_read_by_real_clients_and_served() {
    let registry = super::image::start_registry();
    let reference = format!("{}/catalogs/hello:v1", registry.address);
    let output = build(&[
        catalog().to_str().expect("UTF-8"),
        &base(),
        "--cache",
        "--label=org.opencontainers.image.source=https://example.com/catalog",
        &format!("--tag={reference}"),
        "--use-http",
        "--print-digest",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let digest = stdout(&output).trim().to_owned();
    assert_eq!(
        render(&reference, &["--use-http"]),
        render(catalog().to_str().expect("UTF-8"), &[])
    );

    let inspected: serde_json::Value = serde_json::from_slice(&skopeo(&[
        "inspect",
        "--tls-verify=false",
        &format!("docker://{reference}"),
    ]))
    .expect("JSON");
    assert_eq!(inspected["Digest"], digest.as_str());
    assert_eq!(inspected["Labels"][CONFIGS_LABEL], "/configs");
    assert_eq!(
        inspected["Labels"]["org.opencontainers.image.source"],
        "https://example.com/catalog"
    );
    let pulled = tempfile::tempdir().expect("a temporary directory");
    let layout = pulled.path().join("layout");
    skopeo(&[
        "copy",
        "--src-tls-verify=false",
        &format!("docker://{reference}"),
        &format!("oci:{}:v1", layout.display()),
    ]);

    // The layers unpacked in order, as a container runtime lays them out.
    let root = pulled.path().join("root");
    let index: serde_json::Value =
        serde_json::from_slice(&std::fs::read(layout.join("index.json")).expect("an index"))
            .expect("JSON");
    let blob = |digest: &str| {
        layout
            .join("blobs/sha256")
            .join(digest.trim_start_matches("sha256:"))
    };
    let manifest_digest = index["manifests"][0]["digest"]
        .as_str()
        .expect("a manifest");
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(blob(manifest_digest)).expect("the manifest"))
            .expect("JSON");
    // skopeo compresses the test base's plain tar layer, so its manifest is its
    // own; the config (with every layer's tar digest) is the one pushed.
    let config = manifest["config"]["digest"].as_str().expect("a config");
    let pushed: serde_json::Value = inspect_raw(&reference);
    assert_eq!(pushed["config"]["digest"], config);
    for layer in manifest["layers"].as_array().expect("layers") {
        let file = std::fs::File::open(blob(layer["digest"].as_str().expect("a digest")))
            .expect("the layer");
        tar::Archive::new(flate2::read::GzDecoder::new(file))
            .unpack(&root)
            .expect("unpacked");
    }
    let cache_arg = format!("--cache-dir={}", root.join("tmp/cache").display());
    let server = Server::start(&root.join("configs"), &[&cache_arg]);
    assert!(!server.log().contains("level=warning"), "{}", server.log());
    let records = tempfile::tempdir().expect("a temporary directory");
    let output = probe(&[
        &server.address(),
        "--write",
        records.path().to_str().expect("UTF-8 path"),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let packages =
        std::fs::read_to_string(records.path().join("ListPackages.jsonl")).expect("records");
    assert!(packages.contains("hello"), "{packages}");
    assert_eq!(server.stop().code(), Some(0));
}

/// A base of several platforms gives an index of as many images, each the
/// base's image for its platform with the same catalog layer; skopeo reads each.
#[test]
#[cfg_attr(fbc_no_registry, ignore = "needs docker-registry")]
#[cfg_attr(fbc_no_skopeo, ignore = "needs skopeo (apt-get install skopeo)")]
fn a_base_of_several_platforms_gives_an_index() {
    let registry = super::image::start_registry();
    let base = base_of_two_platforms(&registry.address);
    let reference = format!("{}/catalogs/hello:v1", registry.address);
    let out = tempfile::tempdir().expect("a temporary directory");
    let layout = out.path().join("layout");
    let output = build(&[
        catalog().to_str().expect("UTF-8"),
        &format!("--base={base}"),
        "--use-http",
        &format!("--tag={reference}"),
        &format!("--output=oci:{}:v1", layout.display()),
        "--print-digest",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let pushed: serde_json::Value = inspect_raw(&reference);
    assert_eq!(
        pushed["mediaType"],
        "application/vnd.oci.image.index.v1+json"
    );
    let architectures: Vec<&str> = pushed["manifests"]
        .as_array()
        .expect("manifests")
        .iter()
        .map(|entry| {
            entry["platform"]["architecture"]
                .as_str()
                .expect("an architecture")
        })
        .collect();
    assert_eq!(architectures, ["amd64", "arm64"]);
    for architecture in ["amd64", "arm64"] {
        let inspected: serde_json::Value = serde_json::from_slice(&skopeo(&[
            "inspect",
            "--tls-verify=false",
            "--override-arch",
            architecture,
            &format!("docker://{reference}"),
        ]))
        .expect("JSON");
        assert_eq!(inspected["Labels"][CONFIGS_LABEL], "/configs");
    }
    let expected = render(catalog().to_str().expect("UTF-8"), &[]);
    assert_eq!(render(&reference, &["--use-http"]), expected);
    assert_eq!(
        render(&format!("oci:{}:v1", layout.display()), &[]),
        expected
    );
    // --print-digest names the index.
    let index = std::fs::read_to_string(layout.join("index.json")).expect("an index");
    assert!(index.contains(stdout(&output).trim()), "{index}");
    assert!(
        index.contains("application/vnd.oci.image.index.v1+json"),
        "{index}"
    );
}

/// The test image pushed to the registry at `address`, and an index listing it
/// for linux/amd64 and linux/arm64: the index's reference.
fn base_of_two_platforms(address: &str) -> String {
    let single = format!("{address}/base:single");
    skopeo(&[
        "copy",
        "--dest-tls-verify=false",
        &format!(
            "oci:{}:v0.3.0",
            testdata("examples/hello-bundle-oci").display()
        ),
        &format!("docker://{single}"),
    ]);
    let raw = skopeo(&[
        "inspect",
        "--raw",
        "--tls-verify=false",
        &format!("docker://{single}"),
    ]);
    let digest = String::from_utf8(skopeo(&[
        "inspect",
        "--tls-verify=false",
        "--format",
        "{{.Digest}}",
        &format!("docker://{single}"),
    ]))
    .expect("UTF-8");
    let entry = |architecture: &str| {
        serde_json::json!({
            "mediaType": "application/vnd.oci.image.manifest.v1+json",
            "digest": digest.trim(),
            "size": raw.len(),
            "platform": {"architecture": architecture, "os": "linux"},
        })
    };
    let index = serde_json::json!({
        "schemaVersion": 2,
        "mediaType": "application/vnd.oci.image.index.v1+json",
        "manifests": [entry("amd64"), entry("arm64")],
    });
    let put = Command::new("curl")
        .args(["-sS", "-f", "-X", "PUT", "-H"])
        .arg("Content-Type: application/vnd.oci.image.index.v1+json")
        .arg("--data-binary")
        .arg(index.to_string())
        .arg(format!("http://{address}/v2/base/manifests/multi"))
        .output()
        .expect("curl runs");
    assert!(put.status.success(), "{}", stderr(&put));
    format!("{address}/base:multi")
}

/// A registry that asks for credentials gets those of the auth file, as pulls
/// send them; without them the push fails, naming the registry's answer.
#[test]
#[cfg_attr(fbc_no_registry, ignore = "needs docker-registry")]
fn pushes_send_the_registrys_credentials() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port();
    let address = format!("127.0.0.1:{port}");
    // User `fbc`, password `secret` (bcrypt, as the registry's htpasswd wants it, at
    // its lowest cost: each request checks it).
    let registry = super::image::start_registry_with(
        &address,
        "auth:\n  htpasswd:\n    realm: fbc-test\n    path: {storage}/htpasswd\n",
    );
    let storage = registry
        .log
        .parent()
        .expect("the registry's directory")
        .to_path_buf();
    std::fs::write(
        storage.join("htpasswd"),
        "fbc:$2b$04$SM3vbQ0ETWwIj.EXhHnESewoh3nXngAndNWCI5pjbWHkXDszzOdxm\n",
    )
    .expect("written");
    let reference = format!("{address}/catalogs/hello:v1");
    let push = |auth_file: Option<&Path>| {
        let mut command = fbc();
        command
            .arg("build")
            .arg(catalog())
            .arg(base())
            .arg(format!("--tag={reference}"))
            .arg("--use-http");
        if let Some(file) = auth_file {
            command.env("REGISTRY_AUTH_FILE", file);
        }
        command.output().expect("runs")
    };
    let output = push(None);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("401 Unauthorized"),
        "{}",
        stderr(&output)
    );
    let auth = storage.join("auth.json");
    std::fs::write(
        &auth,
        format!(r#"{{"auths":{{"{address}":{{"auth":"ZmJjOnNlY3JldA=="}}}}}}"#),
    )
    .expect("written");
    let output = push(Some(&auth));
    assert!(output.status.success(), "{}", stderr(&output));
    let rendered = fbc()
        .args(["render", &reference, "--use-http"])
        .env("REGISTRY_AUTH_FILE", &auth)
        .output()
        .expect("runs");
    assert_eq!(
        stdout(&rendered),
        render(catalog().to_str().expect("UTF-8"), &[])
    );
}

/// A base layer that unpacks to more than `FBC_MAX_IMAGE_SIZE` (a small gzip
/// bomb) is refused when a docker-archive would hold it unpacked.
#[test]
fn a_base_layer_unpacks_within_the_image_limit() {
    use sha2::Digest as _;
    let dir = tempfile::tempdir().expect("a temporary directory");
    let layout = dir.path().join("bomb");
    let blobs = layout.join("blobs/sha256");
    std::fs::create_dir_all(&blobs).expect("made");
    let put = |bytes: &[u8]| {
        let hex = sha2::Sha256::digest(bytes)
            .iter()
            .fold(String::new(), |hex, byte| hex + &format!("{byte:02x}"));
        std::fs::write(blobs.join(&hex), bytes).expect("written");
        (format!("sha256:{hex}"), bytes.len())
    };
    let mut tar = tar::Builder::new(Vec::new());
    let zeros = vec![0u8; 4 << 20];
    let mut header = tar::Header::new_gnu();
    header.set_size(zeros.len() as u64);
    header.set_mode(0o644);
    tar.append_data(&mut header, "zeros", zeros.as_slice())
        .expect("archived");
    let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    std::io::Write::write_all(&mut gzip, &tar.into_inner().expect("a tar")).expect("zipped");
    let (layer, layer_size) = put(&gzip.finish().expect("a gzip"));
    let (config, config_size) =
        put(br#"{"architecture":"amd64","os":"linux","rootfs":{"type":"layers","diff_ids":[]}}"#);
    let manifest = serde_json::json!({
        "schemaVersion": 2,
        "mediaType": "application/vnd.oci.image.manifest.v1+json",
        "config": {"mediaType": "application/vnd.oci.image.config.v1+json", "digest": config, "size": config_size},
        "layers": [{"mediaType": "application/vnd.oci.image.layer.v1.tar+gzip", "digest": layer, "size": layer_size}],
    });
    let (manifest, manifest_size) = put(manifest.to_string().as_bytes());
    std::fs::write(
        layout.join("oci-layout"),
        r#"{"imageLayoutVersion":"1.0.0"}"#,
    )
    .expect("written");
    let index = serde_json::json!({
        "schemaVersion": 2,
        "manifests": [{"mediaType": "application/vnd.oci.image.manifest.v1+json", "digest": manifest, "size": manifest_size}],
    });
    std::fs::write(layout.join("index.json"), index.to_string()).expect("written");
    let archive = dir.path().join("out.tar");
    let output = fbc()
        .arg("build")
        .arg(catalog())
        .arg(format!("--base=oci:{}", layout.display()))
        .arg(format!("--output=docker-archive:{}", archive.display()))
        .env("FBC_MAX_IMAGE_SIZE", "1000000")
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("unpacks to more than"),
        "{}",
        stderr(&output)
    );
    assert!(!archive.exists());
}
