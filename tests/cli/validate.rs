//! `fbc validate`: one fixture per rule and lint (expected `-o json` beside it),
//! every output format end to end, the corpus (valid, as opm says), and corpus
//! catalogs with injected faults reported in opm's words.

use serde_json::{Value, json};

use crate::{assert_matches_file, corpus, fbc, run, stderr, stdout, testdata};

fn parse_json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|error| panic!("{error}: {text}"))
}

/// Each fixture of `testdata/validate/` (one per rule and lint) reports what the
/// `-o json` beside it says: one test per fixture, named after it (see build.rs).
mod fixtures {
    include!(concat!(env!("OUT_DIR"), "/validate_cases.rs"));
}

#[test]
fn the_fixtures_are_there() {
    assert!(
        crate::fixture_dirs("validate").len() > 40,
        "fixtures are missing"
    );
}

/// Every fixture directory has its test: the lists build.rs wrote are current.
#[test]
fn every_fixture_has_its_test() {
    for (kind, list) in [
        (
            "validate",
            include_str!(concat!(env!("OUT_DIR"), "/validate_cases.rs")),
        ),
        (
            "catalogs",
            include_str!(concat!(env!("OUT_DIR"), "/catalogs_cases.rs")),
        ),
        (
            "bundles",
            include_str!(concat!(env!("OUT_DIR"), "/bundles_cases.rs")),
        ),
    ] {
        let listed: Vec<&str> = list
            .lines()
            .filter_map(|line| line.split('"').nth(1))
            .collect();
        let present: Vec<String> = crate::fixture_dirs(kind)
            .iter()
            .map(|dir| {
                dir.file_name()
                    .expect("a name")
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        assert_eq!(listed, present, "testdata/{kind}");
    }
}

fn check(name: &str) {
    let path = format!("testdata/validate/{name}");
    let output = run(&["validate", "-o", "json", &path]);
    let text = stdout(&output);
    let report = parse_json(&text);
    let passed = report["passed"].as_bool().expect("passed is a bool");
    let expected_code = i32::from(!passed);
    assert_eq!(
        output.status.code(),
        Some(expected_code),
        "{path}: {}",
        stderr(&output)
    );
    // A fixture named for a rule reports that rule (lints included).
    let rules: Vec<&str> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter_map(|finding| finding["rule"].as_str())
        .collect();
    if !name.starts_with("valid") && !name.starts_with("yaml-") && name != "many-problems" {
        assert!(
            rules.iter().any(|rule| name.starts_with(rule)),
            "{path}: {rules:?}"
        );
    }
    assert_matches_file(&text, &testdata(&format!("validate/{name}.json")));
}

#[test]
fn valid_fixtures_pass_without_findings() {
    for name in ["valid", "valid-deprecations", "yaml-valid"] {
        let output = run(&["validate", &format!("testdata/validate/{name}")]);
        assert_eq!(output.status.code(), Some(0), "{name}");
        assert_eq!(stderr(&output), "", "{name}");
        assert_eq!(stdout(&output), "", "{name}");
    }
}

#[test]
fn text_output_groups_findings_by_package() {
    for name in ["many-problems", "yaml-two-heads"] {
        let output = run(&["validate", &format!("testdata/validate/{name}")]);
        assert_eq!(output.status.code(), Some(1));
        assert_eq!(stdout(&output), "");
        assert_matches_file(&stderr(&output), &testdata(&format!("validate/{name}.txt")));
    }
}

#[test]
fn github_output_is_workflow_commands() {
    let output = run(&[
        "validate",
        "-o",
        "github",
        "testdata/validate/many-problems",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    assert!(
        text.lines()
            .all(|line| line.starts_with("::error ") || line.starts_with("::warning "))
    );
    assert_matches_file(&text, &testdata("validate/many-problems.github"));
}

#[test]
fn sarif_output_follows_the_sarif_schema() {
    let schema = parse_json(
        &std::fs::read_to_string(testdata("sarif-schema-2.1.0.json")).expect("vendored schema"),
    );
    let validator = jsonschema::validator_for(&schema).expect("the SARIF schema compiles");
    for name in ["many-problems", "valid", "image-not-pinned"] {
        let output = run(&[
            "validate",
            "-o",
            "sarif",
            &format!("testdata/validate/{name}"),
        ]);
        let sarif = parse_json(&stdout(&output));
        let errors: Vec<String> = validator
            .iter_errors(&sarif)
            .map(|error| format!("{} at {}", error, error.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:#?}");
        let results = sarif["runs"][0]["results"].as_array().expect("results");
        for result in results {
            let uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .expect("a uri");
            assert!(
                uri.starts_with(&format!("testdata/validate/{name}/")),
                "{uri}"
            );
            let index = result["ruleIndex"].as_u64().expect("an index");
            let rule = &sarif["runs"][0]["tool"]["driver"]["rules"]
                [usize::try_from(index).expect("small")];
            assert_eq!(rule["id"], result["ruleId"]);
        }
    }
    let output = run(&["validate", "-o", "sarif", "testdata/validate/many-problems"]);
    assert_matches_file(&stdout(&output), &testdata("validate/many-problems.sarif"));
}

#[test]
fn lints_warn_and_strict_makes_them_errors() {
    let path = "testdata/validate/image-not-pinned";
    assert_eq!(run(&["validate", path]).status.code(), Some(0));
    let strict = run(&["validate", "--strict", "-o", "json", path]);
    assert_eq!(strict.status.code(), Some(1));
    let report = parse_json(&stdout(&strict));
    assert_eq!(report["passed"], json!(false));
    assert!(report.get("error").is_none(), "opm has nothing to say");
    assert!(
        report["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .all(|f| f["severity"] == "error")
    );
    let allowed = run(&[
        "validate",
        "--strict",
        "--allow",
        "image-not-pinned",
        "-o",
        "json",
        path,
    ]);
    assert_eq!(allowed.status.code(), Some(0));
    assert_eq!(parse_json(&stdout(&allowed))["findings"], json!([]));
}

#[test]
fn errors_from_opm_cannot_be_allowed() {
    let output = run(&[
        "validate",
        "--allow",
        "channel-multiple-heads",
        "testdata/validate/channel-multiple-heads",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("invalid value 'channel-multiple-heads'"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn load_errors_exit_2_as_render_reports_them() {
    let output = run(&["validate", "testdata/catalogs/error-missing-schema"]);
    assert_eq!(output.status.code(), Some(2));
    let render = run(&["render", "testdata/catalogs/error-missing-schema"]);
    assert_eq!(stderr(&output), stderr(&render));
    let missing = run(&["validate", "testdata/validate/no-such-dir"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        stderr(&missing)
            .starts_with("error: stat testdata/validate/no-such-dir: no such file or directory\n"),
        "{}",
        stderr(&missing)
    );
}

/// A file where a directory belongs is refused in opm's words: `validate`'s own,
/// and `render`'s per-reference ones.
#[test]
fn a_file_is_not_a_catalog_directory() {
    let file = "testdata/validate/valid/catalog.json";
    let output = run(&["validate", file]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).starts_with(&format!("error: \"{file}\" is not a directory\n")),
        "{}",
        stderr(&output)
    );
    let output = run(&["render", file]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).starts_with(&format!(
            "error: render reference \"{file}\": ref \"{file}\" is not a directory: not allowed\n"
        )),
        "{}",
        stderr(&output)
    );
}

#[test]
#[cfg_attr(fbc_no_corpus, ignore = "needs ../shared/corpus")]
fn corpus_catalogs_are_valid() {
    let corpus = corpus();
    for name in [
        "certified-v4.16",
        "community-v4.18",
        "kueue-v4.18",
        "mtv-v4.14",
        "submariner-4-16",
        "trustee-v4.16",
    ] {
        let dir = corpus.join("catalogs").join(name);
        let output = run(&["validate", "-o", "json", dir.to_str().expect("UTF-8 path")]);
        assert_eq!(output.status.code(), Some(0), "{name}: {}", stderr(&output));
        let report = parse_json(&stdout(&output));
        assert_eq!(report["passed"], json!(true), "{name}");
        let errors: Vec<&Value> = report["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .filter(|finding| finding["severity"] == "error")
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:#?}");
    }
}

/// The blobs of a corpus catalog file, to change and write elsewhere.
fn corpus_blobs(catalog: &str, package: &str) -> Vec<Value> {
    let path = corpus()
        .join("catalogs")
        .join(catalog)
        .join(package)
        .join("catalog.json");
    let text = std::fs::read_to_string(path).expect("corpus file");
    serde_json::Deserializer::from_str(&text)
        .into_iter::<Value>()
        .map(|blob| blob.expect("corpus JSON"))
        .collect()
}

/// Writes blobs as a JSON stream in a fresh catalog directory; returns opm's message
/// and the rules found.
fn validate_blobs(blobs: &[Value]) -> (String, Vec<String>) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let text = blobs.iter().fold(String::new(), |mut text, blob| {
        use std::fmt::Write as _;
        writeln!(text, "{blob:#}").expect("writing to a String");
        text
    });
    std::fs::create_dir(dir.path().join("pkg")).expect("a package directory");
    std::fs::write(dir.path().join("pkg/catalog.json"), text).expect("writable");
    let output = fbc()
        .args(["validate", "-o", "json"])
        .arg(dir.path())
        .output()
        .expect("fbc runs");
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let report = parse_json(&stdout(&output));
    let rules = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|finding| finding["rule"].as_str().expect("a rule").to_owned())
        .collect();
    (
        report["error"]["message"]
            .as_str()
            .expect("a message")
            .to_owned(),
        rules,
    )
}

fn find<'a>(blobs: &'a mut [Value], schema: &str, name: &str) -> &'a mut Value {
    blobs
        .iter_mut()
        .find(|blob| blob["schema"] == schema && blob["name"] == name)
        .unwrap_or_else(|| panic!("{schema} {name} in the corpus"))
}

fn entry<'a>(channel: &'a mut Value, name: &str) -> &'a mut Value {
    channel["entries"]
        .as_array_mut()
        .expect("entries")
        .iter_mut()
        .find(|entry| entry["name"] == name)
        .unwrap_or_else(|| panic!("entry {name}"))
}

const KUEUE: &str = "kueue-operator";

fn tree(channel: &str, line: &str) -> String {
    format!(
        "invalid index:\n└── invalid package \"{KUEUE}\":\n    └── invalid channel \"{channel}\":\n        └── {line}"
    )
}

#[test]
#[cfg_attr(fbc_no_corpus, ignore = "needs ../shared/corpus")]
fn injected_faults_are_reported_with_opm_text() {
    let original = corpus_blobs("kueue-v4.18", KUEUE);

    // A second head: the entry that skipped its predecessor no longer does.
    let mut blobs = original.clone();
    entry(
        find(&mut blobs, "olm.channel", "stable-v1.0"),
        "kueue-operator.v1.0.1",
    )["skips"] = json!([]);
    let (message, rules) = validate_blobs(&blobs);
    let heads =
        "multiple channel heads found in graph: kueue-operator.v1.0.0, kueue-operator.v1.0.1";
    assert_eq!(message, tree("stable-v1.0", heads));
    assert!(rules.contains(&"channel-multiple-heads".to_owned()));

    // A cycle behind the head.
    let mut blobs = original.clone();
    let channel = find(&mut blobs, "olm.channel", "stable-v1.0");
    entry(channel, "kueue-operator.v1.0.1")["replaces"] = json!("kueue-operator.v1.0.0");
    entry(channel, "kueue-operator.v1.0.1")["skips"] = json!([]);
    entry(channel, "kueue-operator.v1.0.0")["replaces"] = json!("kueue-operator.v1.0.0");
    let (message, rules) = validate_blobs(&blobs);
    let cycle = "detected cycle in replaces chain of upgrade graph: kueue-operator.v1.0.0 -> kueue-operator.v1.0.0";
    assert_eq!(message, tree("stable-v1.0", cycle));
    assert!(rules.contains(&"channel-replaces-cycle".to_owned()));

    // A bad skipRange.
    let mut blobs = original.clone();
    entry(
        find(&mut blobs, "olm.channel", "stable-v1.0"),
        "kueue-operator.v1.0.1",
    )["skipRange"] = json!(">v0.1.0");
    let (message, _) = validate_blobs(&blobs);
    let line = "invalid bundle \"kueue-operator.v1.0.1\":\n            └── invalid skipRange \">v0.1.0\": Could not parse Range \">v0.1.0\": Could not parse comparator \">v\" in \">v0.1.0\"";
    assert_eq!(message, tree("stable-v1.0", line));

    // A duplicate package.
    let mut blobs = original.clone();
    blobs.push(original[0].clone());
    let (message, rules) = validate_blobs(&blobs);
    assert_eq!(message, format!("duplicate package \"{KUEUE}\""));
    assert_eq!(rules, ["package-duplicate"]);

    // An unknown deprecation target.
    let mut blobs = original.clone();
    blobs.push(json!({"schema": "olm.deprecations", "package": KUEUE, "entries": [
        {"reference": {"schema": "olm.bundle", "name": "kueue-operator.v9.9.9"}, "message": "gone"}]}));
    let (message, rules) = validate_blobs(&blobs);
    assert_eq!(
        message,
        format!(
            "cannot deprecate bundle \"kueue-operator.v9.9.9\" for package \"{KUEUE}\": bundle not found"
        )
    );
    assert_eq!(rules, ["deprecation-unknown-bundle"]);
}

#[test]
#[cfg_attr(fbc_no_corpus, ignore = "needs ../shared/corpus")]
fn a_removed_bundle_is_reported_for_every_channel_listing_it() {
    let original = corpus_blobs("kueue-v4.18", KUEUE);
    // The last channel's newest entry, and an entry of an earlier channel.
    let last = original
        .iter()
        .rfind(|blob| blob["schema"] == "olm.channel")
        .expect("channels")
        .clone();
    let last_entry = last["entries"]
        .as_array()
        .expect("entries")
        .last()
        .expect("an entry")["name"]
        .as_str()
        .expect("a name")
        .to_owned();
    let removed = [last_entry.as_str(), "kueue-operator.v0.1.0"];
    let blobs: Vec<Value> = original
        .iter()
        .filter(|blob| {
            !(blob["schema"] == "olm.bundle" && removed.iter().any(|name| blob["name"] == *name))
        })
        .cloned()
        .collect();
    let (message, rules) = validate_blobs(&blobs);
    assert_eq!(
        message,
        format!(
            "no olm.bundle blobs found in package \"{KUEUE}\" for olm.channel entries [{last_entry}]"
        )
    );
    // opm only sees the last channel; the earlier one is reported too.
    assert_eq!(
        rules
            .iter()
            .filter(|rule| *rule == "channel-entry-without-bundle")
            .count(),
        2,
        "{rules:?}"
    );
}

#[test]
fn yaml_output_has_opm_shape() {
    for name in ["many-problems", "package-without-channels", "valid"] {
        let output = run(&[
            "validate",
            "-o",
            "yaml",
            &format!("testdata/validate/{name}"),
        ]);
        let text = stdout(&output);
        assert!(
            text.ends_with("\n\n"),
            "{name}: opm's Fprintln leaves an empty line"
        );
        let passed = text.contains("\npassed: true\n") || text.starts_with("passed: true\n");
        assert_eq!(output.status.code(), Some(i32::from(!passed)), "{name}");
        assert_matches_file(&text, &testdata(&format!("validate/{name}.yaml")));
    }
}

/// A file name with a newline and a byte that is not UTF-8: text escapes both, JSON
/// keeps the newline for its encoder and the byte as `\xff`, SARIF percent-encodes
/// the exact bytes. Nothing is shown as U+FFFD.
#[cfg(unix)]
#[test]
fn file_names_keep_their_bytes_in_every_format() {
    use std::os::unix::ffi::OsStrExt as _;
    let root = tempfile::tempdir().expect("a directory");
    let name = std::ffi::OsStr::from_bytes(b"bad\nna\xffme.json");
    std::fs::write(
        root.path().join(name),
        r#"{"schema":"olm.package","name":"a","defaultChannel":"stable"}"#,
    )
    .expect("written");
    let validate = |format: &str| {
        let output = fbc()
            .current_dir(root.path())
            .args(["validate", ".", "-o", format])
            .output()
            .expect("fbc runs");
        assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
        format!("{}{}", stdout(&output), stderr(&output))
    };
    let text = validate("text");
    assert!(text.contains("bad\\nna\\xffme.json:1:1"), "{text}");
    assert!(!text.contains('\u{fffd}'), "{text}");
    let json = validate("json");
    assert!(json.contains(r#""bad\nna\\xffme.json""#), "{json}");
    let sarif = validate("sarif");
    assert!(sarif.contains(r#""uri": "bad%0Ana%FFme.json""#), "{sarif}");
    assert!(!sarif.contains('\u{fffd}'), "{sarif}");
}

/// A directory with one catalog file that does not parse (line 2, column 1).
fn broken_catalog() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary directory");
    std::fs::write(
        dir.path().join("broken.json"),
        "{\"schema\":\"olm.package\",\"name\":\"a\"\n",
    )
    .expect("written");
    dir
}

#[test]
fn load_errors_are_findings_in_every_machine_format() {
    let broken = broken_catalog();
    let dir = broken.path().to_str().expect("UTF-8 path");
    let file = format!("{dir}/broken.json");
    let json = run(&["validate", "-o", "json", dir]);
    assert_eq!(
        json.status.code(),
        Some(2),
        "the exit status of a load error"
    );
    let report = parse_json(&stdout(&json));
    assert_eq!(report["passed"], false);
    let finding = &report["findings"][0];
    assert_eq!(finding["rule"], "catalog-file-unreadable");
    assert_eq!(finding["locations"][0]["file"], file.as_str());
    assert_eq!(finding["locations"][0]["line"], 2);
    assert!(
        stderr(&json).contains("could not be loaded"),
        "{}",
        stderr(&json)
    );

    let sarif = run(&["validate", "-o", "sarif", dir]);
    assert_eq!(sarif.status.code(), Some(2));
    let sarif = parse_json(&stdout(&sarif));
    let result = &sarif["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "catalog-file-unreadable");
    assert_eq!(
        result["locations"][0]["physicalLocation"]["region"]["startLine"],
        2
    );
    let rules = sarif["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .expect("rules");
    assert!(rules.iter().all(|rule| {
        rule["fullDescription"]["text"].is_string() && rule["help"]["text"].is_string()
    }));

    let github = run(&["validate", "-o", "github", dir]);
    assert_eq!(github.status.code(), Some(2));
    assert!(
        stdout(&github).starts_with(&format!(
            "::error file={},line=2,col=1,title=catalog-file-unreadable::",
            file.replace(':', "%3A")
        )),
        "{}",
        stdout(&github)
    );

    let gitlab = run(&["validate", "-o", "gitlab", dir]);
    assert_eq!(gitlab.status.code(), Some(2));
    let issues = parse_json(&stdout(&gitlab));
    assert_eq!(
        issues[0]["check_name"],
        "fbc-validate/catalog-file-unreadable"
    );
    assert_eq!(issues[0]["location"]["path"], file.as_str());
    assert_eq!(issues[0]["location"]["lines"]["begin"], 2);
}

#[test]
fn several_catalogs_in_one_run_in_every_format() {
    let broken = broken_catalog();
    let broken = broken.path().to_str().expect("UTF-8 path");
    let valid = "testdata/validate/valid";
    let invalid = "testdata/validate/many-problems";
    // The worst status wins: invalid (1) over valid, unloadable (2) over both.
    let output = run(&["validate", valid, invalid]);
    assert_eq!(output.status.code(), Some(1));
    let text = stderr(&output);
    assert!(text.contains(&format!("==> {invalid} <==")), "{text}");
    assert!(text.contains(&format!("\n{valid}: valid")), "{text}");
    assert!(text.contains(&format!("\n{invalid}: invalid")), "{text}");
    assert_eq!(run(&["validate", valid, valid]).status.code(), Some(0));

    let output = run(&["validate", "-o", "json", valid, invalid, broken]);
    assert_eq!(output.status.code(), Some(2));
    let report = parse_json(&stdout(&output));
    assert_eq!(report["formatVersion"], 1);
    assert_eq!(report["passed"], false);
    let catalogs = report["catalogs"].as_array().expect("catalogs");
    let shape: Vec<(&str, bool, bool)> = catalogs
        .iter()
        .map(|c| {
            (
                c["directory"].as_str().expect("directory"),
                c["passed"].as_bool().expect("passed"),
                c["loaded"].as_bool().expect("loaded"),
            )
        })
        .collect();
    assert_eq!(
        shape,
        [
            (valid, true, true),
            (invalid, false, true),
            (broken, false, false)
        ]
    );
    assert!(
        !catalogs[1]["findings"]
            .as_array()
            .expect("findings")
            .is_empty()
    );

    let output = run(&["validate", "-o", "sarif", valid, invalid]);
    let sarif = parse_json(&stdout(&output));
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    assert!(!results.is_empty());
    assert!(
        results
            .iter()
            .all(|r| r["properties"]["catalog"] == invalid)
    );

    let output = run(&["validate", "-o", "github", invalid, broken]);
    assert_eq!(output.status.code(), Some(2));
    let annotations = stdout(&output);
    assert!(
        annotations.contains(&format!("::catalog {invalid}, ")),
        "{annotations}"
    );
    assert!(
        annotations.contains("title=catalog-file-unreadable::"),
        "{annotations}"
    );

    let output = run(&["validate", "-o", "gitlab", invalid, valid]);
    assert_eq!(output.status.code(), Some(1));
    let issues = parse_json(&stdout(&output));
    let fingerprints: std::collections::BTreeSet<&str> = issues
        .as_array()
        .expect("issues")
        .iter()
        .map(|i| i["fingerprint"].as_str().expect("fingerprint"))
        .collect();
    assert_eq!(fingerprints.len(), issues.as_array().expect("issues").len());
}

#[test]
fn an_empty_catalog_warns_and_fails_under_strict() {
    let path = "testdata/validate/empty-catalog";
    let output = run(&["validate", path]);
    assert_eq!(output.status.code(), Some(0));
    let text = stderr(&output);
    assert!(
        text.contains("no catalog blob found in \"testdata/validate/empty-catalog\""),
        "{text}"
    );
    assert!(text.contains("1 warning"), "{text}");
    assert_eq!(run(&["validate", "--strict", path]).status.code(), Some(1));
    assert_eq!(
        run(&["validate", "--strict", "--allow", "empty-catalog", path])
            .status
            .code(),
        Some(0)
    );
    // render succeeds as opm's does, with nothing on stdout and the warning on stderr.
    let output = run(&["render", path]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output), "");
    assert!(
        stderr(&output)
            .starts_with("warning: no catalog blob found in \"testdata/validate/empty-catalog\""),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_bundle_directory_is_named_with_what_to_run() {
    let path = "testdata/examples/hello-bundle";
    let output = run(&["validate", path]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "error: testdata/examples/hello-bundle is a bundle directory (manifests/ and metadata/), not a catalog\n  help: render the bundle into the catalog it belongs to and validate that: `fbc render testdata/examples/hello-bundle > catalog/PACKAGE/BUNDLE.json && fbc validate catalog`\n"
    );
    let output = run(&["validate", "-o", "json", path]);
    assert_eq!(output.status.code(), Some(2));
    let report = parse_json(&stdout(&output));
    assert_eq!(report["findings"][0]["rule"], "catalog-file-unreadable");
}

/// A valid catalog whose `count` bundles are all referenced by tag.
fn catalog_with_tagged_bundles(count: usize) -> tempfile::TempDir {
    use std::fmt::Write as _;
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut text = String::from(
        "{\"schema\":\"olm.package\",\"name\":\"foo\",\"defaultChannel\":\"stable\"}\n",
    );
    let entries: Vec<String> = (0..count)
        .map(|i| match i {
            0 => "{\"name\":\"foo.v1.0.0\"}".to_owned(),
            _ => format!(
                "{{\"name\":\"foo.v1.0.{i}\",\"replaces\":\"foo.v1.0.{}\"}}",
                i - 1
            ),
        })
        .collect();
    let _ = writeln!(
        text,
        "{{\"schema\":\"olm.channel\",\"name\":\"stable\",\"package\":\"foo\",\"entries\":[{}]}}",
        entries.join(",")
    );
    for i in 0..count {
        let _ = writeln!(
            text,
            "{{\"schema\":\"olm.bundle\",\"name\":\"foo.v1.0.{i}\",\"package\":\"foo\",\"image\":\"quay.io/example/foo:v1.0.{i}\",\"properties\":[{{\"type\":\"olm.package\",\"value\":{{\"packageName\":\"foo\",\"version\":\"1.0.{i}\"}}}}]}}"
        );
    }
    std::fs::write(dir.path().join("catalog.json"), text).expect("write");
    dir
}

#[test]
fn many_warnings_of_one_rule_are_counted_and_quiet_hides_them() {
    let dir = catalog_with_tagged_bundles(8);
    let path = dir.path().to_str().expect("UTF-8 path");
    let output = run(&["validate", path]);
    assert_eq!(output.status.code(), Some(0));
    let text = stderr(&output);
    assert_eq!(
        text.matches("warning[image-not-pinned]").count(),
        5,
        "{text}"
    );
    assert!(
        text.ends_with("\nnote: 3 more `image-not-pinned` warnings not shown (`--allow image-not-pinned` silences them; `-o json` lists every finding)\n\ncatalog is valid: 0 errors, 8 warnings\n"),
        "{text}"
    );
    // Machine formats keep every finding.
    let json = parse_json(&stdout(&run(&["validate", "-o", "json", path])));
    assert_eq!(json["findings"].as_array().map(Vec::len), Some(8));
    // Quiet: the verdict only, errors if any.
    let output = run(&["validate", "-q", path]);
    assert_eq!(stderr(&output), "catalog is valid: 0 errors, 8 warnings\n");
    let output = run(&["validate", "--quiet", "testdata/validate/many-problems"]);
    let text = stderr(&output);
    assert!(!text.contains("warning["), "{text}");
    assert_eq!(text.matches("error[").count(), 7, "{text}");
}

/// On a terminal, findings are drawn over their lines, numbered as in the file,
/// with the lines around them only; findings on a line too long to draw (a
/// catalog on one line) are listed by location, each found without reading the
/// line up to it.
#[test]
fn snippets_draw_the_file_s_lines_and_list_locations_on_long_lines() {
    use std::fmt::Write as _;
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut lines = String::new();
    for number in 0..40 {
        let _ = writeln!(lines, "{{\"schema\":\"x.filler\",\"name\":\"f{number}\"}}");
    }
    lines.push_str("{\"schema\":\"olm.package\",\"name\":\"drawn\",\"defaultChannel\":\"s\"}\n");
    std::fs::write(dir.path().join("a.json"), lines).expect("write");
    let blob = |number: usize| format!("{{\"schema\":\"olm.package\",\"name\":\"p{number:04}\"}}");
    let one_line: String = (0..3000).map(blob).collect();
    std::fs::write(dir.path().join("b.json"), one_line).expect("write");
    let path = dir.path().to_str().expect("UTF-8 path");
    let output = run(&["--color", "always", "validate", path]);
    assert_eq!(output.status.code(), Some(1));
    let text = stderr(&output);
    let plain = text
        .split('\x1b')
        .enumerate()
        .map(|(index, part)| {
            if index == 0 {
                part
            } else {
                part.split_once('m').map_or(part, |(_, rest)| rest)
            }
        })
        .collect::<String>();
    // Line 41 of a.json, drawn between lines 40 and 42 (none), and nothing before.
    assert!(plain.contains("a.json:41:1]"), "{plain}");
    assert!(
        plain.contains(" 41 │ {\"schema\":\"olm.package\",\"name\":\"drawn\""),
        "{plain}"
    );
    assert!(
        plain.contains(" 40 │ {\"schema\":\"x.filler\",\"name\":\"f39\"}"),
        "{plain}"
    );
    assert!(!plain.contains(" 39 │"), "{plain}");
    // Every package of b.json is listed at its column.
    for number in [0, 1, 2999] {
        let column = 1 + number * blob(0).len();
        let location = format!("--> {path}/b.json:1:{column}\n");
        assert_eq!(plain.matches(&location).count(), 2, "{location}");
    }
    assert!(
        !plain.contains("b.json:1:1]"),
        "no drawing of the long line"
    );
    assert!(
        plain.ends_with("catalog is invalid: 6001 errors, 0 warnings\n"),
        "{plain}"
    );
}

/// An unpinned image is located at its own value, not at the start of its bundle:
/// on its line in a formatted file, at its column when the blobs share one line,
/// and never inside a longer image name that starts the same way.
#[test]
fn unpinned_images_point_at_their_values() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let bundle = |version: &str| {
        format!(
            r#"{{"schema":"olm.bundle","name":"foo.v{version}","package":"foo","image":"quay.io/x/foo-bundle@sha256:{}","properties":[{{"type":"olm.package","value":{{"packageName":"foo","version":"{version}"}}}}],"relatedImages":[{{"name":"a","image":"quay.io/x/op:v10"}},{{"name":"b","image":"quay.io/x/op:v1"}}]}}"#,
            "a".repeat(64)
        )
    };
    let catalog = format!(
        r#"{{"schema":"olm.package","name":"foo","defaultChannel":"s"}}{{"schema":"olm.channel","name":"s","package":"foo","entries":[{{"name":"foo.v1.0.0"}},{{"name":"foo.v2.0.0","replaces":"foo.v1.0.0"}}]}}{}{}"#,
        bundle("1.0.0"),
        bundle("2.0.0")
    );
    std::fs::write(dir.path().join("catalog.json"), &catalog).expect("write");
    let output = run(&[
        "validate",
        "-o",
        "json",
        dir.path().to_str().expect("UTF-8"),
    ]);
    let report = parse_json(&stdout(&output));
    let columns: Vec<(String, u64)> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|finding| {
            let location = &finding["locations"][0];
            assert_eq!(location["line"], json!(1));
            (
                finding["message"].as_str().expect("message").to_owned(),
                location["column"].as_u64().expect("column"),
            )
        })
        .collect();
    let expected: Vec<(String, u64)> = catalog
        .match_indices("\"quay.io/x/op:v1")
        .map(|(at, found)| {
            let name = if catalog[at + found.len()..].starts_with('0') {
                "a"
            } else {
                "b"
            };
            let image = &catalog[at + 1..at + 1 + catalog[at + 1..].find('"').expect("end")];
            (
                format!("related image \"{name}\" (\"{image}\") is not pinned by digest"),
                u64::try_from(at + 2).expect("small"),
            )
        })
        .collect();
    assert_eq!(expected.len(), 4);
    assert_eq!(columns, expected);

    let output = run(&[
        "validate",
        "-o",
        "json",
        "testdata/validate/image-not-pinned",
    ]);
    let lines: Vec<Value> = parse_json(&stdout(&output))["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|finding| finding["locations"][0]["line"].clone())
        .collect();
    assert_eq!(lines, [json!(20), json!(33)], "the image lines");
}
