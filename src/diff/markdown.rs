//! `fbc diff -o markdown`: a pull-request comment. A verdict, a summary table with a
//! row per changed package, then a collapsible section per package with its changes
//! and problems.

use std::fmt::Write as _;

use super::text::{summary, write_changes};
use super::{PackageReport, Report};

pub(crate) fn write_markdown(report: &Report) -> String {
    let mut out = String::new();
    let verdict = if report.fails() {
        ":x: **This change breaks installations.**"
    } else {
        ":white_check_mark: **Nothing breaks.**"
    };
    let _ = writeln!(
        out,
        "### Catalog diff: `{}` → `{}`\n\n{verdict} {}\n",
        code(&report.old),
        code(&report.new),
        cell(&summary(report))
    );
    if report.packages.is_empty() {
        out.push_str("No package differs.\n");
        return out;
    }
    out.push_str(
        "| package | change | installations checked | no longer reach the head | problems |\n",
    );
    out.push_str("|---|---|---:|---:|---|\n");
    for package in &report.packages {
        let problems: Vec<String> = package
            .problems
            .iter()
            .map(|p| {
                let mark = if p.allowed {
                    " (allowed)"
                } else if p.rule.is_error() {
                    ""
                } else {
                    " (warning)"
                };
                format!("`{}`{mark}", p.rule.as_str())
            })
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        let (checked, broken) = package.counts();
        let _ = writeln!(
            out,
            "| `{}` | {} | {checked} | {broken} | {} |",
            code(package.diff.name),
            package.diff.status.as_str(),
            if problems.is_empty() {
                "none".to_owned()
            } else {
                problems.join(" ")
            }
        );
    }
    for package in &report.packages {
        out.push('\n');
        write_section(&mut out, package);
    }
    out
}

fn write_section(out: &mut String, package: &PackageReport) {
    let failing = package.problems.iter().any(super::Problem::fails);
    let _ = writeln!(
        out,
        "<details{}><summary><code>{}</code>: {}{}</summary>\n",
        if failing { " open" } else { "" },
        html(package.diff.name),
        package.diff.status.as_str(),
        if failing {
            ", breaks installations"
        } else {
            ""
        }
    );
    let mut changes = String::new();
    write_changes(&mut changes, &package.diff);
    if !changes.is_empty() {
        let _ = writeln!(out, "```\n{}```\n", changes.replace("```", "'''"));
    }
    for problem in &package.problems {
        let level = if problem.allowed {
            "allowed"
        } else if problem.rule.is_error() {
            "error"
        } else {
            "warning"
        };
        let _ = writeln!(
            out,
            "- **{level}** `{}`: {}",
            problem.rule.as_str(),
            cell(&problem.message)
        );
    }
    out.push_str("\n</details>\n");
}

/// Text inside backticks in a table cell: a backtick would end the span, a pipe
/// the cell (GitHub splits cells at `|` even in a code span), a line break the row.
fn code(text: &str) -> String {
    crate::shown::text(text)
        .replace('`', "'")
        .replace('|', "\\|")
}

/// Text in a table cell or list item: no pipe, no line break, no HTML.
fn cell(text: &str) -> String {
    html(text).replace('|', "\\|")
}

/// Text outside code: no HTML, no line break.
fn html(text: &str) -> String {
    crate::shown::text(text)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    #[test]
    fn names_cannot_break_the_table_or_start_a_line() {
        let name = "etcd|x`\n::error ::forged<b>";
        assert_eq!(super::code(name), "etcd\\|x'\\n::error ::forged<b>");
        assert_eq!(super::cell(name), "etcd\\|x`\\n::error ::forged&lt;b&gt;");
        assert_eq!(super::html(name), "etcd|x`\\n::error ::forged&lt;b&gt;");
    }
}
