//! `render-template --check`: whether a committed catalog file is exactly what the
//! template renders to, and if not, which blobs differ and a unified diff.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use crate::catalog::Catalog;
use crate::output::catalog::{Format, named_blobs, write_catalog};

/// The comparison of a rendering with a committed file.
pub(crate) enum Drift {
    Identical,
    /// A summary (one line per differing blob) and a unified diff, committed
    /// file first.
    Differs {
        summary: String,
        diff: String,
    },
}

/// The format opm would have written the committed file in: JSON when it starts
/// with `{`, YAML otherwise.
fn format_of(text: &str) -> Format {
    if text.trim_start().starts_with('{') || text.trim().is_empty() {
        Format::Json
    } else {
        Format::Yaml
    }
}

/// Renders `rendered` as the committed file is written and compares the two.
pub(crate) fn compare(
    rendered: &Catalog,
    committed: &str,
    committed_name: &Path,
) -> Result<Drift, crate::output::catalog::WriteError> {
    let format = format_of(committed);
    let mut bytes = Vec::new();
    write_catalog(rendered, format, &mut bytes)?;
    let text = String::from_utf8(bytes).expect("catalog output is UTF-8");
    if text == committed {
        return Ok(Drift::Identical);
    }
    let summary = summarize(rendered, committed, committed_name);
    // Patience anchors on lines that occur once on each side (blob names), so
    // that thousands of changed blobs cost thousands of small diffs rather than
    // one search over the whole file (Myers alone: 11 s for 20,000 changed
    // packages). A file without such anchors could still make the search long:
    // past the deadline the diff stays correct but may not be the shortest.
    let diff = similar::TextDiff::configure()
        .algorithm(similar::Algorithm::Patience)
        .timeout(std::time::Duration::from_secs(5))
        .diff_lines(committed, text.as_str());
    let diff = diff
        .unified_diff()
        .context_radius(3)
        .header(
            &committed_name.display().to_string(),
            "rendered from the template",
        )
        .to_string();
    Ok(Drift::Differs { summary, diff })
}

/// One line per blob that is only in one of the two or differs between them,
/// when the committed file can be read as a catalog.
/// A blob's package, kind and name.
type Key = (String, String, String);

fn summarize(rendered: &Catalog, committed: &str, committed_name: &Path) -> String {
    let Ok(old) = crate::catalog::decode_bytes(committed_name, committed.as_bytes().to_vec())
    else {
        return format!(
            "{} is not a catalog file fbc can read; showing the text difference only\n",
            committed_name.display()
        );
    };
    let index = |catalog: &Catalog| -> BTreeMap<Key, String> {
        named_blobs(catalog)
            .into_iter()
            .map(|blob| ((blob.package, blob.kind, blob.name), blob.text))
            .collect()
    };
    let (old, new) = (index(&old), index(rendered));
    let mut summary = String::new();
    let describe = |(package, kind, name): &Key| {
        if kind == "package" || kind == "deprecations" {
            format!("package {package:?}: {kind}")
        } else {
            format!("package {package:?}: {kind} {name:?}")
        }
    };
    for (key, text) in &new {
        match old.get(key) {
            None => {
                let _ = writeln!(summary, "  added:   {}", describe(key));
            }
            Some(before) if before != text => {
                let _ = writeln!(summary, "  changed: {}", describe(key));
            }
            Some(_) => {}
        }
    }
    for key in old.keys().filter(|key| !new.contains_key(*key)) {
        let _ = writeln!(summary, "  removed: {}", describe(key));
    }
    if summary.is_empty() {
        summary.push_str("  the same blobs, written differently (order or formatting)\n");
    }
    summary
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalog(text: &str) -> Catalog {
        crate::catalog::decode_bytes(Path::new("c.yaml"), text.as_bytes().to_vec())
            .expect("a catalog")
    }

    #[test]
    fn differences_are_named_and_shown() {
        let rendered = catalog(
            "schema: olm.package\nname: a\ndefaultChannel: stable\n---\nschema: olm.channel\npackage: a\nname: stable\nentries: [{name: a.v2}]\n",
        );
        let mut same = Vec::new();
        write_catalog(&rendered, Format::Yaml, &mut same).expect("written");
        let same = String::from_utf8(same).expect("UTF-8");
        assert!(matches!(
            compare(&rendered, &same, Path::new("c.yaml")).expect("compared"),
            Drift::Identical
        ));
        let old = "---\ndefaultChannel: stable\nname: a\nschema: olm.package\n---\nentries:\n- name: a.v1\nname: stable\npackage: a\nschema: olm.channel\n---\nname: b\nschema: olm.package\n";
        let Drift::Differs { summary, diff } =
            compare(&rendered, old, Path::new("c.yaml")).expect("compared")
        else {
            panic!("they differ");
        };
        assert_eq!(
            summary,
            "  changed: package \"a\": channel \"stable\"\n  removed: package \"b\": package\n"
        );
        assert!(diff.contains("-- name: a.v1\n+- name: a.v2\n"), "{diff}");
        assert!(
            diff.starts_with("--- c.yaml\n+++ rendered from the template\n"),
            "{diff}"
        );
    }
}
