//! `-o json`: opm's `{"passed": ..., "error": {"message": ...}}` written as Go's
//! `json.MarshalIndent(v, "", "  ")` writes it (HTML characters escaped), with
//! every finding added under `findings`.

use std::borrow::Cow;

use super::{Outcome, display_path};
use crate::codec::node::{Chunks, Each, Items, Node};
use crate::codec::sink::Sink;
use crate::text::shown::Form;
use crate::validate::Finding;
use crate::validate::spool::Spool;

/// The version of fbc's report shapes (schemas/validate.schema.json).
pub(crate) const FORMAT_VERSION: f64 = 1.0;

/// The whole report, ending with a newline. Findings are made into trees one at a
/// time as they are written: a catalog can have a finding per blob, and all their
/// trees at once would cost more than the report.
pub(crate) fn write(outcome: &Outcome, out: &mut impl Sink) {
    let findings = findings_each(&outcome.findings);
    write_node(&report(outcome, &findings), out);
}

/// One catalog's report: `formatVersion`, then [`outcome_fields`].
pub(crate) fn report<'a>(outcome: &'a Outcome, findings: &'a Each<'a>) -> Node<'a> {
    let mut fields = vec![("formatVersion".into(), Node::Number(FORMAT_VERSION))];
    fields.extend(outcome_fields(outcome, findings));
    Node::Object(fields)
}

/// The function that hands the findings' trees to [`outcome_fields`].
pub(crate) fn findings_each(
    findings: &Spool,
) -> impl Fn(&mut dyn for<'n> FnMut(&Node<'n>)) + Sync + '_ {
    |visit| {
        findings
            .iter()
            .for_each(|finding| visit(&finding_node(&finding)));
    }
}

/// A report object as Go's indenting encoder writes it, ending with a newline.
pub(crate) fn write_node(node: &Node<'_>, out: &mut impl Sink) {
    write_indented(node, 0, out);
    out.push(b'\n');
}

/// `passed`, opm's `error` when there is one, and `findings` (made by `findings`,
/// one of [`findings_each`]).
pub(crate) fn outcome_fields<'a>(
    outcome: &'a Outcome,
    findings: &'a Each<'a>,
) -> Vec<(Cow<'a, str>, Node<'a>)> {
    let mut fields = vec![("passed".into(), Node::Bool(outcome.passed))];
    if let Some(message) = &outcome.opm_message {
        fields.push((
            "error".into(),
            Node::Object(vec![("message".into(), Node::Chunks(Chunks(message)))]),
        ));
    }
    fields.push((
        "findings".into(),
        Node::Items(Items::new(outcome.findings.len(), findings)),
    ));
    fields
}

/// One finding as an object; absent package, channel, bundle and help are left out.
pub(crate) fn finding_node(finding: &Finding) -> Node<'_> {
    let mut fields: Vec<(Cow<'_, str>, Node<'_>)> = vec![
        ("rule".into(), Node::str(finding.rule.id())),
        ("severity".into(), Node::str(finding.severity.as_str())),
        ("message".into(), Node::str(finding.message())),
    ];
    for (key, value) in [
        ("package", finding.package_name()),
        ("channel", finding.channel_name()),
        ("bundle", finding.bundle_name()),
    ] {
        if let Some(value) = value {
            fields.push((key.into(), Node::str(value)));
        }
    }
    let locations = finding.locations.iter().map(|location| {
        Node::Object(vec![
            (
                "file".into(),
                Node::String(display_path(&location.file, Form::Data).into()),
            ),
            ("line".into(), number(location.line as usize)),
            ("column".into(), number(location.column as usize)),
        ])
    });
    fields.push(("locations".into(), Node::Array(locations.collect())));
    if let Some(help) = finding.help_text() {
        fields.push(("help".into(), Node::str(help)));
    }
    Node::Object(fields)
}

#[allow(clippy::cast_precision_loss)]
fn number(value: usize) -> Node<'static> {
    // Lines and columns are far below 2^53.
    Node::Number(value as f64)
}

fn newline(out: &mut impl Sink, depth: usize) {
    out.push(b'\n');
    for _ in 0..depth {
        out.extend_from_slice(b"  ");
    }
}

fn write_indented(node: &Node<'_>, depth: usize, out: &mut impl Sink) {
    match node {
        Node::Array(items) if !items.is_empty() => {
            write_items(|visit| items.iter().for_each(visit), depth, out);
        }
        Node::Items(items) if !items.is_empty() => {
            write_items(|visit| items.for_each(visit), depth, out);
        }
        Node::Object(fields) if !fields.is_empty() => {
            out.push(b'{');
            for (index, (key, value)) in fields.iter().enumerate() {
                if index > 0 {
                    out.push(b',');
                }
                newline(out, depth + 1);
                write_string(key, out);
                out.extend_from_slice(b": ");
                write_indented(value, depth + 1, out);
            }
            newline(out, depth);
            out.push(b'}');
        }
        Node::String(text) => write_string(text, out),
        Node::Chunks(chunks) => {
            out.push(b'"');
            chunks.for_each(&mut |chunk| write_escaped(chunk, out));
            out.push(b'"');
        }
        other => crate::codec::json_write::write_compact(other, out),
    }
}

/// A non-empty array whose items `each` hands over one at a time.
fn write_items(
    each: impl FnOnce(&mut dyn for<'n> FnMut(&Node<'n>)),
    depth: usize,
    out: &mut impl Sink,
) {
    out.push(b'[');
    let mut first = true;
    each(&mut |item| {
        if !std::mem::take(&mut first) {
            out.push(b',');
        }
        newline(out, depth + 1);
        write_indented(item, depth + 1, out);
    });
    newline(out, depth);
    out.push(b']');
}

/// Go's string encoding with its default HTML escaping of `<`, `>` and `&`.
fn write_string(text: &str, out: &mut impl Sink) {
    out.push(b'"');
    write_escaped(text, out);
    out.push(b'"');
}

/// The inside of [`write_string`]'s quotes.
fn write_escaped(text: &str, out: &mut impl Sink) {
    if !text.bytes().any(|byte| matches!(byte, b'<' | b'>' | b'&')) {
        crate::codec::json_write::write_escaped(text, out);
        return;
    }
    let mut escaped = Vec::with_capacity(text.len());
    crate::codec::json_write::write_escaped(text, &mut escaped);
    for byte in escaped {
        match byte {
            b'<' => out.extend_from_slice(b"\\u003c"),
            b'>' => out.extend_from_slice(b"\\u003e"),
            b'&' => out.extend_from_slice(b"\\u0026"),
            byte => out.push(byte),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::Rule;

    fn written(outcome: &Outcome) -> String {
        let mut out = Vec::new();
        write(outcome, &mut out);
        String::from_utf8(out).expect("UTF-8")
    }

    #[test]
    fn passing_reports_have_no_error_key() {
        let outcome = Outcome {
            findings: Vec::new().into(),
            opm_message: None,
            passed: true,
        };
        assert_eq!(
            written(&outcome),
            "{\n  \"formatVersion\": 1,\n  \"passed\": true,\n  \"findings\": []\n}\n"
        );
    }

    /// Findings written one at a time make the report the whole tree makes.
    #[test]
    fn the_report_equals_its_tree_written_whole() {
        let location = crate::catalog::Location::start_of("c.json");
        for count in [0, 1, 3] {
            let findings: Vec<Finding> = (0..count)
                .map(|index| {
                    Finding::new(Rule::ImageNotPinned, format!("m<{index}>"))
                        .package("p")
                        .bundle(&format!("b{index}"))
                        .at(&location)
                        .help("h & h")
                })
                .collect();
            for opm_message in [None, Some("x".to_owned())] {
                let outcome = Outcome {
                    findings: findings.clone().into(),
                    opm_message: opm_message.clone().map(Into::into),
                    passed: count == 0,
                };
                let trees = Node::Array(findings.iter().map(finding_node).collect());
                let mut whole = report(&outcome, &|_| {});
                if let Node::Object(fields) = &mut whole {
                    fields.last_mut().expect("findings").1 = trees;
                }
                let mut expected = Vec::new();
                write_node(&whole, &mut expected);
                assert_eq!(
                    written(&outcome),
                    String::from_utf8(expected).expect("UTF-8")
                );
            }
        }
    }

    #[test]
    fn messages_escape_html_like_go() {
        let outcome = Outcome {
            findings: Vec::new().into(),
            opm_message: Some(
                "invalid skipRange \"<1.0.0 & >0.1\":\n└── x"
                    .to_owned()
                    .into(),
            ),
            passed: false,
        };
        assert_eq!(
            written(&outcome),
            "{\n  \"formatVersion\": 1,\n  \"passed\": false,\n  \"error\": {\n    \"message\": \"invalid skipRange \\\"\\u003c1.0.0 \\u0026 \\u003e0.1\\\":\\n└── x\"\n  },\n  \"findings\": []\n}\n"
        );
    }
}
