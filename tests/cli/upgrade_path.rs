//! `fbc alpha upgrade-path` on the fixtures of testdata/upgrade-path (expected
//! reports beside them) and on every bundle of the corpus.

use serde_json::Value;

use crate::{assert_matches_file, assert_refused, corpus, run, stderr, stdout, testdata};

/// Fixture, arguments after it, expected file `<fixture>.<label>`, exit status.
const CASES: &[(&str, &[&str], &str, i32)] = &[
    (
        "replaces-chain",
        &["--package", "chain", "--from", "chain.v0.1.1"],
        "from-0.1.1.txt",
        0,
    ),
    (
        "replaces-chain",
        &[
            "--package",
            "chain",
            "--from",
            "0.1.1",
            "--to",
            "0.1.2",
            "-o",
            "json",
        ],
        "to-0.1.2.json",
        0,
    ),
    (
        "replaces-chain",
        &["--package", "chain", "--from", "chain.v0.1.3"],
        "at-head.txt",
        0,
    ),
    (
        "skips",
        &["--package", "etcd", "--from", "etcdoperator.v0.9.0"],
        "from-0.9.0.txt",
        0,
    ),
    (
        "skips",
        &[
            "--package",
            "etcd",
            "--from",
            "etcdoperator.v0.9.1",
            "--from-version",
            "0.9.1",
        ],
        "from-0.9.1-not-in-catalog.txt",
        0,
    ),
    (
        "skip-range",
        &["--package", "elasticsearch-operator", "--from", "4.1.0"],
        "from-4.1.0.txt",
        0,
    ),
    (
        "skip-range",
        &["--package", "elasticsearch-operator", "--from", "4.1.1"],
        "from-4.1.1.txt",
        0,
    ),
    (
        "semantics-split",
        &["--package", "example", "--from", "1.0.0"],
        "both.txt",
        1,
    ),
    (
        "semantics-split",
        &[
            "--package",
            "example",
            "--from",
            "1.0.0",
            "--semantics",
            "classic",
        ],
        "classic.txt",
        1,
    ),
    (
        "semantics-split",
        &[
            "--package",
            "example",
            "--from",
            "1.0.0",
            "--semantics",
            "v1",
            "-o",
            "json",
        ],
        "v1.json",
        0,
    ),
    (
        "semantics-split",
        &["--every-bundle"],
        "every-bundle.txt",
        1,
    ),
    (
        "semantics-split",
        &[
            "--package",
            "example",
            "--from",
            "1.0.0",
            "--to",
            "example.v3.0.0",
            "--semantics",
            "classic",
        ],
        "classic-to-3.0.0.txt",
        1,
    ),
    (
        "several-successors",
        &["--package", "several", "--from", "several.v1.0.0"],
        "no-channel.txt",
        0,
    ),
    (
        "several-successors",
        &[
            "--package",
            "several",
            "--from",
            "several.v1.0.0",
            "--channel",
            "fast",
        ],
        "fast.txt",
        0,
    ),
    (
        "deprecated-successor",
        &["--package", "dep", "--from", "1.0.0"],
        "from-1.0.0.txt",
        0,
    ),
    (
        "deprecated-successor",
        &["--package", "dep", "--from", "1.0.0", "-o", "json"],
        "from-1.0.0.json",
        0,
    ),
    (
        "deprecated-successor",
        &["--package", "dep", "--from", "1.0.0", "--to", "dep.v1.2.0"],
        "to-1.2.0.txt",
        0,
    ),
    (
        "z-stream",
        &["--package", "zstream", "--from", "1.0.0"],
        "from-1.0.0.txt",
        0,
    ),
];

#[test]
fn fixtures_report_as_expected() {
    for (case, args, label, status) in CASES {
        let dir = testdata(&format!("upgrade-path/{case}"));
        let mut command = vec!["alpha", "upgrade-path", dir.to_str().expect("UTF-8 path")];
        command.extend_from_slice(args);
        let output = run(&command);
        assert_eq!(
            output.status.code(),
            Some(*status),
            "{case} {args:?}: {}",
            stderr(&output)
        );
        assert_eq!(stderr(&output), "", "{case} {args:?}");
        assert_matches_file(
            &stdout(&output),
            &testdata(&format!("upgrade-path/{case}.{label}")),
        );
    }
}

fn report(case: &str, args: &[&str]) -> Value {
    let dir = testdata(&format!("upgrade-path/{case}"));
    let mut command = vec![
        "alpha",
        "upgrade-path",
        dir.to_str().expect("UTF-8 path"),
        "-o",
        "json",
    ];
    command.extend_from_slice(args);
    let output = run(&command);
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "{}",
        stderr(&output)
    );
    serde_json::from_str(&stdout(&output)).expect("JSON")
}

/// The bundles a path goes through after the installed one.
fn path(report: &Value, semantics: usize) -> Vec<&str> {
    report["paths"][semantics]["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .map(|step| step["to"].as_str().expect("name"))
        .collect()
}

#[test]
fn every_old_patch_reaches_the_newest_in_one_step() {
    for from in ["zstream.v1.0.0", "zstream.v1.0.1", "zstream.v1.0.2"] {
        let report = report("z-stream", &["--package", "zstream", "--from", from]);
        for semantics in 0..2 {
            assert_eq!(path(&report, semantics), ["zstream.v1.0.3"], "{from}");
        }
    }
}

#[test]
fn skips_and_skip_ranges_jump_straight_to_the_head() {
    for from in ["4.1.0", "4.1.1"] {
        let report = report(
            "skip-range",
            &["--package", "elasticsearch-operator", "--from", from],
        );
        let kind = &report["paths"][0]["steps"][0]["edge"]["kind"];
        let expected = if from == "4.1.0" {
            "skipRange"
        } else {
            "replaces"
        };
        assert_eq!(kind, expected, "{from}");
        assert_eq!(path(&report, 1), ["elasticsearch-operator.v4.1.2"]);
    }
    let skipped = report(
        "skips",
        &[
            "--package",
            "etcd",
            "--from",
            "etcdoperator.v0.9.1",
            "--from-version",
            "0.9.1",
        ],
    );
    assert_eq!(skipped["paths"][0]["steps"][0]["edge"]["kind"], "skips");
}

#[test]
fn bad_input_exits_2() {
    let dir = testdata("upgrade-path/several-successors");
    let dir = dir.to_str().expect("UTF-8 path");
    let cases: [(&[&str], &str); 6] = [
        (
            &["--package", "nope", "--from", "1.0.0"],
            "error: package \"nope\" is not in the catalog",
        ),
        (
            &[
                "--package",
                "several",
                "--from",
                "1.0.0",
                "--channel",
                "beta",
            ],
            "error: package \"several\" has no channel \"beta\"\n  help: its channels: \"stable\", \"fast\"",
        ),
        (
            &["--package", "several", "--from", "3.0.0"],
            "error: package \"several\" has no bundle named or versioned \"3.0.0\"",
        ),
        (
            &[
                "--package",
                "several",
                "--from",
                "1.0.0",
                "--channel",
                "stable",
                "--channel",
                "fast",
            ],
            "error: OLM classic follows one channel, and 2 were given",
        ),
        (
            &[
                "--package",
                "several",
                "--from",
                "x",
                "--from-version",
                "1.0",
            ],
            "error: invalid --from-version \"1.0\": No Major.Minor.Patch elements found",
        ),
        (
            &["--package", "several"],
            "the following required arguments were not provided",
        ),
    ];
    for (args, message) in cases {
        let mut command = vec!["alpha", "upgrade-path", dir];
        command.extend_from_slice(args);
        let output = run(&command);
        assert_refused(&output, &format!("{args:?}"), message);
    }
    let several_channels = run(&[
        "alpha",
        "upgrade-path",
        dir,
        "--package",
        "several",
        "--from",
        "1.0.0",
        "--channel",
        "stable",
        "--channel",
        "fast",
        "--semantics",
        "v1",
    ]);
    assert_eq!(
        several_channels.status.code(),
        Some(0),
        "{}",
        stderr(&several_channels)
    );
}

/// Walks from every bundle of every channel of the corpus catalog to its head
/// under both semantics; prints how many have no path and how many differ.
#[test]
#[cfg_attr(fbc_no_corpus, ignore = "needs ../shared/corpus")]
fn corpus_every_bundle_walks() {
    let corpus = corpus();
    let dir = corpus.join("catalogs/community-v4.18");
    let dir = dir.to_str().expect("UTF-8 path");
    let output = run(&["alpha", "upgrade-path", dir, "--every-bundle", "-o", "json"]);
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "{}",
        stderr(&output)
    );
    assert_eq!(stderr(&output), "");
    let reports: Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    let reports = reports.as_array().expect("an array of reports");
    // One report per (package, channel, entry with a bundle), as the graph lists them.
    let graph = run(&["graph", dir, "-o", "json"]);
    let graph: Value = serde_json::from_str(&stdout(&graph)).expect("JSON");
    let starts: usize = graph["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .filter(|node| node["inCatalog"] == true)
        .map(|node| node["channels"].as_array().expect("channels").len())
        .sum();
    assert_eq!(reports.len(), starts);
    let survey = Survey::of(reports);
    eprintln!(
        "community-v4.18: {} (package, channel, bundle) starts; no path: {} classic, {} v1; classic and v1 differ: {}",
        reports.len(),
        survey.missing[0].len(),
        survey.missing[1].len(),
        survey.differ.len()
    );
    let any_missing = survey.missing.iter().any(|missing| !missing.is_empty());
    assert_eq!(output.status.code(), Some(i32::from(any_missing)));
}

/// Print the corpus pairs without a path and where the semantics differ:
/// `cargo test --test cli corpus_survey -- --ignored --nocapture`.
#[test]
#[ignore = "prints the corpus survey"]
fn corpus_survey() {
    let corpus = corpus();
    let catalogs = std::fs::read_dir(corpus.join("catalogs")).expect("catalogs");
    let mut names: Vec<String> = catalogs
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for name in names {
        let dir = corpus.join("catalogs").join(&name);
        let output = run(&[
            "alpha",
            "upgrade-path",
            dir.to_str().expect("UTF-8 path"),
            "--every-bundle",
            "-o",
            "json",
        ]);
        let reports: Value = serde_json::from_str(&stdout(&output)).expect("JSON");
        let reports = reports.as_array().expect("reports");
        let survey = Survey::of(reports);
        let pairs: std::collections::BTreeSet<(&str, &str)> = reports
            .iter()
            .map(|r| {
                (
                    r["package"].as_str().expect("package"),
                    r["installed"]["bundle"].as_str().expect("bundle"),
                )
            })
            .collect();
        println!(
            "{name}: {} starts, {} (package, bundle) pairs; no path: {} classic, {} v1; differ: {}",
            reports.len(),
            pairs.len(),
            survey.missing[0].len(),
            survey.missing[1].len(),
            survey.differ.len()
        );
        for (index, semantics) in ["classic", "v1"].iter().enumerate() {
            for line in &survey.missing[index] {
                println!("  no path ({semantics}): {line}");
            }
        }
        for line in &survey.differ {
            println!("  differ: {line}");
        }
    }
}

struct Survey {
    /// Per semantics (classic, v1): `package channel bundle` without a path.
    missing: [Vec<String>; 2],
    differ: Vec<String>,
}

impl Survey {
    fn of(reports: &[Value]) -> Self {
        let mut survey = Survey {
            missing: [Vec::new(), Vec::new()],
            differ: Vec::new(),
        };
        for report in reports {
            let start = format!(
                "{} {} {}",
                report["package"].as_str().expect("package"),
                report["paths"][0]["channels"][0].as_str().expect("channel"),
                report["installed"]["bundle"].as_str().expect("bundle")
            );
            for index in 0..2 {
                assert_eq!(
                    report["paths"][index]["semantics"],
                    ["classic", "v1"][index]
                );
                if report["paths"][index]["found"] == false {
                    survey.missing[index].push(start.clone());
                }
            }
            if report["same"] == false {
                let summary = |index: usize| path(report, index).join(" -> ");
                survey.differ.push(format!(
                    "{start}: classic [{}] v1 [{}]",
                    summary(0),
                    summary(1)
                ));
            }
        }
        survey
    }
}

#[test]
fn versions_keep_their_build_metadata() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(
        dir.path().join("catalog.yaml"),
        "schema: olm.package\nname: p\ndefaultChannel: stable\n---\nschema: olm.channel\npackage: p\nname: stable\nentries:\n- name: p.v1.0.0\n- name: p.v1.0.1\n  replaces: p.v1.0.0\n---\nschema: olm.bundle\npackage: p\nname: p.v1.0.0\nimage: quay.io/x/p:1\nproperties:\n- type: olm.package\n  value: {packageName: p, version: 1.0.0}\n---\nschema: olm.bundle\npackage: p\nname: p.v1.0.1\nimage: quay.io/x/p:2\nproperties:\n- type: olm.package\n  value: {packageName: p, version: 1.0.1+2}\n",
    )
    .expect("write");
    let path = dir.path().to_str().expect("UTF-8 path");
    let output = run(&[
        "alpha",
        "upgrade-path",
        path,
        "--package",
        "p",
        "--from",
        "1.0.0",
    ]);
    assert_eq!(output.status.code(), Some(0));
    assert!(
        stdout(&output).contains("p.v1.0.0 -> p.v1.0.1 (1.0.1+2)\n"),
        "{}",
        stdout(&output)
    );
    let output = run(&[
        "alpha",
        "upgrade-path",
        path,
        "--package",
        "p",
        "--from",
        "p.v1.0.1",
        "--from-version",
        "1.0.1+2",
        "-o",
        "json",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", crate::stderr(&output));
    let report: Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    assert_eq!(report["installed"]["version"], "1.0.1+2");
}

#[test]
fn every_bundle_without_a_channel_restriction() {
    let dir = testdata("upgrade-path/several-successors");
    let dir = dir.to_str().expect("UTF-8 path");
    let output = run(&[
        "alpha",
        "upgrade-path",
        dir,
        "--every-bundle",
        "--all-channels",
        "-o",
        "json",
    ]);
    let reports: Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    let reports = reports.as_array().expect("an array");
    // One report per bundle of the package, whatever channels hold it.
    assert_eq!(reports.len(), 3);
    for report in reports {
        let v1 = &report["paths"][1];
        assert_eq!(v1["semantics"], "v1");
        assert_eq!(v1["channels"], Value::Null, "all channels");
    }
    let first = &reports[0]["paths"];
    assert_eq!(first[0]["steps"][0]["to"], "several.v1.1.0");
    assert_eq!(first[1]["steps"][0]["to"], "several.v2.0.0");
    assert_eq!(
        first[1]["steps"][0]["successors"],
        serde_json::json!(["several.v2.0.0", "several.v1.1.0"])
    );
    let text = stdout(&run(&[
        "alpha",
        "upgrade-path",
        dir,
        "--every-bundle",
        "--all-channels",
    ]));
    assert!(
        text.contains("\n3 starting points (package, bundle); "),
        "{text}"
    );
    assert!(
        text.contains("several.v2.0.0 wins: OLM v1 takes a candidate that is not deprecated first, then the highest version\n"),
        "{text}"
    );
    // A channel and all channels at once make no sense.
    let output = run(&[
        "alpha",
        "upgrade-path",
        dir,
        "--every-bundle",
        "--all-channels",
        "--channel",
        "fast",
    ]);
    assert_eq!(output.status.code(), Some(2));
}
