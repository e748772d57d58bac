//! `-o yaml`: the JSON report in opm's YAML shape. opm marshals its result with
//! `sigs.k8s.io/yaml` (go-yaml v2): keys sorted, sequences in mappings not
//! indented, multi-line strings as `|-` literal blocks, long plain and quoted
//! strings folded after column 80, strings YAML 1.1 would read otherwise quoted;
//! then `Fprintln` adds an empty line. Only the shapes of this report are handled.

use super::Outcome;
use crate::output::node::Node;

const BEST_WIDTH: usize = 80;

pub(crate) fn write(outcome: &Outcome) -> String {
    let mut fields = vec![("passed".into(), Node::Bool(outcome.passed))];
    if let Some(message) = &outcome.opm_message {
        fields.push((
            "error".into(),
            Node::Object(vec![("message".into(), Node::str(message))]),
        ));
    }
    let findings = outcome.findings.iter().map(super::json::finding_node);
    fields.push(("findings".into(), Node::Array(findings.collect())));
    let mut out = String::new();
    write_mapping(&Node::Object(fields), 0, false, &mut out);
    out.push('\n');
    out
}

/// A block mapping whose keys sit at `indent`; `inline` when the first key
/// follows a `- ` already written.
fn write_mapping(node: &Node<'_>, indent: usize, inline: bool, out: &mut String) {
    let Node::Object(fields) = node else {
        return;
    };
    let mut sorted: Vec<_> = fields.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    for (index, (key, value)) in sorted.into_iter().enumerate() {
        if index > 0 || !inline {
            out.push_str(&" ".repeat(indent));
        }
        out.push_str(key);
        out.push(':');
        match value {
            Node::Object(inner) if !inner.is_empty() => {
                out.push('\n');
                write_mapping(value, indent + 2, false, out);
            }
            Node::Array(items) if !items.is_empty() => {
                out.push('\n');
                for item in items {
                    out.push_str(&" ".repeat(indent));
                    out.push_str("- ");
                    match item {
                        Node::Object(_) => write_mapping(item, indent + 2, true, out),
                        other => {
                            write_scalar(other, indent + 2, indent + 2, out);
                            out.push('\n');
                        }
                    }
                }
            }
            scalar => {
                out.push(' ');
                let column = indent + key.chars().count() + 2;
                write_scalar(scalar, indent + 2, column, out);
                out.push('\n');
            }
        }
    }
}

/// A scalar starting at `column`; continuation lines are indented by `indent`.
fn write_scalar(node: &Node<'_>, indent: usize, column: usize, out: &mut String) {
    match node {
        Node::Raw { value, .. } => write_scalar(value, indent, column, out),
        Node::Null => out.push_str("null"),
        Node::Bool(value) => out.push_str(if *value { "true" } else { "false" }),
        Node::Number(value) => out.push_str(&crate::output::number::json(*value)),
        Node::String(text) => write_string(text, indent, column, out),
        Node::Array(_) => out.push_str("[]"),
        Node::Object(_) => out.push_str("{}"),
    }
}

fn write_string(text: &str, indent: usize, column: usize, out: &mut String) {
    let special = text
        .chars()
        .any(|c| (c.is_control() && c != '\n') || c == '\u{feff}');
    if special || (text.contains('\n') && !block_allowed(text)) {
        out.push_str(&crate::go::fmt::quote(text));
    } else if text.contains('\n') {
        out.push_str("|-");
        for line in text.split('\n') {
            out.push('\n');
            if !line.is_empty() {
                out.push_str(&" ".repeat(indent));
                out.push_str(line);
            }
        }
    } else if resolves_to_other_type(text) {
        out.push_str(&crate::go::fmt::quote(text));
    } else if plain_allowed(text) {
        fold(text, indent, column, out);
    } else {
        out.push('\'');
        fold(&text.replace('\'', "''"), indent, column + 1, out);
        out.push('\'');
    }
}

/// Writes `text`, turning a space into a line break once the line is past the
/// best width (go-yaml's rule: the space follows a non-space and precedes one).
fn fold(text: &str, indent: usize, start: usize, out: &mut String) {
    let mut column = start;
    let chars: Vec<char> = text.chars().collect();
    for (index, character) in chars.iter().enumerate() {
        let previous_space = index > 0 && chars[index - 1] == ' ';
        let next_space = chars.get(index + 1).is_none_or(|next| *next == ' ');
        if *character == ' ' && !previous_space && column > BEST_WIDTH && !next_space {
            out.push('\n');
            out.push_str(&" ".repeat(indent));
            column = indent;
            continue;
        }
        out.push(*character);
        column += 1;
    }
}

/// Literal blocks cannot carry trailing spaces or a space before a line break.
fn block_allowed(text: &str) -> bool {
    !text.ends_with(' ')
        && !text.contains(" \n")
        && !text.starts_with(' ')
        && !text.starts_with('\n')
}

/// go-yaml's analysis for plain scalars in block context.
fn plain_allowed(text: &str) -> bool {
    let Some(first) = text.chars().next() else {
        return false;
    };
    if text.starts_with(' ')
        || text.ends_with(' ')
        || text.starts_with("---")
        || text.starts_with("...")
    {
        return false;
    }
    if "#,[]{}&*!|>'\"%@`".contains(first) {
        return false;
    }
    let second_is_space = text.chars().nth(1).is_none_or(|c| c == ' ');
    if matches!(first, '-' | '?' | ':') && second_is_space {
        return false;
    }
    !(text.contains(": ") || text.ends_with(':') || text.contains(" #"))
}

/// Strings go-yaml v2 would resolve to a boolean, null or number if written plain.
fn resolves_to_other_type(text: &str) -> bool {
    const WORDS: [&str; 27] = [
        "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE", "false",
        "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF", "~", "null", "Null", "NULL", "",
    ];
    if WORDS.contains(&text) {
        return true;
    }
    let plain = text.replace('_', "");
    let unsigned = plain.trim_start_matches(['+', '-']);
    let number = unsigned.parse::<f64>().is_ok()
        && unsigned
            .chars()
            .all(|c| c.is_ascii_digit() || ".eE+-".contains(c));
    let special = [".inf", ".Inf", ".INF", ".nan", ".NaN", ".NAN"].contains(&unsigned);
    let radix = ["0x", "0b", "0o"]
        .iter()
        .any(|prefix| unsigned.len() > 2 && unsigned.starts_with(prefix));
    let sexagesimal = unsigned.contains(':')
        && unsigned
            .split(':')
            .all(|part| !part.is_empty() && part.chars().all(|c| c.is_ascii_digit() || c == '.'));
    number || special || radix || sexagesimal
}

#[cfg(test)]
mod tests {
    use super::*;

    fn string(text: &str) -> String {
        let mut out = String::new();
        write_string(text, 4, 11, &mut out);
        out
    }

    #[test]
    fn styles_follow_go_yaml() {
        assert_eq!(
            string("duplicate package \"foo\""),
            "duplicate package \"foo\""
        );
        assert_eq!(string("a: b"), "'a: b'");
        assert_eq!(string("it's: x"), "'it''s: x'");
        assert_eq!(string("1.0"), "\"1.0\"");
        assert_eq!(string("yes"), "\"yes\"");
        assert_eq!(
            string("invalid index:\n└── x"),
            "|-\n    invalid index:\n    └── x"
        );
    }

    #[test]
    fn long_strings_fold_after_column_80() {
        let text = "package \"foo\" bundle \"foo.v0.2.0\" must have exactly 1 \"olm.package\" property, found 0";
        assert_eq!(
            string(text),
            "package \"foo\" bundle \"foo.v0.2.0\" must have exactly 1 \"olm.package\" property,\n    found 0"
        );
    }

    #[test]
    fn report_shape_matches_opm() {
        let outcome = Outcome {
            findings: Vec::new(),
            opm_message: Some(
                "invalid index:\n└── invalid package \"foo\":\n    └── default channel must be set"
                    .to_owned(),
            ),
            passed: false,
        };
        assert_eq!(
            write(&outcome),
            "error:\n  message: |-\n    invalid index:\n    └── invalid package \"foo\":\n        └── default channel must be set\nfindings: []\npassed: false\n\n"
        );
    }
}
