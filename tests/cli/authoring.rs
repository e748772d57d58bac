//! `fbc alpha convert-template`, `fbc init` and `fbc alpha list` on the examples of
//! the spec (§10.6-§10.8), whose outputs were checked against opm's own code.

use std::path::Path;
use std::process::{Output, Stdio};

use crate::{fbc, stderr, stdout};

fn run_in(dir: &Path, args: &[&str]) -> Output {
    fbc()
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the fbc binary runs")
}

fn write(dir: &Path, name: &str, text: &[u8]) {
    std::fs::write(dir.join(name), text).expect("written");
}

const CONV: &str = "schema: olm.package\nname: foo\ndefaultChannel: stable\ndescription: \"a <b> & c\"\n---\nschema: olm.bundle\nname: foo.v1.0.0\npackage: foo\nimage: quay.io/ex/foo:v1.0.0\nproperties:\n- type: olm.package\n  value: {packageName: foo, version: 1.0.0}\n";

#[test]
fn convert_template_writes_opms_templates() {
    let dir = tempfile::tempdir().expect("a directory");
    write(dir.path(), "conv.yaml", CONV.as_bytes());
    let basic = run_in(
        dir.path(),
        &["alpha", "convert-template", "basic", "conv.yaml"],
    );
    assert_eq!(basic.status.code(), Some(0), "{}", stderr(&basic));
    assert_eq!(
        stdout(&basic),
        "{\n    \"schema\": \"olm.template.basic\",\n    \"entries\": [\n        {\n            \"defaultChannel\": \"stable\",\n            \"description\": \"a \\u003cb\\u003e \\u0026 c\",\n            \"name\": \"foo\",\n            \"schema\": \"olm.package\"\n        },\n        {\n            \"schema\": \"olm.bundle\",\n            \"image\": \"quay.io/ex/foo:v1.0.0\"\n        }\n    ]\n}\n"
    );
    let substitutes = fbc()
        .args([
            "alpha",
            "convert-template",
            "substitutes",
            "-o",
            "yaml",
            "-",
        ])
        .stdin(std::fs::File::open(dir.path().join("conv.yaml")).expect("opened"))
        .output()
        .expect("runs");
    assert_eq!(
        substitutes.status.code(),
        Some(0),
        "{}",
        stderr(&substitutes)
    );
    assert!(
        stdout(&substitutes)
            .starts_with("---\nentries:\n- defaultChannel: stable\n  description: a <b> & c\n")
    );
    assert!(
        stdout(&substitutes).ends_with("schema: olm.template.substitutes\nsubstitutions: []\n\n")
    );

    let missing = run_in(
        dir.path(),
        &["alpha", "convert-template", "basic", "nosuch.yaml"],
    );
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        stderr(&missing).contains("unable to open input: \"nosuch.yaml\""),
        "{}",
        stderr(&missing)
    );
    write(dir.path(), "bad.yaml", b"schema: olm.package\nname: [\n");
    let bad = run_in(
        dir.path(),
        &["alpha", "convert-template", "basic", "bad.yaml"],
    );
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("converting: error converting YAML to JSON: yaml: line"),
        "{}",
        stderr(&bad)
    );
    write(
        dir.path(),
        "typed.yaml",
        b"schema: olm.bundle\nproperties: 5\n",
    );
    let typed = run_in(
        dir.path(),
        &["alpha", "convert-template", "basic", "typed.yaml"],
    );
    assert!(
        stderr(&typed).contains("converting: parse bundle: json: cannot unmarshal number into Go struct field Bundle.properties of type []property.Property"),
        "{}",
        stderr(&typed)
    );
}

#[test]
fn init_writes_a_package_with_a_detected_icon_type() {
    let dir = tempfile::tempdir().expect("a directory");
    write(
        dir.path(),
        "README.md",
        b"# Foo\n\nSome <b>text</b> & more.\n",
    );
    write(
        dir.path(),
        "icon.svg",
        b"<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>\n",
    );
    let output = run_in(
        dir.path(),
        &[
            "init",
            "foo",
            "-c",
            "stable",
            "-d",
            "README.md",
            "-i",
            "icon.svg",
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "{\n    \"schema\": \"olm.package\",\n    \"name\": \"foo\",\n    \"defaultChannel\": \"stable\",\n    \"icon\": {\n        \"base64data\": \"PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciPjwvc3ZnPgo=\",\n        \"mediatype\": \"image/svg+xml\"\n    },\n    \"description\": \"# Foo\\n\\nSome <b>text</b> & more.\\n\"\n}\n"
    );
    let yaml = run_in(
        dir.path(),
        &["init", "foo", "-d", "README.md", "-o", "yaml"],
    );
    assert_eq!(
        stdout(&yaml),
        "---\ndefaultChannel: \"\"\ndescription: |\n  # Foo\n\n  Some <b>text</b> & more.\nname: foo\nschema: olm.package\n"
    );
    let nameless = run_in(dir.path(), &["init", ""]);
    assert_eq!(
        (nameless.status.code(), stdout(&nameless)),
        (Some(0), String::new())
    );

    write(dir.path(), "star.svg", b"<svg><style>* {}</style></svg>");
    let refused = run_in(dir.path(), &["init", "foo", "-i", "star.svg"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr(&refused).contains("detected invalid type \"\": not an image"),
        "{}",
        stderr(&refused)
    );
    assert!(
        stderr(&refused).contains("the icon (-i/--icon) star.svg is not an image"),
        "opm's text gets a hint naming the flag and the file: {}",
        stderr(&refused)
    );
    for (flag, what) in [("-i", "icon"), ("-d", "description")] {
        let device = run_in(dir.path(), &["init", "foo", flag, "/dev/zero"]);
        assert_eq!(device.status.code(), Some(2));
        assert!(
            stderr(&device).contains(&format!(
                "open {what} file: /dev/zero: a device, not a regular file"
            )),
            "{}",
            stderr(&device)
        );
    }
    write(dir.path(), "empty.png", b"");
    let empty = run_in(dir.path(), &["init", "foo", "-i", "empty.png"]);
    assert!(
        stderr(&empty).contains("detect icon mediatype: Empty buffer"),
        "{}",
        stderr(&empty)
    );
    let missing = run_in(dir.path(), &["init", "foo", "-i", "nosuch.png"]);
    assert!(
        stderr(&missing).contains("open icon file: open nosuch.png: no such file or directory"),
        "{}",
        stderr(&missing)
    );
}

/// The output of the spec's Example 3 (a semver template with major channels).
const EXAMPLE_3: &str = r#"{"schema":"olm.package","name":"foo","defaultChannel":"stable-v1"}
{"schema":"olm.channel","name":"stable-v1","package":"foo","entries":[{"name":"foo.v1.0.0"},{"name":"foo.v1.0.1","skips":["foo.v1.0.0"]},{"name":"foo.v1.1.0","replaces":"foo.v1.0.1","skips":["foo.v1.0.0"]}]}
{"schema":"olm.bundle","name":"foo.v1.0.0","package":"foo","image":"quay.io/ex/foo:v1.0.0","properties":[{"type":"olm.package","value":{"packageName":"foo","version":"1.0.0"}}]}
{"schema":"olm.bundle","name":"foo.v1.0.1","package":"foo","image":"quay.io/ex/foo:v1.0.1","properties":[{"type":"olm.package","value":{"packageName":"foo","version":"1.0.1"}}]}
{"schema":"olm.bundle","name":"foo.v1.1.0","package":"foo","image":"quay.io/ex/foo:v1.1.0","properties":[{"type":"olm.package","value":{"packageName":"foo","version":"1.1.0"}}]}
"#;

#[test]
fn list_prints_opms_tables() {
    let dir = tempfile::tempdir().expect("a directory");
    std::fs::create_dir(dir.path().join("catalog")).expect("created");
    write(
        &dir.path().join("catalog"),
        "catalog.json",
        EXAMPLE_3.as_bytes(),
    );
    let list = |args: &[&str]| {
        let output = run_in(dir.path(), &[&["alpha", "list"], args].concat());
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        stdout(&output)
    };
    assert_eq!(
        list(&["packages", "catalog"]),
        "NAME  DISPLAY NAME  DEFAULT CHANNEL\nfoo                 stable-v1\n"
    );
    assert_eq!(
        list(&["channels", "catalog"]),
        "PACKAGE  CHANNEL    HEAD\nfoo      stable-v1  foo.v1.1.0\n"
    );
    assert_eq!(
        list(&["bundles", "catalog", "foo"]),
        "PACKAGE  CHANNEL    BUNDLE      REPLACES    SKIPS       SKIP RANGE  IMAGE\n\
foo      stable-v1  foo.v1.0.0                                      quay.io/ex/foo:v1.0.0\n\
foo      stable-v1  foo.v1.0.1              foo.v1.0.0              quay.io/ex/foo:v1.0.1\n\
foo      stable-v1  foo.v1.1.0  foo.v1.0.1  foo.v1.0.0              quay.io/ex/foo:v1.1.0\n"
    );
    let unknown = run_in(dir.path(), &["alpha", "list", "bundles", "catalog", "bar"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(stderr(&unknown).contains("package \"bar\" not found"));
    let file = run_in(
        dir.path(),
        &["alpha", "list", "packages", "catalog/catalog.json"],
    );
    assert!(
        stderr(&file).contains("cannot list non-index \"catalog/catalog.json\""),
        "{}",
        stderr(&file)
    );
    write(
        &dir.path().join("catalog"),
        "catalog.json",
        EXAMPLE_3
            .replace("\"replaces\":\"foo.v1.0.1\",", "")
            .as_bytes(),
    );
    let invalid = run_in(dir.path(), &["alpha", "list", "packages", "catalog"]);
    assert_eq!(invalid.status.code(), Some(2));
    assert!(
        stderr(&invalid).contains("multiple channel heads found in graph: foo.v1.0.1, foo.v1.1.0"),
        "{}",
        stderr(&invalid)
    );
}
