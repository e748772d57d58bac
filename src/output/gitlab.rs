//! GitLab Code Quality reports (`-o gitlab`): a JSON array of issues with the fields
//! GitLab reads: `description`, `check_name`, `fingerprint`, `severity`,
//! `location.path` and `location.lines.begin`.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::io::Write;

use serde::Serialize;
use sha2::{Digest, Sha256};

/// One issue; `identity` is what makes it the same issue in the next pipeline (it
/// is hashed into the fingerprint, and should not hold a line number).
#[derive(Clone)]
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

/// Writes the report of the issues `issues` makes, each serialized as it comes
/// (a report of many issues is never held whole), ending with a newline.
/// `issues` is called twice: once to find which identities come more than once,
/// once to write.
pub(crate) fn write<I: Iterator<Item = Issue>>(
    issues: impl Fn() -> I,
    out: &mut impl Write,
) -> std::io::Result<()> {
    // Two identical issues still need two fingerprints: how many came before, per
    // identity. Only identities whose digest starts like another's are counted
    // (eight bytes of each digest are kept for the first pass, not a map of all).
    let digest = |issue: &Issue| -> [u8; 32] { Sha256::digest(issue.identity.as_bytes()).into() };
    let prefix =
        |digest: &[u8; 32]| u64::from_le_bytes(digest[..8].try_into().expect("eight bytes"));
    let mut prefixes: Vec<u64> = issues().map(|issue| prefix(&digest(&issue))).collect();
    prefixes.sort_unstable();
    let repeated: HashSet<u64> = prefixes
        .windows(2)
        .filter(|pair| pair[0] == pair[1])
        .map(|pair| pair[0])
        .collect();
    drop(prefixes);
    let mut seen = HashMap::<[u8; 32], usize>::new();
    let json = issues().map(|issue| {
        let identity = digest(&issue);
        let count = if repeated.contains(&prefix(&identity)) {
            let count = seen.entry(identity).or_default();
            *count += 1;
            *count - 1
        } else {
            0
        };
        let mut hasher = Sha256::new();
        hasher.update(issue.check_name.as_bytes());
        hasher.update([0]);
        hasher.update(issue.identity.as_bytes());
        hasher.update(count.to_le_bytes());
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

#[cfg(test)]
mod tests {
    use super::*;

    /// An issue's fingerprint hashes its check, its identity and how many issues
    /// of the same identity came before it.
    #[test]
    fn repeated_identities_are_counted() {
        let identities = ["a", "b", "a", "c", "a", "b"];
        let issues: Vec<Issue> = identities
            .iter()
            .map(|identity| Issue {
                description: format!("about {identity}"),
                check_name: "fbc-validate/x".to_owned(),
                severity: "minor",
                path: "c.json".to_owned(),
                line: 0,
                identity: (*identity).to_owned(),
            })
            .collect();
        let mut out = Vec::new();
        write(|| issues.iter().cloned(), &mut out).expect("written");
        let report: serde_json::Value = serde_json::from_slice(&out).expect("JSON");
        let fingerprints: Vec<&str> = report
            .as_array()
            .expect("an array")
            .iter()
            .map(|issue| issue["fingerprint"].as_str().expect("a fingerprint"))
            .collect();
        let expected: Vec<String> = identities
            .iter()
            .zip([0usize, 0, 1, 0, 2, 1])
            .map(|(identity, count)| {
                let mut hasher = Sha256::new();
                hasher.update(b"fbc-validate/x\0");
                hasher.update(identity.as_bytes());
                hasher.update(count.to_le_bytes());
                crate::digest::hex(&hasher.finalize())
            })
            .collect();
        assert_eq!(fingerprints, expected);
        assert_eq!(report[0]["location"]["lines"]["begin"], 1);
    }
}
