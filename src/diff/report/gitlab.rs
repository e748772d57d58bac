//! `fbc diff -o gitlab`: a GitLab Code Quality issue per problem.

use crate::diff::{Options, PackageReport};
use crate::output::gitlab::Issue;
use crate::text::shown::Form;

/// One Code Quality issue per problem of a package, at its blob in NEW (or in OLD
/// for what NEW no longer has).
pub(crate) fn issues_of<'r>(
    report: &'r PackageReport,
    options: &'r Options,
) -> impl Iterator<Item = Issue> + 'r {
    report.problems.iter().map(move |problem| {
        let (path, line) = problem.location.as_ref().map_or_else(
            || (options.new.clone(), 1),
            |location| {
                (
                    repository_path(&location.file, &options.revisions),
                    location.line as usize,
                )
            },
        );
        let subject = [
            Some(problem.package.as_str()),
            problem.channel.as_deref(),
            problem.bundle.as_deref(),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join("/");
        Issue {
            description: problem.message.clone(),
            check_name: format!("fbc-diff/{}", problem.rule.as_str()),
            severity: match (problem.allowed, problem.rule.is_error()) {
                (true, _) => "info",
                (false, true) => "major",
                (false, false) => "minor",
            },
            path,
            line,
            identity: subject,
        }
    })
}

/// A file's path as GitLab wants it, relative to the repository: a file read from
/// git (`REV:PATH/FILE`) loses its `REV:`.
fn repository_path(file: &std::path::Path, revisions: &[String]) -> String {
    let shown = crate::text::shown::path(file, Form::Data);
    revisions
        .iter()
        .find_map(|revision| shown.strip_prefix(&format!("{revision}:")))
        .map_or_else(|| shown.clone(), str::to_owned)
}
