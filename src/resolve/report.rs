//! The answers as text and as JSON (`schemas/resolve.schema.json`).

use std::fmt::Write as _;

use serde::Serialize;

use super::{Install, Outcome};

/// The JSON report's format version.
const FORMAT_VERSION: u64 = 1;

/// Text of one result (headed by its namespace when there are `several`, by its
/// package with `--every-package`): the answer (`ok` and one line per operator
/// installed, or `error <reason>` and OLM's message), then why.
pub(crate) fn write_text(out: &mut String, outcome: &Outcome, every_package: bool, several: bool) {
    {
        if every_package {
            let subscription = &outcome.subscriptions[0];
            let _ = writeln!(
                out,
                "== {} (channel {})",
                subscription.package, subscription.channel
            );
        } else if several {
            let names: Vec<&str> = outcome
                .subscriptions
                .iter()
                .map(|s| s.name.as_str())
                .collect();
            let _ = writeln!(
                out,
                "== namespace {} (subscriptions: {})",
                outcome.namespace,
                names.join(", ")
            );
        }
        match &outcome.result {
            Ok(installs) => {
                out.push_str("ok\n");
                let mut installs: Vec<&Install> = installs.iter().collect();
                installs.sort_by(|a, b| {
                    (&a.catalog, &a.package, &a.bundle).cmp(&(&b.catalog, &b.package, &b.bundle))
                });
                for i in installs {
                    let _ = writeln!(
                        out,
                        "{} {} {} {} {}",
                        i.catalog, i.namespace, i.package, i.channel, i.bundle
                    );
                }
                if !outcome.picks.is_empty() {
                    out.push_str("why:\n");
                }
                for pick in &outcome.picks {
                    let who = if pick.by.is_empty() {
                        pick.requirement.clone()
                    } else {
                        pick.requirement
                            .strip_prefix(&format!("bundle {} requires ", pick.by))
                            .map_or_else(
                                || pick.requirement.clone(),
                                |rest| format!("{} needs {rest}", pick.by),
                            )
                    };
                    let _ = write!(out, "  {who}: {}", pick.provider);
                    if pick.candidates > 1 {
                        let _ = write!(
                            out,
                            " (candidate {} of {} in OLM's order",
                            pick.position + 1,
                            pick.candidates
                        );
                        if pick.passed_over.is_empty() {
                            out.push(')');
                        } else {
                            let _ = write!(
                                out,
                                "; before it, {} could not be installed with the rest)",
                                pick.passed_over.join(", ")
                            );
                        }
                    }
                    out.push('\n');
                }
            }
            Err(failure) => {
                let _ = writeln!(out, "error {}", failure.reason.as_str());
                out.push_str(&failure.message);
                out.push('\n');
                if !failure.conflict.is_empty() {
                    out.push_str("why: these constraints cannot all hold:\n");
                    for constraint in &failure.conflict {
                        let _ = writeln!(out, "  - {constraint}");
                    }
                }
            }
        }
    }
}

/// JSON: `{"version": 1, "results": [...]}`, fields in the order of the schema,
/// indented by two spaces, written a result at a time: [`json_start`], each
/// result's [`write_json`], [`json_end`].
pub(crate) fn json_start() -> String {
    format!("{{\n  \"version\": {FORMAT_VERSION},\n  \"results\": [")
}

/// One result of the JSON report; `first` when none came before it.
pub(crate) fn write_json(out: &mut String, outcome: &Outcome, first: bool) {
    out.push_str(if first { "\n" } else { ",\n" });
    let text = serde_json::to_string_pretty(&result(outcome)).unwrap_or_default();
    crate::codec::json_write::push_nested(out, &text, "    ");
}

/// The end of the JSON report, after `count` results.
pub(crate) fn json_end(count: usize) -> &'static str {
    if count == 0 { "]\n}\n" } else { "\n  ]\n}\n" }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ResultJson<'a> {
    namespace: &'a str,
    subscriptions: Vec<SubscriptionJson<'a>>,
    result: &'static str,
    install: &'a [Install],
    message: Option<&'a str>,
    reason: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    picks: Option<Vec<PickJson<'a>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    conflict: Option<&'a [String]>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SubscriptionJson<'a> {
    name: &'a str,
    namespace: &'a str,
    package: &'a str,
    channel: &'a str,
    #[serde(rename = "startingCSV")]
    starting_csv: &'a str,
    source: &'a str,
    source_namespace: &'a str,
    #[serde(rename = "installedCSV")]
    installed_csv: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PickJson<'a> {
    requirement: &'a str,
    provider: &'a str,
    position: usize,
    candidates: usize,
    passed_over: &'a [String],
}

fn result(outcome: &Outcome) -> ResultJson<'_> {
    let subscriptions = outcome
        .subscriptions
        .iter()
        .map(|s| SubscriptionJson {
            name: &s.name,
            namespace: &s.namespace,
            package: &s.package,
            channel: &s.channel,
            starting_csv: &s.starting_csv,
            source: &s.source,
            source_namespace: &s.source_namespace,
            installed_csv: &s.installed_csv,
        })
        .collect();
    match &outcome.result {
        Ok(installs) => ResultJson {
            namespace: &outcome.namespace,
            subscriptions,
            result: "ok",
            install: installs,
            message: None,
            reason: None,
            picks: Some(
                outcome
                    .picks
                    .iter()
                    .map(|p| PickJson {
                        requirement: &p.requirement,
                        provider: &p.provider,
                        position: p.position,
                        candidates: p.candidates,
                        passed_over: &p.passed_over,
                    })
                    .collect(),
            ),
            conflict: None,
        },
        Err(failure) => ResultJson {
            namespace: &outcome.namespace,
            subscriptions,
            result: "error",
            install: &[],
            message: Some(&failure.message),
            reason: Some(failure.reason.as_str()),
            picks: None,
            conflict: Some(&failure.conflict),
        },
    }
}
