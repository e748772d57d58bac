//! `fbc diff -o html`: the markdown report's content as one self-contained HTML
//! page, for CI systems that show HTML artifacts but draw no mermaid: a verdict,
//! a table with a row per changed package, then a section per package with its
//! changes, an SVG picture of each changed channel that fbc lays out itself
//! ([`crate::drawing`]), and its problems. No script, no stylesheet or font to
//! fetch. The page is well-formed XML as well as HTML.

use std::fmt::Write as _;
use std::io::Write;

use super::picture::{FOLDED, LARGEST, drawing, entry_count};
use super::text::{section_heading, summary, write_changes};
use crate::diff::{Options, PackageReport, Totals};
use crate::output::spool::Spool;
use crate::text::markup::escape as e;

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:1.5em;color:#24292f}\
table{border-collapse:collapse;margin:1em 0}\
th,td{border:1px solid #d0d7de;padding:4px 8px;text-align:left}\
td.count{text-align:right}\
pre{background:#f6f8fa;padding:8px;overflow:auto}\
summary{cursor:pointer;margin:.5em 0}\
figure{margin:1em 0;overflow:auto}\
.fail{color:#cf222e}.pass{color:#1a7f37}.warn{color:#9a6700}";

/// The HTML report of one catalog: a table row and a section per package.
pub(crate) struct HtmlReport {
    rows: Spool,
    sections: Spool,
}

impl HtmlReport {
    pub(crate) fn new() -> std::io::Result<HtmlReport> {
        Ok(HtmlReport {
            rows: Spool::new()?,
            sections: Spool::new()?,
        })
    }

    pub(crate) fn package(&mut self, package: &PackageReport) -> std::io::Result<()> {
        let problems: std::collections::BTreeSet<String> = package
            .problems
            .iter()
            .map(|p| match p.level() {
                "error" => format!("<code>{}</code>", p.rule.as_str()),
                level => format!("<code>{}</code> ({level})", p.rule.as_str()),
            })
            .collect();
        let (checked, broken) = package.counts();
        writeln!(
            self.rows,
            "<tr><td><code>{}</code></td><td>{}</td><td class=\"count\">{checked}</td>\
             <td class=\"count\">{broken}</td><td>{}</td></tr>",
            e(package.diff.name),
            package.diff.status.as_str(),
            if problems.is_empty() {
                "none".to_owned()
            } else {
                problems.into_iter().collect::<Vec<_>>().join(" ")
            }
        )?;
        let mut section = String::new();
        write_section(&mut section, package);
        self.sections.write(section.as_bytes())
    }

    /// The report as a part of a page: a heading naming both sides, the verdict,
    /// the table and the sections.
    pub(crate) fn part(
        self,
        header: &Options,
        totals: &Totals,
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        let verdict = if totals.fails() {
            Verdict::Fails(Vec::new())
        } else {
            Verdict::Passes
        };
        writeln!(
            out,
            "<h2>Catalog diff: <code>{}</code> → <code>{}</code></h2>",
            e(&header.old),
            e(&header.new)
        )?;
        verdict.write(out, &summary(totals))?;
        if self.rows.is_empty() {
            return out.write_all(b"<p>No package differs.</p>\n");
        }
        out.write_all(
            b"<table><thead><tr><th>package</th><th>change</th><th>installations checked</th>\
              <th>no longer reach the head</th><th>problems</th></tr></thead><tbody>\n",
        )?;
        self.rows.copy_to(out)?;
        out.write_all(b"</tbody></table>\n")?;
        self.sections.copy_to(out)
    }

    /// The report of one catalog compared on its own: a whole page.
    pub(crate) fn finish(
        self,
        header: &Options,
        totals: &Totals,
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        let title = format!("Catalog diff: {} → {}", header.old, header.new);
        page(out, &title, |out| self.part(header, totals, out))
    }
}

/// What a report concludes, in a line above its table.
pub(crate) enum Verdict<'a> {
    Passes,
    /// Some change breaks installations, in the catalogs named (if several).
    Fails(Vec<&'a str>),
    /// Nothing breaks that could be compared, but this many catalogs could not be.
    Incomplete(usize),
}

impl Verdict<'_> {
    /// The verdict in bold, then `summary`.
    pub(crate) fn write(&self, out: &mut dyn Write, summary: &str) -> std::io::Result<()> {
        let (class, text) = match self {
            Verdict::Passes => ("pass", "Nothing breaks.".to_owned()),
            Verdict::Fails(names) if names.is_empty() => {
                ("fail", "This change breaks installations.".to_owned())
            }
            Verdict::Fails(names) => (
                "fail",
                format!("This change breaks installations in {}.", names.join(", ")),
            ),
            Verdict::Incomplete(count) => (
                "warn",
                format!("{count} catalog(s) could not be compared (see the error output)."),
            ),
        };
        writeln!(
            out,
            "<p class=\"{class}\"><strong>{}</strong> {}</p>",
            e(&text),
            e(summary)
        )
    }
}

/// A whole page titled `title`, its body written by `body`.
pub(crate) fn page(
    out: &mut dyn Write,
    title: &str,
    body: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    writeln!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>",
        e(title)
    )?;
    body(out)?;
    out.write_all(b"</body>\n</html>\n")
}

fn write_section(out: &mut String, package: &PackageReport) {
    let (open, heading) = section_heading(package);
    let _ = writeln!(
        out,
        "<details{}><summary><code>{}</code>: {heading}</summary>",
        if open { " open=\"open\"" } else { "" },
        e(package.diff.name),
    );
    let mut changes = String::new();
    write_changes(&mut changes, &package.diff);
    if !changes.is_empty() {
        // Line by line: the lines' breaks are kept, any within a name is shown.
        let lines: Vec<String> = changes.lines().map(e).collect();
        let _ = writeln!(out, "<pre>{}</pre>", lines.join("\n"));
    }
    for channel in &package.diff.channels {
        let mut drawing = drawing(channel, &package.problems);
        // The caption names the channel.
        drawing.title.clear();
        let count = entry_count(&drawing);
        let title = format!("channel <code>{}</code>: {count} entries", e(channel.name));
        if count > LARGEST {
            let _ = writeln!(
                out,
                "<p>{title}: too many to draw (more than {LARGEST}).</p>"
            );
            continue;
        }
        let mut svg = String::new();
        crate::drawing::svg::write(&mut svg, std::slice::from_ref(&drawing));
        if count > FOLDED {
            let _ = writeln!(
                out,
                "<details><summary>{title}</summary>\n<figure>\n{svg}</figure>\n</details>"
            );
        } else {
            let _ = writeln!(
                out,
                "<figure><figcaption>{title}</figcaption>\n{svg}</figure>"
            );
        }
    }
    if !package.problems.is_empty() {
        out.push_str("<ul>\n");
        for problem in &package.problems {
            let _ = writeln!(
                out,
                "<li><strong>{}</strong> <code>{}</code>: {}</li>",
                problem.level(),
                problem.rule.as_str(),
                e(&problem.message)
            );
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</details>\n");
}
