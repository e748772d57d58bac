//! Rendering of errors and findings on stderr: graphical with source snippets on a
//! terminal, plain text (one `--> file:line:col` line per label) when stderr is not a
//! terminal or `NO_COLOR` is set.

use std::fmt::Write as _;
use std::io::IsTerminal;

use miette::Diagnostic;

/// Whether stderr should get colours and source snippets.
pub(crate) fn stderr_is_fancy() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|value| value.is_empty())
        && std::io::stderr().is_terminal()
}

/// Prints a report on stderr in the style chosen by [`stderr_is_fancy`].
pub(crate) fn print_report(report: &miette::Report) {
    let diagnostic: &dyn Diagnostic = report.as_ref();
    let mut text = String::new();
    if stderr_is_fancy() {
        let handler = miette::GraphicalReportHandler::new();
        if handler.render_report(&mut text, diagnostic).is_err() {
            text.clear();
            render_plain(diagnostic, &mut text);
        }
    } else {
        render_plain(diagnostic, &mut text);
    }
    eprint!("{text}");
}

/// Plain rendering: `error: message`, the locations, the help, then related
/// diagnostics (one per broken file, for instance) the same way.
pub(crate) fn render_plain(diagnostic: &dyn Diagnostic, out: &mut String) {
    let severity = match diagnostic.severity() {
        Some(miette::Severity::Warning) => "warning",
        Some(miette::Severity::Advice) => "note",
        _ => "error",
    };
    let message = diagnostic.to_string();
    let _ = writeln!(out, "{severity}: {message}");
    let mut cause = std::error::Error::source(diagnostic);
    while let Some(error) = cause {
        // Messages often end with their cause's text already.
        let text = error.to_string();
        if !message.contains(&text) {
            let _ = writeln!(out, "  caused by: {text}");
        }
        cause = error.source();
    }
    for location in locations(diagnostic) {
        let _ = writeln!(out, "  --> {location}");
    }
    if let Some(help) = diagnostic.help() {
        let _ = writeln!(out, "  help: {help}");
    }
    if let Some(related) = diagnostic.related() {
        for inner in related {
            render_plain(inner, out);
        }
    }
}

/// `file:line:column` of every label of a diagnostic that has source code.
fn locations(diagnostic: &dyn Diagnostic) -> Vec<String> {
    let (Some(source), Some(labels)) = (diagnostic.source_code(), diagnostic.labels()) else {
        return Vec::new();
    };
    labels
        .filter_map(|label| {
            let contents = source.read_span(label.inner(), 0, 0).ok()?;
            let name = contents.name().unwrap_or("<input>");
            Some(format!(
                "{name}:{}:{}",
                contents.line() + 1,
                contents.column() + 1
            ))
        })
        .collect()
}
