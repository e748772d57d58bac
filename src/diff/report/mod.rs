//! The report of `fbc diff` in each of its formats: text for people, markdown
//! for a pull request's job summary, an HTML page with pictures, JSON for tools (`schemas/diff.schema.json`),
//! GitLab Code Quality; [`many`] puts the reports of several catalogs together.

pub(crate) mod gitlab;
pub(crate) mod json;
pub(crate) mod many;
pub(crate) mod markdown;
pub(crate) mod page;
pub(crate) mod picture;
pub(crate) mod text;

use std::io::Write;

use super::{Options, PackageReport, Totals};

/// The formats of a report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    Text,
    Markdown,
    Html,
    Json,
    Gitlab,
}

/// The report of one catalog being written, a package at a time.
pub(crate) enum Report {
    Text(text::TextReport),
    Markdown(markdown::MarkdownReport),
    Html(page::HtmlReport),
    Json(json::JsonReport),
    /// Issues are few (one per problem) and GitLab wants them in one array.
    Gitlab(Vec<crate::output::gitlab::Issue>),
}

impl Report {
    /// A report whose JSON object starts at `indent` (its place in a report of
    /// several catalogs).
    pub(crate) fn new(format: Format, indent: &'static str) -> std::io::Result<Report> {
        Ok(match format {
            Format::Text => Report::Text(text::TextReport::new()?),
            Format::Markdown => Report::Markdown(markdown::MarkdownReport::new()?),
            Format::Html => Report::Html(page::HtmlReport::new()?),
            Format::Json => Report::Json(json::JsonReport::new(indent)?),
            Format::Gitlab => Report::Gitlab(Vec::new()),
        })
    }

    pub(crate) fn package(
        &mut self,
        report: &PackageReport,
        options: &Options,
    ) -> std::io::Result<()> {
        match self {
            Report::Text(text) => text.package(report),
            Report::Markdown(markdown) => markdown.package(report),
            Report::Html(html) => html.package(report),
            Report::Json(json) => json.package(report),
            Report::Gitlab(issues) => {
                issues.extend(gitlab::issues_of(report, options));
                Ok(())
            }
        }
    }

    /// Writes the report of one catalog compared on its own.
    pub(crate) fn finish(
        self,
        options: &Options,
        totals: &Totals,
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        match self {
            Report::Text(text) => text.finish(options, totals, out),
            Report::Markdown(markdown) => markdown.finish(options, totals, out),
            Report::Html(html) => html.finish(options, totals, out),
            Report::Json(json) => json.finish(&json::header(options), totals, out),
            Report::Gitlab(issues) => {
                crate::output::gitlab::write(|| issues.iter().cloned(), &mut &mut *out)
            }
        }
    }
}

/// Text outside code: no HTML, no line break.
pub(crate) fn html(text: &str) -> String {
    crate::text::shown::text(text)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
