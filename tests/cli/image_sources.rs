//! Where images come from besides their registry: mirrors and blocked registries
//! of containers-registries.conf, OCI image layouts (`oci:`) and `docker save`
//! tarballs (`docker-archive:`), all built by the tests.

use std::path::Path;
use std::process::Output;

use crate::image::{layer_of, push_image, start_registry};
use crate::{fbc, stderr, stdout, testdata};

const BUNDLE_LABEL: &str = "operators.operatorframework.io.bundle.package.v1";

fn render_with(conf: &Path, args: &[&str]) -> Output {
    let cache = tempfile::tempdir().expect("a cache");
    fbc()
        .env("CONTAINERS_REGISTRIES_CONF", conf)
        .env("XDG_CACHE_HOME", cache.path())
        .args(args)
        .output()
        .expect("the fbc binary runs")
}

/// The render of the example bundle directory with `image` set to `reference`.
fn expected_render(reference: &str) -> String {
    let dir = testdata("examples/hello-bundle");
    let output = fbc()
        .args(["render", "--image-ref-template", reference])
        .arg(dir)
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    stdout(&output)
}

#[test]
#[cfg_attr(fbc_no_registry, ignore = "needs docker-registry")]
fn mirrors_serve_images_that_keep_their_written_reference() {
    let registry = start_registry();
    push_image(
        &registry.address,
        "mirror/hello:v1",
        vec![layer_of(&testdata("examples/hello-bundle"), ".")],
        &[(BUNDLE_LABEL, "hello")],
        false,
    );
    let dir = tempfile::tempdir().expect("a directory");
    let conf = dir.path().join("registries.conf");
    std::fs::write(
        &conf,
        format!(
            "[[registry]]\nprefix = \"quay.io/fbc-test\"\nlocation = \"quay.io/fbc-test\"\n\n[[registry.mirror]]\nlocation = \"{}/mirror\"\ninsecure = true\n\n[[registry]]\nlocation = \"quay.io/blocked\"\nblocked = true\n",
            registry.address
        ),
    )
    .expect("written");
    let reference = "quay.io/fbc-test/hello:v1";
    let output = render_with(&conf, &["render", reference]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), expected_render(reference));

    let template = dir.path().join("basic.yaml");
    std::fs::write(
        &template,
        format!(
            "schema: olm.template.basic\nentries:\n- schema: olm.bundle\n  image: {reference}\n"
        ),
    )
    .expect("written");
    let output = render_with(
        &conf,
        &[
            "alpha",
            "render-template",
            template.to_str().expect("UTF-8"),
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), expected_render(reference));

    let blocked = render_with(&conf, &["render", "quay.io/blocked/x:1"]);
    assert_eq!(blocked.status.code(), Some(2));
    assert!(
        stderr(&blocked).contains(&format!(
            "failed to pull image \"quay.io/blocked/x:1\": registry quay.io/blocked is blocked in {}",
            conf.display()
        )),
        "{}",
        stderr(&blocked)
    );
}

#[test]
fn registries_conf_files_are_checked_but_version_1_is_read() {
    let dir = tempfile::tempdir().expect("a directory");
    let conf = dir.path().join("registries.conf");
    std::fs::write(
        &conf,
        "[[registry]]\nlocation = \"a.io\"\n\n[[registry.mirror]]\nlocation = \"b.io\"\npull-from-mirror = \"sometimes\"\n",
    )
    .expect("written");
    let output = render_with(&conf, &["render", "quay.io/x/y:1"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains(&format!(
            "{}:4: unsupported pull-from-mirror value \"sometimes\"",
            conf.display()
        )),
        "{}",
        stderr(&output)
    );
    // Ubuntu's runners ship a version 1 file: it is read, and a pull goes on (to
    // fail here on a missing registry, not on the file).
    std::fs::write(
        &conf,
        "[registries.search]\nregistries = ['docker.io', 'quay.io']\n\n[registries.insecure]\nregistries = []\n\n[registries.block]\nregistries = []\n",
    )
    .expect("written");
    let output = render_with(&conf, &["render", "--use-http", "127.0.0.1:1/x/y:1"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("failed to pull image \"127.0.0.1:1/x/y:1\""),
        "{}",
        stderr(&output)
    );
    assert!(
        !stderr(&output).contains("registries.conf"),
        "{}",
        stderr(&output)
    );
}

fn config_json() -> Vec<u8> {
    serde_json::to_vec(&serde_json::json!({
        "architecture": "amd64", "os": "linux",
        "config": {"Labels": {BUNDLE_LABEL: "hello"}},
        "rootfs": {"type": "layers", "diff_ids": []}
    }))
    .expect("JSON")
}

/// An OCI image layout holding the example bundle, tagged `tag`.
pub(crate) fn oci_layout(dir: &Path, tag: &str) {
    let blobs = dir.join("blobs/sha256");
    std::fs::create_dir_all(&blobs).expect("created");
    let put = |data: &[u8]| {
        let digest = crate::fake_registry::digest(data);
        std::fs::write(blobs.join(digest.trim_start_matches("sha256:")), data).expect("written");
        digest
    };
    let layer = layer_of(&testdata("examples/hello-bundle"), ".");
    let config = config_json();
    let manifest = serde_json::to_vec(&serde_json::json!({
        "schemaVersion": 2,
        "mediaType": "application/vnd.oci.image.manifest.v1+json",
        "config": {"mediaType": "application/vnd.oci.image.config.v1+json", "digest": put(&config), "size": config.len()},
        "layers": [{"mediaType": "application/vnd.oci.image.layer.v1.tar+gzip", "digest": put(&layer), "size": layer.len()}]
    }))
    .expect("JSON");
    let index = serde_json::json!({
        "schemaVersion": 2,
        "manifests": [{
            "mediaType": "application/vnd.oci.image.manifest.v1+json",
            "digest": put(&manifest), "size": manifest.len(),
            "annotations": {"org.opencontainers.image.ref.name": tag}
        }]
    });
    std::fs::write(dir.join("index.json"), index.to_string()).expect("written");
    std::fs::write(dir.join("oci-layout"), r#"{"imageLayoutVersion":"1.0.0"}"#).expect("written");
}

/// A `docker save` tarball of the example bundle: manifest.json, config, one
/// uncompressed layer.
fn docker_archive(path: &Path) {
    let layer = {
        let mut builder = tar::Builder::new(Vec::new());
        builder
            .append_dir_all(".", testdata("examples/hello-bundle"))
            .expect("archived");
        builder.into_inner().expect("the layer")
    };
    let config = config_json();
    let config_name = format!(
        "{}.json",
        crate::fake_registry::digest(&config).trim_start_matches("sha256:")
    );
    let manifest = serde_json::json!([{
        "Config": config_name, "RepoTags": ["quay.io/ex/hello:v1"], "Layers": ["abc/layer.tar"]
    }]);
    let mut archive = tar::Builder::new(std::fs::File::create(path).expect("created"));
    for (name, data) in [
        (
            "manifest.json".to_owned(),
            manifest.to_string().into_bytes(),
        ),
        (config_name, config),
        ("abc/layer.tar".to_owned(), layer),
    ] {
        let mut header = tar::Header::new_gnu();
        header.set_size(data.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        archive
            .append_data(&mut header, name, data.as_slice())
            .expect("appended");
    }
    archive.finish().expect("finished");
}

#[test]
fn oci_layouts_and_docker_archives_render_as_pulled_images() {
    let dir = tempfile::tempdir().expect("a directory");
    let layout = dir.path().join("layout");
    oci_layout(&layout, "v1");
    let archive = dir.path().join("hello.tar");
    docker_archive(&archive);
    let conf = Path::new("/dev/null");
    for reference in [
        format!("oci:{}:v1", layout.display()),
        format!("oci:{}", layout.display()),
        format!("docker-archive:{}", archive.display()),
        format!("docker-archive:{}:quay.io/ex/hello:v1", archive.display()),
    ] {
        let output = render_with(conf, &["render", &reference]);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{reference}: {}",
            stderr(&output)
        );
        assert_eq!(stdout(&output), expected_render(&reference), "{reference}");
    }
    // The layout shipped for the README's examples holds the example bundle.
    let shipped = "oci:testdata/examples/hello-bundle-oci:v0.3.0";
    let output = render_with(conf, &["render", shipped]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), expected_render(shipped));

    let template = dir.path().join("basic.yaml");
    let reference = format!("oci:{}:v1", layout.display());
    std::fs::write(
        &template,
        format!(
            "schema: olm.template.basic\nentries:\n- schema: olm.bundle\n  image: {reference}\n"
        ),
    )
    .expect("written");
    let output = render_with(
        conf,
        &[
            "alpha",
            "render-template",
            template.to_str().expect("UTF-8"),
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), expected_render(&reference));

    let missing_tag = render_with(conf, &["render", &format!("oci:{}:v2", layout.display())]);
    assert_eq!(missing_tag.status.code(), Some(2));
    assert!(
        stderr(&missing_tag).contains("no image tagged \"v2\""),
        "{}",
        stderr(&missing_tag)
    );
    // A blob that does not match its digest is refused.
    let blobs = layout.join("blobs/sha256");
    for entry in std::fs::read_dir(&blobs).expect("listed").flatten() {
        let data = std::fs::read(entry.path()).expect("read");
        if data.starts_with(&[0x1f, 0x8b]) {
            std::fs::write(entry.path(), [&data[..], b"x"].concat()).expect("written");
        }
    }
    let damaged = render_with(conf, &["render", &format!("oci:{}:v1", layout.display())]);
    assert_eq!(damaged.status.code(), Some(2));
    assert!(
        stderr(&damaged).contains("does not match its digest"),
        "{}",
        stderr(&damaged)
    );
}

#[test]
fn a_registries_file_mixing_both_versions_is_skipped_with_a_warning() {
    let dir = tempfile::tempdir().expect("a directory");
    let conf = dir.path().join("registries.conf");
    std::fs::write(
        &conf,
        "[registries.block]\nregistries = ['127.0.0.1:1']\n[[registry]]\nlocation = 'b.io'\n",
    )
    .expect("written");
    // The pull reads the configuration (its block is skipped, so the pull is
    // tried and refused by the closed port), then the warning is reported once.
    let output = render_with(&conf, &["render", "127.0.0.1:1/x:1"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = stderr(&output);
    assert_eq!(
        stderr
            .matches("mixes version 1 ([registries.*]) and version 2 ([[registry]]) tables; the file is skipped")
            .count(),
        1,
        "{stderr}"
    );
    assert!(!stderr.contains("blocked"), "{stderr}");
}
