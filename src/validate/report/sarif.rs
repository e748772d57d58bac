//! `-o sarif`: SARIF 2.1.0, one run with every rule described and one result per
//! finding, uploadable to GitHub code scanning. Artifact URIs are relative to the
//! current directory, which is the checkout root in CI.

use std::borrow::Cow;

use super::relative_path;
use crate::catalog::Location;
use crate::codec::node::{Items, Node};
use crate::codec::sink::Sink;
use crate::text::shown;
use crate::validate::spool::Spool;
use crate::validate::{Finding, Rule, Severity};

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
/// fbc's documentation: the package's `homepage` in Cargo.toml once the project has a
/// public address; until then opm's, whose rules and messages fbc's follow.
const INFORMATION_URI: &str = if env!("CARGO_PKG_HOMEPAGE").is_empty() {
    "https://github.com/operator-framework/operator-registry"
} else {
    env!("CARGO_PKG_HOMEPAGE")
};

/// The report of every finding of `parts` (one part per catalog), each result made
/// as it is written.
pub(crate) fn write(parts: &[&Spool], out: &mut impl Sink) {
    let rules = Rule::ALL.iter().map(|rule| rule_node(*rule)).collect();
    let driver = Node::Object(vec![
        ("name".into(), Node::str("fbc")),
        ("version".into(), Node::str(env!("CARGO_PKG_VERSION"))),
        (
            "semanticVersion".into(),
            Node::str(env!("CARGO_PKG_VERSION")),
        ),
        ("informationUri".into(), Node::str(INFORMATION_URI)),
        ("rules".into(), Node::Array(rules)),
    ]);
    let results = |visit: &mut dyn for<'n> FnMut(&Node<'n>)| {
        for part in parts {
            part.iter()
                .for_each(|finding| visit(&result_node(&finding)));
        }
    };
    let count = parts.iter().map(|part| part.len()).sum();
    let run = Node::Object(vec![
        ("tool".into(), Node::Object(vec![("driver".into(), driver)])),
        ("columnKind".into(), Node::str("unicodeCodePoints")),
        ("results".into(), Node::Items(Items::new(count, &results))),
    ]);
    let document = Node::Object(vec![
        ("$schema".into(), Node::str(SCHEMA)),
        ("version".into(), Node::str("2.1.0")),
        ("runs".into(), Node::Array(vec![run])),
    ]);
    crate::codec::json_write::write_pretty(&document, out);
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

fn rule_node(rule: Rule) -> Node<'static> {
    let tags = if rule.default_severity() == Severity::Error {
        "opm"
    } else {
        "lint"
    };
    Node::Object(vec![
        ("id".into(), Node::str(rule.id())),
        ("name".into(), Node::String(pascal_case(rule.id()).into())),
        (
            "shortDescription".into(),
            Node::Object(vec![("text".into(), Node::str(rule.summary()))]),
        ),
        (
            "fullDescription".into(),
            Node::Object(vec![(
                "text".into(),
                Node::String(full_description(rule).into()),
            )]),
        ),
        (
            "help".into(),
            Node::Object(vec![("text".into(), Node::String(help(rule).into()))]),
        ),
        (
            "defaultConfiguration".into(),
            Node::Object(vec![(
                "level".into(),
                Node::str(level(rule.default_severity())),
            )]),
        ),
        (
            "properties".into(),
            Node::Object(vec![("tags".into(), Node::Array(vec![Node::str(tags)]))]),
        ),
    ])
}

fn full_description(rule: Rule) -> String {
    let kind = match (rule, rule.default_severity()) {
        (Rule::CatalogFileUnreadable, _) => {
            "A catalog file that fbc (and opm) cannot read or decode; nothing else is validated then."
        }
        (_, Severity::Error) => "A rule opm enforces: a catalog that breaks it is invalid.",
        (_, Severity::Warning) => "A lint beyond opm: a warning, an error under --strict.",
    };
    format!("{}. {kind}", capitalized(rule.summary()))
}

fn help(rule: Rule) -> String {
    match rule.default_severity() {
        Severity::Error => format!(
            "Fix the blobs the result points at; `fbc validate DIR` lists every problem of rule {} with its file and line.",
            rule.id()
        ),
        Severity::Warning => format!(
            "Fix the blobs the result points at, or accept them with `fbc validate --allow {}`.",
            rule.id()
        ),
    }
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().collect::<String>() + chars.as_str()
    })
}

/// SARIF rule names are conventionally `PascalCase` identifiers.
fn pascal_case(id: &str) -> String {
    id.split('-')
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map_or_else(String::new, |first| {
                first.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect()
}

fn rule_index(rule: Rule) -> usize {
    Rule::ALL
        .iter()
        .position(|candidate| *candidate == rule)
        .expect("every rule is listed")
}

#[allow(clippy::cast_precision_loss)]
fn number(value: usize) -> Node<'static> {
    // Lines, columns and indexes are far below 2^53.
    Node::Number(value as f64)
}

fn location_node(location: &Location, id: Option<usize>) -> Node<'static> {
    let physical = Node::Object(vec![
        (
            "artifactLocation".into(),
            Node::Object(vec![(
                "uri".into(),
                Node::String(shown::uri(&relative_path(&location.file)).into()),
            )]),
        ),
        (
            "region".into(),
            Node::Object(vec![
                ("startLine".into(), number(location.line as usize)),
                ("startColumn".into(), number(location.column as usize)),
            ]),
        ),
    ]);
    let mut fields: Vec<(Cow<'static, str>, Node<'static>)> = Vec::new();
    if let Some(id) = id {
        fields.push(("id".into(), number(id)));
    }
    fields.push(("physicalLocation".into(), physical));
    Node::Object(fields)
}

fn result_node(finding: &Finding) -> Node<'_> {
    let mut text = finding.message().to_owned();
    if let Some(help) = finding.help_text() {
        text = format!("{text}\nhelp: {help}");
    }
    let mut fields: Vec<(Cow<'_, str>, Node<'_>)> = vec![
        ("ruleId".into(), Node::str(finding.rule.id())),
        ("ruleIndex".into(), number(rule_index(finding.rule))),
        ("level".into(), Node::str(level(finding.severity))),
        (
            "message".into(),
            Node::Object(vec![("text".into(), Node::String(text.into()))]),
        ),
    ];
    let mut locations = finding.locations.iter();
    if let Some(first) = locations.next() {
        fields.push((
            "locations".into(),
            Node::Array(vec![location_node(first, None)]),
        ));
    }
    let related: Vec<Node<'_>> = locations
        .enumerate()
        .map(|(index, location)| location_node(location, Some(index + 1)))
        .collect();
    if !related.is_empty() {
        fields.push(("relatedLocations".into(), Node::Array(related)));
    }
    let mut properties = Vec::new();
    for (key, value) in [
        ("catalog", finding.catalog()),
        ("package", finding.package_name()),
        ("channel", finding.channel_name()),
        ("bundle", finding.bundle_name()),
    ] {
        if let Some(value) = value {
            properties.push((Cow::Borrowed(key), Node::str(value)));
        }
    }
    if !properties.is_empty() {
        fields.push(("properties".into(), Node::Object(properties)));
    }
    Node::Object(fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_uris() {
        assert_eq!(
            pascal_case("channel-multiple-heads"),
            "ChannelMultipleHeads"
        );
        assert_eq!(
            shown::uri(std::path::Path::new("dir name/ä.yaml")),
            "dir%20name/%C3%A4.yaml"
        );
    }
}
