//! GitLab Code Quality reports (`-o gitlab`): a JSON array of issues with the fields
//! GitLab reads: `description`, `check_name`, `fingerprint`, `severity`,
//! `location.path` and `location.lines.begin`.

use serde::Serialize;
use sha2::{Digest, Sha256};

/// One issue; `identity` is what makes it the same issue in the next pipeline (it
/// is hashed into the fingerprint, and should not hold a line number).
pub(crate) struct Issue {
    pub(crate) description: String,
    pub(crate) check_name: String,
    /// `info`, `minor`, `major`, `critical` or `blocker`.
    pub(crate) severity: &'static str,
    pub(crate) path: String,
    pub(crate) line: usize,
    pub(crate) identity: String,
}

#[derive(Serialize)]
struct IssueJson<'a> {
    description: &'a str,
    check_name: &'a str,
    fingerprint: String,
    severity: &'static str,
    location: LocationJson<'a>,
}

#[derive(Serialize)]
struct LocationJson<'a> {
    path: &'a str,
    lines: Lines,
}

#[derive(Serialize)]
struct Lines {
    begin: usize,
}

pub(crate) fn write(issues: &[Issue]) -> String {
    let mut seen = std::collections::HashMap::<String, usize>::new();
    let json: Vec<IssueJson> = issues
        .iter()
        .map(|issue| {
            // Two identical issues still need two fingerprints.
            let count = seen.entry(issue.identity.clone()).or_default();
            let mut hasher = Sha256::new();
            hasher.update(issue.check_name.as_bytes());
            hasher.update([0]);
            hasher.update(issue.identity.as_bytes());
            hasher.update(count.to_le_bytes());
            *count += 1;
            IssueJson {
                description: &issue.description,
                check_name: &issue.check_name,
                fingerprint: crate::digest::hex(&hasher.finalize()),
                severity: issue.severity,
                location: LocationJson {
                    path: &issue.path,
                    lines: Lines {
                        begin: issue.line.max(1),
                    },
                },
            }
        })
        .collect();
    let mut text = serde_json::to_string_pretty(&json).expect("issues serialize");
    text.push('\n');
    text
}
