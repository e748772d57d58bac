//! `fbc alpha render-template` against opm's own output for the template cases of
//! `../shared/corpus/templates`, with their bundle directories pushed as images to
//! a real registry on 127.0.0.1:45873 (the address the cases' references name);
//! and the pulls around them: the cache, `--offline`, `--check`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use crate::image::{Registry, layer_of, push_image, start_registry, start_registry_at};
use crate::{corpus, fbc, stderr, stdout};

const CASES_ADDRESS: &str = "127.0.0.1:45873";
const BUNDLE_LABEL: &str = "operators.operatorframework.io.bundle.package.v1";

/// One image of a case's `images.tsv`.
struct Image {
    reference: String,
    directory: PathBuf,
    docker: bool,
}

fn images_of(case: &Path, bundles: &Path) -> Vec<Image> {
    let text = std::fs::read_to_string(case.join("images.tsv")).expect("images.tsv");
    text.lines()
        .filter(|line| !line.is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            let [reference, directory, kind] = fields[..] else {
                panic!("{}: bad line {line:?}", case.display());
            };
            Image {
                reference: reference.to_owned(),
                directory: bundles.join(directory.trim_start_matches("shared:")),
                docker: kind == "docker",
            }
        })
        .collect()
}

/// The `annotations:` map of a bundle's `metadata/annotations.yaml`, as labels.
fn annotations(directory: &Path) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(directory.join("metadata/annotations.yaml"))
        .expect("annotations.yaml");
    let unquote = |value: &str| value.trim().trim_matches(['"', '\'']).to_owned();
    text.lines()
        .skip_while(|line| !line.starts_with("annotations:"))
        .skip(1)
        .filter(|line| line.starts_with(' ') && !line.trim_start().starts_with('#'))
        .filter_map(|line| line.trim().split_once(':'))
        .map(|(key, value)| (unquote(key), unquote(value)))
        .collect()
}

/// A bundle directory as an image: one layer with `manifests/` and `metadata/`,
/// the annotations as labels.
fn push_bundle(address: &str, image: &Image) -> String {
    let layer = {
        let encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        let mut builder = tar::Builder::new(encoder);
        for part in ["manifests", "metadata"] {
            builder
                .append_dir_all(part, image.directory.join(part))
                .expect("the bundle is archived");
        }
        builder
            .into_inner()
            .and_then(flate2::write::GzEncoder::finish)
            .expect("the layer is written")
    };
    let labels = annotations(&image.directory);
    let labels: Vec<(&str, &str)> = labels
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let name = image
        .reference
        .split_once('/')
        .map(|(_, name)| name)
        .expect("a repository");
    push_image(address, name, vec![layer], &labels, image.docker)
}

/// The command of a case: its arguments and the file it reads on stdin, if any.
fn command_of(case: &Path) -> (Vec<String>, Option<PathBuf>) {
    let text = std::fs::read_to_string(case.join("cmd")).expect("cmd");
    let (arguments, stdin) = match text.trim().split_once(" < ") {
        Some((arguments, file)) => (arguments.to_owned(), Some(case.join(file.trim()))),
        None => (text.trim().to_owned(), None),
    };
    (
        arguments.split_whitespace().map(str::to_owned).collect(),
        stdin,
    )
}

fn run_in(directory: &Path, arguments: &[String], stdin: Option<&Path>, cache: &Path) -> Output {
    let mut command = fbc();
    command
        .current_dir(directory)
        .env("XDG_CACHE_HOME", cache)
        .env("CONTAINERS_REGISTRIES_CONF", "/dev/null")
        .args(arguments);
    command.stdin(match stdin {
        Some(file) => Stdio::from(std::fs::File::open(file).expect("the stdin file")),
        None => Stdio::null(),
    });
    command.output().expect("the fbc binary runs")
}

#[test]
#[cfg_attr(fbc_no_corpus, ignore = "needs ../shared/corpus")]
#[cfg_attr(fbc_no_registry, ignore = "needs docker-registry")]
fn template_cases_render_as_opm_renders_them() {
    let corpus = corpus();
    let cases_dir = corpus.join("templates");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&cases_dir)
        .expect("the template cases")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.join("cmd").is_file())
        .collect();
    cases.sort();
    assert!(cases.len() >= 13, "{} cases", cases.len());
    assert!(
        std::net::TcpListener::bind(CASES_ADDRESS).is_ok(),
        "{CASES_ADDRESS} is taken: the template cases name it"
    );
    let registry = start_registry_at(CASES_ADDRESS);
    let mut pushed = std::collections::HashSet::new();
    for case in &cases {
        for image in images_of(case, &corpus.join("bundles")) {
            if pushed.insert(image.reference.clone()) {
                push_bundle(&registry.address, &image);
            }
        }
    }
    let cache = tempfile::tempdir().expect("a cache");
    let mut failures = Vec::new();
    for case in &cases {
        let name = case.file_name().expect("a name").to_string_lossy();
        let (mut arguments, stdin) = command_of(case);
        arguments.push("--use-http".to_owned());
        let output = run_in(case, &arguments, stdin.as_deref(), cache.path());
        let exit = std::fs::read_to_string(case.join("expected.exit")).expect("expected.exit");
        if exit.trim() == "0" {
            let expected =
                std::fs::read_to_string(case.join("expected.stdout")).expect("expected.stdout");
            if output.status.code() != Some(0) {
                failures.push(format!(
                    "{name}: exit {:?}: {}",
                    output.status.code(),
                    stderr(&output)
                ));
            } else if stdout(&output) != expected {
                let line = stdout(&output)
                    .lines()
                    .zip(expected.lines())
                    .position(|(a, e)| a != e);
                failures.push(format!("{name}: stdout differs from opm's (line {line:?})"));
            }
        } else {
            let message =
                std::fs::read_to_string(case.join("expected.message")).expect("expected.message");
            if output.status.code() != Some(2) || !output.stdout.is_empty() {
                failures.push(format!(
                    "{name}: expected exit 2 and no stdout, got {:?}",
                    output.status.code()
                ));
            }
            for line in message.lines().filter(|line| !line.is_empty()) {
                if !stderr(&output).contains(line) {
                    failures.push(format!(
                        "{name}: stderr lacks {line:?}:\n{}",
                        stderr(&output)
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    drop(registry);
}

/// A registry with a few corpus bundles pushed under tags, and a template naming them.
fn semver_setup(registry: &Registry, dir: &Path) -> (PathBuf, Vec<String>) {
    let corpus = corpus();
    let mut references = Vec::new();
    for version in ["0.10.0", "0.11.0", "0.9.0"] {
        let image = Image {
            reference: format!(
                "{}/bundles/node-healthcheck-operator:v{version}",
                registry.address
            ),
            directory: corpus
                .join("bundles/node-healthcheck-operator")
                .join(version),
            docker: false,
        };
        references.push(push_bundle(&registry.address, &image));
    }
    let images: Vec<String> = references
        .iter()
        .map(|reference| format!("  - image: {reference}\n"))
        .collect();
    let template = format!(
        "schema: olm.semver\nstable:\n  bundles:\n{}",
        images.concat()
    );
    let file = dir.join("semver.yaml");
    std::fs::write(&file, template).expect("the template");
    (file, references)
}

fn render_template(arguments: &[&str], cache: &Path) -> Output {
    fbc()
        .env("XDG_CACHE_HOME", cache)
        .env("CONTAINERS_REGISTRIES_CONF", "/dev/null")
        .args(["alpha", "render-template"])
        .args(arguments)
        .stdin(Stdio::null())
        .output()
        .expect("the fbc binary runs")
}

#[test]
#[cfg_attr(fbc_no_corpus, ignore = "needs ../shared/corpus")]
#[cfg_attr(fbc_no_registry, ignore = "needs docker-registry")]
fn cached_tags_cost_one_manifest_request_and_offline_needs_none() {
    let registry = start_registry();
    let dir = tempfile::tempdir().expect("a directory");
    let (template, references) = semver_setup(&registry, dir.path());
    let template = template.to_str().expect("UTF-8");
    let cache = tempfile::tempdir().expect("a cache");
    let cold = render_template(&["--use-http", template], cache.path());
    assert_eq!(cold.status.code(), Some(0), "{}", stderr(&cold));
    // Beside the API version check (`GET /v2/`), one manifest request per tag, and
    // no blob: the cache holds what the digest names.
    let manifests_cold = registry.requests("/manifests/");
    let blobs_cold = registry.requests("/blobs/");
    assert!(
        blobs_cold >= 2 * references.len(),
        "config and layer of each image fetched"
    );
    let warm = render_template(&["--use-http", template], cache.path());
    assert_eq!(warm.status.code(), Some(0), "{}", stderr(&warm));
    assert_eq!(stdout(&warm), stdout(&cold));
    assert_eq!(
        registry.requests("/manifests/") - manifests_cold,
        references.len()
    );
    assert_eq!(registry.requests("/blobs/"), blobs_cold);
    assert_eq!(registry.requests("HEAD"), references.len() * 2);

    drop(registry);
    let offline = render_template(&["--offline", "--use-http", template], cache.path());
    assert_eq!(offline.status.code(), Some(0), "{}", stderr(&offline));
    assert_eq!(stdout(&offline), stdout(&cold));

    let empty = tempfile::tempdir().expect("an empty cache");
    let missing = render_template(&["--offline", "--use-http", template], empty.path());
    assert_eq!(missing.status.code(), Some(2));
    assert_eq!(stdout(&missing), "");
    let text = stderr(&missing);
    assert!(
        text.contains("3 bundle images are not in the cache"),
        "{text}"
    );
    for reference in &references {
        assert!(text.contains(reference.as_str()), "{text}");
    }
}

#[test]
#[cfg_attr(fbc_no_corpus, ignore = "needs ../shared/corpus")]
#[cfg_attr(fbc_no_registry, ignore = "needs docker-registry")]
fn the_check_compares_with_the_committed_rendering() {
    let registry = start_registry();
    let dir = tempfile::tempdir().expect("a directory");
    let (template, _) = semver_setup(&registry, dir.path());
    let template = template.to_str().expect("UTF-8");
    let cache = tempfile::tempdir().expect("a cache");
    let rendered = render_template(&["--use-http", "-o", "yaml", template], cache.path());
    assert_eq!(rendered.status.code(), Some(0), "{}", stderr(&rendered));
    let committed = dir.path().join("catalog.yaml");
    std::fs::write(&committed, &rendered.stdout).expect("written");
    let committed_text = committed.to_str().expect("UTF-8");
    let same = render_template(
        &["--use-http", "--check", committed_text, template],
        cache.path(),
    );
    assert_eq!(same.status.code(), Some(0), "{}", stderr(&same));
    assert_eq!(stdout(&same), "");

    let edited = stdout(&rendered).replace(
        "defaultChannel: stable-v0.11",
        "defaultChannel: stable-v0.9",
    );
    std::fs::write(&committed, edited).expect("written");
    let drift = render_template(
        &["--use-http", "--check", committed_text, template],
        cache.path(),
    );
    assert_eq!(drift.status.code(), Some(1), "{}", stderr(&drift));
    assert!(
        stderr(&drift).contains("changed: package \"node-healthcheck-operator\": package"),
        "{}",
        stderr(&drift)
    );
    assert!(
        stdout(&drift).contains("-defaultChannel: stable-v0.9\n+defaultChannel: stable-v0.11\n"),
        "{}",
        stdout(&drift)
    );
}

#[test]
#[cfg_attr(fbc_no_registry, ignore = "needs docker-registry")]
fn bundle_images_that_are_not_bundles_are_refused_as_opm_refuses_them() {
    let registry = start_registry();
    let catalog = push_image(
        &registry.address,
        "catalog:v1",
        vec![layer_of(
            &crate::testdata("examples/hello-catalog"),
            "configs",
        )],
        &[(
            "operators.operatorframework.io.index.configs.v1",
            "/configs",
        )],
        false,
    );
    let hello = push_image(
        &registry.address,
        "hello:v1",
        vec![layer_of(&crate::testdata("examples/hello-bundle"), ".")],
        &[(BUNDLE_LABEL, "hello")],
        true,
    );
    let dir = tempfile::tempdir().expect("a directory");
    let template = dir.path().join("basic.yaml");
    let text = format!(
        "schema: olm.template.basic\nentries:\n- schema: olm.bundle\n  image: {hello}\n- schema: olm.bundle\n  image: {catalog}\n"
    );
    std::fs::write(&template, text).expect("written");
    let cache = tempfile::tempdir().expect("a cache");
    let output = render_template(
        &["--use-http", template.to_str().expect("UTF-8")],
        cache.path(),
    );
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stdout(&output), "");
    assert!(
        stderr(&output).contains(&format!(
            "rendering template: render reference \"{catalog}\": cannot render declarative config image: not allowed"
        )),
        "{}",
        stderr(&output)
    );
}

#[test]
fn command_line_failures_read_as_opms() {
    let dir = tempfile::tempdir().expect("a directory");
    let bundle = crate::testdata("examples/hello-bundle");
    let catalog = crate::testdata("examples/hello-catalog");
    let file = catalog.join("hello/channel.yaml");
    let basic = dir.path().join("basic.yaml");
    let mut text = String::from("schema: olm.template.basic\nentries:\n");
    for reference in [&bundle, &catalog, &file] {
        text.push_str("- schema: olm.bundle\n  image: ");
        text.push_str(&reference.display().to_string());
        text.push('\n');
    }
    std::fs::write(&basic, &text).expect("written");
    let basic = basic.to_str().expect("UTF-8");
    let shown = |path: &Path| path.display().to_string();
    let cases: Vec<(Vec<&str>, String)> = vec![
        (
            vec!["nosuch.yaml"],
            "unable to open \"nosuch.yaml\": open nosuch.yaml: no such file or directory".to_owned(),
        ),
        (
            vec!["basik", basic],
            "invalid template type \"basik\", must be one of: [basic semver substitutes]".to_owned(),
        ),
        (
            vec!["--use-http", "--skip-tls-verify", basic],
            "creating containerd registry: invalid flag combination: --use-http and --skip-tls-verify cannot both be true".to_owned(),
        ),
        (
            vec!["--migrate-level", "nope", basic],
            "unknown migration level \"nope\"".to_owned(),
        ),
        (
            vec![dir.path().to_str().expect("UTF-8")],
            format!("auto-detecting template type: decoding template input: read {}: is a directory", dir.path().display()),
        ),
        (
            vec![basic],
            format!(
                "rendering template: render reference \"{b}\": cannot render bundle directory \"{b}\": not allowed",
                b = shown(&bundle)
            ),
        ),
    ];
    let cache = tempfile::tempdir().expect("a cache");
    for (args, expected) in cases {
        let output = render_template(&args, cache.path());
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert_eq!(stdout(&output), "", "{args:?}");
        assert!(
            stderr(&output).contains(&expected),
            "{args:?}: {}",
            stderr(&output)
        );
    }
    // The other local paths, each alone.
    for (reference, expected) in [
        (
            &catalog,
            "cannot render declarative config directory: not allowed".to_owned(),
        ),
        (
            &file,
            format!("ref \"{}\" is not a directory: not allowed", shown(&file)),
        ),
    ] {
        let template = dir.path().join("one.yaml");
        std::fs::write(
            &template,
            format!(
                "schema: olm.template.basic\nentries:\n- schema: olm.bundle\n  image: {}\n",
                reference.display()
            ),
        )
        .expect("written");
        let output = render_template(&[template.to_str().expect("UTF-8")], cache.path());
        assert_eq!(output.status.code(), Some(2));
        let expected = format!(
            "rendering template: render reference \"{}\": {expected}",
            shown(reference)
        );
        assert!(stderr(&output).contains(&expected), "{}", stderr(&output));
    }
}

#[test]
fn an_unknown_output_format_gets_opms_message() {
    let output = crate::fbc()
        .args([
            "alpha",
            "render-template",
            "-o",
            "xml",
            "testdata/examples/hello-semver.yaml",
        ])
        .output()
        .expect("fbc runs");
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        crate::stderr(&output),
        "error: invalid --output value \"xml\", expected (json|yaml|mermaid)\n"
    );
}
