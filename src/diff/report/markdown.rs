//! `fbc diff -o markdown`: a pull-request comment. A verdict, a summary table with a
//! row per changed package, then a collapsible section per package with its changes
//! and problems.

use std::fmt::Write as _;

use crate::output::spool::Spool;

use super::html;
use super::text::{section_heading, summary, write_changes};
use crate::diff::{Options, PackageReport, Totals};

/// The markdown report: the verdict and summary, a table row per package, then a
/// section per package.
pub(crate) struct MarkdownReport {
    rows: Spool,
    sections: Spool,
}

impl MarkdownReport {
    pub(crate) fn new() -> std::io::Result<MarkdownReport> {
        Ok(MarkdownReport {
            rows: Spool::new()?,
            sections: Spool::new()?,
        })
    }

    pub(crate) fn package(&mut self, package: &PackageReport) -> std::io::Result<()> {
        let problems: Vec<String> = package
            .problems
            .iter()
            .map(|p| match p.level() {
                "error" => format!("`{}`", p.rule.as_str()),
                level => format!("`{}` ({level})", p.rule.as_str()),
            })
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        let (checked, broken) = package.counts();
        let row = format!(
            "| `{}` | {} | {checked} | {broken} | {} |\n",
            code(package.diff.name),
            package.diff.status.as_str(),
            if problems.is_empty() {
                "none".to_owned()
            } else {
                problems.join(" ")
            }
        );
        self.rows.write(row.as_bytes())?;
        let mut section = String::from("\n");
        write_section(&mut section, package);
        self.sections.write(section.as_bytes())
    }

    pub(crate) fn finish(
        self,
        header: &Options,
        totals: &Totals,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        let verdict = if totals.fails() {
            ":x: **This change breaks installations.**"
        } else {
            ":white_check_mark: **Nothing breaks.**"
        };
        writeln!(
            out,
            "### Catalog diff: `{}` → `{}`\n\n{verdict} {}\n",
            code(&header.old),
            code(&header.new),
            cell(&summary(totals))
        )?;
        if self.rows.is_empty() {
            return out.write_all(b"No package differs.\n");
        }
        out.write_all(
            b"| package | change | installations checked | no longer reach the head | problems |\n\
              |---|---|---:|---:|---|\n",
        )?;
        self.rows.copy_to(out)?;
        self.sections.copy_to(out)
    }
}

fn write_section(out: &mut String, package: &PackageReport) {
    let (open, heading) = section_heading(package);
    let _ = writeln!(
        out,
        "<details{}><summary><code>{}</code>: {heading}</summary>\n",
        if open { " open" } else { "" },
        html(package.diff.name),
    );
    let mut changes = String::new();
    write_changes(&mut changes, &package.diff);
    if !changes.is_empty() {
        let _ = writeln!(out, "```\n{}```\n", changes.replace("```", "'''"));
    }
    for channel in &package.diff.channels {
        super::picture::mermaid(out, channel, &package.problems);
    }
    for problem in &package.problems {
        let _ = writeln!(
            out,
            "- **{}** `{}`: {}",
            problem.level(),
            problem.rule.as_str(),
            cell(&problem.message)
        );
    }
    out.push_str("\n</details>\n");
}

/// Text inside backticks in a table cell: a backtick would end the span, a pipe
/// the cell (GitHub splits cells at `|` even in a code span), a line break the row.
pub(crate) fn code(text: &str) -> String {
    crate::text::shown::text(text)
        .replace('`', "'")
        .replace('|', "\\|")
}

/// Text in a table cell or list item: no pipe, no line break, no HTML.
pub(crate) fn cell(text: &str) -> String {
    html(text).replace('|', "\\|")
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
