//! `fbc diff`: the upgrade impact of the corpus's real pull requests against OLM's
//! own answers, a fixture with every kind of change in every format, a corpus catalog
//! with changes applied, and `REV:PATH` read from a temporary git repository.

use std::process::Command;

use serde_json::Value;

use crate::{assert_matches_file, copy_dir, corpus, fbc, git, run, stdout, testdata};

/// The real pull requests of the corpus.
fn diff_corpus() -> std::path::PathBuf {
    corpus().join("diff")
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
#[cfg_attr(fbc_no_corpus, ignore = "needs ../shared/corpus")]
fn every_installation_of_the_real_pull_requests_matches_olm() {
    let pairs = diff_corpus();
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

pub(crate) const KINDS: &str = "diff/kinds";

/// The problem kinds that fail the check unless allowed.
const BREAKING: [&str; 6] = [
    "package-removed",
    "channel-removed",
    "installation-stranded",
    "installation-stuck",
    "head-moved-back",
    "bundle-changed",
];

pub(crate) fn kinds(extra: &[&str]) -> std::process::Output {
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
    // Started in a subdirectory, REV:PATH still names PATH from the repository's
    // top (git ls-tree alone would list nothing there: an empty old catalog).
    let output = fbc()
        .args(["diff", "main:catalogs/v4.18", "v4.18", "-o", "json"])
        .current_dir(root.join("catalogs"))
        .output()
        .expect("fbc runs");
    assert_eq!(output.status.code(), Some(1), "{}", crate::stderr(&output));
    let from_subdirectory: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(from_subdirectory["installations"], report["installations"]);
    assert_eq!(from_subdirectory["packages"], report["packages"]); // A mistyped revision is named as such (it read as a missing directory).
    let output = fbc()
        .args(["diff", "mian:catalogs/v4.18", "catalogs/v4.18"])
        .current_dir(root)
        .output()
        .expect("fbc runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        crate::stderr(&output).contains("mian:catalogs/v4.18: git knows no revision \"mian\""),
        "{}",
        crate::stderr(&output)
    );
}

/// A repository whose commit on `main` holds catalogs `a`, `b` and `gone` (each
/// the fixture's OLD); the working tree then changes `a` to NEW, leaves `b`,
/// removes `gone` and adds `c`.
fn repository_of_catalogs() -> tempfile::TempDir {
    let repo = tempfile::tempdir().expect("temporary directory");
    let root = repo.path();
    git(root, &["init", "-q", "-b", "main"]);
    for name in ["a", "b", "gone"] {
        copy_dir(
            &testdata(KINDS).join("old"),
            &root.join("catalogs").join(name),
        );
    }
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "old"]);
    std::fs::remove_dir_all(root.join("catalogs/a")).expect("rm");
    std::fs::remove_dir_all(root.join("catalogs/gone")).expect("rm");
    copy_dir(&testdata(KINDS).join("new"), &root.join("catalogs/a"));
    copy_dir(&testdata(KINDS).join("new"), &root.join("catalogs/c"));
    repo
}

const EVERY_CATALOG: [&str; 4] = ["catalogs/a", "catalogs/b", "catalogs/c", "catalogs/gone"];

fn diff_base(root: &std::path::Path, extra: &[&str]) -> std::process::Output {
    fbc()
        .args(["diff", "--base", "main"])
        .args(EVERY_CATALOG)
        .args(extra)
        .current_dir(root)
        .output()
        .expect("fbc runs")
}

#[test]
fn base_compares_every_catalog_with_its_path_at_the_revision() {
    let repo = repository_of_catalogs();
    let root = repo.path();
    let trace = root.join("git-trace");
    let output = fbc()
        .args(["diff", "--base", "main", "-o", "json"])
        .args(EVERY_CATALOG)
        .env("GIT_TRACE", &trace)
        .current_dir(root)
        .output()
        .expect("fbc runs");
    assert_eq!(output.status.code(), Some(1), "{}", crate::stderr(&output));
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(report["base"], "main");
    assert_eq!(report["verdict"], "fail");
    let statuses: Vec<(&str, &str, &str)> = report["catalogs"]
        .as_array()
        .expect("catalogs")
        .iter()
        .map(|c| {
            (
                c["old"].as_str().expect("old"),
                c["new"].as_str().expect("new"),
                c["status"].as_str().expect("status"),
            )
        })
        .collect();
    assert_eq!(
        statuses,
        [
            ("main:catalogs/a", "catalogs/a", "changed"),
            ("main:catalogs/b", "catalogs/b", "unchanged"),
            ("main:catalogs/c", "catalogs/c", "added"),
            ("main:catalogs/gone", "catalogs/gone", "removed"),
        ]
    );
    // The changed catalog's part is the report of that catalog on its own.
    let alone = kinds(&["-o", "json"]);
    let alone: Value = serde_json::from_slice(&alone.stdout).expect("JSON");
    for field in ["summary", "packages", "installations"] {
        assert_eq!(report["catalogs"][0][field], alone[field], "{field}");
    }
    assert_eq!(report["summary"]["problems"], alone["summary"]["problems"]);
    // Git is read once for all catalogs: one listing, one batch of blobs.
    let trace = std::fs::read_to_string(&trace).expect("git's trace");
    for command in ["ls-tree", "cat-file --batch"] {
        let runs = trace
            .lines()
            .filter(|line| {
                line.contains(&format!("git {command}")) || line.contains(&format!("' '{command}"))
            })
            .filter(|line| line.contains("trace: run_command") || line.contains("trace: built-in"))
            .count();
        assert_eq!(runs, 1, "git {command} runs once:\n{trace}");
    }
}

#[test]
fn base_reports_in_text_and_markdown_with_a_section_per_catalog() {
    let repo = repository_of_catalogs();
    let output = diff_base(repo.path(), &[]);
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    assert!(
        text.starts_with("diff main:catalogs/a -> catalogs/a\n"),
        "{text}"
    );
    for line in [
        "diff main:catalogs/b -> catalogs/b\n",
        "diff main:catalogs/c -> catalogs/c: a new catalog (main:catalogs/c holds nothing); nothing to compare\n",
        "diff main:catalogs/gone -> catalogs/gone: the catalog is removed (catalogs/gone holds nothing); nothing to compare\n",
        "\n4 catalog(s): 1 changed, 1 unchanged, 1 added, 1 removed: the change breaks installations in catalogs/a\n",
    ] {
        assert!(text.contains(line), "{line:?} in\n{text}");
    }
    let output = diff_base(repo.path(), &["-o", "markdown"]);
    let markdown = stdout(&output);
    for line in [
        "## Catalog diff: 4 catalog(s) against `main`\n",
        "| `catalogs/a` | changed | 7 | 13 | 7 | 8 |\n",
        "| `catalogs/b` | unchanged | 0 | 0 | 0 | 0 |\n",
        "| `catalogs/c` | added | | | | |\n",
        "### Catalog diff: `main:catalogs/a` → `catalogs/a`\n",
    ] {
        assert!(markdown.contains(line), "{line:?} in\n{markdown}");
    }
    // Only changed catalogs get a section.
    assert_eq!(markdown.matches("### Catalog diff").count(), 1);
    let output = diff_base(repo.path(), &["-o", "gitlab"]);
    let issues: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let alone: Value = serde_json::from_slice(&kinds(&["-o", "gitlab"]).stdout).expect("JSON");
    assert_eq!(
        issues.as_array().expect("issues").len(),
        alone.as_array().expect("issues").len()
    );
}

#[test]
fn base_exit_status_is_the_worst_and_unreadable_catalogs_are_reported() {
    let repo = repository_of_catalogs();
    let root = repo.path();
    std::fs::create_dir_all(root.join("catalogs/bad")).expect("mkdir");
    std::fs::write(root.join("catalogs/bad/catalog.json"), "{\"schema\": ").expect("write");
    let output = fbc()
        .args(["diff", "--base", "main", "catalogs/b", "catalogs/bad"])
        .current_dir(root)
        .output()
        .expect("fbc runs");
    assert_eq!(output.status.code(), Some(2));
    let text = stdout(&output);
    assert!(
        text.contains("diff main:catalogs/b -> catalogs/b\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "2 catalog(s): 1 unchanged, 1 not compared: 1 catalog(s) could not be compared"
        ),
        "{text}"
    );
    assert!(crate::stderr(&output).contains("catalogs/bad/catalog.json"));
    // A breaking catalog alone exits 1; nothing that breaks exits 0.
    let output = fbc()
        .args(["diff", "--base", "main", "catalogs/a", "catalogs/b"])
        .current_dir(root)
        .output()
        .expect("fbc runs");
    assert_eq!(output.status.code(), Some(1));
    let output = fbc()
        .args(["diff", "--base", "main", "catalogs/b", "catalogs/c"])
        .current_dir(root)
        .output()
        .expect("fbc runs");
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
}

#[test]
fn base_names_paths_in_git_terms_from_anywhere_in_the_repository() {
    let repo = repository_of_catalogs();
    let root = repo.path();
    // From a subdirectory, `a` is `catalogs/a`.
    let output = fbc()
        .args(["diff", "--base", "main", "a", "-o", "json"])
        .current_dir(root.join("catalogs"))
        .output()
        .expect("fbc runs");
    assert_eq!(output.status.code(), Some(1), "{}", crate::stderr(&output));
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(report["catalogs"][0]["old"], "main:catalogs/a");
    // A catalog replaced by a link to a renamed directory is compared with what
    // its own path held, not taken as new.
    std::fs::rename(root.join("catalogs/b"), root.join("catalogs/b-renamed")).expect("mv");
    std::fs::remove_dir_all(root.join("catalogs/a")).expect("rm");
    std::os::unix::fs::symlink("b-renamed", root.join("catalogs/a")).expect("ln");
    let output = diff_base(root, &["-o", "json"]);
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(report["catalogs"][0]["status"], "unchanged", "{report}");
    // A path outside the repository, or a revision git does not know.
    let outside = tempfile::tempdir().expect("temporary directory");
    for (args, message) in [
        (
            vec![outside.path().to_str().expect("UTF-8 path")],
            "outside the repository",
        ),
        (
            vec!["--base", "mian", "catalogs/b-renamed"],
            "git knows no revision \"mian\"",
        ),
    ] {
        let mut command = fbc();
        command.arg("diff");
        if args[0] != "--base" {
            command.args(["--base", "main"]);
        }
        let output = command
            .args(&args)
            .current_dir(root)
            .output()
            .expect("fbc runs");
        assert_eq!(output.status.code(), Some(2));
        assert!(
            crate::stderr(&output).contains(message),
            "{}",
            crate::stderr(&output)
        );
        assert!(output.stdout.is_empty());
    }
}

#[test]
fn several_pairs_give_one_report() {
    let output = run(&[
        "diff",
        "testdata/diff/kinds/old",
        "testdata/diff/kinds/new",
        "testdata/diff/kinds/new",
        "testdata/diff/kinds/new",
        "-o",
        "json",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(report["base"], Value::Null);
    assert_eq!(report["catalogs"][0]["status"], "changed");
    assert_eq!(report["catalogs"][1]["status"], "unchanged");
    // An odd number of catalogs without --base is refused.
    let output = run(&[
        "diff",
        "testdata/diff/kinds/old",
        "testdata/diff/kinds/new",
        "x",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(crate::stderr(&output).contains("compares OLD NEW pairs; 3 catalogs were given"));
}

/// The blobs of `fbc render DIR`.
fn rendered_blobs(dir: &std::path::Path) -> Vec<Value> {
    let output = run(&["render", dir.to_str().expect("UTF-8 path")]);
    assert_eq!(output.status.code(), Some(0), "{}", crate::stderr(&output));
    serde_json::Deserializer::from_slice(&output.stdout)
        .into_iter::<Value>()
        .map(|blob| blob.expect("render prints JSON"))
        .collect()
}

/// The packages of a rendered catalog with exactly one channel of at least two
/// entries and no deprecations, sorted by name.
fn plain_packages(blobs: &[Value]) -> Vec<String> {
    let mut channels = std::collections::BTreeMap::<&str, Vec<&Value>>::new();
    let mut deprecated = std::collections::BTreeSet::new();
    for blob in blobs {
        match blob["schema"].as_str() {
            Some("olm.channel") => channels
                .entry(blob["package"].as_str().expect("a package"))
                .or_default()
                .push(blob),
            Some("olm.deprecations") => {
                deprecated.insert(blob["package"].as_str().expect("a package"));
            }
            _ => {}
        }
    }
    channels
        .into_iter()
        .filter(|(package, list)| {
            list.len() == 1
                && list[0]["entries"].as_array().is_some_and(|e| e.len() >= 2)
                && !deprecated.contains(package)
        })
        .map(|(package, _)| package.to_owned())
        .collect()
}

/// The entry of a channel that no other entry replaces or skips.
fn head_of(channel: &Value) -> String {
    let entries = channel["entries"].as_array().expect("entries");
    let mut named = std::collections::BTreeSet::new();
    for entry in entries {
        if let Some(replaces) = entry["replaces"].as_str() {
            named.insert(replaces);
        }
        for skip in entry["skips"].as_array().into_iter().flatten() {
            named.insert(skip.as_str().expect("a name"));
        }
    }
    let heads: Vec<&str> = entries
        .iter()
        .filter_map(|entry| entry["name"].as_str())
        .filter(|name| !named.contains(name))
        .collect();
    assert_eq!(heads.len(), 1, "{channel}");
    heads[0].to_owned()
}

/// What `apply_changes` did.
struct Applied {
    old_head: String,
    new_head: String,
    rebuilt_bundle: String,
    oldest: String,
}

fn channel_of(blobs: &[Value], package: &str) -> usize {
    blobs
        .iter()
        .position(|b| b["schema"] == "olm.channel" && b["package"] == package)
        .expect("the package's channel")
}

/// Removes the head of the first package, rebuilds the head of the second, adds a
/// channel to the third and deprecates the oldest bundle of the fourth.
fn apply_changes(blobs: &mut Vec<Value>, packages: [&String; 4]) -> Applied {
    let [removed_head, rebuilt, new_channel, deprecated] = packages;

    // A removed head: out of its channel and out of the catalog.
    let index = channel_of(blobs, removed_head);
    let old_head = head_of(&blobs[index]);
    let entries = blobs[index]["entries"].as_array_mut().expect("entries");
    entries.retain(|entry| entry["name"] != old_head.as_str());
    let new_head = head_of(&blobs[index]);
    blobs.retain(|b| !(b["schema"] == "olm.bundle" && b["name"] == old_head.as_str()));

    // A bundle rebuilt under the same name: its head, with a new image.
    let rebuilt_bundle = head_of(&blobs[channel_of(blobs, rebuilt)]);
    for blob in blobs.iter_mut() {
        if blob["schema"] == "olm.bundle" && blob["name"] == rebuilt_bundle.as_str() {
            let image = format!("{}-rebuilt", blob["image"].as_str().expect("an image"));
            blob["image"] = Value::String(image);
        }
    }

    // A new channel holding the head of the existing one.
    let head = head_of(&blobs[channel_of(blobs, new_channel)]);
    blobs.push(serde_json::json!({
        "schema": "olm.channel", "package": new_channel, "name": "fbc-test",
        "entries": [{"name": head}]
    }));

    // A deprecation of the package's oldest bundle.
    let channel = &blobs[channel_of(blobs, deprecated)];
    let oldest = channel["entries"][0]["name"]
        .as_str()
        .expect("a name")
        .to_owned();
    blobs.push(serde_json::json!({
        "schema": "olm.deprecations", "package": deprecated,
        "entries": [{"reference": {"schema": "olm.bundle", "name": oldest}, "message": "use a newer one"}]
    }));

    Applied {
        old_head,
        new_head,
        rebuilt_bundle,
        oldest,
    }
}

/// `fbc diff OLD NEW -o json`, NEW being `blobs` in one file; the diff finds a break.
fn diff_with_blobs(old: &std::path::Path, blobs: &[Value]) -> Value {
    let new = tempfile::tempdir().expect("temporary directory");
    let mut text = Vec::new();
    for blob in blobs {
        serde_json::to_writer(&mut text, blob).expect("JSON");
        text.push(b'\n');
    }
    std::fs::write(new.path().join("catalog.json"), text).expect("write");
    let output = run(&[
        "diff",
        old.to_str().expect("UTF-8 path"),
        new.path().to_str().expect("UTF-8 path"),
        "-o",
        "json",
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", crate::stderr(&output));
    serde_json::from_slice(&output.stdout).expect("JSON")
}

#[test]
#[cfg_attr(fbc_no_corpus, ignore = "needs ../shared/corpus")]
fn a_corpus_catalog_with_changes_applied() {
    let corpus = corpus();
    let old = corpus.join("catalogs/community-v4.18");
    let mut blobs = rendered_blobs(&old);
    let packages = plain_packages(&blobs);
    assert!(packages.len() >= 4, "{packages:?}");
    let (removed_head, rebuilt, new_channel, deprecated) =
        (&packages[0], &packages[1], &packages[2], &packages[3]);
    let applied = apply_changes(&mut blobs, [removed_head, rebuilt, new_channel, deprecated]);
    let Applied {
        old_head,
        new_head,
        rebuilt_bundle,
        oldest,
    } = &applied;
    let report = diff_with_blobs(&old, &blobs);

    let changed: Vec<&str> = report["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .map(|p| p["name"].as_str().expect("a name"))
        .collect();
    let mut expected = vec![
        removed_head.as_str(),
        rebuilt.as_str(),
        new_channel.as_str(),
        deprecated.as_str(),
    ];
    expected.sort_unstable();
    assert_eq!(changed, expected, "only the changed packages are reported");
    let package = |name: &str| {
        report["packages"]
            .as_array()
            .expect("packages")
            .iter()
            .find(|p| p["name"] == name)
            .expect("the package")
            .clone()
    };

    let removed = package(removed_head);
    assert_eq!(removed["channels"][0]["headBefore"], old_head.as_str());
    assert_eq!(removed["channels"][0]["headAfter"], new_head.as_str());
    assert_eq!(removed["bundlesRemoved"], serde_json::json!([old_head]));
    let rebuilt_report = package(rebuilt);
    assert_eq!(
        rebuilt_report["bundlesChanged"][0]["name"],
        rebuilt_bundle.as_str()
    );
    let added = package(new_channel);
    assert_eq!(added["channels"][0]["name"], "fbc-test");
    assert_eq!(added["channels"][0]["status"], "added");
    let deprecation = package(deprecated);
    assert_eq!(deprecation["deprecations"][0]["change"], "added");
    assert_eq!(deprecation["deprecations"][0]["name"], oldest.as_str());

    let problems: Vec<(String, String)> = report["problems"]
        .as_array()
        .expect("problems")
        .iter()
        .map(|p| {
            (
                p["package"].as_str().unwrap_or_default().to_owned(),
                p["rule"].as_str().expect("a rule").to_owned(),
            )
        })
        .collect();
    // The head goes back to a lower version (its installations stay where they are)
    // and the rebuilt bundle breaks; the new channel and the deprecation break nothing.
    assert!(
        problems.contains(&(removed_head.clone(), "head-moved-back".to_owned())),
        "{problems:?}"
    );
    assert!(
        problems.contains(&(rebuilt.clone(), "bundle-changed".to_owned())),
        "{problems:?}"
    );
    assert!(
        problems
            .iter()
            .all(|(package, _)| package == removed_head || package == rebuilt),
        "{problems:?}"
    );
    // Every installation of the package that lost its head was walked in both runtimes.
    let walked = report["installations"]
        .as_array()
        .expect("installations")
        .iter()
        .filter(|row| row["package"] == removed_head.as_str())
        .count();
    let entries = blobs[channel_of(&blobs, removed_head)]["entries"]
        .as_array()
        .expect("entries")
        .len();
    assert_eq!(walked, 2 * (entries + 1));
}

#[test]
fn names_cannot_forge_lines_in_the_text_and_markdown_reports() {
    let forged = "evil\\n::error ::forged|cell";
    let old = tempfile::tempdir().expect("a directory");
    let new = tempfile::tempdir().expect("a directory");
    std::fs::write(
        old.path().join("c.json"),
        format!(
            r#"{{"schema":"olm.package","name":"{forged}","defaultChannel":"stable"}}
{{"schema":"olm.channel","package":"{forged}","name":"stable","entries":[{{"name":"b.v1"}}]}}
{{"schema":"olm.bundle","package":"{forged}","name":"b.v1","image":"x","properties":[{{"type":"olm.package","value":{{"packageName":"{forged}","version":"1.0.0"}}}}]}}
"#
        ),
    )
    .expect("written");
    std::fs::write(
        new.path().join("c.json"),
        r#"{"schema":"olm.package","name":"other"}"#,
    )
    .expect("written");
    for format in ["text", "markdown"] {
        let output = fbc()
            .arg("diff")
            .args([old.path(), new.path()])
            .args(["-o", format])
            .output()
            .expect("fbc runs");
        assert_eq!(output.status.code(), Some(1), "{}", crate::stderr(&output));
        let report = stdout(&output);
        assert!(
            report.lines().all(|line| !line.starts_with("::")),
            "{format}: a line starts with a workflow command:\n{report}"
        );
        assert!(report.contains("evil\\n::error ::forged"), "{report}");
        if format == "markdown" {
            // Two rows of five cells: the name's pipe is escaped.
            let rows: Vec<&str> = report.lines().filter(|l| l.starts_with("| `")).collect();
            assert_eq!(rows.len(), 2, "{report}");
            assert!(
                rows.iter().all(|row| row.matches(" | ").count() == 4),
                "{report}"
            );
        }
    }
}

/// The mermaid blocks of a markdown text.
fn mermaid_blocks(markdown: &str) -> Vec<String> {
    markdown
        .split("```mermaid\n")
        .skip(1)
        .map(|rest| rest.split("```").next().expect("a closed block").to_owned())
        .collect()
}

#[test]
#[cfg_attr(
    fbc_no_mermaid,
    ignore = "needs node and the mermaid npm package (.ci/run installs them)"
)]
fn markdown_pictures_are_mermaid_that_mermaid_parses() {
    // The fixture's changes, and a long channel whose package name would end a
    // label, with its head removed: folded away, still valid mermaid.
    let mut outputs = vec![stdout(&kinds(&["-o", "markdown"]))];
    let dir = tempfile::tempdir().expect("temporary directory");
    let name = "odd\"name`<b>";
    let catalog = |entries: usize| {
        let mut blobs = vec![format!(
            r#"{{"schema":"olm.package","name":{name:?},"defaultChannel":"s"}}"#
        )];
        let mut channel = Vec::new();
        for number in 0..entries {
            let replaces = if number == 0 {
                String::new()
            } else {
                format!(r#","replaces":"b.v{}""#, number - 1)
            };
            channel.push(format!(r#"{{"name":"b.v{number}"{replaces}}}"#));
            blobs.push(format!(
                r#"{{"schema":"olm.bundle","name":"b.v{number}","package":{name:?},"image":"q.io/b:{number}","properties":[{{"type":"olm.package","value":{{"packageName":{name:?},"version":"1.0.{number}"}}}}]}}"#
            ));
        }
        blobs.push(format!(
            r#"{{"schema":"olm.channel","name":"s","package":{name:?},"entries":[{}]}}"#,
            channel.join(",")
        ));
        blobs.join("\n")
    };
    for (side, entries) in [("old", 40), ("new", 39)] {
        std::fs::create_dir(dir.path().join(side)).expect("mkdir");
        std::fs::write(dir.path().join(side).join("c.json"), catalog(entries)).expect("write");
    }
    let output = fbc()
        .args(["diff", "-o", "markdown"])
        .arg(dir.path().join("old"))
        .arg(dir.path().join("new"))
        .output()
        .expect("fbc runs");
    assert_eq!(output.status.code(), Some(1), "{}", crate::stderr(&output));
    let long = stdout(&output);
    assert!(
        long.contains("<details><summary>channel <code>s</code>: 40 entries</summary>"),
        "{long}"
    );
    outputs.push(long);
    let blocks: Vec<String> = outputs
        .iter()
        .flat_map(|text| mermaid_blocks(text))
        .collect();
    assert_eq!(blocks.len(), 7, "a picture per changed channel");
    // What the pictures say: the stranded bundle removed and broken, the new head
    // added, the removed edge and the new one styled.
    let strand = blocks
        .iter()
        .find(|block| block.contains("\"strand.v1.1.0\""))
        .expect("the strand channel");
    for line in [
        "  class n1 removed\n",
        "  class n3 added\n",
        "  class n1 broken\n",
        "  linkStyle 0,2 stroke:#cf222e,stroke-dasharray:5 3\n",
        "  n2 -- replaces --> n3\n",
    ] {
        assert!(strand.contains(line), "{line:?} in\n{strand}");
    }
    let files: Vec<std::path::PathBuf> = blocks
        .iter()
        .enumerate()
        .map(|(index, block)| {
            let path = dir.path().join(format!("{index}.mmd"));
            std::fs::write(&path, block).expect("write");
            path
        })
        .collect();
    let parsed = Command::new("node")
        .arg(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mermaid/parse.mjs"))
        .args(&files)
        // Where build.rs found (or looked for) the packages.
        .current_dir(env!("FBC_MERMAID_DIR"))
        .output()
        .expect("node runs");
    let answers = String::from_utf8_lossy(&parsed.stdout);
    assert_eq!(
        parsed.status.code(),
        Some(0),
        "{answers}{}",
        crate::stderr(&parsed)
    );
    assert_eq!(
        answers.matches("ok flowchart").count(),
        files.len(),
        "{answers}"
    );
}
