//! The JSON Schemas in `schemas/` are valid draft 2020-12 schemas, and every blob
//! that opm accepts (the example catalog, the corpus catalogs) matches
//! `fbc.schema.json`, so an editor using them does not flag good catalogs.

use std::path::PathBuf;

use jsonschema::{Retrieve, Uri};
use serde_json::Value;

use crate::{assert_matches_file, corpus, run, stdout};

fn schema_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("schemas")
}

fn read(path: &std::path::Path) -> Value {
    let text = std::fs::read_to_string(path).expect("a readable schema");
    serde_json::from_str(&text).expect("a JSON schema")
}

/// Serves `file:///schemas/<name>` from the repository's `schemas/`.
struct Schemas;

impl Retrieve for Schemas {
    fn retrieve(
        &self,
        uri: &Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        let name = uri.path().as_str().trim_start_matches("/schemas/");
        Ok(read(&schema_dir().join(name)))
    }
}

/// `fbc.schema.json`, its references served from `schemas/`.
fn catalog_validator() -> jsonschema::Validator {
    jsonschema::options()
        .with_base_uri("file:///schemas/fbc.schema.json")
        .with_retriever(Schemas)
        .build(&read(&schema_dir().join("fbc.schema.json")))
        .expect("fbc.schema.json compiles")
}

fn blobs(output: &str) -> Vec<Value> {
    serde_json::Deserializer::from_str(output)
        .into_iter::<Value>()
        .map(|blob| blob.expect("render prints JSON"))
        .collect()
}

#[test]
fn schemas_are_valid_draft_2020_12() {
    let mut count = 0;
    for entry in std::fs::read_dir(schema_dir()).expect("schemas/ exists") {
        let path = entry.expect("an entry").path();
        let schema = read(&path);
        assert!(
            jsonschema::meta::validate(&schema).is_ok(),
            "{}",
            path.display()
        );
        count += 1;
    }
    assert!(count >= 13, "schemas are missing");
}

#[test]
#[cfg_attr(fbc_no_corpus, ignore = "needs ../shared/corpus")]
fn blobs_opm_accepts_match_the_catalog_schema() {
    let validator = catalog_validator();
    let mut dirs = vec![PathBuf::from("testdata/examples/hello-catalog")];
    {
        let corpus = corpus();
        dirs.push(corpus.join("catalogs/community-v4.18"));
        dirs.push(corpus.join("catalogs/kueue-v4.18"));
    }
    for dir in dirs {
        let output = run(&["render", dir.to_str().expect("UTF-8 path")]);
        assert_eq!(output.status.code(), Some(0));
        for blob in blobs(&stdout(&output)) {
            let errors: Vec<String> = validator
                .iter_errors(&blob)
                .map(|error| format!("{}: {error}", error.instance_path().as_str()))
                .collect();
            assert!(
                errors.is_empty(),
                "{}: {} {}: {errors:?}",
                dir.display(),
                blob["schema"],
                blob["name"]
            );
        }
    }
}

/// A misspelled `replaces` is reported at its entry.
fn assert_points_at_the_misspelled_field(validator: &jsonschema::Validator) {
    let channel = serde_json::json!({
        "schema": "olm.channel", "name": "stable", "package": "foo",
        "entries": [{"name": "foo.v1", "replace": "foo.v0"}]
    });
    let errors: Vec<String> = validator
        .iter_errors(&channel)
        .map(|error| error.instance_path().as_str().to_owned())
        .collect();
    assert_eq!(errors, ["/entries/0"]);
}

#[test]
fn the_catalog_schema_points_at_mistakes() {
    let validator = catalog_validator();
    assert_points_at_the_misspelled_field(&validator);
}

/// A validator for one of fbc's output schemas.
pub(crate) fn output_validator(name: &str) -> jsonschema::Validator {
    jsonschema::validator_for(&read(&schema_dir().join(name)))
        .unwrap_or_else(|error| panic!("{name}: {error}"))
}

pub(crate) fn assert_valid(validator: &jsonschema::Validator, value: &Value, what: &str) {
    let errors: Vec<String> = validator
        .iter_errors(value)
        .map(|error| format!("{error} at {}", error.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{what}: {errors:#?}");
}

#[test]
fn fbc_outputs_match_their_schemas() {
    let diff = output_validator("diff.schema.json");
    for args in [
        &[
            "diff",
            "testdata/diff/kinds/old",
            "testdata/diff/kinds/new",
            "-o",
            "json",
        ][..],
        &[
            "diff",
            "testdata/diff/kinds/new",
            "testdata/diff/kinds/new",
            "-o",
            "json",
        ],
        // Several catalogs, one of them unreadable.
        &[
            "diff",
            "testdata/diff/kinds/old",
            "testdata/diff/kinds/new",
            "testdata/diff/kinds/new",
            "testdata/diff/kinds.txt",
            "-o",
            "json",
        ],
    ] {
        let report: Value = serde_json::from_str(&stdout(&run(args))).expect("JSON");
        assert_valid(&diff, &report, &args.join(" "));
    }
    let validate = output_validator("validate.schema.json");
    for args in [
        &["validate", "-o", "json", "testdata/validate/many-problems"][..],
        &["validate", "-o", "json", "testdata/validate/valid"],
        &[
            "validate",
            "-o",
            "json",
            "testdata/validate/valid",
            "testdata/validate/many-problems",
        ],
    ] {
        let report: Value = serde_json::from_str(&stdout(&run(args))).expect("JSON");
        assert_valid(&validate, &report, &args.join(" "));
    }
}

#[test]
fn upgrade_path_outputs_match_their_schema() {
    let schema = output_validator("upgrade-path.schema.json");
    let dir = |case: &str| format!("testdata/upgrade-path/{case}");
    let skip_range = dir("skip-range");
    let split = dir("semantics-split");
    let deprecated = dir("deprecated-successor");
    let chain = dir("replaces-chain");
    for args in [
        // Both semantics, with a stay and a skipRange edge.
        &[
            "alpha",
            "upgrade-path",
            &skip_range,
            "--package",
            "elasticsearch-operator",
            "--from",
            "4.1.0",
        ][..],
        &[
            "alpha",
            "upgrade-path",
            &split,
            "--package",
            "example",
            "--from",
            "1.0.0",
        ],
        &[
            "alpha",
            "upgrade-path",
            &deprecated,
            "--package",
            "dep",
            "--from",
            "1.0.0",
        ],
        // A target, and a version that is not in the catalog.
        &[
            "alpha",
            "upgrade-path",
            &chain,
            "--package",
            "chain",
            "--from",
            "0.1.1",
            "--to",
            "0.1.2",
        ],
        &[
            "alpha",
            "upgrade-path",
            &chain,
            "--package",
            "chain",
            "--from",
            "chain.v0.0.1",
            "--from-version",
            "0.0.1",
        ],
        // An array, one report per starting point.
        &[
            "alpha",
            "upgrade-path",
            &split,
            "--package",
            "example",
            "--every-bundle",
        ],
    ] {
        let output = run(&[args, &["-o", "json"][..]].concat());
        let report: Value = serde_json::from_str(&stdout(&output))
            .unwrap_or_else(|error| panic!("{args:?}: {error}: {}", crate::stderr(&output)));
        assert_valid(&schema, &report, &args.join(" "));
        let first = if report.is_array() {
            &report[0]
        } else {
            &report
        };
        assert_eq!(first["formatVersion"], 1, "{args:?}");
    }
}

/// `fbc.schema.json` with every schema it references inlined under `$defs` and its
/// references pointing there: one file for tools that take one (`SchemaStore`, an
/// editor given a URL), kept in `schemas/fbc.bundled.schema.json`.
fn bundled() -> Value {
    let mut root = read(&schema_dir().join("fbc.schema.json"));
    let mut queue = Vec::new();
    point_references(&mut root, None, &mut queue);
    let mut definitions = serde_json::Map::new();
    while let Some(file) = queue.pop() {
        let name = file.trim_end_matches(".schema.json").to_owned();
        if definitions.contains_key(&name) {
            continue;
        }
        let mut schema = read(&schema_dir().join(&file));
        let object = schema.as_object_mut().expect("a schema object");
        object.remove("$schema");
        object.remove("$id");
        point_references(&mut schema, Some(&name), &mut queue);
        definitions.insert(name, schema);
    }
    let object = root.as_object_mut().expect("a schema object");
    object.insert("$id".into(), "fbc.bundled.schema.json".into());
    object.insert(
        "description".into(),
        "Any blob of an OLM file-based catalog; known schemas are checked against their own \
         schema. Generated from fbc.schema.json and the schemas it references, in one file."
            .into(),
    );
    object.insert("$defs".into(), Value::Object(definitions));
    root
}

/// Rewrites `$ref`s: another file's to its place under the root's `$defs` (queued
/// for inlining), and, inside the inlined schema `own`, its own `#...` ones.
fn point_references(value: &mut Value, own: Option<&str>, queue: &mut Vec<String>) {
    match value {
        Value::Object(object) => {
            if let Some(Value::String(reference)) = object.get_mut("$ref") {
                if let Some(name) = reference.strip_suffix(".schema.json") {
                    queue.push(reference.clone());
                    *reference = format!("#/$defs/{name}");
                } else if let (Some(own), Some(pointer)) = (own, reference.strip_prefix('#')) {
                    *reference = format!("#/$defs/{own}{pointer}");
                }
            }
            for inner in object.values_mut() {
                point_references(inner, own, queue);
            }
        }
        Value::Array(items) => {
            for item in items {
                point_references(item, own, queue);
            }
        }
        _ => {}
    }
}

#[test]
fn the_bundled_schema_is_current_and_needs_no_other_file() {
    let mut text = serde_json::to_string_pretty(&bundled()).expect("JSON");
    text.push('\n');
    assert_matches_file(&text, &schema_dir().join("fbc.bundled.schema.json"));
    // Compiled without a retriever: every reference resolves inside the file.
    let validator = jsonschema::validator_for(&read(&schema_dir().join("fbc.bundled.schema.json")))
        .expect("the bundled schema compiles on its own");
    let output = run(&["render", "testdata/examples/hello-catalog"]);
    for blob in blobs(&stdout(&output)) {
        assert!(validator.is_valid(&blob), "{blob}");
    }
    assert_points_at_the_misspelled_field(&validator);
    let constraint = serde_json::json!({
        "schema": "olm.bundle", "name": "foo.v1", "package": "foo", "image": "quay.io/a/b:1",
        "properties": [{"type": "olm.constraint", "value": {"failureMessage": "x", "all": {"constraints": [{"not": 5}]}}}]
    });
    assert!(
        !validator.is_valid(&constraint),
        "nested constraints are checked"
    );
}
