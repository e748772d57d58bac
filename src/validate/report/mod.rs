//! Turning a validation into output: settings applied (allowed lints dropped,
//! `--strict`), then one writer per format. Writers build text; the command prints.

pub(crate) mod github;
pub(crate) mod json;
pub(crate) mod sarif;
pub(crate) mod text;
pub(crate) mod yaml;

use std::path::Path;

use crate::text::shown::{self, Form};

use super::spool::{Spool, TextSpool};
use super::{Finding, Rule, Severity};
use crate::catalog::Location;

/// What the user asked of the findings.
#[derive(Debug, Clone, Default)]
pub(crate) struct Settings {
    pub(crate) strict: bool,
    pub(crate) allowed: Vec<Rule>,
    /// Whether the report prints opm's error text (JSON and YAML do; the other
    /// formats only need its verdict).
    pub(crate) opm_text: bool,
}

/// A validation with the settings applied: what every format reports.
#[derive(Debug)]
pub(crate) struct Outcome {
    pub(crate) findings: Spool,
    /// opm's error text, when opm rejects the catalog.
    pub(crate) opm_message: Option<TextSpool>,
    /// The verdict: opm's, or failed by a lint under `--strict`.
    pub(crate) passed: bool,
}

impl Settings {
    /// A finding as reported: `None` when its rule is allowed, an error under
    /// `--strict`.
    pub(crate) fn apply(&self, mut finding: Finding) -> Option<Finding> {
        if self.allowed.contains(&finding.rule) {
            return None;
        }
        if self.strict {
            finding.severity = Severity::Error;
        }
        Some(finding)
    }
}

impl Outcome {
    pub(crate) fn count(&self, severity: Severity) -> usize {
        match severity {
            Severity::Error => self.findings.errors(),
            Severity::Warning => self.findings.len() - self.findings.errors(),
        }
    }
}

/// A path as reports name it: relative to the current directory when it lies
/// below it (SARIF viewers and GitHub resolve such paths against the checkout).
pub(crate) fn relative_path(path: &Path) -> std::path::PathBuf {
    let relative = std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok().map(Path::to_path_buf))
        .unwrap_or_else(|| path.to_path_buf());
    match relative.strip_prefix(".") {
        Ok(rest) if !rest.as_os_str().is_empty() => rest.to_path_buf(),
        _ => relative,
    }
}

/// [`relative_path`], written in `form` (its bytes kept: see [`crate::text::shown`]).
pub(crate) fn display_path(path: &Path, form: Form) -> String {
    shown::path(&relative_path(path), form)
}

/// `file:line:column` with the file as [`display_path`] shows it to people.
pub(crate) fn display_location(location: &Location) -> String {
    format!(
        "{}:{}:{}",
        display_path(&location.file, Form::Text),
        location.line,
        location.column
    )
}

/// "package "p", channel "c", bundle "b"": what a finding concerns, for formats
/// that have no field of their own for it.
pub(crate) fn subject(finding: &Finding) -> String {
    let quote = crate::go::fmt::quote;
    let parts: Vec<String> = [
        ("package", finding.package_name()),
        ("channel", finding.channel_name()),
        ("bundle", finding.bundle_name()),
    ]
    .into_iter()
    .filter_map(|(kind, name)| name.map(|name| format!("{kind} {}", quote(name))))
    .collect();
    parts.join(", ")
}
