//! `fbc alpha resolve` against OLM classic's own answers (`../shared/corpus/resolve`),
//! on manifests in several shapes, on a catalog image, and its usage errors.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Output;

use serde_json::Value;

use crate::image::{CONFIGS_LABEL, layer_of, push_image, start_registry};
use crate::schemas::{assert_valid, output_validator};
use crate::{assert_matches_file, assert_refused, corpus, fbc, run, stderr, stdout, testdata};

/// Runs a case's `cmd` (with `-o text` or `-o json`) from inside its folder.
fn run_case(dir: &Path, json: bool) -> Output {
    let cmd = std::fs::read_to_string(dir.join("cmd")).expect("the case has a cmd");
    let mut args: Vec<&str> = cmd.split_whitespace().skip(1).collect();
    if let Some(at) = args.iter().position(|a| *a == "-o") {
        args.drain(at..at + 2);
    }
    if json {
        args.extend(["-o", "json"]);
    }
    fbc()
        .args(&args)
        .current_dir(dir)
        .output()
        .expect("fbc runs")
}

/// The answer part of the text output: up to the first `why:` block of each result.
fn answer_lines(text: &str) -> String {
    let mut out = String::new();
    let mut skipping = false;
    for line in text.lines() {
        if line.starts_with("why:") {
            skipping = true;
        } else if line.starts_with("== ") {
            skipping = false;
        }
        if !skipping {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

fn install_set(result: &Value) -> BTreeSet<String> {
    result["install"]
        .as_array()
        .expect("install is an array")
        .iter()
        .map(|i| {
            ["catalog", "namespace", "package", "channel", "bundle"]
                .map(|k| i[k].as_str().expect("a string").to_owned())
                .join(" ")
        })
        .collect()
}

/// Compares fbc's JSON with OLM's answer: per expected result (found by `key`),
/// the result, the install set, the message byte for byte and the reason.
fn assert_same_answers(
    case: &str,
    actual: &Value,
    expected: &Value,
    key: &dyn Fn(&Value) -> String,
) {
    let results = actual["results"].as_array().expect("results");
    let wanted = expected["results"].as_array().expect("expected results");
    assert_eq!(results.len(), wanted.len(), "{case}: number of results");
    for want in wanted {
        let found = results
            .iter()
            .find(|r| key(r) == key(want))
            .unwrap_or_else(|| panic!("{case}: no result for {}", key(want)));
        let what = format!("{case} ({})", key(want));
        assert_eq!(found["result"], want["result"], "{what}: result");
        assert_eq!(install_set(found), install_set(want), "{what}: install");
        assert_eq!(found["message"], want["message"], "{what}: message");
        assert_eq!(found["reason"], want["reason"], "{what}: reason");
    }
}

#[test]
#[cfg_attr(fbc_no_corpus, ignore = "needs ../shared/corpus")]
fn every_case_gets_olms_answer() {
    let schema = output_validator("resolve.schema.json");
    let mut cases: Vec<_> = std::fs::read_dir(corpus().join("resolve"))
        .expect("the resolve cases")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| {
            path.join("cmd").is_file() && !path.ends_with("every-package.community-v4.18")
        })
        .collect();
    cases.sort();
    assert!(cases.len() >= 33, "{} cases", cases.len());
    for dir in cases {
        let case = dir
            .file_name()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        let expected_text =
            std::fs::read_to_string(dir.join("expected.txt")).expect("expected.txt");
        let status = i32::from(!expected_text.starts_with("ok"));

        let output = run_case(&dir, true);
        assert_eq!(
            output.status.code(),
            Some(status),
            "{case}: {}",
            stderr(&output)
        );
        let actual: Value = serde_json::from_slice(&output.stdout).expect("JSON");
        assert_valid(&schema, &actual, &case);
        let expected: Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join("expected.json")).expect("expected.json"),
        )
        .expect("expected JSON");
        assert_same_answers(&case, &actual, &expected, &|r| r["namespace"].to_string());

        let output = run_case(&dir, false);
        assert_eq!(
            output.status.code(),
            Some(status),
            "{case}: {}",
            stderr(&output)
        );
        assert_eq!(
            answer_lines(&stdout(&output)),
            expected_text,
            "{case}: text"
        );
    }
}

#[test]
#[cfg_attr(fbc_no_corpus, ignore = "needs ../shared/corpus")]
fn every_package_of_community_resolves_as_olm_does() {
    let dir = corpus().join("resolve/every-package.community-v4.18");
    let output = run_case(&dir, true);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let actual: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_valid(
        &output_validator("resolve.schema.json"),
        &actual,
        "every-package",
    );
    let expected: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("expected.json")).expect("expected.json"),
    )
    .expect("expected JSON");
    let package = |r: &Value| r["subscriptions"][0]["package"].to_string();
    assert_same_answers("every-package", &actual, &expected, &package);
    let results = actual["results"].as_array().expect("results");
    let failed: Vec<String> = results
        .iter()
        .filter(|r| r["result"] == "error")
        .map(package)
        .collect();
    assert_eq!(results.len(), 35);
    assert_eq!(
        failed,
        ["\"alloydb-omni-operator\"", "\"shipwright-operator\""]
    );

    let output = run_case(&dir, false);
    let expected_text = std::fs::read_to_string(dir.join("expected.txt")).expect("expected.txt");
    assert_eq!(answer_lines(&stdout(&output)), expected_text);
    assert_eq!(
        stderr(&output),
        "33 of 35 packages install; not: alloydb-omni-operator, shipwright-operator\n"
    );
}

const SHAPES: &str = "testdata/resolve/shapes";

fn resolve_shapes(files: &[&str], extra: &[&str]) -> Output {
    let mut args = vec![
        "alpha",
        "resolve",
        "--catalog",
        "main=testdata/resolve/shapes/catalog",
    ];
    for file in files {
        args.extend(["-f", file]);
    }
    args.extend(extra);
    run(&args)
}

#[test]
fn manifests_in_one_file_many_files_or_json_give_one_answer() {
    let one = resolve_shapes(&["testdata/resolve/shapes/cluster.yaml"], &[]);
    assert_eq!(one.status.code(), Some(1), "{}", stderr(&one));
    assert_matches_file(&stdout(&one), &testdata("resolve/shapes.txt"));
    // `-f -` reads the manifests from stdin.
    let piped = fbc()
        .args([
            "alpha",
            "resolve",
            "--catalog",
            "main=testdata/resolve/shapes/catalog",
        ])
        .args(["-f", "-"])
        .stdin(std::fs::File::open(testdata("resolve/shapes/cluster.yaml")).expect("manifests"))
        .output()
        .expect("fbc runs");
    assert_eq!(piped.status.code(), Some(1), "{}", stderr(&piped));
    assert_eq!(stdout(&piped), stdout(&one));
    let mut split: Vec<String> = std::fs::read_dir(testdata("resolve/shapes/split"))
        .expect("split manifests")
        .map(|e| e.expect("an entry").path().to_string_lossy().into_owned())
        .collect();
    split.sort();
    let split: Vec<&str> = split.iter().map(String::as_str).collect();
    assert_eq!(split.len(), 4);
    let many = resolve_shapes(&split, &[]);
    let json = resolve_shapes(&["testdata/resolve/shapes/cluster.json"], &[]);
    for other in [&many, &json] {
        assert_eq!(other.status.code(), Some(1));
        assert_eq!(stdout(other), stdout(&one));
    }
    let report = resolve_shapes(&["testdata/resolve/shapes/cluster.yaml"], &["-o", "json"]);
    let report: Value = serde_json::from_slice(&report.stdout).expect("JSON");
    assert_valid(&output_validator("resolve.schema.json"), &report, "shapes");
    assert_matches_file(
        &serde_json::to_string_pretty(&report).expect("JSON"),
        &testdata("resolve/shapes.json"),
    );
}

#[test]
fn a_new_subscription_is_given_by_flags() {
    let catalog = "main=testdata/resolve/shapes/catalog";
    // The head needs widget-operator >= 2.0.0 through CEL: both come from the head.
    let output = run(&["alpha", "resolve", "app", "--catalog", catalog]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        answer_lines(&stdout(&output)),
        "ok\nmain olm app stable app.v2.0.0\nmain olm widget-operator stable widget-operator.v2.0.0\n"
    );
    // startingCSV: that bundle only; the Widget goes to the channel head.
    let output = run(&[
        "alpha",
        "resolve",
        "app",
        "--catalog",
        catalog,
        "--starting-csv",
        "app.v1.0.0",
    ]);
    assert_eq!(
        answer_lines(&stdout(&output)),
        "ok\nmain olm app stable app.v1.0.0\nmain olm widget-operator stable widget-operator.v2.0.0\n"
    );
    let output = run(&[
        "alpha",
        "resolve",
        "app",
        "--catalog",
        catalog,
        "--channel",
        "beta",
        "-o",
        "json",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(
        report["results"][0]["message"],
        "constraints not satisfiable: no operators found in channel beta of package app in the catalog referenced by subscription app, subscription app exists"
    );
    assert_eq!(
        report["results"][0]["subscriptions"][0]["sourceNamespace"],
        "olm"
    );
    // The namespaces are flags too.
    let output = run(&[
        "alpha",
        "resolve",
        "widget-operator",
        "--catalog",
        catalog,
        "--global-namespace",
        "openshift-marketplace",
        "--namespace",
        "team",
        "-o",
        "json",
    ]);
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(report["results"][0]["namespace"], "team");
    assert_eq!(
        report["results"][0]["install"][0]["namespace"],
        "openshift-marketplace"
    );
    // Every package, each alone.
    let output = run(&["alpha", "resolve", "--every-package", "--catalog", catalog]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        answer_lines(&stdout(&output)),
        "== app (channel stable)\nok\nmain olm app stable app.v2.0.0\nmain olm widget-operator stable widget-operator.v2.0.0\n\
         == widget-operator (channel stable)\nok\nmain olm widget-operator stable widget-operator.v2.0.0\n"
    );
}

#[test]
fn usage_and_input_errors_exit_2_with_a_message() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let broken = dir.path().join("broken.yaml");
    std::fs::write(&broken, "kind: Subscription\nmetadata: {name: x\n").expect("written");
    let broken = broken.to_string_lossy().into_owned();
    let no_image = dir.path().join("no-image.yaml");
    std::fs::write(
        &no_image,
        "apiVersion: operators.coreos.com/v1alpha1\nkind: CatalogSource\nmetadata: {name: other, namespace: olm}\nspec: {}\n",
    )
    .expect("written");
    let no_image = no_image.to_string_lossy().into_owned();
    let shapes = format!("{SHAPES}/cluster.yaml");
    // A CatalogSource no resolution can see is not read: no content is needed.
    let unseen = dir.path().join("unseen.yaml");
    std::fs::write(
        &unseen,
        "apiVersion: operators.coreos.com/v1alpha1\nkind: CatalogSource\nmetadata: {name: other, namespace: elsewhere}\nspec: {}\n",
    )
    .expect("written");
    let output = resolve_shapes(&[&shapes, &unseen.to_string_lossy()], &[]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let cases: &[(&[&str], &str)] = &[
        (
            &["-f", &broken],
            "broken.yaml:3:1: error converting YAML to JSON: yaml: line 2:",
        ),
        (
            &["-f", &shapes, "-f", &no_image],
            "CatalogSource other (namespace olm) has neither spec.image nor a --catalog other=REF",
        ),
        (
            &["app", "--catalog", "main"],
            "--catalog main: expected NAME=REF",
        ),
        (
            &[
                "app",
                "--catalog",
                "main=testdata/resolve/shapes/catalog",
                "--source",
                "nope",
            ],
            "--source nope: no --catalog of that name",
        ),
        (
            &[
                "app",
                "--catalog",
                "main=testdata/resolve/shapes/catalog",
                "--priority",
                "main=high",
            ],
            "--priority main=high: expected NAME=N",
        ),
        (
            &["app", "--catalog", "main=testdata/resolve/no-such-dir"],
            "no such file or directory",
        ),
        (&["app"], "nothing to resolve"),
    ];
    for (args, message) in cases {
        let mut all = vec!["alpha", "resolve"];
        if !args.contains(&"--catalog") && args.first() == Some(&"-f") {
            all.extend(["--catalog", "main=testdata/resolve/shapes/catalog"]);
        }
        all.extend(*args);
        let output = run(&all);
        assert_refused(&output, &format!("{args:?}"), message);
    }
}

#[test]
#[cfg_attr(fbc_no_registry, ignore = "needs docker-registry")]
fn a_catalog_source_image_is_pulled() {
    let registry = start_registry();
    let catalog = push_image(
        &registry.address,
        "resolve/main:latest",
        vec![layer_of(&testdata("resolve/shapes/catalog"), "configs")],
        &[(CONFIGS_LABEL, "/configs")],
        false,
    );
    let dir = tempfile::tempdir().expect("a temporary directory");
    let cluster = std::fs::read_to_string(testdata("resolve/shapes/cluster.yaml"))
        .expect("the manifests")
        .replace("registry.invalid/resolve/main:latest", &catalog);
    let file = dir.path().join("cluster.yaml");
    std::fs::write(&file, cluster).expect("written");
    let output = run(&[
        "alpha",
        "resolve",
        "--use-http",
        "--no-cache",
        "-f",
        &file.to_string_lossy(),
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let local = resolve_shapes(&[&format!("{SHAPES}/cluster.yaml")], &[]);
    assert_eq!(stdout(&output), stdout(&local));
    assert!(registry.requests("resolve/main") > 0);
}

#[test]
fn validate_checks_that_channel_heads_can_be_installed() {
    let catalog = "testdata/resolve/needs-gizmo";
    let quiet = run(&["validate", catalog]);
    assert_eq!(quiet.status.code(), Some(0));
    assert!(!stderr(&quiet).contains("dependency-unsatisfiable"));

    let alone = run(&["validate", catalog, "--check-dependencies"]);
    assert_eq!(alone.status.code(), Some(0), "{}", stderr(&alone));
    assert!(
        stderr(&alone).contains(
            "warning[dependency-unsatisfiable]: channel head gadget.v1.0.0 of package gadget (channel stable) cannot be installed: \
             constraints not satisfiable: bundle gadget.v1.0.0 requires an operator providing an API with group: example.com, version: v1, kind: Gizmo, \
             subscription gadget exists, subscription gadget requires needs-gizmo/olm/stable/gadget.v1.0.0"
        ),
        "{}",
        stderr(&alone)
    );
    assert!(stderr(&alone).contains("--> testdata/resolve/needs-gizmo/catalog.yaml:5:1"));

    let strict = run(&[
        "validate",
        catalog,
        "--check-dependencies",
        "--strict",
        "-o",
        "json",
    ]);
    assert_eq!(strict.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&strict.stdout).expect("JSON");
    assert!(
        report.to_string().contains("\"dependency-unsatisfiable\""),
        "{report}"
    );

    let allowed = run(&[
        "validate",
        catalog,
        "--check-dependencies",
        "--strict",
        "--allow",
        "dependency-unsatisfiable",
    ]);
    assert_eq!(allowed.status.code(), Some(0), "{}", stderr(&allowed));

    let provided = run(&[
        "validate",
        catalog,
        "--with-catalog",
        "gizmos=testdata/resolve/gizmo-provider",
        "--strict",
    ]);
    assert_eq!(provided.status.code(), Some(0), "{}", stderr(&provided));
    assert!(!stderr(&provided).contains("dependency-unsatisfiable"));

    // A search that runs out of steps is a finding, never a silent pass.
    let with_provider = [
        "validate",
        catalog,
        "--with-catalog",
        "gizmos=testdata/resolve/gizmo-provider",
    ];
    let gave_up = crate::fbc()
        .args(with_provider)
        .env("FBC_RESOLVE_STEPS", "1")
        .output()
        .expect("fbc runs");
    assert_eq!(gave_up.status.code(), Some(0), "{}", stderr(&gave_up));
    assert!(
        stderr(&gave_up).contains(
            "warning[dependency-search-gave-up]: the dependency search for channel head gadget.v1.0.0 of package gadget (channel stable) gave up after 1 steps"
        ),
        "{}",
        stderr(&gave_up)
    );
    let strict = crate::fbc()
        .args(with_provider)
        .arg("--strict")
        .env("FBC_RESOLVE_STEPS", "1")
        .output()
        .expect("fbc runs");
    assert_eq!(strict.status.code(), Some(1), "{}", stderr(&strict));

    let bad = run(&["validate", catalog, "--with-catalog", "gizmos"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("--with-catalog gizmos: expected NAME=REF"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn a_csv_without_the_properties_annotation_is_read_from_its_apis() {
    let team_b = std::fs::read_to_string(testdata("resolve/shapes/split/03-team-b.yaml"))
        .expect("the manifests");
    let annotation = team_b
        .lines()
        .find(|l| l.contains("operatorframework.io/properties"))
        .expect("the annotation");
    let bare = team_b.replace(&format!("  annotations:\n{annotation}\n"), "").replace(
        "spec:\n  version: 1.0.0\n",
        "spec:\n  version: 1.0.0\n  customresourcedefinitions:\n    owned:\n    - {name: widgets.example.com, version: v1, kind: Widget}\n",
    );
    assert_ne!(bare, team_b);
    assert!(!bare.contains("operatorframework.io/properties"));
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("team-b.yaml");
    std::fs::write(&file, bare).expect("written");
    let source = format!("{SHAPES}/split/01-catalogsource.yaml");
    let with = resolve_shapes(&[&source, &format!("{SHAPES}/split/03-team-b.yaml")], &[]);
    let without = resolve_shapes(&[&source, &file.to_string_lossy()], &[]);
    assert_eq!(without.status.code(), Some(0), "{}", stderr(&without));
    // The package comes from the Subscription, the API from the owned CRD: the
    // same upgrade and the same provider.
    assert_eq!(
        answer_lines(&stdout(&without)),
        answer_lines(&stdout(&with))
    );
    assert!(stdout(&with).contains("main olm widget-operator stable widget-operator.v2.0.0"));
}
