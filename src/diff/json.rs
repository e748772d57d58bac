//! `fbc diff -o json`: one object, described by `schemas/diff.schema.json`
//! (`formatVersion` 1). Installations carry the fields of
//! `shared/corpus/diff/*/impact.tsv` in camelCase.

use serde::Serialize;

use super::changes::{Edges, PackageDiff, Status};
use super::impact::Installation;
use super::{Problem, Report};
use crate::catalog::Location;
use crate::shown::Form;

pub(crate) const FORMAT_VERSION: u32 = 1;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ReportJson<'a> {
    format_version: u32,
    old: &'a str,
    new: &'a str,
    semantics: Vec<&'static str>,
    /// `pass` or `fail`, as the exit status says.
    verdict: &'static str,
    summary: Summary,
    packages: Vec<PackageJson<'a>>,
    installations: Vec<InstallationJson<'a>>,
    problems: Vec<ProblemJson<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Summary {
    packages_added: usize,
    packages_removed: usize,
    packages_changed: usize,
    installations: usize,
    broken: usize,
    problems: usize,
    allowed: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PackageJson<'a> {
    name: &'a str,
    status: &'static str,
    default_channel: Option<Change<'a>>,
    metadata_changed: bool,
    channels: Vec<ChannelJson<'a>>,
    bundles_added: &'a [&'a str],
    bundles_removed: &'a [&'a str],
    bundles_changed: Vec<BundleJson<'a>>,
    deprecations: Vec<DeprecationJson<'a>>,
}

#[derive(Serialize)]
struct Change<'a> {
    before: &'a str,
    after: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ChannelJson<'a> {
    name: &'a str,
    status: &'static str,
    head_before: Option<&'a str>,
    head_after: Option<&'a str>,
    added: &'a [&'a str],
    removed: &'a [&'a str],
    edges: Vec<EdgeChangeJson<'a>>,
}

#[derive(Serialize)]
struct EdgeChangeJson<'a> {
    bundle: &'a str,
    before: EdgesJson<'a>,
    after: EdgesJson<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct EdgesJson<'a> {
    replaces: &'a str,
    skips: &'a [crate::model::Text],
    skip_range: &'a str,
}

impl<'a> From<&Edges<'a>> for EdgesJson<'a> {
    fn from(edges: &Edges<'a>) -> Self {
        Self {
            replaces: edges.replaces,
            skips: edges.skips,
            skip_range: edges.skip_range,
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct BundleJson<'a> {
    name: &'a str,
    image: Option<Change<'a>>,
    properties: &'a [&'a str],
    related_images: bool,
}

#[derive(Serialize)]
struct DeprecationJson<'a> {
    change: &'static str,
    scope: &'a str,
    name: &'a str,
    message: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct InstallationJson<'a> {
    semantics: &'static str,
    package: &'a str,
    channel: &'a str,
    from: &'a str,
    version: &'a str,
    in_new: bool,
    successors: &'a [String],
    pick: Option<&'a str>,
    path: &'a super::impact::Path<'a>,
    new_head: Option<&'a str>,
    reaches_head: &'static str,
    reached_before: bool,
    broken: bool,
    error: Option<&'a str>,
    reasons: &'a [String],
}

#[derive(Serialize)]
struct ProblemJson<'a> {
    rule: &'static str,
    severity: &'static str,
    allowed: bool,
    package: &'a str,
    channel: Option<&'a str>,
    bundle: Option<&'a str>,
    message: &'a str,
    location: Option<LocationJson>,
}

#[derive(Serialize)]
struct LocationJson {
    file: String,
    line: usize,
    column: usize,
}

impl From<&Location> for LocationJson {
    fn from(location: &Location) -> Self {
        Self {
            file: crate::shown::path(&location.file, Form::Data),
            line: location.line as usize,
            column: location.column as usize,
        }
    }
}

pub(crate) fn write_json(report: &Report) -> String {
    let count = |status| report.count_packages(status);
    let json = ReportJson {
        format_version: FORMAT_VERSION,
        old: &report.old,
        new: &report.new,
        semantics: report.semantics.iter().map(|s| s.as_str()).collect(),
        verdict: if report.fails() { "fail" } else { "pass" },
        summary: Summary {
            packages_added: count(Status::Added),
            packages_removed: count(Status::Removed),
            packages_changed: count(Status::Changed),
            installations: report.counts().0,
            broken: report.counts().1,
            problems: report.problems().filter(|p| p.fails()).count(),
            allowed: report.problems().filter(|p| p.allowed).count(),
        },
        packages: report.packages.iter().map(|p| package(&p.diff)).collect(),
        installations: report.installations().map(installation).collect(),
        problems: report.problems().map(problem).collect(),
    };
    let mut text = serde_json::to_string_pretty(&json).expect("the report serializes");
    text.push('\n');
    text
}

fn package<'a>(diff: &'a PackageDiff<'a>) -> PackageJson<'a> {
    PackageJson {
        name: diff.name,
        status: diff.status.as_str(),
        default_channel: diff
            .default_channel
            .map(|(before, after)| Change { before, after }),
        metadata_changed: diff.metadata_changed,
        channels: diff
            .channels
            .iter()
            .map(|channel| ChannelJson {
                name: channel.name,
                status: channel.status.as_str(),
                head_before: channel.head_before.as_deref(),
                head_after: channel.head_after.as_deref(),
                added: &channel.added,
                removed: &channel.removed,
                edges: channel
                    .edges
                    .iter()
                    .map(|edge| EdgeChangeJson {
                        bundle: edge.bundle,
                        before: (&edge.before).into(),
                        after: (&edge.after).into(),
                    })
                    .collect(),
            })
            .collect(),
        bundles_added: &diff.bundles_added,
        bundles_removed: &diff.bundles_removed,
        bundles_changed: diff
            .bundles_changed
            .iter()
            .map(|bundle| BundleJson {
                name: bundle.name,
                image: bundle.image.map(|(before, after)| Change { before, after }),
                properties: &bundle.properties,
                related_images: bundle.related_images,
            })
            .collect(),
        deprecations: diff
            .deprecations
            .iter()
            .map(|d| DeprecationJson {
                change: if d.added { "added" } else { "removed" },
                scope: d.scope(),
                name: d.name,
                message: d.message,
            })
            .collect(),
    }
}

fn installation<'a>(installation: &'a Installation<'a>) -> InstallationJson<'a> {
    InstallationJson {
        semantics: installation.semantics.as_str(),
        package: installation.package,
        channel: installation.channel,
        from: installation.from,
        version: &installation.version,
        in_new: installation.in_new,
        successors: &installation.successors,
        pick: installation.pick(),
        path: &installation.path,
        new_head: installation.new_head.as_deref(),
        reaches_head: installation.reaches_head.as_str(),
        reached_before: installation.reached_before,
        broken: installation.broken(),
        error: installation.error.as_deref(),
        reasons: &installation.reasons,
    }
}

fn problem(problem: &Problem) -> ProblemJson<'_> {
    ProblemJson {
        rule: problem.rule.as_str(),
        severity: if problem.rule.is_error() {
            "error"
        } else {
            "warning"
        },
        allowed: problem.allowed,
        package: &problem.package,
        channel: problem.channel.as_deref(),
        bundle: problem.bundle.as_deref(),
        message: &problem.message,
        location: problem.location.as_ref().map(LocationJson::from),
    }
}
