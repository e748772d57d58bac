//! GitLab Code Quality reports (`-o gitlab`): a JSON array of issues with the fields
//! GitLab reads: `description`, `check_name`, `fingerprint`, `severity`,
//! `location.path` and `location.lines.begin`.

use std::cell::RefCell;
use std::collections::HashMap;
use std::io::Write;

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
struct IssueJson {
    description: String,
    check_name: String,
    fingerprint: String,
    severity: &'static str,
    location: LocationJson,
}

#[derive(Serialize)]
struct LocationJson {
    path: String,
    lines: Lines,
}

#[derive(Serialize)]
struct Lines {
    begin: usize,
}

/// Writes the report of `issues`, each serialized as it comes (a report of many
/// issues is never held whole), ending with a newline.
pub(crate) fn write(
    issues: impl Iterator<Item = Issue>,
    out: &mut impl Write,
) -> std::io::Result<()> {
    // Two identical issues still need two fingerprints: how many came before, per
    // identity (kept as its digest).
    let mut seen = HashMap::<[u8; 32], usize>::new();
    let json = issues.map(|issue| {
        let count = seen
            .entry(Sha256::digest(issue.identity.as_bytes()).into())
            .or_default();
        let mut hasher = Sha256::new();
        hasher.update(issue.check_name.as_bytes());
        hasher.update([0]);
        hasher.update(issue.identity.as_bytes());
        hasher.update(count.to_le_bytes());
        *count += 1;
        IssueJson {
            description: issue.description,
            check_name: issue.check_name,
            fingerprint: crate::digest::hex(&hasher.finalize()),
            severity: issue.severity,
            location: LocationJson {
                path: issue.path,
                lines: Lines {
                    begin: issue.line.max(1),
                },
            },
        }
    });
    serde_json::to_writer_pretty(&mut *out, &Streamed(RefCell::new(Some(json))))?;
    out.write_all(b"\n")
}

/// A sequence serialized from an iterator, item by item.
struct Streamed<I>(RefCell<Option<I>>);

impl<I: Iterator<Item = T>, T: Serialize> Serialize for Streamed<I> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let items = self.0.borrow_mut().take();
        serializer.collect_seq(items.into_iter().flatten())
    }
}
