//! Rendering of errors and findings on stderr, in one shape: `error: message` (or
//! `warning[rule]: ...`), its cause, where it is, and `help:`. On a terminal (see
//! [`stderr_is_fancy`]) the severity is coloured and locations become source
//! snippets; otherwise each location is one `--> file:line:col` line. Internal
//! error codes (`fbc::...`) are never shown; a finding's rule id is.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::sync::OnceLock;

use miette::Diagnostic;

/// When stderr gets colours and source snippets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Color {
    Auto,
    Always,
    Never,
}

static COLOR: OnceLock<Color> = OnceLock::new();

/// Records `--color` for the rest of the run (the first call wins).
pub(crate) fn set_color(choice: Color) {
    let _ = COLOR.set(choice);
}

/// Whether stderr should get colours and source snippets.
pub(crate) fn stderr_is_fancy() -> bool {
    match COLOR.get().copied().unwrap_or(Color::Auto) {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => auto_color(
            |name| std::env::var(name).ok(),
            std::io::stderr().is_terminal(),
        ),
    }
}

/// `--color auto` as cargo and ripgrep decide it: `NO_COLOR` (when not empty) and
/// `CLICOLOR=0` turn colours off, `CLICOLOR_FORCE` (not `0`) on even when stderr is
/// not a terminal, `TERM=dumb` off.
fn auto_color(var: impl Fn(&str) -> Option<String>, terminal: bool) -> bool {
    let set = |name: &str| var(name).is_some_and(|value| !value.is_empty());
    if set("NO_COLOR") {
        return false;
    }
    if var("CLICOLOR_FORCE").is_some_and(|value| !value.is_empty() && value != "0") {
        return true;
    }
    if var("CLICOLOR").as_deref() == Some("0") || var("TERM").as_deref() == Some("dumb") {
        return false;
    }
    terminal
}

/// Prints a report on stderr in the style chosen by [`stderr_is_fancy`].
pub(crate) fn print_report(report: &miette::Report) {
    let mut text = String::new();
    render(report.as_ref(), stderr_is_fancy(), "", &mut text);
    eprint!("{text}");
}

/// Longest source line a snippet may show: past it (a one-line JSON stream of
/// megabytes), the report is printed plainly, with locations only.
pub(crate) const SNIPPET_LINE_LIMIT: usize = 400;

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

/// One diagnostic and its related ones, each line after `indent`: the header, the
/// causes not already in the message, the locations (snippets when `fancy`), the help.
pub(crate) fn render(diagnostic: &dyn Diagnostic, fancy: bool, indent: &str, out: &mut String) {
    render_listing(diagnostic, fancy, indent, &[], out);
}

/// [`render`], with `listed` locations (`file:line:column`) shown after the
/// diagnostic's own, undrawn.
pub(crate) fn render_listing(
    diagnostic: &dyn Diagnostic,
    fancy: bool,
    indent: &str,
    listed: &[String],
    out: &mut String,
) {
    let fancy = fancy && !has_long_snippet(diagnostic);
    let (severity, colour) = match diagnostic.severity() {
        Some(miette::Severity::Warning) => ("warning", "33"),
        Some(miette::Severity::Advice) => ("note", "36"),
        _ => ("error", "31"),
    };
    // A finding's code is its rule id, worth showing; fbc's own codes are not.
    let rule = diagnostic
        .code()
        .map(|code| code.to_string())
        .filter(|code| !code.starts_with("fbc::"))
        .map(|code| format!("[{code}]"))
        .unwrap_or_default();
    // Multi-line messages are opm's texts: their lines are kept as they are.
    let message = diagnostic.to_string();
    if fancy {
        let _ = writeln!(
            out,
            "{indent}\x1b[1;{colour}m{severity}{rule}\x1b[0m\x1b[1m:\x1b[0m {message}"
        );
    } else {
        let _ = writeln!(out, "{indent}{severity}{rule}: {message}");
    }
    let mut cause = std::error::Error::source(diagnostic);
    while let Some(error) = cause {
        // Messages often end with their cause's text already.
        let text = error.to_string();
        if !message.contains(&text) {
            let _ = writeln!(out, "{indent}  caused by: {text}");
        }
        cause = error.source();
    }
    if !(fancy && snippet(diagnostic, indent, out)) {
        for location in locations(diagnostic) {
            let _ = writeln!(out, "{indent}  --> {location}");
        }
    }
    for location in listed {
        let _ = writeln!(out, "{indent}  --> {location}");
    }
    if let Some(help) = diagnostic.help() {
        let help = help
            .to_string()
            .replace('\n', &format!("\n{indent}        "));
        let _ = writeln!(out, "{indent}  help: {help}");
    }
    if let Some(related) = diagnostic.related() {
        for inner in related {
            render(inner, fancy, indent, out);
        }
    }
}

/// The labels of a diagnostic drawn over its source by miette; false when it has
/// none to draw.
fn snippet(diagnostic: &dyn Diagnostic, indent: &str, out: &mut String) -> bool {
    if diagnostic.source_code().is_none() || diagnostic.labels().is_none() {
        return false;
    }
    let mut text = String::new();
    let handler = miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode());
    if handler
        .render_report(&mut text, &Snippet(diagnostic))
        .is_err()
    {
        return false;
    }
    // miette opens with the (empty) message line; the snippet follows.
    for line in text.lines().skip(1).filter(|line| !line.trim().is_empty()) {
        let _ = writeln!(out, "{indent}{line}");
    }
    true
}

/// A diagnostic reduced to its source and labels, for miette to draw the snippet.
#[derive(Debug)]
struct Snippet<'a>(&'a dyn Diagnostic);

impl std::fmt::Display for Snippet<'_> {
    fn fmt(&self, _: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        Ok(())
    }
}

impl std::error::Error for Snippet<'_> {}

impl Diagnostic for Snippet<'_> {
    fn severity(&self) -> Option<miette::Severity> {
        self.0.severity()
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.0.source_code()
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        self.0.labels()
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

    #[test]
    fn colour_follows_cargo_and_ripgrep_conventions() {
        let auto = |vars: &[(&str, &str)], terminal: bool| {
            let vars: Vec<(String, String)> = vars
                .iter()
                .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
                .collect();
            super::auto_color(
                |name| vars.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone()),
                terminal,
            )
        };
        assert!(auto(&[], true));
        assert!(!auto(&[], false));
        assert!(!auto(&[("NO_COLOR", "1")], true));
        assert!(
            auto(&[("NO_COLOR", "")], true),
            "an empty NO_COLOR is unset"
        );
        assert!(!auto(&[("CLICOLOR", "0")], true));
        assert!(auto(&[("CLICOLOR_FORCE", "1")], false));
        assert!(!auto(&[("CLICOLOR_FORCE", "0")], false));
        assert!(!auto(&[("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")], false));
        assert!(!auto(&[("TERM", "dumb")], true));
    }

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
