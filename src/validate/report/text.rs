//! The default report on stderr: findings grouped by package, as miette
//! diagnostics with source snippets on a terminal, plain text otherwise.

use std::collections::HashMap;
use std::sync::Arc;

use miette::{Diagnostic, LabeledSpan, NamedSource};

use super::{Outcome, display_location, display_path, subject};
use crate::catalog::Location;
use crate::output::diagnostics::SNIPPET_LINE_LIMIT;
use crate::text::shown::Form;
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

/// Writes the report, finding by finding; nothing for a valid catalog without
/// warnings, as opm prints nothing.
pub(crate) fn write(outcome: &Outcome, shown: Shown, out: &mut impl std::fmt::Write) {
    let mut report = Report::new(shown, out);
    for finding in outcome.findings.iter() {
        report.add(&finding);
    }
    report.finish(outcome.passed);
}

/// The report written as findings come, in report order.
pub(crate) struct Report<'w, W: std::fmt::Write> {
    out: &'w mut W,
    shown: Shown,
    sources: Sources,
    /// Whether a group of findings was begun, and its package (`None`: the
    /// catalog's).
    in_group: bool,
    current_group: Option<String>,
    per_rule: std::collections::BTreeMap<crate::validate::Rule, usize>,
    /// Whether anything was written yet.
    started: bool,
    errors: usize,
    warnings: usize,
}

impl<'w, W: std::fmt::Write> Report<'w, W> {
    pub(crate) fn new(shown: Shown, out: &'w mut W) -> Self {
        Report {
            out,
            shown,
            sources: Sources::default(),
            in_group: false,
            current_group: None,
            per_rule: std::collections::BTreeMap::new(),
            started: false,
            errors: 0,
            warnings: 0,
        }
    }

    pub(crate) fn add(&mut self, finding: &Finding) {
        let out = &mut *self.out;
        if finding.severity == Severity::Warning {
            self.warnings += 1;
            let count = self.per_rule.entry(finding.rule).or_default();
            *count += 1;
            if self.shown.quiet || *count > WARNINGS_PER_RULE {
                return;
            }
        } else {
            self.errors += 1;
        }
        let group = finding.package_name();
        if !self.in_group || self.current_group.as_deref() != group {
            if self.in_group {
                let _ = out.write_char('\n');
            }
            match group {
                Some(package) => {
                    let _ = writeln!(out, "package {}:", crate::go::fmt::quote(package));
                }
                None => {
                    let _ = out.write_str("catalog:\n");
                }
            }
            self.in_group = true;
            self.current_group = group.map(str::to_owned);
        }
        self.started = true;
        if self.shown.fancy {
            write_fancy(finding, &mut self.sources, out);
        } else {
            write_plain(finding, out);
        }
    }

    /// The notes on warnings not shown and the verdict line.
    pub(crate) fn finish(self, passed: bool) {
        let Report {
            out,
            shown,
            per_rule,
            mut started,
            errors,
            warnings,
            ..
        } = self;
        if errors + warnings == 0 && passed {
            return;
        }
        let hidden: Vec<(crate::validate::Rule, usize)> = per_rule
            .into_iter()
            .filter(|(_, count)| !shown.quiet && *count > WARNINGS_PER_RULE)
            .map(|(rule, count)| (rule, count - WARNINGS_PER_RULE))
            .collect();
        if !hidden.is_empty() {
            let _ = out.write_char('\n');
            started = true;
        }
        for (rule, count) in hidden {
            let id = rule.id();
            let _ = writeln!(
                out,
                "note: {} not shown (`--allow {id}` silences them; `-o json` lists every finding)",
                plural(count, &format!("more `{id}` warning"))
            );
        }
        let verdict = if passed { "valid" } else { "invalid" };
        if started {
            let _ = out.write_char('\n');
        }
        let _ = writeln!(
            out,
            "catalog is {verdict}: {}, {}",
            plural(errors, "error"),
            plural(warnings, "warning")
        );
    }
}

fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

fn write_plain(finding: &Finding, out: &mut impl std::fmt::Write) {
    let _ = writeln!(
        out,
        "  {}[{}]: {}",
        finding.severity.as_str(),
        finding.rule.id(),
        indent_continuation(finding.message(), "    ")
    );
    let about = subject(finding);
    if !about.is_empty() {
        let _ = writeln!(out, "    in {about}");
    }
    for location in &finding.locations {
        let _ = writeln!(out, "    --> {}", display_location(location));
    }
    if let Some(help) = finding.help_text() {
        let _ = writeln!(out, "    help: {help}");
    }
}

/// Multi-line messages (opm's release errors) keep their lines under the header.
fn indent_continuation(text: &str, indent: &str) -> String {
    text.replace('\n', &format!("\n{indent}"))
}

/// File texts read once each, with where their lines start, for snippets.
#[derive(Default)]
struct Sources {
    texts: HashMap<crate::catalog::SharedPath, Option<Arc<Indexed>>>,
}

impl Sources {
    fn get(&mut self, file: &crate::catalog::SharedPath) -> Option<Arc<Indexed>> {
        self.texts
            .entry(Arc::clone(file))
            .or_insert_with(|| {
                let bytes = crate::files::limits::read_file(file).ok()?;
                let text: Box<str> = String::from_utf8(bytes).ok()?.into();
                let line_starts = std::iter::once(0)
                    .chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|at| at + 1))
                    .collect();
                Some(Arc::new(Indexed { text, line_starts }))
            })
            .clone()
    }
}

/// A file's text and the byte offset where each of its lines starts.
struct Indexed {
    text: Box<str>,
    line_starts: Vec<usize>,
}

impl Indexed {
    /// The bytes of a 1-based line, without its line break.
    fn line(&self, line: u32) -> Option<std::ops::Range<usize>> {
        let index = (line as usize).checked_sub(1)?;
        let start = *self.line_starts.get(index)?;
        let end = self
            .line_starts
            .get(index + 1)
            .map_or(self.text.len(), |next| next - 1);
        Some(start..end)
    }

    /// The byte offset of a location (its column counts characters) on a line
    /// of at most [`SNIPPET_LINE_LIMIT`] bytes, so finding it costs little however
    /// many findings a file has.
    fn offset(&self, location: &Location) -> Option<usize> {
        let line = self.line(location.line)?;
        if line.len() > SNIPPET_LINE_LIMIT {
            return None;
        }
        let column: usize = self.text[line.clone()]
            .chars()
            .take(location.column.saturating_sub(1) as usize)
            .map(char::len_utf8)
            .sum();
        Some(line.start + column)
    }
}

/// A file as miette's source: each span is read from a window of the lines around
/// it, found with the file's line index, so drawing a snippet costs what it shows,
/// not the part of the file before it. Lines and offsets are the file's.
struct FileSource(Arc<Indexed>);

impl miette::SourceCode for FileSource {
    fn read_span<'a>(
        &'a self,
        span: &miette::SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let Indexed { text, line_starts } = &*self.0;
        let line_of = |offset: usize| line_starts.partition_point(|&start| start <= offset) - 1;
        let end = span.offset() + span.len();
        if end > text.len() {
            return Err(miette::MietteError::OutOfBounds);
        }
        // The window starts a line before the context and ends a line past it, so
        // miette finds in it what it finds in the whole text (a span at a
        // window's very start reads differently).
        let first_line = line_of(span.offset()).saturating_sub(before + 1);
        let last_line = line_of(end).saturating_add(after).saturating_add(2);
        let start = line_starts[first_line];
        let stop = line_starts.get(last_line).copied().unwrap_or(text.len());
        let window = &text[start..stop];
        let inner = window.read_span(&(span.offset() - start, span.len()).into(), before, after)?;
        Ok(Box::new(miette::MietteSpanContents::new(
            inner.data(),
            (inner.span().offset() + start, inner.span().len()).into(),
            inner.line() + first_line,
            inner.column(),
            inner.line_count() + first_line,
        )))
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
    snippet: Option<NamedSource<FileSource>>,
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

fn write_fancy(finding: &Finding, sources: &mut Sources, out: &mut impl std::fmt::Write) {
    // Drawn when the first location's line can be: then the others in its file
    // that can be too, and the rest named in the help; otherwise all are listed.
    let first = finding.locations.first();
    let source = first.and_then(|location| {
        let indexed = sources.get(&location.file)?;
        indexed.offset(location)?;
        Some((&location.file, indexed))
    });
    let mut labels = Vec::new();
    let mut elsewhere = Vec::new();
    for (index, location) in finding.locations.iter().enumerate() {
        let drawn = source
            .as_ref()
            .filter(|(file, _)| location.file == **file)
            .and_then(|(_, indexed)| indexed.offset(location));
        match drawn {
            Some(offset) => {
                let label = if index == 0 { "here" } else { "and here" };
                labels.push(LabeledSpan::new(Some(label.to_owned()), offset, 0));
            }
            None => elsewhere.push(display_location(location)),
        }
    }
    let listed = if source.is_none() {
        std::mem::take(&mut elsewhere)
    } else {
        Vec::new()
    };
    let mut help: Vec<String> = Vec::new();
    let about = subject(finding);
    if !about.is_empty() {
        help.push(format!("in {about}"));
    }
    if !elsewhere.is_empty() {
        help.push(format!("see also {}", elsewhere.join(", ")));
    }
    if let Some(text) = finding.help_text() {
        help.push(text.to_owned());
    }
    let diagnostic = FindingDiagnostic {
        message: finding.message().to_owned(),
        code: finding.rule.id().to_owned(),
        severity: match finding.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        },
        help: (!help.is_empty()).then(|| help.join("\n")),
        snippet: source
            .filter(|_| !labels.is_empty())
            .map(|(file, indexed)| {
                NamedSource::new(display_path(file, Form::Text), FileSource(indexed))
            }),
        labels,
    };
    let mut text = String::new();
    crate::output::diagnostics::render_listing(&diagnostic, true, "  ", &listed, &mut text);
    let _ = out.write_str(&text);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn indexed(text: &str) -> Arc<Indexed> {
        let directory = tempfile::tempdir().expect("a temporary directory");
        let path = directory.path().join("catalog.yaml");
        std::fs::write(&path, text).expect("written");
        Sources::default()
            .get(&crate::catalog::shared_path(&path))
            .expect("readable")
    }

    fn location(line: usize, column: usize) -> Location {
        Location::new(
            &crate::catalog::shared_path(std::path::Path::new("x")),
            line,
            column,
        )
    }

    #[test]
    fn offsets_count_characters() {
        let file = indexed("a: b\nä: c\n  d: e\n");
        assert_eq!(file.offset(&location(1, 1)), Some(0));
        assert_eq!(file.offset(&location(2, 2)), Some(7));
        assert_eq!(file.offset(&location(3, 3)), Some(13));
        assert_eq!(file.offset(&location(5, 1)), None);
    }

    /// Spans read through the line index are what miette reads from the whole
    /// text, wherever they are and however much context is asked for.
    #[test]
    fn file_spans_read_as_the_whole_text_reads_them() {
        use miette::SourceCode as _;
        let text = "one\ntwo\r\nthree\n\nfive ä\nsix\nseven";
        let file = indexed(text);
        let source = FileSource(Arc::clone(&file));
        for offset in 0..=text.len() {
            if !text.is_char_boundary(offset) {
                continue;
            }
            for (length, before, after) in [(0, 0, 0), (0, 1, 1), (1, 1, 1), (3, 2, 0), (0, 0, 3)] {
                let span = (offset, length.min(text.len() - offset)).into();
                let expected = text.read_span(&span, before, after).map(|contents| {
                    (
                        contents.data().to_vec(),
                        *contents.span(),
                        contents.line(),
                        contents.column(),
                        contents.line_count(),
                    )
                });
                let read = source.read_span(&span, before, after).map(|contents| {
                    (
                        contents.data().to_vec(),
                        *contents.span(),
                        contents.line(),
                        contents.column(),
                        contents.line_count(),
                    )
                });
                assert_eq!(
                    read.ok(),
                    expected.ok(),
                    "{offset} {length} {before} {after}"
                );
            }
        }
        let long = "x".repeat(SNIPPET_LINE_LIMIT + 1);
        let file = indexed(&format!("a\n{long}\n"));
        assert_eq!(
            file.offset(&location(2, 1)),
            None,
            "a line too long to draw"
        );
        assert_eq!(file.offset(&location(1, 1)), Some(0));
    }
}
