//! The upgrade-path report as one JSON object, for jq.

use serde::Serialize;

use super::super::edges::EdgeKind;
use super::request::Report;
use super::{Step, Walk, Warning};

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ReportJson<'a> {
    /// The version of this shape (schemas/upgrade-path.schema.json).
    format_version: u32,
    package: &'a str,
    installed: InstalledJson<'a>,
    target: Option<BundleJson<'a>>,
    paths: Vec<WalkJson<'a>>,
    /// With both semantics: whether they agree.
    #[serde(skip_serializing_if = "Option::is_none")]
    same: Option<bool>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct InstalledJson<'a> {
    bundle: Option<&'a str>,
    version: String,
    in_catalog: bool,
}

#[derive(Serialize)]
struct BundleJson<'a> {
    bundle: &'a str,
    version: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct WalkJson<'a> {
    semantics: &'static str,
    /// `null`: every channel of the package.
    channels: Option<&'a [&'a str]>,
    found: bool,
    steps: Vec<StepJson<'a>>,
    end: &'a str,
    ending: &'static str,
    reasons: Vec<ReasonJson>,
    warnings: Vec<WarningJson<'a>>,
    /// Every bundle offered where the walk ends (it stays rather than take them).
    end_successors: &'a [&'a str],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct StepJson<'a> {
    from: &'a str,
    to: &'a str,
    version: Option<String>,
    edge: EdgeJson<'a>,
    also_offered: &'a [&'a str],
    /// Every bundle the rules offer from `from`; `to` is the pick among them.
    successors: &'a [&'a str],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct EdgeJson<'a> {
    kind: EdgeKind,
    /// The entry that declares the edge (the bundle upgraded to).
    entry: &'a str,
    channel: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    skip_range: Option<&'a str>,
}

#[derive(Serialize)]
struct ReasonJson {
    code: &'static str,
    message: String,
}

#[derive(Serialize)]
struct WarningJson<'a> {
    kind: &'static str,
    name: &'a str,
    message: &'a str,
}

/// Raised when a field changes meaning or goes away; new fields keep it.
const FORMAT_VERSION: u32 = 1;

/// One report as a JSON object, with a final newline.
pub(crate) fn write_json(report: &Report) -> String {
    finish(&report_json(report))
}

/// Several reports as one JSON array, made a report at a time, with a final
/// newline.
#[derive(Default)]
pub(crate) struct Array {
    out: String,
    count: usize,
}

impl Array {
    pub(crate) fn add(&mut self, report: &Report) {
        self.out
            .push_str(if self.count == 0 { "[\n" } else { ",\n" });
        let text =
            serde_json::to_string_pretty(&report_json(report)).expect("the report serialises");
        crate::codec::json_write::push_nested(&mut self.out, &text, "  ");
        self.count += 1;
    }

    pub(crate) fn finish(mut self) -> String {
        self.out
            .push_str(if self.count == 0 { "[]\n" } else { "\n]\n" });
        self.out
    }
}

fn finish(value: &impl Serialize) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("the report serialises");
    text.push('\n');
    text
}

fn report_json<'a>(report: &'a Report) -> ReportJson<'a> {
    let installed = &report.installed;
    ReportJson {
        format_version: FORMAT_VERSION,
        package: report.package,
        installed: InstalledJson {
            bundle: (!installed.name.is_empty()).then_some(installed.name.as_str()),
            version: installed.shown.clone(),
            in_catalog: installed.in_catalog,
        },
        target: report.target.as_ref().map(|target| BundleJson {
            bundle: &target.name,
            version: target.shown.clone(),
        }),
        paths: report.walks.iter().map(walk).collect(),
        same: report.same(),
    }
}

fn walk<'a>(walk: &'a Walk<'a>) -> WalkJson<'a> {
    WalkJson {
        semantics: walk.semantics.as_str(),
        channels: (!walk.channels.is_empty()).then_some(walk.channels.as_slice()),
        found: walk.found(),
        steps: walk.steps.iter().map(step).collect(),
        end: &walk.end,
        ending: walk.ending.as_str(),
        reasons: walk
            .reasons
            .iter()
            .map(|reason| ReasonJson {
                code: reason.code(),
                message: reason.to_string(),
            })
            .collect(),
        warnings: walk.warnings.iter().map(warning).collect(),
        end_successors: &walk.end_successors,
    }
}

fn step<'a>(step: &'a Step<'a>) -> StepJson<'a> {
    StepJson {
        from: &step.from,
        to: step.to,
        version: step.shown_version.clone(),
        edge: EdgeJson {
            kind: step.kind,
            entry: step.to,
            channel: step.channel,
            skip_range: (step.kind == EdgeKind::SkipRange).then_some(step.skip_range),
        },
        also_offered: &step.also_offered,
        successors: &step.successors,
    }
}

fn warning(warning: &Warning) -> WarningJson<'_> {
    let (kind, name, message) = match warning {
        Warning::Package { package, message } => ("package", package, message),
        Warning::Channel { channel, message } => ("channel", channel, message),
        Warning::Bundle { bundle, message } => ("bundle", bundle, message),
    };
    WarningJson {
        kind,
        name,
        message,
    }
}
