//! Catalog validation: every rule opm enforces (spec §3), with opm's verdict and
//! message texts, plus lints beyond opm. Nothing stops at the first problem: each
//! becomes a [`Finding`], and opm's own error text is kept for compatible output.

pub(crate) mod chain;
mod checks;
mod convert;
mod deprecations;
mod dns;
pub(crate) mod finding;
mod image;
mod json_schema;
mod lints;
mod model;
pub(crate) mod properties;
pub(crate) mod report;
mod schemas;
pub(crate) mod small_map;
mod tree;

pub(crate) use finding::{Finding, Rule, Severity};

use crate::catalog::Catalog;

/// The outcome of validating one catalog.
#[derive(Debug)]
pub(crate) struct Validation {
    /// Every finding, in a deterministic order: by package, then by location.
    pub(crate) findings: Vec<Finding>,
    /// The error text `opm validate` prints for this catalog; `None` when opm
    /// finds it valid.
    pub(crate) opm_message: Option<String>,
}

/// Validates a loaded catalog.
pub(crate) fn validate(catalog: &Catalog) -> Validation {
    let mut collector = finding::Collector::default();
    // The model is dropped at the end of this block: the lints of every blob (a
    // finding per unpinned image, say) can take its memory.
    let tree = {
        let mut model = convert::convert(catalog, &mut collector);
        deprecations::apply(catalog, &mut model, &mut collector);
        let tree = checks::validate(&model, &mut collector);
        lints::check_model(&model, &mut collector);
        tree
    };
    lints::check_blobs(catalog, &mut collector);
    schemas::check(catalog, &mut collector);
    let opm_message = collector
        .opm_error
        .take()
        .or_else(|| tree.map(|tree| tree.render()));
    let mut findings = collector.findings;
    sort_findings(&mut findings);
    findings.dedup();
    Validation {
        findings,
        opm_message,
    }
}

/// Sorts findings stably by [`Finding::sort_key`] without a scratch copy of them
/// (a catalog can have tens of thousands): their indices are sorted, then each
/// cycle of the permutation is swapped into place.
fn sort_findings(findings: &mut [Finding]) {
    let mut order: Vec<usize> = (0..findings.len()).collect();
    order.sort_by(|&a, &b| findings[a].sort_key().cmp(&findings[b].sort_key()));
    // Position `i` takes the finding at `order[i]`; a placed position points at itself.
    for start in 0..order.len() {
        let mut at = start;
        loop {
            let from = order[at];
            order[at] = at;
            if from == start {
                break;
            }
            findings.swap(at, from);
            at = from;
        }
    }
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
mod tests {
    use super::*;

    #[test]
    fn findings_sort_as_a_stable_sort_does() {
        // Equal keys in several places (the help tells them apart) and a shuffled order.
        let findings: Vec<Finding> = (0..200u32)
            .map(|i| {
                let package = format!("p{}", (i * 37) % 11);
                Finding::new(Rule::ImageNotPinned, format!("m{}", (i * 13) % 3))
                    .package(&package)
                    .help(format!("{i}"))
            })
            .collect();
        let mut expected = findings.clone();
        expected.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        let mut sorted = findings;
        sort_findings(&mut sorted);
        assert_eq!(sorted, expected);
    }
}
