//! Catalog validation: every rule opm enforces (spec §3), with opm's verdict and
//! message texts, plus lints beyond opm. Nothing stops at the first problem: each
//! becomes a [`Finding`], and opm's own error text is kept for compatible output.

pub(crate) mod chain;
mod checks;
mod convert;
mod deprecations;
mod dns;
pub(crate) mod finding;
mod group;
mod image;
mod json_schema;
mod lints;
pub(crate) mod opm_model;
pub(crate) mod properties;
pub(crate) mod report;
pub(crate) mod schemas;
pub(crate) mod small_map;
pub(crate) mod spool;
mod tree;

pub(crate) use finding::{Finding, Rule, Severity};
pub(crate) use lints::unpinned_images;
use spool::TextSpool;

use crate::catalog::Catalog;

/// opm's verdict on a loaded catalog: its error text, `None` when opm finds it
/// valid (no finding is kept).
pub(crate) fn opm_message(catalog: &Catalog) -> Option<String> {
    // Nothing is read back from a file when no finding is kept; were it to fail,
    // the catalog would not pass.
    match validate_parts(catalog, true, None, true, |_| {}, &mut |_| {}) {
        Ok(message) => message.map(|message| message.text()),
        Err(failure) => Some(failure),
    }
}

/// The check the loader makes of each property value's compact text (see
/// `model::property::check_at_load`): whether it certainly matches its type's
/// JSON Schema and decodes into its Go type. A value that fails is decoded later,
/// and each check reports it as before.
pub(crate) fn sound_at_load(kind: &str, text: &str) -> bool {
    schemas::matches_text(kind, text) && properties::fits_text(kind, text)
}

/// The outcome of validating one catalog.
#[cfg(test)]
#[derive(Debug)]
pub(crate) struct Validation {
    /// Every finding, in a deterministic order: by package, then by location.
    pub(crate) findings: Vec<Finding>,
    /// The error text `opm validate` prints for this catalog; `None` when opm
    /// finds it valid.
    pub(crate) opm_message: Option<String>,
}

/// Validates a loaded catalog: every finding, in report order, and opm's text.
#[cfg(test)]
pub(crate) fn validate(catalog: &Catalog) -> Validation {
    let mut findings = Vec::new();
    let opm_message =
        validate_each(catalog, true, |part| findings.extend(part)).expect("findings read back");
    Validation {
        findings,
        opm_message: opm_message.map(|message| message.text()),
    }
}

/// Validates a loaded catalog, handing its findings to `emit` a part at a time,
/// each part sorted and the parts in report order: a part per group of packages
/// (every finding of a package comes from its group, and groups come in name
/// order); findings beyond `FBC_FINDINGS_IN_MEMORY` wait in a temporary file.
/// Returns opm's message (waiting in a file too beyond the budget), `None` when
/// opm finds the catalog valid; without `opm_text` the message is empty (only the
/// verdict is kept), which spares the text of a catalog of many broken packages
/// where nothing prints it. Fails when findings could not be read back from
/// their file.
pub(crate) fn validate_each(
    catalog: &Catalog,
    opm_text: bool,
    emit: impl FnMut(&mut dyn Iterator<Item = Finding>),
) -> Result<Option<TextSpool>, String> {
    validate_parts(
        catalog,
        opm_text,
        Some(spool::budget()),
        true,
        emit,
        &mut |_| {},
    )
}

/// opm's verdict only (no lints), handing each group's model to `visit` once it
/// has been checked: `fbc serve` builds what it serves from them in the same pass.
pub(crate) fn validate_with_models(
    catalog: &Catalog,
    emit: impl FnMut(&mut dyn Iterator<Item = Finding>),
    visit: &mut dyn FnMut(&opm_model::Model<'_>),
) -> Result<Option<TextSpool>, String> {
    validate_parts(catalog, true, Some(spool::budget()), false, emit, visit)
}

/// [`validate_each`] keeping `budget` bytes of findings in memory, or none at
/// all; fbc's own rules (lints, schemas) only with `lints`.
fn validate_parts(
    catalog: &Catalog,
    opm_text: bool,
    budget: Option<usize>,
    lints: bool,
    mut emit: impl FnMut(&mut dyn Iterator<Item = Finding>),
    visit: &mut dyn FnMut(&opm_model::Model<'_>),
) -> Result<Option<TextSpool>, String> {
    let mut collector = finding::Collector::new(budget);
    let text_budget = budget.unwrap_or(usize::MAX);
    let mut root = tree::StreamedRoot::new("invalid index", opm_text, text_budget);
    let mut failure = None;
    let mut hand_over = |collector: &mut finding::Collector| {
        let mut part = collector.part().peekable();
        if part.peek().is_some() {
            emit(&mut part);
        }
        drop(part);
        failure = failure.take().or_else(|| collector.failure());
    };
    // Findings that name no package sort first: they join the first part (only
    // the group of blobs with no package name, first in name order, adds more).
    if lints {
        lints::check_implicit(catalog, &mut collector);
    }
    // The model of a few packages at a time: beside a catalog of many small
    // packages, a model of all of them would be about as large as the catalog.
    group::Groups::new(catalog).for_each(|group| {
        let mut model = convert::convert(catalog, group, &mut collector);
        deprecations::apply(catalog, group, &mut model, &mut collector);
        checks::validate(&model, &mut collector, &mut root);
        if lints {
            lints::check_model(&model, &mut collector);
        }
        visit(&model);
        drop(model);
        if lints {
            // The schema checks skip bundles with errors found above.
            schemas::check(catalog, group.bundles, &mut collector);
            lints::check_bundles(catalog, group.bundles, &mut collector);
        }
        hand_over(&mut collector);
    });
    hand_over(&mut collector);
    if let Some(failure) = failure {
        return Err(failure);
    }
    Ok(match collector.opm_error.take() {
        Some((_, message)) => Some(message.into()),
        None => root.finish(),
    })
}

/// The lint for a directory without any blob: opm accepts it, but it is most often
/// a wrong path.
pub(crate) fn empty_catalog(directory: &str) -> Finding {
    Finding::new(
        Rule::EmptyCatalog,
        format!(
            "no catalog blob found in {}",
            crate::go::fmt::quote(directory)
        ),
    )
    .help(EMPTY_HELP)
}

pub(crate) const EMPTY_HELP: &str = "a catalog directory holds JSON or YAML files of \
    olm.package, olm.channel and olm.bundle blobs, in any subdirectory; check the path \
    and its .indexignore files";

/// The ids of the lints, the rules `--allow` can turn off.
pub(crate) fn lint_ids() -> Vec<&'static str> {
    Rule::ALL
        .iter()
        .filter(|rule| rule.default_severity() == Severity::Warning)
        .map(|rule| rule.id())
        .collect()
}

#[cfg(test)]
mod group_tests {
    use super::*;
    use std::fmt::Write as _;

    /// A catalog of `count` valid packages named `m0000`..., with `extra` blobs
    /// placed first, so that problems sit in different groups and steps.
    fn catalog(extra: &[&str], count: usize) -> Catalog {
        let mut text = extra.join("\n") + "\n";
        for number in 0..count {
            let name = format!("m{number:04}");
            writeln!(
                text,
                r#"{{"schema":"olm.package","name":"{name}","defaultChannel":"s"}}
{{"schema":"olm.channel","name":"s","package":"{name}","entries":[{{"name":"{name}.v1"}}]}}
{{"schema":"olm.bundle","name":"{name}.v1","package":"{name}","image":"q.io/x@sha256:{}","properties":[{{"type":"olm.package","value":{{"packageName":"{name}","version":"1.0.0"}}}}]}}"#,
                "a".repeat(64)
            )
            .expect("written");
        }
        crate::catalog::decode_bytes(std::path::Path::new("c.json"), text.into_bytes())
            .expect("the catalog loads")
    }

    /// opm stops at the first problem of its run (every package, then every
    /// channel, then every bundle, in catalog order); packages checked in groups
    /// by name report the same one, whichever group it is in.
    #[test]
    fn the_opm_error_is_the_first_in_opms_order_across_groups() {
        let unknown_channel = r#"{"schema":"olm.channel","name":"c","package":"zz-missing"}"#;
        let nameless_channel = r#"{"schema":"olm.channel","name":"","package":"m0001"}"#;
        let duplicate_package = r#"{"schema":"olm.package","name":"m2999","defaultChannel":"s"}"#;
        let stray_bundle = r#"{"schema":"olm.bundle","name":"b","package":"aa-missing"}"#;
        // Packages come before channels whatever their groups.
        let all = validate(&catalog(
            &[
                stray_bundle,
                nameless_channel,
                unknown_channel,
                duplicate_package,
            ],
            3000,
        ));
        assert_eq!(
            all.opm_message.as_deref(),
            Some("duplicate package \"m2999\"")
        );
        // Among channels, the first in the catalog (its package sorts last).
        let validation = validate(&catalog(
            &[stray_bundle, unknown_channel, nameless_channel],
            3000,
        ));
        assert_eq!(
            validation.opm_message.as_deref(),
            Some("unknown package \"zz-missing\" for channel \"c\"")
        );
        let validation = validate(&catalog(&[stray_bundle, nameless_channel], 3000));
        assert_eq!(
            validation.opm_message.as_deref(),
            Some("package \"m0001\" contains channel with no name")
        );
        // Every problem is still a finding.
        for rule in [
            Rule::BundleUnknownPackage,
            Rule::ChannelNameMissing,
            Rule::ChannelUnknownPackage,
            Rule::PackageDuplicate,
        ] {
            assert!(
                all.findings.iter().any(|finding| finding.rule == rule),
                "{rule:?}"
            );
        }
        assert_eq!(validate(&catalog(&[], 3000)).opm_message, None);
    }

    /// opm's tree of model problems holds every package's, in name order, from
    /// every group.
    #[test]
    fn the_tree_joins_packages_of_every_group() {
        let validation = validate(&catalog(
            &[
                r#"{"schema":"olm.package","name":"zzz"}"#,
                r#"{"schema":"olm.package","name":"aaa"}"#,
            ],
            3000,
        ));
        let message = validation.opm_message.expect("invalid");
        assert!(
            message.starts_with("invalid index:\n├── invalid package \"aaa\":"),
            "{message}"
        );
        assert!(
            message.contains("└── invalid package \"zzz\":"),
            "{message}"
        );
    }

    /// Findings come a group of packages at a time, and the parts joined are in
    /// report order (what sorting all of them at once gives): findings that name
    /// no package first, then each package's, in name order, across groups.
    #[test]
    fn parts_come_in_report_order() {
        let nameless = r#"{"schema":"olm.package","name":""}"#;
        let stray_bundle = r#"{"schema":"olm.bundle","name":"b","package":"m2500","image":"x:1"}"#;
        let tagged = r#"{"schema":"olm.bundle","name":"t","package":"m0100","image":"x:1"}"#;
        let catalog = catalog(
            &[
                nameless,
                stray_bundle,
                tagged,
                "{\"schema\":\"olm.package\",\"name\":\"zzz\"}",
            ],
            3000,
        );
        let mut parts = Vec::new();
        let message = validate_each(&catalog, true, |part| parts.push(part.collect::<Vec<_>>()))
            .expect("findings read back");
        assert!(parts.len() > 2, "{} parts", parts.len());
        let joined: Vec<Finding> = parts.into_iter().flatten().collect();
        let mut sorted = joined.clone();
        sorted.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        assert_eq!(joined, sorted);
        assert_eq!(joined.first().and_then(Finding::package_name), None);
        assert_eq!(joined.last().and_then(Finding::package_name), Some("zzz"));
        assert!(joined.iter().any(|f| f.package_name() == Some("m2500")));
        assert_eq!(
            message.map(|message| message.text()),
            validate(&catalog).opm_message
        );
    }
}

#[cfg(test)]
mod spill_tests {
    use super::*;

    fn findings(catalog: &Catalog, budget: usize) -> (Vec<Finding>, Option<String>) {
        let mut findings = Vec::new();
        let message = validate_parts(
            catalog,
            true,
            Some(budget),
            true,
            |part| findings.extend(part),
            &mut |_| {},
        )
        .expect("findings read back");
        (findings, message.map(|message| message.text()))
    }

    /// Findings written to a file beyond the budget (every finding its own run,
    /// or a few together) come back as those kept in memory: same findings, same
    /// order, same verdict; bundles with an error spilled still skip the schema
    /// checks.
    #[test]
    fn spilled_findings_report_as_held_ones() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/validate");
        let mut spilled = 0;
        for entry in std::fs::read_dir(&root).expect("fixtures") {
            let path = entry.expect("an entry").path();
            if !path.is_dir() {
                continue;
            }
            let Ok(catalog) = crate::catalog::load_directory(&path) else {
                continue;
            };
            let held = findings(&catalog, usize::MAX);
            spilled += usize::from(held.0.len() > 1);
            for budget in [0, 500] {
                assert_eq!(
                    findings(&catalog, budget),
                    held,
                    "{} at {budget}",
                    path.display()
                );
            }
        }
        assert!(spilled >= 5, "{spilled} fixtures with findings to spill");
    }
}
