//! The readable report: each changed package with its changes, the installations it
//! takes off their way to the head, and a closing summary line.

use std::fmt::Write as _;
use std::io::Write;

use crate::output::spool::Spool;
use crate::text::shown::text as t;

use crate::diff::changes::{ChannelDiff, Edges, PackageDiff, Status};
use crate::diff::{Options, PackageReport, Problem, Totals};

/// The text report: a line naming both sides, a section per package, the summary.
pub(crate) struct TextReport {
    body: Spool,
}

impl TextReport {
    pub(crate) fn new() -> std::io::Result<TextReport> {
        Ok(TextReport {
            body: Spool::new()?,
        })
    }

    pub(crate) fn package(&mut self, report: &PackageReport) -> std::io::Result<()> {
        let mut out = String::from("\n");
        write_package(&mut out, report);
        self.body.write(out.as_bytes())
    }

    pub(crate) fn finish(
        self,
        header: &Options,
        totals: &Totals,
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        writeln!(out, "diff {} -> {}", t(&header.old), t(&header.new))?;
        self.body.copy_to(out)?;
        writeln!(
            out,
            "\n{}{}",
            summary(totals),
            if totals.fails() {
                ": the change breaks installations"
            } else {
                ": nothing breaks"
            }
        )
    }
}

/// Whether a package's section opens (something in it breaks installations),
/// and what follows its name in the section's summary line.
pub(crate) fn section_heading(package: &PackageReport) -> (bool, String) {
    let failing = package.problems.iter().any(Problem::fails);
    let status = package.diff.status.as_str();
    let words = if failing {
        format!("{status}, breaks installations")
    } else {
        status.to_owned()
    };
    (failing, words)
}

/// One line: what changed and what it does.
pub(crate) fn summary(totals: &Totals) -> String {
    let Totals {
        packages,
        added,
        removed,
        changed,
        checked,
        broken,
        failing,
        warnings,
        allowed,
    } = totals;
    let mut line = format!(
        "{packages} package(s) differ ({added} added, {removed} removed, {changed} changed); {checked} installation(s) checked, {broken} no longer reach the head; {failing} problem(s)"
    );
    if *warnings > 0 {
        let _ = write!(line, ", {warnings} warning(s)");
    }
    if *allowed > 0 {
        let _ = write!(line, ", {allowed} allowed");
    }
    line
}

fn write_package(out: &mut String, report: &PackageReport) {
    let diff = &report.diff;
    let _ = writeln!(out, "package {}: {}", t(diff.name), diff.status.as_str());
    write_changes(out, diff);
    let (checked, broken) = report.counts();
    if checked > 0 {
        let _ = writeln!(
            out,
            "  installations: {checked} checked, {broken} no longer reach the head"
        );
    }
    for problem in &report.problems {
        write_problem(out, problem);
    }
}

pub(crate) fn write_changes(out: &mut String, diff: &PackageDiff) {
    if let Some((before, after)) = diff.default_channel {
        let _ = writeln!(
            out,
            "  default channel: {} -> {}",
            t(shown(before)),
            t(shown(after))
        );
    }
    if diff.metadata_changed {
        out.push_str("  package metadata changed (description, icon or properties)\n");
    }
    for channel in &diff.channels {
        write_channel(out, channel);
    }
    for (sign, names) in [("+", &diff.bundles_added), ("-", &diff.bundles_removed)] {
        for name in names {
            let _ = writeln!(out, "  {sign} bundle {}", t(name));
        }
    }
    for bundle in &diff.bundles_changed {
        let _ = write!(out, "  ~ bundle {}:", t(bundle.name));
        if let Some((before, after)) = bundle.image {
            let _ = write!(out, " image {} -> {};", t(before), t(after));
        }
        if !bundle.properties.is_empty() {
            let _ = write!(out, " properties {};", t(&bundle.properties.join(", ")));
        }
        if bundle.related_images {
            out.push_str(" related images;");
        }
        out.pop();
        out.push('\n');
    }
    for deprecation in &diff.deprecations {
        let _ = writeln!(
            out,
            "  {} deprecation of {} {}: {}",
            if deprecation.added { "+" } else { "-" },
            deprecation.scope(),
            t(shown(deprecation.name)),
            t(deprecation.message)
        );
    }
}

fn write_channel(out: &mut String, channel: &ChannelDiff) {
    let head = |head: &Option<String>| t(head.as_deref().unwrap_or("none")).into_owned();
    match channel.status {
        Status::Added => {
            let _ = writeln!(
                out,
                "  + channel {} (head {})",
                t(channel.name),
                head(&channel.head_after)
            );
        }
        Status::Removed => {
            let _ = writeln!(
                out,
                "  - channel {} (head {})",
                t(channel.name),
                head(&channel.head_before)
            );
            return;
        }
        Status::Changed if channel.head_before == channel.head_after => {
            let _ = writeln!(
                out,
                "  ~ channel {} (head {})",
                t(channel.name),
                head(&channel.head_after)
            );
        }
        Status::Changed => {
            let _ = writeln!(
                out,
                "  ~ channel {}: head {} -> {}",
                t(channel.name),
                head(&channel.head_before),
                head(&channel.head_after)
            );
        }
    }
    for name in &channel.added {
        let _ = writeln!(out, "      + {}", t(name));
    }
    for name in &channel.removed {
        let _ = writeln!(out, "      - {}", t(name));
    }
    for edge in &channel.edges {
        let _ = writeln!(
            out,
            "      ~ {}: {} -> {}",
            t(edge.bundle),
            edges(&edge.before),
            edges(&edge.after)
        );
    }
}

/// `replaces X, skips [A B], skipRange R`, or `no edges`.
fn edges(edges: &Edges) -> String {
    let mut parts = Vec::new();
    if !edges.replaces.is_empty() {
        parts.push(format!("replaces {}", t(edges.replaces)));
    }
    if !edges.skips.is_empty() {
        parts.push(format!("skips [{}]", t(&edges.skips.join(" "))));
    }
    if !edges.skip_range.is_empty() {
        parts.push(format!("skipRange {:?}", edges.skip_range));
    }
    if parts.is_empty() {
        "no edges".to_owned()
    } else {
        parts.join(", ")
    }
}

fn write_problem(out: &mut String, problem: &Problem) {
    let level = match (problem.allowed, problem.rule.is_error()) {
        (true, _) => "allowed",
        (false, true) => "error",
        (false, false) => "warning",
    };
    let _ = write!(
        out,
        "  {level}[{}]: {}",
        problem.rule.as_str(),
        t(&problem.message)
    );
    if let Some(location) = &problem.location {
        let _ = write!(out, " ({})", t(&location.to_string()));
    }
    out.push('\n');
}

fn shown(name: &str) -> &str {
    if name.is_empty() { "(none)" } else { name }
}
