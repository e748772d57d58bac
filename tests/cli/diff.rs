//! `fbc diff`: the upgrade impact of the corpus's real pull requests against OLM's
//! own answers, a fixture with every kind of change in every format, a corpus catalog
//! with changes applied, and `REV:PATH` read from a temporary git repository.

use std::process::Command;

use serde_json::Value;

use crate::{assert_matches_file, copy_dir, corpus, fbc, git, run, stdout, testdata};

/// The corpus, or `None` outside CI (where its absence fails the test).
fn diff_corpus() -> Option<std::path::PathBuf> {
    let Some(corpus) = corpus() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI needs ../shared/corpus (the diff pairs) next to the checkout"
        );
        return None;
    };
    Some(corpus.join("diff"))
}

/// The rows of `impact.tsv` rebuilt from `diff -o json`'s installations.
fn impact_rows(pair: &str, report: &Value) -> Vec<String> {
    let text = |value: &Value| value.as_str().unwrap_or_default().to_owned();
    let list = |value: &Value, separator: &str| {
        value
            .as_array()
            .expect("a list")
            .iter()
            .map(text)
            .collect::<Vec<_>>()
            .join(separator)
    };
    let mut rows: Vec<String> = report["installations"]
        .as_array()
        .expect("installations")
        .iter()
        .map(|row| {
            [
                text(&row["semantics"]),
                pair.to_owned(),
                text(&row["package"]),
                text(&row["channel"]),
                text(&row["from"]),
                if row["inNew"] == Value::Bool(true) {
                    "yes"
                } else {
                    "no"
                }
                .to_owned(),
                list(&row["successors"], ","),
                text(&row["pick"]),
                list(&row["path"], " -> "),
                text(&row["newHead"]),
                text(&row["reachesHead"]),
            ]
            .join("\t")
        })
        .collect();
    rows.sort();
    rows
}

#[test]
fn every_installation_of_the_real_pull_requests_matches_olm() {
    let Some(pairs) = diff_corpus() else { return };
    let mut checked = 0;
    for pair in ["p01", "p05", "p08", "p09", "p14", "p17", "p18"] {
        let dir = pairs.join(pair);
        let output = fbc()
            .arg("diff")
            .arg(dir.join("old"))
            .arg(dir.join("new"))
            .args(["-o", "json"])
            .output()
            .expect("fbc runs");
        let report: Value = serde_json::from_slice(&output.stdout)
            .unwrap_or_else(|error| panic!("{pair}: not JSON: {error}"));
        let tsv = std::fs::read_to_string(dir.join("impact.tsv")).expect("impact.tsv");
        let mut expected: Vec<String> = tsv.lines().skip(1).map(str::to_owned).collect();
        expected.sort();
        let actual = impact_rows(pair, &report);
        for (a, e) in actual.iter().zip(&expected) {
            assert_eq!(a, e, "{pair}: first differing row");
        }
        assert_eq!(actual.len(), expected.len(), "{pair}: row count");
        checked += actual.len();
        // p01 and p17 keep every installation on its way to the head.
        let breaks = !matches!(pair, "p01" | "p17");
        assert_eq!(
            output.status.code(),
            Some(i32::from(breaks)),
            "{pair}: exit status"
        );
        assert_eq!(report["verdict"], if breaks { "fail" } else { "pass" });
    }
    assert_eq!(checked, 440, "rows of the seven impact.tsv files");
}

const KINDS: &str = "diff/kinds";

/// The problem kinds that fail the check unless allowed.
const BREAKING: [&str; 6] = [
    "package-removed",
    "channel-removed",
    "installation-stranded",
    "installation-stuck",
    "head-moved-back",
    "bundle-changed",
];

fn kinds(extra: &[&str]) -> std::process::Output {
    let old = testdata(KINDS).join("old");
    let new = testdata(KINDS).join("new");
    let mut args = vec![
        "diff",
        old.to_str().expect("UTF-8 path"),
        new.to_str().expect("UTF-8 path"),
    ];
    args.extend(extra);
    // Paths relative to the project, as the expected files show them.
    let relative: Vec<String> = args
        .iter()
        .map(|arg| {
            arg.strip_prefix(concat!(env!("CARGO_MANIFEST_DIR"), "/"))
                .unwrap_or(arg)
                .to_owned()
        })
        .collect();
    fbc().args(&relative).output().expect("fbc runs")
}

#[test]
fn every_kind_of_change_in_every_format() {
    for (format, suffix) in [
        ("text", "txt"),
        ("markdown", "md"),
        ("json", "json"),
        ("gitlab", "gitlab.json"),
    ] {
        let output = kinds(&["-o", format]);
        assert_eq!(output.status.code(), Some(1), "{format}: the change breaks");
        assert_matches_file(&stdout(&output), &testdata(&format!("{KINDS}.{suffix}")));
    }
}

#[test]
fn the_json_report_names_each_kind_of_problem() {
    let output = kinds(&["-o", "json"]);
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let rules: std::collections::BTreeSet<&str> = report["problems"]
        .as_array()
        .expect("problems")
        .iter()
        .map(|p| p["rule"].as_str().expect("rule"))
        .collect();
    for rule in BREAKING.into_iter().chain(["head-removed"]) {
        assert!(rules.contains(rule), "no {rule} in {rules:?}");
    }
    let packages: Vec<&str> = report["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .map(|p| p["name"].as_str().expect("name"))
        .collect();
    assert!(
        !packages.contains(&"same"),
        "an unchanged package is left out"
    );
    assert_eq!(report["formatVersion"], 1);
}

#[test]
fn allowing_every_breaking_kind_passes_the_check() {
    let mut args = vec!["-o", "json"];
    for rule in BREAKING {
        args.extend(["--allow", rule]);
    }
    let output = kinds(&args);
    assert_eq!(output.status.code(), Some(0));
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(report["verdict"], "pass");
    assert!(
        report["problems"]
            .as_array()
            .expect("problems")
            .iter()
            .all(|p| p["allowed"] == true || p["severity"] == "warning")
    );
    // One kind left out fails again.
    let output = kinds(&["--allow", "package-removed"]);
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn one_runtime_only() {
    let output = kinds(&["-o", "json", "--semantics", "v1"]);
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let semantics: Vec<&str> = report["installations"]
        .as_array()
        .expect("installations")
        .iter()
        .map(|i| i["semantics"].as_str().expect("semantics"))
        .collect();
    assert!(!semantics.is_empty() && semantics.iter().all(|&s| s == "v1"));
    // Under v1 alone, the skips-only channel strands nobody.
    assert!(
        !report["problems"]
            .as_array()
            .expect("problems")
            .iter()
            .any(|p| p["rule"] == "installation-stuck")
    );
}

#[test]
fn a_catalog_compared_with_itself_has_no_difference() {
    let dir = testdata(KINDS).join("new");
    let output = fbc()
        .arg("diff")
        .arg(&dir)
        .arg(&dir)
        .output()
        .expect("fbc runs");
    assert_eq!(output.status.code(), Some(0));
    assert!(
        stdout(&output).contains("0 package(s) differ"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn an_unreadable_catalog_exits_2() {
    let output = run(&[
        "diff",
        "testdata/diff/kinds/old",
        "testdata/diff/no-such-dir",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
}

#[test]
fn rev_path_reads_the_catalog_from_git_objects() {
    let repo = tempfile::tempdir().expect("temporary directory");
    let root = repo.path();
    git(root, &["init", "-q", "-b", "main"]);
    let catalog = root.join("catalogs/v4.18");
    copy_dir(&testdata(KINDS).join("old"), &catalog);
    // An ignored file, and a file whose name sorts differently in git's order.
    std::fs::write(catalog.join(".indexignore"), "ignored.txt\n").expect("write");
    std::fs::write(catalog.join("ignored.txt"), "not a catalog").expect("write");
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "old"]);
    std::fs::remove_dir_all(&catalog).expect("rm");
    copy_dir(&testdata(KINDS).join("new"), &catalog);
    let expected = kinds(&["-o", "json"]);
    let output = fbc()
        .args([
            "diff",
            "main:catalogs/v4.18",
            "catalogs/v4.18",
            "-o",
            "json",
        ])
        .current_dir(root)
        .output()
        .expect("fbc runs");
    assert_eq!(output.status.code(), Some(1), "{}", crate::stderr(&output));
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let expected: Value = serde_json::from_slice(&expected.stdout).expect("JSON");
    assert_eq!(report["installations"], expected["installations"]);
    assert_eq!(report["packages"], expected["packages"]);
    let problem = &report["problems"]
        .as_array()
        .expect("problems")
        .iter()
        .find(|p| p["rule"] == "package-removed")
        .expect("the removed package")["location"]["file"];
    assert_eq!(problem, "main:catalogs/v4.18/catalog.json");
    // The working tree is not touched: the revision's files are not checked out.
    let status = Command::new("git")
        .args(["status", "--porcelain"])
        .current_dir(root)
        .output()
        .expect("git runs");
    assert!(String::from_utf8_lossy(&status.stdout).contains("catalogs/v4.18/catalog.json"));
    // A revision that does not hold the path.
    let output = fbc()
        .args(["diff", "main:catalogs/v4.99", "catalogs/v4.18"])
        .current_dir(root)
        .output()
        .expect("fbc runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(crate::stderr(&output).contains("main:catalogs/v4.99"));
}
