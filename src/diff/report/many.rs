//! The report of several catalogs: each catalog's own report (as `fbc diff OLD
//! NEW` writes it) in a section, catalogs added, removed or unreadable named as
//! such, and a verdict over all of them. In JSON, one object whose `catalogs`
//! holds an object per catalog (`schemas/diff.schema.json`).

use std::fmt::Write as _;
use std::io::Write;

use serde::Serialize;

use super::json::{self, JsonReport, value};
use super::markdown::{cell, code};
use super::page::{self, Verdict};
use super::{Format, Report};
use crate::diff::{CatalogStatus as Status, Options, Totals};
use crate::output::gitlab::Issue;
use crate::output::spool::Spool;
use crate::text::markup::escape;
use crate::text::shown::text as t;

/// One catalog as the closing summary counts it.
struct Catalog {
    name: String,
    status: Status,
    totals: Totals,
}

/// The report of several catalogs, a catalog at a time.
pub(crate) struct Many {
    format: Format,
    /// The `--base` revision every catalog is compared with, if any.
    base: Option<String>,
    semantics: Vec<&'static str>,
    sections: Spool,
    issues: Vec<Issue>,
    catalogs: Vec<Catalog>,
}

/// Where a catalog's object stands in the JSON report: inside `catalogs`.
const INDENT: &str = "    ";

impl Many {
    pub(crate) fn new(
        format: Format,
        base: Option<String>,
        semantics: &[crate::graph::upgrade::Semantics],
    ) -> std::io::Result<Many> {
        Ok(Many {
            format,
            base,
            semantics: semantics.iter().map(|s| s.as_str()).collect(),
            sections: Spool::new()?,
            issues: Vec::new(),
            catalogs: Vec::new(),
        })
    }

    /// A report for the next catalog's packages.
    pub(crate) fn report(&self) -> std::io::Result<Report> {
        Report::new(self.format, INDENT)
    }

    /// Adds a catalog: its report when it was compared, else what became of it.
    pub(crate) fn add(
        &mut self,
        options: &Options,
        status: &Status,
        compared: Option<(Report, &Totals)>,
    ) -> std::io::Result<()> {
        let totals = compared
            .as_ref()
            .map(|(_, t)| (*t).clone())
            .unwrap_or_default();
        let first = self.catalogs.is_empty();
        match (self.format, compared) {
            (Format::Gitlab, Some((Report::Gitlab(issues), _))) => self.issues.extend(issues),
            (Format::Markdown, Some((report, totals))) if *status == Status::Changed => {
                self.sections.write(b"\n")?;
                report.finish(options, totals, &mut self.sections)?;
            }
            (Format::Html, Some((Report::Html(report), totals))) if *status == Status::Changed => {
                report.part(options, totals, &mut self.sections)?;
            }
            // Only the table names the catalogs that were not compared, and those
            // that nothing changed in.
            (Format::Gitlab | Format::Markdown | Format::Html, _) => {}
            (Format::Text, compared) => {
                if !first {
                    self.sections.write(b"\n")?;
                }
                match compared {
                    Some((report, totals)) => report.finish(options, totals, &mut self.sections)?,
                    None => writeln!(
                        self.sections,
                        "diff {} -> {}: {}",
                        t(&options.old),
                        t(&options.new),
                        t(&what_became(options, status))
                    )?,
                }
            }
            (Format::Json, compared) => {
                if !first {
                    self.sections.write(b",\n")?;
                }
                self.sections.write(INDENT.as_bytes())?;
                let error = match status {
                    Status::Failed(message) => Some(message.as_str()),
                    _ => None,
                };
                let verdict = match status {
                    Status::Failed(_) => value(&"error"),
                    _ => json::verdict(&totals),
                };
                let header = vec![
                    ("old", value(&options.old)),
                    ("new", value(&options.new)),
                    ("status", value(&status.as_str())),
                    ("error", value(&error)),
                    ("verdict", verdict),
                ];
                let (report, totals) = match compared {
                    Some((Report::Json(report), totals)) => (report, totals),
                    _ => (JsonReport::new(INDENT)?, &totals),
                };
                report.finish(&header, totals, &mut self.sections)?;
            }
        }
        self.catalogs.push(Catalog {
            name: self.name(options),
            status: status.clone(),
            totals,
        });
        Ok(())
    }

    /// How a catalog is named in summaries: its directory with `--base`, else
    /// both sides.
    fn name(&self, options: &Options) -> String {
        match self.base {
            Some(_) => options.new.clone(),
            None => format!("{} -> {}", options.old, options.new),
        }
    }

    /// Whether some catalog could not be compared.
    pub(crate) fn failed(&self) -> bool {
        self.count("failed") > 0
    }

    fn breaking(&self) -> Vec<&str> {
        self.catalogs
            .iter()
            .filter(|c| c.totals.fails())
            .map(|c| c.name.as_str())
            .collect()
    }

    fn count(&self, status: &str) -> usize {
        self.catalogs
            .iter()
            .filter(|c| c.status.as_str() == status)
            .count()
    }

    /// One line: how many catalogs, what became of them, and the verdict.
    fn summary(&self) -> String {
        let counts: Vec<String> = ["changed", "unchanged", "added", "removed", "failed"]
            .into_iter()
            .map(|status| (status, self.count(status)))
            .filter(|(_, count)| *count > 0)
            .map(|(status, count)| match status {
                "failed" => format!("{count} not compared"),
                status => format!("{count} {status}"),
            })
            .collect();
        let mut line = format!("{} catalog(s): {}", self.catalogs.len(), counts.join(", "));
        let breaking = self.breaking();
        if !breaking.is_empty() {
            let _ = write!(
                line,
                ": the change breaks installations in {}",
                breaking.join(", ")
            );
        }
        match (breaking.is_empty(), self.count("failed")) {
            (true, 0) => line.push_str(": nothing breaks"),
            (true, failed) => {
                let _ = write!(line, ": {failed} catalog(s) could not be compared");
            }
            (false, 0) => {}
            (false, failed) => {
                let _ = write!(line, "; {failed} catalog(s) could not be compared");
            }
        }
        line
    }

    /// Writes the whole report.
    pub(crate) fn finish(self, out: &mut dyn Write) -> std::io::Result<()> {
        match self.format {
            Format::Text => {
                let summary = self.summary();
                self.sections.copy_to(out)?;
                writeln!(out, "\n{}", t(&summary))
            }
            Format::Markdown => self.finish_markdown(out),
            Format::Html => self.finish_html(out),
            Format::Json => self.finish_json(out),
            Format::Gitlab => {
                crate::output::gitlab::write(|| self.issues.iter().cloned(), &mut &mut *out)
            }
        }
    }

    /// The verdict over all catalogs.
    fn verdict(&self) -> Verdict<'_> {
        let breaking = self.breaking();
        let failed = self.count("failed");
        if !breaking.is_empty() {
            Verdict::Fails(breaking)
        } else if failed > 0 {
            Verdict::Incomplete(failed)
        } else {
            Verdict::Passes
        }
    }

    /// A catalog's row: its status, and its figures when it was compared.
    fn row(catalog: &Catalog) -> (String, Option<[usize; 4]>) {
        let status = match &catalog.status {
            Status::Failed(message) => format!("not compared: {message}"),
            status => status.as_str().to_owned(),
        };
        let totals = &catalog.totals;
        let figures = matches!(catalog.status, Status::Changed | Status::Unchanged).then_some([
            totals.packages,
            totals.checked,
            totals.broken,
            totals.failing,
        ]);
        (status, figures)
    }

    fn finish_markdown(self, out: &mut dyn Write) -> std::io::Result<()> {
        let against = self
            .base
            .as_ref()
            .map(|base| format!(" against `{}`", code(base)))
            .unwrap_or_default();
        let verdict = match self.verdict() {
            Verdict::Passes => ":white_check_mark: **Nothing breaks.**".to_owned(),
            Verdict::Fails(names) => format!(
                ":x: **This change breaks installations** in {}.",
                names
                    .iter()
                    .map(|name| format!("`{}`", code(name)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Verdict::Incomplete(failed) => format!(
                ":warning: **{failed} catalog(s) could not be compared** (see the error output)."
            ),
        };
        writeln!(
            out,
            "## Catalog diff: {} catalog(s){against}\n\n{verdict} {}\n",
            self.catalogs.len(),
            cell(&self.summary())
        )?;
        out.write_all(
            b"| catalog | change | packages differ | installations checked | no longer reach the head | problems |\n\
              |---|---|---:|---:|---:|---:|\n",
        )?;
        for catalog in &self.catalogs {
            let (status, figures) = Many::row(catalog);
            let figures = match figures {
                Some(figures) => figures.map(|n| n.to_string()).join(" | "),
                None => "| | |".to_owned(),
            };
            writeln!(
                out,
                "| `{}` | {} | {figures} |",
                code(&catalog.name),
                cell(&status)
            )?;
        }
        self.sections.copy_to(out)
    }

    fn finish_html(self, out: &mut dyn Write) -> std::io::Result<()> {
        let against = self
            .base
            .as_ref()
            .map(|base| format!(" against {base}"))
            .unwrap_or_default();
        let title = format!("Catalog diff: {} catalog(s){against}", self.catalogs.len());
        page::page(out, &title, |out| {
            writeln!(out, "<h1>{}</h1>", escape(&title))?;
            self.verdict().write(out, &self.summary())?;
            out.write_all(
                b"<table><thead><tr><th>catalog</th><th>change</th><th>packages differ</th>\
                  <th>installations checked</th><th>no longer reach the head</th>\
                  <th>problems</th></tr></thead><tbody>\n",
            )?;
            for catalog in &self.catalogs {
                let (status, figures) = Many::row(catalog);
                let mut cells = String::new();
                for figure in figures.iter().flatten() {
                    let _ = write!(cells, "<td class=\"count\">{figure}</td>");
                }
                if figures.is_none() {
                    cells = "<td></td>".repeat(4);
                }
                writeln!(
                    out,
                    "<tr><td><code>{}</code></td><td>{}</td>{cells}</tr>",
                    escape(&catalog.name),
                    escape(&status)
                )?;
            }
            out.write_all(b"</tbody></table>\n")?;
            self.sections.copy_to(out)
        })
    }

    fn finish_json(self, out: &mut dyn Write) -> std::io::Result<()> {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Summary {
            catalogs: usize,
            changed: usize,
            unchanged: usize,
            added: usize,
            removed: usize,
            failed: usize,
            installations: usize,
            broken: usize,
            problems: usize,
            allowed: usize,
        }
        let sum = |of: fn(&Totals) -> usize| self.catalogs.iter().map(|c| of(&c.totals)).sum();
        let summary = Summary {
            catalogs: self.catalogs.len(),
            changed: self.count("changed"),
            unchanged: self.count("unchanged"),
            added: self.count("added"),
            removed: self.count("removed"),
            failed: self.count("failed"),
            installations: sum(|t| t.checked),
            broken: sum(|t| t.broken),
            problems: sum(|t| t.failing),
            allowed: sum(|t| t.allowed),
        };
        let verdict = if summary.failed > 0 {
            "error"
        } else if summary.problems > 0 {
            "fail"
        } else {
            "pass"
        };
        let fields = [
            ("formatVersion", json::FORMAT_VERSION.to_string()),
            ("base", value(&self.base)),
            ("semantics", value(&self.semantics)),
            ("verdict", value(&verdict)),
            ("summary", value(&summary)),
        ];
        out.write_all(b"{\n")?;
        for (name, text) in fields {
            writeln!(out, "  \"{name}\": {},", json::pretty(&text, "  "))?;
        }
        if self.sections.is_empty() {
            out.write_all(b"  \"catalogs\": []\n}\n")
        } else {
            out.write_all(b"  \"catalogs\": [\n")?;
            self.sections.copy_to(out)?;
            out.write_all(b"\n  ]\n}\n")
        }
    }
}

/// What became of a catalog that was not compared.
fn what_became(options: &Options, status: &Status) -> String {
    match status {
        Status::Added => format!(
            "a new catalog ({} holds nothing); nothing to compare",
            options.old
        ),
        Status::Removed => format!(
            "the catalog is removed ({} holds nothing); nothing to compare",
            options.new
        ),
        Status::Failed(message) => format!("not compared: {message}"),
        Status::Changed | Status::Unchanged => String::new(),
    }
}
