//! `fbc render` on bundle directories: the fixtures in `testdata/bundles/` (one
//! property rule or error per case, expected outputs beside them), the flags that
//! only matter for bundles, and parity with opm on the corpus bundles.

mod corpus;

use std::path::Path;

use crate::{assert_matches_file, beside, run, stderr, stdout, testdata};

/// The image template the fixtures' `template` and `migrated` expectations use.
pub(crate) const TEMPLATE: &str = "registry.example.com/{{.Package}}/{{.Name}}:v{{.Version}}";

/// What each expected file beside a case holds: its suffix and the arguments
/// before the directory.
const EXPECTATIONS: [(&str, &[&str]); 4] = [
    ("render.json", &["render"]),
    (
        "template.json",
        &["render", "--image-ref-template", TEMPLATE],
    ),
    (
        "migrated.json",
        &["render", "--migrate", "--image-ref-template", TEMPLATE],
    ),
    ("render.stderr", &["render"]),
];

/// The case as the command line names it: relative, as in the expected messages.
fn relative(case: &Path) -> String {
    format!(
        "testdata/bundles/{}",
        case.file_name().expect("a name").to_string_lossy()
    )
}

/// Each fixture of `testdata/bundles/` renders to the expected files beside it,
/// in JSON and YAML: one test per fixture, named after it (see build.rs).
mod fixtures {
    include!(concat!(env!("OUT_DIR"), "/bundles_cases.rs"));
}

fn check(name: &str) {
    let case = testdata(&format!("bundles/{name}"));
    let directory = relative(&case);
    let mut checked = 0;
    for (suffix, arguments) in EXPECTATIONS {
        let expected = beside(&case, suffix);
        if !expected.exists() {
            continue;
        }
        checked += 1;
        let mut arguments = arguments.to_vec();
        arguments.push(&directory);
        let output = run(&arguments);
        if suffix.ends_with("stderr") {
            assert_eq!(output.status.code(), Some(2), "{directory}");
            assert_eq!(stdout(&output), "", "{directory}: no partial output");
            assert_matches_file(&stderr(&output), &expected);
        } else {
            assert_eq!(
                output.status.code(),
                Some(0),
                "{directory}: {}",
                stderr(&output)
            );
            assert_matches_file(&stdout(&output), &expected);
        }
    }
    assert!(checked > 0, "{directory}: no expected output beside it");
    let expected = beside(&case, "render.yaml");
    if expected.exists() {
        let output = run(&["render", "-o", "yaml", &directory]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        assert_matches_file(&stdout(&output), &expected);
    }
}

/// Migrations need an image: without a template, bundle directories keep their
/// objects, and level `none` changes nothing.
#[test]
fn migrations_skip_bundles_without_an_image() {
    let plain = run(&["render", "testdata/bundles/registry-v1"]);
    assert_eq!(plain.status.code(), Some(0), "{}", stderr(&plain));
    for level in [
        &["--migrate"][..],
        &["--migrate-level", "bundle-object-to-csv-metadata"],
        &["--migrate-level", "all"],
        &["--migrate-level", "none"],
        &["--migrate-level", ""],
    ] {
        let mut arguments = vec!["render"];
        arguments.extend_from_slice(level);
        arguments.push("testdata/bundles/registry-v1");
        let output = run(&arguments);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{level:?}: {}",
            stderr(&output)
        );
        assert_eq!(stdout(&output), stdout(&plain), "{level:?}");
        let warned = stderr(&output).contains(
            "warning: testdata/bundles/registry-v1: 1 bundle(s) without an image keep \
             their olm.bundle.object properties",
        );
        let migrates = !matches!(level.get(1), Some(&("none" | "")));
        assert_eq!(warned, migrates, "{level:?}: {}", stderr(&output));
    }
    let template = [
        "render",
        "--migrate-level",
        "none",
        "--image-ref-template",
        TEMPLATE,
    ];
    let output = run(&[&template[..], &["testdata/bundles/registry-v1"]].concat());
    assert_matches_file(
        &stdout(&output),
        &testdata("bundles/registry-v1.template.json"),
    );
}

/// A bundle's `manifests` directory rendered as a catalog names the bundle
/// directory to render instead.
#[test]
fn a_bundles_manifests_directory_points_at_the_bundle() {
    let output = run(&["render", "testdata/bundles/registry-v1/manifests"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains(
            "help: testdata/bundles/registry-v1/manifests is part of the bundle directory \
             testdata/bundles/registry-v1: render the bundle with `fbc render \
             testdata/bundles/registry-v1`"
        ),
        "{}",
        stderr(&output)
    );
}

#[test]
fn opms_flag_name_is_accepted() {
    let ours = run(&[
        "render",
        "--image-ref-template",
        TEMPLATE,
        "testdata/bundles/registry-v1",
    ]);
    let opms = run(&[
        "render",
        "--alpha-image-ref-template",
        TEMPLATE,
        "testdata/bundles/registry-v1",
    ]);
    assert_eq!(ours.status.code(), Some(0), "{}", stderr(&ours));
    assert_eq!(stdout(&ours), stdout(&opms));
}

#[test]
fn bad_migration_levels_and_templates_are_reported() {
    let cases: [(&[&str], &str); 4] = [
        (
            &["--migrate-level", "bogus"],
            "unknown migration level \"bogus\"",
        ),
        (
            &["--image-ref-template", "x/{{.Package"],
            "invalid image reference template: template: image-ref-template:1: unclosed action",
        ),
        (
            &["--image-ref-template", "x/{{.Registry}}"],
            "render reference \"testdata/bundles/release\": failed templating image reference \
             from bundle for \"testdata/bundles/release\": template: image-ref-template:1:4: \
             executing \"image-ref-template\" at <.Registry>: can't evaluate field Registry in \
             type action.imageReferenceTemplateData",
        ),
        (
            &["--migrate", "--migrate-level", "none"],
            "the argument '--migrate' cannot be used with '--migrate-level <LEVEL>'",
        ),
    ];
    for (flags, message) in cases {
        let arguments = [&["render"][..], flags, &["testdata/bundles/release"]].concat();
        let output = run(&arguments);
        assert_eq!(output.status.code(), Some(2), "{flags:?}");
        assert!(
            stderr(&output).contains(message),
            "{flags:?}: {}",
            stderr(&output)
        );
        assert_eq!(stdout(&output), "");
    }
}

/// The first failing directory is reported (in argument order), and nothing is
/// written: opm fails before writing too.
#[test]
fn the_first_failing_directory_in_argument_order_is_reported() {
    let output = run(&[
        "render",
        "testdata/bundles/release",
        "testdata/bundles/error-no-csv",
        "testdata/bundles/error-no-objects",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stdout(&output), "");
    assert_eq!(
        stderr(&output),
        "error: render reference \"testdata/bundles/error-no-csv\": no csv in bundle\n"
    );
}

/// Bundles are written in opm's order (by package, then name) whatever the
/// argument order; the same directory twice is written twice.
#[test]
fn several_directories_are_combined_without_deduplication() {
    let output = run(&[
        "render",
        "testdata/bundles/registry-v1",
        "testdata/bundles/release",
        "testdata/bundles/registry-v1",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    let names: Vec<&str> = text
        .lines()
        .filter_map(|line| line.strip_prefix("    \"name\": "))
        .collect();
    assert_eq!(
        names,
        [
            "\"example-operator.v1.2.0\",",
            "\"example-operator.v1.2.0\",",
            "\"small-operator.v1.0.0\","
        ]
    );
}

/// A catalog holding what `render --image-ref-template` wrote migrates to the same
/// `olm.csv.metadata` as the bundle directory itself.
#[test]
fn rendered_catalogs_migrate_like_their_bundle_directories() {
    let temp = tempfile::tempdir().expect("temporary directory");
    let rendered = std::fs::read_to_string(testdata("bundles/registry-v1.template.json"))
        .expect("the expectation is readable");
    std::fs::write(temp.path().join("catalog.json"), rendered).expect("write the catalog");
    let from_catalog = run(&["render", "--migrate", temp.path().to_str().expect("UTF-8")]);
    assert_eq!(
        from_catalog.status.code(),
        Some(0),
        "{}",
        stderr(&from_catalog)
    );
    let from_directory = std::fs::read_to_string(testdata("bundles/registry-v1.migrated.json"))
        .expect("the expectation is readable");
    let metadata = |text: &str| {
        let start = text
            .find("\"olm.csv.metadata\"")
            .expect("a CSV metadata property");
        let end = text[start..].find("\n        }\n").expect("its end") + start;
        text[start..end].to_owned()
    };
    assert_eq!(metadata(&stdout(&from_catalog)), metadata(&from_directory));
    assert!(!stdout(&from_catalog).contains("olm.bundle.object"));
}
