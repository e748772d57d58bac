//! The upgrade-path report as text: the installed bundle, then per semantics the
//! steps with their edges, how the path ends and why, and the deprecations met.

use std::fmt::Write as _;

use crate::go::fmt::quote;

use super::request::Report;
use super::{Ending, Semantics, Step, Walk};

pub(crate) fn write_text(report: &Report) -> String {
    let mut out = String::new();
    let installed = &report.installed;
    let name = if installed.name.is_empty() {
        "a bundle"
    } else {
        &installed.name
    };
    let _ = write!(
        out,
        "package {}: installed {name} ({})",
        quote(report.package),
        installed.shown
    );
    if !installed.in_catalog {
        out.push_str(", not in the catalog");
    }
    out.push('\n');
    if let Some(target) = &report.target {
        let _ = writeln!(out, "target: {} ({})", target.name, target.shown);
    }
    for walk in &report.walks {
        out.push('\n');
        write_walk(&mut out, walk);
    }
    if let (Some(same), [first, second]) = (report.same(), report.walks.as_slice()) {
        out.push('\n');
        if same {
            out.push_str("classic and v1 agree\n");
        } else {
            out.push_str("classic and v1 differ:\n");
            for walk in [first, second] {
                let _ = writeln!(
                    out,
                    "  {:<8} {}",
                    format!("{}:", walk.semantics.as_str()),
                    summary(walk)
                );
            }
        }
    }
    out
}

/// Several reports, made a report at a time, then one line counting the walks
/// without a path and the reports where classic and v1 differ.
#[derive(Default)]
pub(crate) struct Survey {
    out: String,
    reports: usize,
    /// Walks and walks without a path, classic's then v1's.
    walks: [(usize, usize); 2],
    compared: bool,
    differ: usize,
}

impl Survey {
    pub(crate) fn add(&mut self, report: &Report) {
        self.out.push_str(&write_text(report));
        self.out.push('\n');
        self.reports += 1;
        for walk in &report.walks {
            let counts = &mut self.walks[usize::from(walk.semantics == Semantics::V1)];
            counts.0 += 1;
            counts.1 += usize::from(!walk.found());
        }
        let same = report.same();
        self.compared |= same.is_some();
        self.differ += usize::from(same == Some(false));
    }

    /// The text, ending with the counting line.
    pub(crate) fn finish(mut self, per_channel: bool) -> String {
        let out = &mut self.out;
        let _ = write!(
            out,
            "{} starting points ({})",
            self.reports,
            if per_channel {
                "package, channel, bundle"
            } else {
                "package, bundle"
            }
        );
        for (semantics, (count, missing)) in [Semantics::Classic, Semantics::V1]
            .into_iter()
            .zip(self.walks)
        {
            if count > 0 {
                let _ = write!(out, "; {}: {missing} without a path", semantics.as_str());
            }
        }
        if self.compared {
            let _ = write!(out, "; classic and v1 differ for {}", self.differ);
        }
        out.push('\n');
        self.out
    }
}

fn write_walk(out: &mut String, walk: &Walk) {
    let channels: Vec<String> = walk.channels.iter().map(|c| quote(c)).collect();
    let scope = match (walk.semantics, channels.len()) {
        (_, 0) => "all channels".to_owned(),
        (_, 1) => format!("channel {}", channels[0]),
        (Semantics::Classic, _) => format!(
            "channels {}, the default channel first",
            channels.join(", ")
        ),
        (Semantics::V1, _) => format!("channels {}", channels.join(", ")),
    };
    let _ = writeln!(out, "{} ({scope}):", walk.semantics.as_str());
    for step in &walk.steps {
        write_step(out, step, walk.semantics);
    }
    let _ = writeln!(out, "  {}", ending(walk));
    for reason in &walk.reasons {
        let _ = writeln!(out, "    - {reason}");
    }
    for warning in &walk.warnings {
        let _ = writeln!(out, "  warning: {warning}");
    }
}

fn write_step(out: &mut String, step: &Step, semantics: Semantics) {
    let version = step.shown_version.as_deref().unwrap_or("no bundle");
    let _ = writeln!(out, "  {} -> {} ({version})", step.from, step.to);
    let _ = writeln!(
        out,
        "      {} (channel {})",
        step.cover(),
        quote(step.channel)
    );
    if !step.also_offered.is_empty() {
        let _ = writeln!(out, "      also offered: {}", step.also_offered.join(", "));
        let why = match semantics {
            Semantics::Classic => {
                "OLM classic takes the candidate nearest the channel head, the default channel first"
            }
            Semantics::V1 => {
                "OLM v1 takes a candidate that is not deprecated first, then the highest version"
            }
        };
        let _ = writeln!(out, "      {} wins: {why}", step.to);
    }
}

fn ending(walk: &Walk) -> String {
    let already = walk.steps.is_empty();
    match (walk.ending, already) {
        (Ending::Head, true) => format!("already at the channel head {}", walk.end),
        (Ending::Head, false) => format!("reached the channel head {}", walk.end),
        (Ending::Target, true) => format!("already at the target {}", walk.end),
        (Ending::Target, false) => format!("reached the target {}", walk.end),
        (Ending::Stuck, true) => {
            format!("no upgrade from {}, which is not a channel head:", walk.end)
        }
        (Ending::Stuck, false) => {
            format!("stops at {}, which is not a channel head:", walk.end)
        }
        (Ending::Missed, _) => "no path to the target:".to_owned(),
    }
}

/// One line: the bundles and how the path ends.
fn summary(walk: &Walk) -> String {
    let mut bundles = vec![
        walk.steps
            .first()
            .map_or(walk.end.as_str(), |s| s.from.as_str()),
    ];
    bundles.extend(walk.bundles());
    let end = match walk.ending {
        Ending::Head => "channel head",
        Ending::Target => "target",
        Ending::Stuck => "stuck",
        Ending::Missed => "target not reached",
    };
    format!("{} ({end})", bundles.join(" -> "))
}
