//! The default report on stderr: findings grouped by package, as miette
//! diagnostics with source snippets on a terminal, plain text otherwise.

use std::collections::HashMap;
use std::fmt::Write as _;

use std::sync::Arc;

use miette::{Diagnostic, LabeledSpan, NamedSource};

use super::{Outcome, display_location, display_path, subject};
use crate::catalog::Location;
use crate::shown::Form;
use crate::validate::{Finding, Severity};

/// How much of the findings the text report shows.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Shown {
    /// Source snippets and colours (a terminal).
    pub(crate) fancy: bool,
    /// Errors and the verdict only.
    pub(crate) quiet: bool,
}

/// Warnings of one rule shown before the rest are counted: a catalog that tags
/// its images gets one `image-not-pinned` per bundle, thousands in a big catalog.
const WARNINGS_PER_RULE: usize = 5;

/// The report; empty for a valid catalog without warnings, as opm prints nothing.
pub(crate) fn write(outcome: &Outcome, shown: Shown) -> String {
    let mut out = String::new();
    let mut sources = Sources::default();
    let mut current_group: Option<Option<&str>> = None;
    let mut per_rule: std::collections::BTreeMap<crate::validate::Rule, usize> =
        std::collections::BTreeMap::new();
    for finding in &outcome.findings {
        if finding.severity == Severity::Warning {
            let count = per_rule.entry(finding.rule).or_default();
            *count += 1;
            if shown.quiet || *count > WARNINGS_PER_RULE {
                continue;
            }
        }
        let group = finding.package_name();
        if current_group != Some(group) {
            if current_group.is_some() {
                out.push('\n');
            }
            match group {
                Some(package) => {
                    let _ = writeln!(out, "package {}:", crate::go::fmt::quote(package));
                }
                None => out.push_str("catalog:\n"),
            }
            current_group = Some(group);
        }
        if shown.fancy {
            write_fancy(finding, &mut sources, &mut out);
        } else {
            write_plain(finding, &mut out);
        }
    }
    let (errors, warnings) = (
        outcome.count(Severity::Error),
        outcome.count(Severity::Warning),
    );
    if outcome.findings.is_empty() && outcome.passed {
        return out;
    }
    let hidden: Vec<(crate::validate::Rule, usize)> = per_rule
        .into_iter()
        .filter(|(_, count)| !shown.quiet && *count > WARNINGS_PER_RULE)
        .map(|(rule, count)| (rule, count - WARNINGS_PER_RULE))
        .collect();
    if !hidden.is_empty() {
        out.push('\n');
    }
    for (rule, count) in hidden {
        let id = rule.id();
        let _ = writeln!(
            out,
            "note: {} not shown (`--allow {id}` silences them; `-o json` lists every finding)",
            plural(count, &format!("more `{id}` warning"))
        );
    }
    let verdict = if outcome.passed { "valid" } else { "invalid" };
    if !out.is_empty() {
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "catalog is {verdict}: {}, {}",
        plural(errors, "error"),
        plural(warnings, "warning")
    );
    out
}

fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

fn write_plain(finding: &Finding, out: &mut String) {
    let _ = writeln!(
        out,
        "  {}[{}]: {}",
        finding.severity.as_str(),
        finding.rule.id(),
        indent_continuation(&finding.message, "    ")
    );
    let about = subject(finding);
    if !about.is_empty() {
        let _ = writeln!(out, "    in {about}");
    }
    for location in &finding.locations {
        let _ = writeln!(out, "    --> {}", display_location(location));
    }
    if let Some(help) = finding.help.as_deref() {
        let _ = writeln!(out, "    help: {help}");
    }
}

/// Multi-line messages (opm's release errors) keep their lines under the header.
fn indent_continuation(text: &str, indent: &str) -> String {
    text.replace('\n', &format!("\n{indent}"))
}

/// File texts read once each, for snippets.
#[derive(Default)]
struct Sources {
    texts: HashMap<crate::catalog::SharedPath, Option<Arc<str>>>,
}

impl Sources {
    fn get(&mut self, file: &crate::catalog::SharedPath) -> Option<Arc<str>> {
        self.texts
            .entry(Arc::clone(file))
            .or_insert_with(|| std::fs::read_to_string(&**file).ok().map(Arc::from))
            .clone()
    }
}

/// One finding as a miette diagnostic, for the graphical handler.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
struct FindingDiagnostic {
    message: String,
    code: String,
    severity: miette::Severity,
    help: Option<String>,
    snippet: Option<NamedSource<Arc<str>>>,
    labels: Vec<LabeledSpan>,
}

impl Diagnostic for FindingDiagnostic {
    fn code<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        Some(Box::new(&self.code))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(self.severity)
    }

    fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|help| Box::new(help) as Box<dyn std::fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.snippet
            .as_ref()
            .map(|source| source as &dyn miette::SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(self.labels.iter().cloned()))
    }
}

fn write_fancy(finding: &Finding, sources: &mut Sources, out: &mut String) {
    let first_file = finding.locations.first().map(|location| &location.file);
    let source = first_file.and_then(|file| sources.get(file).map(|text| (file, text)));
    let mut labels = Vec::new();
    let mut elsewhere = Vec::new();
    for (index, location) in finding.locations.iter().enumerate() {
        match &source {
            Some((file, text)) if location.file == **file => {
                let label = if index == 0 { "here" } else { "and here" };
                labels.push(LabeledSpan::new(
                    Some(label.to_owned()),
                    offset(text, location),
                    0,
                ));
            }
            _ => elsewhere.push(display_location(location)),
        }
    }
    let mut help: Vec<String> = Vec::new();
    let about = subject(finding);
    if !about.is_empty() {
        help.push(format!("in {about}"));
    }
    if !elsewhere.is_empty() {
        help.push(format!("see also {}", elsewhere.join(", ")));
    }
    if let Some(text) = finding.help.as_deref() {
        help.push(text.to_owned());
    }
    let diagnostic = FindingDiagnostic {
        message: finding.message.to_string(),
        code: finding.rule.id().to_owned(),
        severity: match finding.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        },
        help: (!help.is_empty()).then(|| help.join("\n")),
        snippet: source.map(|(file, text)| NamedSource::new(display_path(file, Form::Text), text)),
        labels,
    };
    crate::output::diagnostics::render(&diagnostic, true, "  ", out);
}

/// The byte offset of a 1-based line and column (in characters).
fn offset(text: &str, location: &Location) -> usize {
    let line_start: usize = text
        .split_inclusive('\n')
        .take(location.line.saturating_sub(1) as usize)
        .map(str::len)
        .sum();
    let line = text[line_start.min(text.len())..]
        .lines()
        .next()
        .unwrap_or_default();
    let column: usize = line
        .chars()
        .take(location.column.saturating_sub(1) as usize)
        .map(char::len_utf8)
        .sum();
    (line_start + column).min(text.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_count_characters() {
        let location = |line, column| {
            Location::new(
                &crate::catalog::shared_path(std::path::Path::new("x")),
                line,
                column,
            )
        };
        let text = "a: b\nä: c\n  d: e\n";
        assert_eq!(offset(text, &location(1, 1)), 0);
        assert_eq!(offset(text, &location(2, 2)), 7);
        assert_eq!(offset(text, &location(3, 3)), 13);
    }
}
