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
    if stderr_is_fancy() && !has_long_snippet(diagnostic) {
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

/// Longest source line a snippet may show: past it (a one-line JSON stream of
/// megabytes), the report is printed plainly, with locations only.
const SNIPPET_LINE_LIMIT: usize = 400;

/// Whether a snippet of this diagnostic (or of a related one) would print a line
/// longer than [`SNIPPET_LINE_LIMIT`].
fn has_long_snippet(diagnostic: &dyn Diagnostic) -> bool {
    let long = diagnostic
        .source_code()
        .zip(diagnostic.labels())
        .is_some_and(|(source, labels)| {
            labels.into_iter().any(|label| {
                source.read_span(label.inner(), 1, 1).is_ok_and(|contents| {
                    contents
                        .data()
                        .split(|&byte| byte == b'\n')
                        .any(|line| line.len() > SNIPPET_LINE_LIMIT)
                })
            })
        });
    long || diagnostic
        .related()
        .is_some_and(|mut related| related.any(has_long_snippet))
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

#[cfg(test)]
mod tests {
    use std::path::Path;

    fn load_error(text: &str) -> crate::catalog::LoadError {
        crate::catalog::decode_bytes(Path::new("c.json"), text.as_bytes().to_vec())
            .map(|_| ())
            .expect_err("a broken file")
    }

    #[test]
    fn snippets_of_very_long_lines_are_not_shown() {
        let short = load_error("schema: olm.package\nname: [\n");
        assert!(!super::has_long_snippet(&short));
        let long = load_error(&format!("[{}1", "1,".repeat(1000)));
        assert!(super::has_long_snippet(&long));
    }
}
