//! `fbc graph`, `fbc alpha render-graph` and `fbc alpha upgrade-path` on fixtures
//! (expected files in testdata/graph and testdata/upgrade-path) and on the corpus.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::{assert_matches_file, assert_same_text, corpus, fbc, run, stderr, stdout, testdata};

/// `fbc graph` arguments after the fixture, and the expected file beside it.
const GRAPH_CASES: &[(&[&str], &str)] = &[
    (&[], "star-wars.mermaid"),
    (&["--draw-v0-semantics"], "star-wars.v0.mermaid"),
    (
        &["--draw-v0-semantics", "--minimum-edge", "anakin.v0.1.0"],
        "star-wars.minimum-edge.mermaid",
    ),
    (
        &["--draw-v0-semantics", "-p", "boba-fett"],
        "star-wars.package.mermaid",
    ),
    (&["-o", "dot"], "star-wars.dot"),
    (&["-o", "dot", "--draw-v0-semantics"], "star-wars.v0.dot"),
    (&["-o", "json"], "star-wars.json"),
    (
        &["-o", "json", "--package", "boba-fett"],
        "star-wars.package.json",
    ),
];

#[test]
fn graph_fixtures() {
    let fixture = testdata("graph/star-wars");
    for (args, expected) in GRAPH_CASES {
        let mut command = vec!["graph", fixture.to_str().expect("UTF-8 path")];
        command.extend_from_slice(args);
        let output = run(&command);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{args:?}: {}",
            stderr(&output)
        );
        assert_eq!(stderr(&output), "", "{args:?}");
        assert_matches_file(&stdout(&output), &testdata(&format!("graph/{expected}")));
    }
}

#[test]
fn mermaid_is_opms_test_text() {
    // opm's TestWriteMermaidChannels, "SuccessNoFilters" (library default: v0 on).
    let expected = std::fs::read_to_string(testdata("graph/star-wars.v0.mermaid")).expect("file");
    assert!(expected.ends_with(
        "class anakin-dark-anakin.v0.0.1,anakin-light-anakin.v0.0.1 deprecated\n\
         class anakin-dark-anakin.v0.1.0 skipped\n\
         linkStyle 2 stroke:#FF0000,stroke-width:3px,stroke-dasharray:5;\n"
    ));
}

#[test]
fn render_graph_is_an_alias_with_opms_flags() {
    let fixture = testdata("graph/star-wars");
    let dir = fixture.to_str().expect("UTF-8 path");
    let pairs: [(&[&str], &[&str]); 2] = [
        (&["alpha", "render-graph", dir], &["graph", dir]),
        (
            &[
                "alpha",
                "render-graph",
                dir,
                "--package-name",
                "boba-fett",
                "--draw-v0-semantics",
            ],
            &[
                "graph",
                dir,
                "--package-name",
                "boba-fett",
                "--draw-v0-semantics",
            ],
        ),
    ];
    for (alias, graph) in pairs {
        let (a, b) = (run(alias), run(graph));
        assert_eq!(a.status.code(), Some(0), "{}", stderr(&a));
        assert_eq!(stdout(&a), stdout(&b), "{alias:?}");
    }
    let dot = run(&["alpha", "render-graph", dir, "-o", "dot"]);
    assert_eq!(dot.status.code(), Some(2), "render-graph has no -o");
}

/// Exit 2 and opm's message, nothing on stdout.
fn assert_fails(args: &[&str], message: &str) {
    crate::assert_refused(&run(args), &format!("{args:?}"), message);
}

#[test]
fn graph_errors() {
    let star_wars = testdata("graph/star-wars");
    let dir = star_wars.to_str().expect("UTF-8 path");
    assert_fails(
        &["graph", dir, "--minimum-edge", "nope"],
        "error: unknown minimum edge name: \"nope\"",
    );
    let bad = testdata("graph/bad-version");
    assert_fails(
        &["graph", bad.to_str().expect("UTF-8 path")],
        "error: bundle \"p.v1\" has invalid version \"1.0\": No Major.Minor.Patch elements found",
    );
    let broken = testdata("catalogs/error-several-files");
    assert_fails(
        &["graph", broken.to_str().expect("UTF-8 path"), "-o", "json"],
        "2 catalog files could not be loaded",
    );
    let temp = tempfile::tempdir().expect("temporary directory");
    for sub in ["manifests", "metadata"] {
        std::fs::create_dir(temp.path().join(sub)).expect("create directory");
    }
    let bundle = temp.path().to_str().expect("UTF-8 path");
    assert_fails(
        &["graph", bundle],
        &format!(
            "render reference \"{bundle}\": cannot render bundle directory \"{bundle}\": not allowed"
        ),
    );
}

#[test]
fn invalid_skip_range_is_a_warning() {
    let fixture = testdata("graph/bad-skip-range");
    let output = run(&["graph", fixture.to_str().expect("UTF-8 path")]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        stderr(&output),
        "warning: ignoring invalid SkipRange for package/edge \"p\"/\"p.v2\": \
         Could not parse Range \">v1.0.0\": Could not parse comparator \">v\" in \">v1.0.0\"\n"
    );
    assert!(stdout(&output).contains("p-c-p.v1[\"p.v1\"]-- replace --> p-c-p.v2[\"p.v2\"]"));
}

/// Every corpus catalog with an opm render-graph output is drawn identically.
#[test]
#[cfg_attr(fbc_no_corpus, ignore = "needs ../shared/corpus")]
fn corpus_mermaid_is_opms() {
    let corpus = corpus();
    let expected_dir = corpus.join("expected/catalogs");
    let mut compared = 0;
    for entry in std::fs::read_dir(&expected_dir).expect("expected outputs") {
        let path = entry.expect("entry").path();
        let name = path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        let Some(catalog) = name.strip_suffix(".render-graph.mmd") else {
            continue;
        };
        let dir = corpus.join("catalogs").join(catalog);
        let output = run(&["graph", dir.to_str().expect("UTF-8 path")]);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{catalog}: {}",
            stderr(&output)
        );
        let expected = std::fs::read_to_string(&path).expect("opm's output");
        assert_same_text(&stdout(&output), &expected, catalog);
        compared += 1;
    }
    assert!(compared >= 6, "only {compared} catalogs compared");
}

#[test]
#[cfg_attr(fbc_no_corpus, ignore = "needs ../shared/corpus")]
fn corpus_graph_formats() {
    let corpus = corpus();
    let dir = corpus.join("catalogs/community-v4.18");
    let dir = dir.to_str().expect("UTF-8 path");
    let dot = run(&["graph", dir, "-o", "dot"]);
    assert_eq!(dot.status.code(), Some(0), "{}", stderr(&dot));
    assert!(stdout(&dot).starts_with("digraph upgrades {\n") && stdout(&dot).ends_with("}\n"));
    let json = run(&["graph", dir, "-o", "json"]);
    assert_eq!(json.status.code(), Some(0), "{}", stderr(&json));
    let graph: Value = serde_json::from_str(&stdout(&json)).expect("JSON");
    let edges = graph["edges"].as_array().expect("edges");
    let nodes: BTreeSet<(&str, &str)> = graph["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .map(|n| {
            (
                n["package"].as_str().expect("package"),
                n["bundle"].as_str().expect("bundle"),
            )
        })
        .collect();
    for edge in edges {
        let package = edge["package"].as_str().expect("package");
        for end in ["from", "to"] {
            let bundle = edge[end].as_str().expect("end");
            assert!(
                nodes.contains(&(package, bundle)),
                "{edge}: no node for {end}"
            );
        }
    }
    let one = run(&[
        "graph",
        dir,
        "-o",
        "json",
        "-p",
        "infinispan",
        "--minimum-edge",
        "infinispan-operator.v2.4.0",
    ]);
    assert_eq!(one.status.code(), Some(0), "{}", stderr(&one));
    let filtered: Value = serde_json::from_str(&stdout(&one)).expect("JSON");
    assert!(
        filtered["channels"]
            .as_array()
            .is_some_and(|c| !c.is_empty())
    );
    assert!(
        filtered["nodes"]
            .as_array()
            .expect("nodes")
            .iter()
            .all(|n| n["package"] == "infinispan")
    );
}

#[test]
fn a_package_the_catalog_lacks_is_refused_by_name() {
    let output = fbc()
        .args(["graph", "-p", "nosuch", "testdata/examples/hello-catalog"])
        .output()
        .expect("fbc runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert!(
        stderr(&output).contains("package \"nosuch\" is not in the catalog"),
        "{}",
        stderr(&output)
    );
    // opm's render-graph draws an empty graph for it, and so does fbc's.
    let opm = fbc()
        .args(["alpha", "render-graph", "--package-name", "nosuch"])
        .arg("testdata/examples/hello-catalog")
        .output()
        .expect("fbc runs");
    assert_eq!(opm.status.code(), Some(0), "{}", stderr(&opm));
}

#[test]
fn alpha_commands_given_without_alpha_are_pointed_there() {
    for command in ["upgrade-path", "resolve", "render-template"] {
        let output = fbc().arg(command).output().expect("fbc runs");
        assert_eq!(output.status.code(), Some(2));
        assert!(
            stderr(&output).contains(&format!(
                "`{command}` is an alpha command: run `fbc alpha {command}`"
            )),
            "{}",
            stderr(&output)
        );
    }
    let help = fbc().arg("--help").output().expect("fbc runs");
    assert!(stdout(&help).contains("upgrade-path"), "{}", stdout(&help));
}
