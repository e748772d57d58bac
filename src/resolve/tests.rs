//! The shapes spec §11 describes beyond the corpus fixtures, each checked against
//! the answer recorded there from OLM's own resolver.

use std::fmt::Write as _;

use super::resolver::{Answer, Namespace, Subscription, resolve};
use super::source::{Installed, Universe};
use crate::catalog::{Catalog, load_directory};

/// A bundle: package, channel, name, what it replaces, extra properties (YAML list
/// items, indented by two spaces).
struct B<'a>(&'a str, &'a str, &'a str, &'a str, &'a str);

fn provides(kind: &str) -> String {
    format!("  - type: olm.gvk\n    value: {{group: example.com, version: v1, kind: {kind}}}\n")
}

fn needs(kind: &str) -> String {
    format!(
        "  - type: olm.gvk.required\n    value: {{group: example.com, version: v1, kind: {kind}}}\n"
    )
}

/// A catalog of these bundles; a package's default channel is the first it names.
fn catalog(bundles: &[B<'_>]) -> Catalog {
    let mut text = String::new();
    let mut packages: Vec<&str> = Vec::new();
    let mut channels: Vec<(&str, &str)> = Vec::new();
    for b in bundles {
        if !packages.contains(&b.0) {
            packages.push(b.0);
            let _ = write!(
                text,
                "---\nschema: olm.package\nname: {}\ndefaultChannel: {}\n",
                b.0, b.1
            );
        }
        if !channels.contains(&(b.0, b.1)) {
            channels.push((b.0, b.1));
        }
    }
    for (package, channel) in channels {
        let _ = write!(
            text,
            "---\nschema: olm.channel\npackage: {package}\nname: {channel}\nentries:\n"
        );
        for b in bundles.iter().filter(|b| b.0 == package && b.1 == channel) {
            let _ = writeln!(text, "- name: {}", b.2);
            if let Some((replaces, skips)) = b.3.split_once(" skips ") {
                if !replaces.is_empty() {
                    let _ = writeln!(text, "  replaces: {replaces}");
                }
                let _ = writeln!(text, "  skips: [{skips}]");
            } else if !b.3.is_empty() {
                let _ = writeln!(text, "  replaces: {}", b.3);
            }
        }
    }
    let mut seen = Vec::new();
    for b in bundles {
        if seen.contains(&b.2) {
            continue;
        }
        seen.push(b.2);
        let version = b.2.rsplit_once(".v").map_or("1.0.0", |(_, v)| v);
        let _ = write!(
            text,
            "---\nschema: olm.bundle\nname: {}\npackage: {}\nimage: example.com/{}\nproperties:\n  \
             - type: olm.package\n    value: {{packageName: {}, version: {version}}}\n{}",
            b.2, b.0, b.2, b.0, b.4
        );
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(dir.path().join("catalog.yaml"), text).expect("written");
    load_directory(dir.path()).expect("the catalog loads")
}

fn subscription(package: &str, channel: &str, starting_csv: &str) -> Subscription {
    Subscription {
        name: package.to_owned(),
        namespace: "operators".to_owned(),
        package: package.to_owned(),
        channel: channel.to_owned(),
        starting_csv: starting_csv.to_owned(),
        source: "main".to_owned(),
        source_namespace: "olm".to_owned(),
        installed_csv: String::new(),
    }
}

/// Resolves in namespace `operators` against catalog `main` (in `olm`).
fn answer(
    bundles: &[B<'_>],
    subscriptions: Vec<Subscription>,
    installed: Vec<Installed>,
) -> Result<Vec<String>, String> {
    let mut universe = Universe::default();
    universe.add_catalog("main", "olm", 0, &catalog(bundles));
    let namespace = Namespace {
        name: "operators".to_owned(),
        operator_groups: 1,
        exclude_global: false,
        subscriptions,
        installed,
    };
    match resolve(&mut universe, &namespace, "olm") {
        Answer::Installed { entries, .. } => {
            let mut ids: Vec<String> = entries.into_iter().map(|e| universe.id(e)).collect();
            ids.sort();
            Ok(ids)
        }
        Answer::Failed { message, .. } => Err(message),
        Answer::GaveUp => panic!("the search gave up"),
    }
}

fn app(bundles: &[B<'_>]) -> Result<Vec<String>, String> {
    answer(bundles, vec![subscription("app", "stable", "")], Vec::new())
}

fn ids(names: &[&str]) -> Vec<String> {
    names
        .iter()
        .map(|n| format!("main/olm/stable/{n}"))
        .collect()
}

#[test]
fn choices_are_made_breadth_first() {
    let (x, y, z, q) = (
        provides("Xk"),
        provides("Yk"),
        provides("Zk"),
        provides("Q"),
    );
    let got = app(&[
        B(
            "app",
            "stable",
            "app.v1.0.0",
            "",
            &(needs("Xk") + &needs("Yk")),
        ),
        B("px", "stable", "px.v1.0.0", "", &(x + &needs("Zk"))),
        B("py1", "stable", "py1.v1.0.0", "", &(y.clone() + &q)),
        B("py2", "stable", "py2.v1.0.0", "", &y),
        B("z1", "stable", "z1.v1.0.0", "", &(z.clone() + &q)),
        B("z2", "stable", "z2.v1.0.0", "", &z),
    ]);
    assert_eq!(
        got,
        Ok(ids(&["app.v1.0.0", "px.v1.0.0", "py1.v1.0.0", "z2.v1.0.0"]))
    );
}

#[test]
fn backtracking_crosses_levels_and_cycles_resolve() {
    let q = provides("Q");
    let got = app(&[
        B(
            "app",
            "stable",
            "app.v1.0.0",
            "",
            &(needs("Xk") + &needs("Yk")),
        ),
        B(
            "px1",
            "stable",
            "px1.v1.0.0",
            "",
            &(provides("Xk") + &needs("Zk")),
        ),
        B("px2", "stable", "px2.v1.0.0", "", &provides("Xk")),
        B("py", "stable", "py.v1.0.0", "", &(provides("Yk") + &q)),
        B("z1", "stable", "z1.v1.0.0", "", &(provides("Zk") + &q)),
    ]);
    assert_eq!(got, Ok(ids(&["app.v1.0.0", "px2.v1.0.0", "py.v1.0.0"])));
    let got = answer(
        &[
            B(
                "a",
                "stable",
                "a.v1.0.0",
                "",
                &(provides("Alpha") + &needs("Beta")),
            ),
            B(
                "b",
                "stable",
                "b.v1.0.0",
                "",
                &(provides("Beta") + &needs("Gamma")),
            ),
            B(
                "c",
                "stable",
                "c.v1.0.0",
                "",
                &(provides("Gamma") + &needs("Alpha")),
            ),
        ],
        vec![subscription("a", "stable", "")],
        Vec::new(),
    );
    assert_eq!(got, Ok(ids(&["a.v1.0.0", "b.v1.0.0", "c.v1.0.0"])));
}

#[test]
fn a_cycle_behind_skipped_entries_prevents_resolution() {
    let got = app(&[
        B("app", "stable", "app.v1.0.0", "app.v2.0.0", ""),
        B("app", "stable", "app.v2.0.0", "app.v1.0.0", ""),
        B(
            "app",
            "stable",
            "app.v3.0.0",
            "app.v2.0.0 skips app.v1.0.0, app.v2.0.0",
            "",
        ),
    ]);
    assert_eq!(
        got,
        Err("a cycle exists in the chain of replacement beginning with \"app.v3.0.0\" in channel \"stable\" of package \"app\"".to_owned())
    );
}

#[test]
fn without_a_channel_every_channel_is_tried_default_first() {
    let gizmo = needs("Gizmo");
    let bundles = |beta_needs: &str| {
        vec![
            ("stable", "app.v1.0.0", gizmo.clone()),
            ("alpha", "app.v3.0.0", gizmo.clone()),
            ("beta", "app.v2.0.0", beta_needs.to_owned()),
        ]
    };
    let ok = bundles("");
    let ok: Vec<B> = ok.iter().map(|(c, n, p)| B("app", c, n, "", p)).collect();
    let got = answer(&ok, vec![subscription("app", "", "")], Vec::new());
    assert_eq!(got, Ok(vec!["main/olm/beta/app.v2.0.0".to_owned()]));
    let bad = bundles(&gizmo);
    let bad: Vec<B> = bad.iter().map(|(c, n, p)| B("app", c, n, "", p)).collect();
    let got = answer(&bad, vec![subscription("app", "", "")], Vec::new()).unwrap_err();
    assert!(
        got.ends_with("subscription app requires at least one of main/olm/stable/app.v1.0.0, main/olm/alpha/app.v3.0.0 or main/olm/beta/app.v2.0.0"),
        "{got}"
    );
}

#[test]
fn a_starting_csv_can_name_a_skipped_bundle() {
    let bundles = [
        B("app", "stable", "app.v1.0.0", "", ""),
        B("app", "stable", "app.v1.5.0", "app.v1.0.0", ""),
        B(
            "app",
            "stable",
            "app.v2.0.0",
            "app.v1.0.0 skips app.v1.5.0",
            "",
        ),
    ];
    let pinned = answer(
        &bundles,
        vec![subscription("app", "stable", "app.v1.5.0")],
        Vec::new(),
    );
    assert_eq!(pinned, Ok(ids(&["app.v1.5.0"])));
    assert_eq!(app(&bundles), Ok(ids(&["app.v2.0.0"])));
}

#[test]
fn labels_compare_whole_strings() {
    let label = |l: &str| format!("  - type: olm.label\n    value: {{label: {l}}}\n");
    let required = |l: &str| format!("  - type: olm.label.required\n    value: {{label: {l}}}\n");
    let (bronze, gold) = (label("tier=bronze"), label("tier=gold"));
    let (wants_gold, wants_platinum) = (required("tier=gold"), required("tier=platinum"));
    let providers = |wanted| {
        [
            B("app", "stable", "app.v1.0.0", "", wanted),
            B(
                "bronze-operator",
                "stable",
                "bronze-operator.v1.0.0",
                "",
                &bronze,
            ),
            B("zz-gold", "stable", "zz-gold.v1.0.0", "", &gold),
        ]
    };
    assert_eq!(
        app(&providers(&wants_gold)),
        Ok(ids(&["app.v1.0.0", "zz-gold.v1.0.0"]))
    );
    let got = app(&providers(&wants_platinum)).unwrap_err();
    assert!(
        got.contains("bundle app.v1.0.0 requires an operator with label: tier=platinum"),
        "{got}"
    );
}

#[test]
fn compound_constraints_print_as_olm_prints_them() {
    let constraint = |body: &str| format!("  - type: olm.constraint\n    value: {body}\n");
    let gvk = |k: &str| format!("{{gvk: {{group: example.com, version: v1, kind: {k}}}}}");
    let any_empty = constraint("{any: {constraints: []}}");
    let got = app(&[B("app", "stable", "app.v1.0.0", "", &any_empty)]).unwrap_err();
    assert!(
        got.contains("bundle app.v1.0.0 requires an operator , "),
        "{got}"
    );
    let nested = constraint(&format!(
        "{{all: {{constraints: [{{any: {{constraints: [{}, {}]}}}}, {{not: {{constraints: [{}]}}}}]}}}}",
        gvk("Gizmo"),
        gvk("Gadget"),
        gvk("Widget")
    ));
    let got = app(&[B(
        "app",
        "stable",
        "app.v1.0.0",
        "",
        &(provides("Widget") + &nested),
    )])
    .unwrap_err();
    assert!(
        got.contains(
            "bundle app.v1.0.0 requires an operator providing an API with group: example.com, version: v1, kind: Gizmo or \
             providing an API with group: example.com, version: v1, kind: Gadget and providing an API with group: example.com, version: v1, kind: Widget"
        ),
        "{got}"
    );
    let unknown = constraint("{foo: 1}");
    let got = app(&[B("app", "stable", "app.v1.0.0", "", &unknown)]);
    assert_eq!(
        got,
        Err("parse olm.constraint: json: unknown field \"foo\"".to_owned())
    );
    let empty = constraint("{failureMessage: nothing}");
    let got = app(&[B("app", "stable", "app.v1.0.0", "", &empty)]);
    assert_eq!(
        got,
        Err("convert olm.constraint to resolver predicate: constraint is empty".to_owned())
    );
    let range =
        "  - type: olm.package.required\n    value: {packageName: db, versionRange: latest}\n";
    let got = app(&[B("app", "stable", "app.v1.0.0", "", range)]);
    assert_eq!(
        got,
        Err("Could not get version from string: \"latest\"".to_owned())
    );
}

#[test]
fn conversion_errors_are_aggregated_in_processing_order() {
    let cel = |rule: &str| {
        format!("  - type: olm.constraint\n    value:\n      cel:\n        rule: '{rule}'\n")
    };
    let every = cel("properties.exists(p, p.type == \"olm.package\")");
    let got = app(&[
        B("app", "stable", "app.v1.0.0", "", &every),
        B(
            "app-dyn",
            "stable",
            "app-dyn.v1.0.0",
            "",
            &cel("properties[0].value"),
        ),
        B(
            "app-int",
            "stable",
            "app-int.v1.0.0",
            "",
            &cel("properties.size()"),
        ),
        B(
            "app-lower",
            "stable",
            "app-lower.v1.0.0",
            "",
            &cel("properties.exists(p, p.type.lowerAscii() == \"olm.gvk\")"),
        ),
        B(
            "app-two-errs",
            "stable",
            "app-two-errs.v1.0.0",
            "",
            &cel("foo == bar"),
        ),
        B(
            "app-undeclared",
            "stable",
            "app-undeclared.v1.0.0",
            "",
            &cel("foo == 1"),
        ),
    ])
    .unwrap_err();
    let prefix = "convert olm.constraint to resolver predicate: ";
    let expected = format!(
        "[{prefix}ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')\n | foo == 1\n | ^, \
         {prefix}ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')\n | foo == bar\n | ^\n\
         ERROR: <input>:1:8: undeclared reference to 'bar' (in container '')\n | foo == bar\n | .......^, \
         {prefix}ERROR: <input>:1:39: undeclared reference to 'lowerAscii' (in container '')\n | properties.exists(p, p.type.lowerAscii() == \"olm.gvk\")\n | ......................................^, \
         {prefix}cel expressions must have type Bool]"
    );
    assert_eq!(got, expected);
}

#[test]
fn a_freestanding_csv_must_stay() {
    let bundles = [
        B("app", "stable", "app.v1.0.0", "", &needs("Widget")),
        B(
            "widget-operator",
            "stable",
            "widget-operator.v1.0.0",
            "",
            &provides("Widget"),
        ),
    ];
    let csv = Installed {
        name: "widget-operator.v1.0.0".to_owned(),
        package: "widget-operator".to_owned(),
        version: crate::go::semver::Version::parse("1.0.0").expect("a version"),
        annotated: true,
        properties: vec![
            (
                "olm.package".to_owned(),
                serde_json::json!({"packageName": "widget-operator", "version": "1.0.0"}),
            ),
            (
                "olm.gvk".to_owned(),
                serde_json::json!({"group": "example.com", "kind": "Widget", "version": "v1"}),
            ),
        ],
        freestanding: true,
    };
    let got = answer(
        &bundles,
        vec![subscription("app", "stable", "")],
        vec![csv.clone()],
    );
    assert_eq!(got, Ok(ids(&["app.v1.0.0"])));
    let got = answer(
        &bundles,
        vec![subscription("widget-operator", "stable", "")],
        vec![csv],
    )
    .unwrap_err();
    let either = |clash: &str| {
        format!(
            "constraints not satisfiable: {clash}, clusterserviceversion widget-operator.v1.0.0 exists and is not referenced by a subscription, \
             subscription widget-operator exists, subscription widget-operator requires main/olm/stable/widget-operator.v1.0.0"
        )
    };
    let ids =
        "@existing/operators//widget-operator.v1.0.0 and main/olm/stable/widget-operator.v1.0.0";
    assert!(
        got == either(&format!("{ids} originate from package widget-operator"))
            || got == either(&format!("{ids} provide Widget (example.com/v1)")),
        "{got}"
    );
}

#[test]
fn only_the_last_requirement_without_candidates_is_named() {
    let cache = "  - type: olm.constraint\n    value: {gvk: {group: example.com, version: v1, kind: Cache}}\n";
    let got = app(&[B(
        "app",
        "stable",
        "app.v1.0.0",
        "",
        &(needs("Gizmo") + cache),
    )])
    .unwrap_err();
    assert_eq!(
        got,
        "constraints not satisfiable: bundle app.v1.0.0 requires an operator providing an API with group: example.com, version: v1, kind: Gizmo, \
         subscription app exists, subscription app requires main/olm/stable/app.v1.0.0"
    );
    let bad_range = "  - type: olm.constraint\n    value: {package: {packageName: db, versionRange: '>=1.0.0 <x'}}\n";
    let got = app(&[B("app", "stable", "app.v1.0.0", "", bad_range)]);
    assert_eq!(
        got,
        Err("convert olm.constraint to resolver predicate: Could not get version from string: \"<x\"".to_owned())
    );
}

#[test]
fn two_versions_of_one_package_cannot_both_be_installed() {
    let wants = "  - type: olm.package.required\n    value: {packageName: db-operator, versionRange: '<2.0.0'}\n";
    let got = app(&[
        B(
            "app",
            "stable",
            "app.v1.0.0",
            "",
            &(wants.to_owned() + &needs("Table")),
        ),
        B("db-operator", "stable", "db-operator.v1.0.0", "", ""),
        B(
            "db-operator",
            "stable",
            "db-operator.v2.0.0",
            "db-operator.v1.0.0",
            &provides("Table"),
        ),
    ])
    .unwrap_err();
    assert!(
        got.contains(", main/olm/stable/db-operator.v1.0.0 and main/olm/stable/db-operator.v2.0.0 originate from package db-operator, "),
        "{got}"
    );
    // The first constraint kind present counts: a gvk before a package.
    let both = "  - type: olm.constraint\n    value: {gvk: {group: example.com, version: v1, kind: Widget}, package: {packageName: db-operator, versionRange: '>=5.0.0'}}\n";
    let got = app(&[
        B("app", "stable", "app.v1.0.0", "", both),
        B("db-operator", "stable", "db-operator.v1.0.0", "", ""),
        B(
            "widget-operator",
            "stable",
            "widget-operator.v1.0.0",
            "",
            &provides("Widget"),
        ),
    ]);
    assert_eq!(got, Ok(ids(&["app.v1.0.0", "widget-operator.v1.0.0"])));
}

#[test]
fn ranges_compare_pre_releases_by_precedence_and_any_takes_either() {
    let wants = "  - type: olm.package.required\n    value: {packageName: db-operator, versionRange: '>=1.0.0-0 <1.0.0 || 1.x'}\n";
    let got = app(&[
        B("app", "stable", "app.v1.0.0", "", wants),
        B("db-operator", "stable", "db-operator.v1.1.0-rc.1", "", ""),
    ]);
    assert_eq!(got, Ok(ids(&["app.v1.0.0", "db-operator.v1.1.0-rc.1"])));
    let any = |first: &str, second: &str| {
        format!(
            "  - type: olm.constraint\n    value: {{any: {{constraints: [{first}, {second}]}}}}\n"
        )
    };
    let db = "{package: {packageName: db-operator, versionRange: '>=2.0.0'}}";
    let widget = "{gvk: {group: example.com, version: v1, kind: Widget}}";
    let gizmo = "{gvk: {group: example.com, version: v1, kind: Gizmo}}";
    let providers = |constraint: &str| {
        app(&[
            B("app", "stable", "app.v1.0.0", "", constraint),
            B("db-operator", "stable", "db-operator.v1.0.0", "", ""),
            B(
                "widget-operator",
                "stable",
                "widget-operator.v1.0.0",
                "",
                &provides("Widget"),
            ),
        ])
    };
    assert_eq!(
        providers(&any(db, widget)),
        Ok(ids(&["app.v1.0.0", "widget-operator.v1.0.0"]))
    );
    let got = providers(&any(gizmo, db)).unwrap_err();
    assert!(
        got.contains(
            "bundle app.v1.0.0 requires an operator providing an API with group: example.com, version: v1, kind: Gizmo or \
             with package: db-operator and with version in range: >=2.0.0"
        ),
        "{got}"
    );
}

#[test]
fn deeply_nested_rules_end_with_an_answer() {
    let cel = |rule: &str| {
        format!("  - type: olm.constraint\n    value:\n      cel:\n        rule: '{rule}'\n")
    };
    let parens = format!("{}true{}", "(".repeat(3000), ")".repeat(3000));
    let got = app(&[B("app", "stable", "app.v1.0.0", "", &cel(&parens))]).unwrap_err();
    assert!(
        got.starts_with("convert olm.constraint to resolver predicate: ERROR: <input>:1:252: expression recursion limit exceeded: 250"),
        "{}",
        &got[..200]
    );
    // A long chain of operators is no nesting for the parser, but is for the
    // checker and the evaluation.
    let chain = format!("1{} == 3001", " + 1".repeat(3000));
    let got = app(&[B("app", "stable", "app.v1.0.0", "", &cel(&chain))]);
    assert_eq!(got, Ok(ids(&["app.v1.0.0"])));
}

/// Entries are found by each package they are (their own, and `olm.package`
/// properties') and by the APIs they provide, in the order they were added; a
/// source dropped again leaves none behind to be found.
#[test]
fn entries_are_looked_up_by_package_and_api() {
    use super::source::Hint;
    let csv = |name: &str, package: &str, also: &str| Installed {
        name: name.to_owned(),
        package: package.to_owned(),
        version: crate::go::semver::Version::parse("1.0.0").expect("a version"),
        annotated: true,
        properties: vec![
            (
                "olm.package".to_owned(),
                serde_json::json!({"packageName": also, "version": "1.0.0"}),
            ),
            (
                "olm.gvk".to_owned(),
                serde_json::json!({"group": "g", "version": "v1", "kind": "K"}),
            ),
        ],
        freestanding: false,
    };
    let mut universe = Universe::default();
    universe.add_existing("a", &[csv("one", "p", "p"), csv("two", "q", "p")]);
    let bundles = |universe: &Universe, hint| {
        universe
            .hinted(hint)
            .map(|e| universe.entries[e].bundle.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(bundles(&universe, Hint::Package("p")), ["one", "two"]);
    assert_eq!(bundles(&universe, Hint::Package("q")), ["two"]);
    assert_eq!(
        bundles(&universe, Hint::Gvk("g", "v1", "K")),
        ["one", "two"]
    );
    assert!(bundles(&universe, Hint::Gvk("g", "v2", "K")).is_empty());
    universe.sources.pop();
    universe.add_existing("b", &[csv("three", "p", "p")]);
    assert_eq!(bundles(&universe, Hint::Package("p")), ["three"]);
}
