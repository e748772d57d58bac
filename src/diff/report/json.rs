//! `fbc diff -o json`: one object, described by `schemas/diff.schema.json`
//! (`formatVersion` 1). Installations carry the fields of
//! `shared/corpus/diff/*/impact.tsv` in camelCase.

use serde::Serialize;

use crate::catalog::Location;
use crate::diff::changes::{Edges, PackageDiff};
use crate::diff::impact::Installation;
use crate::diff::{Options, PackageReport, Problem, Totals};
use crate::output::spool::Spool;
use crate::text::shown::Form;

pub(crate) const FORMAT_VERSION: u32 = 1;

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
    path: &'a crate::diff::impact::Path<'a>,
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
            file: crate::text::shown::path(&location.file, Form::Data),
            line: location.line as usize,
            column: location.column as usize,
        }
    }
}

/// The JSON report, written as `serde_json`'s pretty printer writes the whole
/// object: its three lists are spooled while the packages come, and the summary
/// ahead of them is written last. `indent` is where the object stands: nothing
/// for a report of one catalog, inside `catalogs` for several.
pub(crate) struct JsonReport {
    indent: &'static str,
    packages: Spool,
    installations: Spool,
    problems: Spool,
}

/// The fields ahead of `summary`, each with its value as JSON text.
pub(crate) type Header = Vec<(&'static str, String)>;

/// The header of the report of one catalog compared on its own.
pub(crate) fn header(options: &Options) -> Header {
    let semantics: Vec<&str> = options.semantics.iter().map(|s| s.as_str()).collect();
    vec![
        ("formatVersion", FORMAT_VERSION.to_string()),
        ("old", value(&options.old)),
        ("new", value(&options.new)),
        ("semantics", value(&semantics)),
    ]
}

/// `"pass"` or `"fail"`, as the totals decide.
pub(crate) fn verdict(totals: &Totals) -> String {
    value(&if totals.fails() { "fail" } else { "pass" })
}

/// A value as JSON text, to be indented with [`pretty`] where it is written.
pub(crate) fn value(value: &(impl Serialize + ?Sized)) -> String {
    serde_json::to_string_pretty(value).expect("the report serializes")
}

impl JsonReport {
    pub(crate) fn new(indent: &'static str) -> std::io::Result<JsonReport> {
        Ok(JsonReport {
            indent,
            packages: Spool::new()?,
            installations: Spool::new()?,
            problems: Spool::new()?,
        })
    }

    pub(crate) fn package(&mut self, report: &PackageReport) -> std::io::Result<()> {
        let indent = self.indent;
        element(&mut self.packages, indent, &package(&report.diff))?;
        for each in &report.installations {
            element(&mut self.installations, indent, &installation(each))?;
        }
        for each in &report.problems {
            element(&mut self.problems, indent, &problem(each))?;
        }
        Ok(())
    }

    /// Writes the object: the `header` fields, the verdict (unless the header
    /// has it), the summary, the lists.
    pub(crate) fn finish(
        self,
        header: &[(&'static str, String)],
        totals: &Totals,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        let summary = Summary {
            packages_added: totals.added,
            packages_removed: totals.removed,
            packages_changed: totals.changed,
            installations: totals.checked,
            broken: totals.broken,
            problems: totals.failing,
            allowed: totals.allowed,
        };
        let inner = format!("{}  ", self.indent);
        writeln!(out, "{{")?;
        let verdict = (!header.iter().any(|(name, _)| *name == "verdict"))
            .then(|| ("verdict", verdict(totals)));
        for (name, text) in header.iter().cloned().chain(verdict) {
            writeln!(out, "{inner}\"{name}\": {},", pretty(&text, &inner))?;
        }
        writeln!(
            out,
            "{inner}\"summary\": {},",
            pretty(&value(&summary), &inner)
        )?;
        let lists = [
            ("packages", self.packages, ","),
            ("installations", self.installations, ","),
            ("problems", self.problems, ""),
        ];
        for (name, list, comma) in lists {
            if list.is_empty() {
                writeln!(out, "{inner}\"{name}\": []{comma}")?;
            } else {
                writeln!(out, "{inner}\"{name}\": [")?;
                list.copy_to(out)?;
                writeln!(out, "\n{inner}]{comma}")?;
            }
        }
        write!(out, "{}}}", self.indent)?;
        if self.indent.is_empty() {
            writeln!(out)?;
        }
        Ok(())
    }
}

/// JSON text whose lines after the first are indented by `indent` (JSON strings
/// hold no line breaks).
pub(crate) fn pretty(text: &str, indent: &str) -> String {
    text.replace('\n', &format!("\n{indent}"))
}

/// Appends an element to one of the report's lists.
fn element(list: &mut Spool, indent: &str, element: &impl Serialize) -> std::io::Result<()> {
    if !list.is_empty() {
        list.write(b",\n")?;
    }
    let indent = format!("{indent}    ");
    list.write(indent.as_bytes())?;
    list.write(pretty(&value(element), &indent).as_bytes())
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
