//! The upgrade rules on small catalogs: OLM classic's channel order and pick, OLM
//! v1's ranking, targets, and the request checks.

use super::classic::channel_order;
use super::package::PackageGraph;
use super::reason::OrderError;
use super::reason::Reason;
use super::request::{Report, Request, RequestError, plan};
use super::{Ending, Semantics};
use crate::catalog::Catalog;
use crate::graph::deprecations::Deprecations;
use crate::graph::testing::catalog;

/// A channel `c` of package `p` from `name[:replaces][/skip,skip][@range]` words,
/// with a bundle `p.vX` at version X for each entry.
fn channel_catalog(words: &[&str], extra: &str) -> Catalog {
    let mut lines = vec![r#"{"schema":"olm.package","name":"p","defaultChannel":"c"}"#.to_owned()];
    let mut entries = Vec::new();
    for word in words {
        let (word, range) = word.split_once('@').unwrap_or((word, ""));
        let (word, skips) = word.split_once('/').unwrap_or((word, ""));
        let (name, replaces) = word.split_once(':').unwrap_or((word, ""));
        let skips: Vec<String> = skips
            .split(',')
            .filter(|s| !s.is_empty())
            .map(|s| format!("\"p.v{s}\""))
            .collect();
        let replaces = if replaces.is_empty() {
            String::new()
        } else {
            format!("p.v{replaces}")
        };
        entries.push(format!(
            r#"{{"name":"p.v{name}","replaces":"{replaces}","skips":[{}],"skipRange":"{range}"}}"#,
            skips.join(",")
        ));
        lines.push(format!(
            r#"{{"schema":"olm.bundle","package":"p","name":"p.v{name}","properties":[{{"type":"olm.package","value":{{"packageName":"p","version":"{name}"}}}}]}}"#
        ));
    }
    lines.push(format!(
        r#"{{"schema":"olm.channel","package":"p","name":"c","entries":[{}]}}"#,
        entries.join(",")
    ));
    lines.push(extra.to_owned());
    catalog(&lines.join("\n"))
}

fn order(words: &[&str]) -> Result<Vec<String>, String> {
    let catalog = channel_catalog(words, "");
    let channel = &catalog.channels[0].item;
    channel_order("p", channel)
        .map(|entries| entries.iter().map(|e| e.name.to_string()).collect())
        .map_err(|error: OrderError| error.to_string())
}

#[test]
fn classic_orders_along_replaces_and_leaves_skipped_entries_out() {
    assert_eq!(
        order(&["1.0.0", "1.1.0:1.0.0", "1.2.0:1.1.0/1.0.5", "1.0.5:1.0.0"]).expect("one chain"),
        ["p.v1.2.0", "p.v1.1.0", "p.v1.0.0"]
    );
    // A skipped entry on the chain is walked through but left out.
    assert_eq!(
        order(&["1.0.0", "1.1.0:1.0.0", "1.2.0:1.1.0/1.1.0"]).expect("one chain"),
        ["p.v1.2.0", "p.v1.0.0"]
    );
}

#[test]
fn classic_order_errors_are_olms() {
    assert_eq!(
        order(&["1.0.0:1.1.0", "1.1.0:1.0.0"]).unwrap_err(),
        r#"no channel heads (entries not replaced by another entry) found in channel "c" of package "p""#
    );
    assert_eq!(
        order(&["1.0.0", "2.0.0", "1.1.0:1.0.0"]).unwrap_err(),
        r#"a unique replacement chain within a channel is required to determine the relative order between channel entries, but 2 replacement chains were found in channel "c" of package "p": p.v2.0.0, p.v1.1.0...p.v1.0.0"#
    );
    assert_eq!(
        order(&["3.0.0:1.0.0", "1.0.0:2.0.0", "2.0.0:1.0.0"]).unwrap_err(),
        r#"a cycle exists in the chain of replacement beginning with "p.v3.0.0" in channel "c" of package "p""#
    );
}

fn report<'a>(graph: &'a PackageGraph<'a>, from: &str, to: Option<&str>) -> Report<'a> {
    let request = Request {
        package: "p".to_owned(),
        from: Some(from.to_owned()),
        to: to.map(str::to_owned),
        semantics: vec![Semantics::Classic, Semantics::V1],
        ..Request::default()
    };
    plan(graph, &request).expect("valid request")
}

/// The bundles each semantics goes through, and how it ends.
fn paths<'r>(report: &'r Report<'r>) -> Vec<(Vec<&'r str>, Ending)> {
    report
        .walks
        .iter()
        .map(|walk| (walk.bundles(), walk.ending))
        .collect()
}

macro_rules! graph {
    ($catalog:expr, $deprecations:ident, $graph:ident) => {
        let $deprecations = Deprecations::new(&$catalog.deprecations);
        let $graph = PackageGraph::new(&$catalog, "p", &$deprecations)
            .expect("valid versions")
            .expect("package p");
    };
}

#[test]
fn semantics_split_of_the_documentation() {
    let catalog = channel_catalog(&["3.0.0/2.0.0", "2.0.0/1.0.0@>=1.0.0 <2.0.0", "1.0.0"], "");
    graph!(catalog, deprecations, graph);
    let report = report(&graph, "1.0.0", None);
    assert_eq!(
        paths(&report),
        [
            (vec![], Ending::Stuck),
            (vec!["p.v2.0.0", "p.v3.0.0"], Ending::Head)
        ]
    );
    let codes: Vec<&str> = report.walks[0].reasons.iter().map(Reason::code).collect();
    assert_eq!(codes, ["bundle-skipped", "candidate-skipped"]);
    assert!(!report.found());
    assert_eq!(report.same(), Some(false));
}

#[test]
fn classic_takes_the_candidate_nearest_the_head_v1_the_highest_version() {
    // Versions go down along this chain: 1.5.0 is the head, 1.9.0 is further down.
    let catalog = channel_catalog(&["1.0.0", "1.9.0:1.0.0", "1.5.0:1.9.0@<1.5.0"], "");
    graph!(catalog, deprecations, graph);
    let report = report(&graph, "1.0.0", None);
    assert_eq!(
        paths(&report),
        [
            (vec!["p.v1.5.0"], Ending::Head),
            (vec!["p.v1.9.0"], Ending::Stuck)
        ]
    );
    assert_eq!(report.walks[0].steps[0].also_offered, ["p.v1.9.0"]);
    // From 1.9.0, v1 prefers staying on the higher version to the head 1.5.0.
    assert_eq!(report.walks[1].reasons[0].code(), "stays");
}

#[test]
fn v1_ranks_deprecated_bundles_last() {
    let deprecation = r#"{"schema":"olm.deprecations","package":"p","entries":[{"reference":{"schema":"olm.bundle","name":"p.v1.2.0"},"message":"broken"}]}"#;
    let catalog = channel_catalog(&["1.0.0", "1.1.0:1.0.0", "1.2.0:1.1.0@<1.2.0"], deprecation);
    graph!(catalog, deprecations, graph);
    let report = report(&graph, "1.0.0", None);
    assert_eq!(
        paths(&report),
        [
            (vec!["p.v1.2.0"], Ending::Head),
            (vec!["p.v1.1.0"], Ending::Stuck)
        ]
    );
    let warnings: Vec<String> = report.walks[0]
        .warnings
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(warnings, ["bundle p.v1.2.0 is deprecated: broken"]);
    assert!(report.found(), "both printed a path");
}

#[test]
fn targets_are_reached_passed_over_or_behind() {
    let catalog = channel_catalog(
        &["1.0.0", "1.1.0:1.0.0", "1.2.0:1.1.0@<1.2.0", "1.3.0:1.2.0"],
        "",
    );
    graph!(catalog, deprecations, graph);
    let reached = report(&graph, "1.0.0", Some("p.v1.3.0"));
    assert!(reached.walks.iter().all(|w| w.ending == Ending::Target));
    // Classic jumps from 1.0.0 to 1.2.0; v1 takes 1.1.0, its version pinned.
    let passed = report(&graph, "1.0.0", Some("1.1.0"));
    assert_eq!(
        paths(&passed),
        [
            (vec!["p.v1.2.0", "p.v1.3.0"], Ending::Missed),
            (vec!["p.v1.1.0"], Ending::Target)
        ]
    );
    assert!(
        passed.walks[0]
            .reasons
            .iter()
            .any(|r| r.code() == "passed-over")
    );
    let behind = report(&graph, "1.3.0", Some("1.0.0"));
    assert!(
        behind
            .walks
            .iter()
            .all(|w| w.reasons.iter().any(|r| r.code() == "downgrade"))
    );
    let same = report(&graph, "1.1.0", Some("p.v1.1.0"));
    assert!(
        same.walks
            .iter()
            .all(|w| w.ending == Ending::Target && w.steps.is_empty())
    );
}

#[test]
fn installed_bundles_outside_the_catalog() {
    let catalog = channel_catalog(&["1.0.0", "1.2.0:1.0.0/1.1.0"], "");
    graph!(catalog, deprecations, graph);
    let request = |from: Option<&str>, version: &str| Request {
        package: "p".to_owned(),
        from: from.map(str::to_owned),
        from_version: Some(version.to_owned()),
        semantics: vec![Semantics::Classic, Semantics::V1],
        ..Request::default()
    };
    let named = plan(&graph, &request(Some("p.v1.1.0"), "1.1.0")).expect("valid");
    assert!(!named.installed.in_catalog);
    assert_eq!(paths(&named)[0], (vec!["p.v1.2.0"], Ending::Head));
    // Without a name only a skipRange could match, and there is none.
    let unnamed = plan(&graph, &request(None, "1.1.0")).expect("valid");
    assert_eq!(
        unnamed.walks[0]
            .reasons
            .last()
            .map(ToString::to_string)
            .as_deref(),
        Some(
            r#"no entry of channel "c" replaces or skips the installed version 1.1.0, and no skipRange covers its version 1.1.0"#
        )
    );
    let mismatch = plan(&graph, &request(Some("p.v1.0.0"), "1.0.1")).unwrap_err();
    assert_eq!(
        mismatch.to_string(),
        "bundle p.v1.0.0 has version 1.0.0 in the catalog, not 1.0.1"
    );
}

#[test]
fn request_errors() {
    let catalog = channel_catalog(&["1.0.0", "1.1.0:1.0.0"], "");
    graph!(catalog, deprecations, graph);
    let error = |request: Request| plan(&graph, &request).unwrap_err().to_string();
    let base = Request {
        package: "p".to_owned(),
        from: Some("1.0.0".to_owned()),
        semantics: vec![Semantics::Classic, Semantics::V1],
        ..Request::default()
    };
    assert_eq!(
        error(Request {
            channels: vec!["fast".to_owned()],
            ..base.clone()
        }),
        r#"package "p" has no channel "fast""#
    );
    assert_eq!(
        error(Request {
            from: Some("2.0.0".to_owned()),
            ..base.clone()
        }),
        r#"package "p" has no bundle named or versioned "2.0.0""#
    );
    assert_eq!(
        error(Request {
            channels: vec!["c".to_owned(), "c".to_owned()],
            ..base.clone()
        }),
        "OLM classic follows one channel, and 2 were given"
    );
    let v1 = Request {
        channels: vec!["c".to_owned(), "c".to_owned()],
        semantics: vec![Semantics::V1],
        ..base
    };
    assert!(plan(&graph, &v1).is_ok(), "v1 follows several channels");
    assert!(matches!(
        super::request::package_graph(&catalog, &deprecations, "q"),
        Err(RequestError::UnknownPackage { .. })
    ));
}

#[test]
fn v1_pins_the_target_once_it_is_a_successor() {
    let deprecation = r#"{"schema":"olm.deprecations","package":"p","entries":[{"reference":{"schema":"olm.bundle","name":"p.v1.2.0"},"message":"broken"}]}"#;
    let catalog = channel_catalog(&["1.0.0", "1.1.0:1.0.0", "1.2.0:1.1.0"], deprecation);
    graph!(catalog, deprecations, graph);
    // Alone, v1 stays on 1.1.0 rather than take the deprecated 1.2.0 ...
    assert_eq!(
        paths(&report(&graph, "1.0.0", None))[1],
        (vec!["p.v1.1.0"], Ending::Stuck)
    );
    // ... but a version pinned to 1.2.0 leaves it no other choice.
    let pinned = report(&graph, "1.0.0", Some("1.2.0"));
    assert_eq!(
        paths(&pinned)[1],
        (vec!["p.v1.1.0", "p.v1.2.0"], Ending::Target)
    );
}

/// Shared walks answer as a walk made step by step, from every bundle, under both
/// rules: a chain, skips and ranges, a cycle entered from a tail, a self-replace,
/// a bundle stepped to twice.
#[test]
fn shared_walks_equal_walks_made_step_by_step() {
    use super::walks::Walks;
    use super::{Position, Rules, classic::Classic, v1::V1, walk};
    let shapes: [&[&str]; 5] = [
        &["1.0.0", "1.1.0:1.0.0", "1.2.0:1.1.0", "1.3.0:1.2.0"],
        &[
            "1.0.0",
            "1.1.0/1.0.0",
            "2.0.0:1.1.0@>=1.0.0 <2.0.0",
            "1.0.5:1.0.0",
        ],
        &[
            "1.0.0:1.2.0",
            "1.1.0:1.0.0",
            "1.2.0:1.1.0",
            "0.9.0",
            "1.0.1:0.9.0",
        ],
        &["1.0.0:1.0.0", "1.1.0:1.0.0"],
        &[
            "1.0.0",
            "1.1.0:1.0.0",
            "1.2.0/1.0.0,1.1.0",
            "1.3.0:1.2.0/1.0.0",
        ],
    ];
    for words in shapes {
        let catalog = channel_catalog(words, "");
        graph!(catalog, deprecations, graph);
        let channel = graph.channels[0];
        let all: [Box<dyn Rules>; 2] = [
            Box::new(Classic::new(&graph, Some(channel))),
            Box::new(V1::new(&graph, vec![channel], None)),
        ];
        for rules in &all {
            let mut walks = Walks::new(&graph, rules.as_ref());
            // Twice: the second time from what was kept.
            for _ in 0..2 {
                for bundle in &graph.bundles {
                    let start = Position::of(&graph, bundle.name);
                    let (steps, _, reasons) = walk(&graph, rules.as_ref(), &start, None);
                    let shared = walks.from(&start);
                    let expected: Vec<&str> = steps.iter().map(|step| step.to).collect();
                    assert_eq!(shared.path().collect::<Vec<_>>(), expected, "{words:?}");
                    assert_eq!(shared.last(), expected.last().copied(), "{words:?}");
                    assert_eq!(shared.reasons(), reasons.as_slice(), "{words:?}");
                }
            }
            // A bundle the catalog lacks, at a version of its own.
            let start = Position {
                name: "p.v0.5.0".to_owned(),
                version: Some(crate::go::semver::Version::parse("1.0.0").expect("a version")),
                release: crate::go::semver::Release::default(),
            };
            let (steps, _, reasons) = walk(&graph, rules.as_ref(), &start, None);
            let shared = walks.from(&start);
            let expected: Vec<&str> = steps.iter().map(|step| step.to).collect();
            assert_eq!(shared.path().collect::<Vec<_>>(), expected, "{words:?}");
            assert_eq!(shared.reasons(), reasons.as_slice(), "{words:?}");
        }
    }
}
