use serde_json::json;

use super::*;

fn props(list: &[(&str, serde_json::Value)]) -> Vec<(String, serde_json::Value)> {
    list.iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect()
}

#[test]
fn undeclared_references_are_reported_with_their_position() {
    let error = Rule::compile("foo == bar").unwrap_err();
    assert_eq!(
        error,
        "ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')\n | foo == bar\n | ^\n\
         ERROR: <input>:1:8: undeclared reference to 'bar' (in container '')\n | foo == bar\n | .......^"
    );
}

#[test]
fn syntax_errors_read_as_cel_go_prints_them() {
    let error = Rule::compile("properties.exists(p, p.type == )").unwrap_err();
    assert!(
        error.starts_with("ERROR: <input>:1:32: Syntax error: mismatched input ')' expecting {'['"),
        "{error}"
    );
    assert!(
        error.ends_with(
            "\n | properties.exists(p, p.type == )\n | ...............................^"
        ),
        "{error}"
    );
}

#[test]
fn only_bool_rules_compile() {
    for rule in ["1 + 1", "properties[0].value", "properties.size()"] {
        assert_eq!(
            Rule::compile(rule).unwrap_err(),
            "cel expressions must have type Bool",
            "{rule}"
        );
    }
    let error =
        Rule::compile(r#"properties.exists(p, p.type.lowerAscii() == "olm.gvk")"#).unwrap_err();
    assert!(
        error.starts_with("ERROR: <input>:1:39: undeclared reference to 'lowerAscii'"),
        "{error}"
    );
}

#[test]
fn errors_inside_exists_are_absorbed_by_a_match() {
    let rule = Rule::compile(
        r#"properties.exists(p, semver_compare(p.value.version, "1.0.0") >= 0 && p.value.packageName == "zz-target")"#,
    )
    .unwrap();
    let entry = props(&[
        (
            "olm.gvk",
            json!({"group": "g", "kind": "K", "version": "v1"}),
        ),
        (
            "olm.package",
            json!({"packageName": "zz-target", "version": "1.0.0"}),
        ),
    ]);
    let mut budget = u64::MAX;
    assert_eq!(rule.matches(&entry, &mut budget), Some(true));
    let level =
        Rule::compile(r#"properties.exists(p, p.type == "level" && p.value == 3 && p.value > 2)"#)
            .unwrap();
    assert_eq!(
        level.matches(&props(&[("level", json!(3))]), &mut budget),
        Some(true)
    );
    let count =
        Rule::compile(r#"properties.filter(p, p.type == "olm.gvk.required").size() == 2"#).unwrap();
    let two = props(&[
        ("olm.gvk.required", json!({})),
        ("olm.gvk.required", json!({})),
    ]);
    assert_eq!(count.matches(&two, &mut budget), Some(true));
}

#[test]
fn nested_comprehensions_are_refused_beyond_the_budget() {
    let nested = Rule::compile(
        "properties.all(a, properties.all(b, properties.all(c, properties.all(d, \
         properties.all(e, e.type != 'x')))))",
    )
    .unwrap();
    let many: Vec<(&str, serde_json::Value)> = (0..42).map(|_| ("p", json!(1))).collect();
    let entry = props(&many);
    // 42^5 evaluations of the innermost body: over twenty million steps.
    let mut budget = 20_000_000;
    assert_eq!(nested.matches(&entry, &mut budget), None);
    assert_eq!(budget, 20_000_000, "nothing is spent on a refused rule");
    let few = props(&many[..3]);
    assert_eq!(nested.matches(&few, &mut budget), Some(true));
    assert!(budget < 20_000_000 && budget > 19_000_000, "{budget}");
}

#[test]
fn costs_are_linear_in_the_properties_for_one_comprehension() {
    let rule = Rule::compile("properties.exists(p, p.type == 'olm.maxOpenShiftVersion')").unwrap();
    let bound = |properties| Bound {
        properties,
        values: 3,
    };
    let small = cost(&rule.expression, bound(10));
    let large = cost(&rule.expression, bound(1000));
    assert!(large <= small * 100 + 100, "{small} {large}");
    let list =
        Rule::compile("[1, 2] + properties.map(p, p.type).filter(t, t == 'a') == []").unwrap();
    assert!(cost(&list.expression, bound(1000)) < 20_000);
}
