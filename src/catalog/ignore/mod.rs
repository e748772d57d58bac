//! opm's `.indexignore` matcher (joelanford/ignore v0.1.2 on go-git's gitignore): every
//! ignore file of the tree contributes patterns scoped to its directory, and the last
//! collected pattern that matches a path decides. See spec §1.2.

mod glob;
mod pattern;

use std::collections::HashMap;

use pattern::{Key, Pattern};

/// Patterns collected from every `.indexignore` of a catalog tree, indexed by the
/// literal component they need, so that a path is tried only against the patterns
/// that can match it (100,000 files against 100,000 literal patterns cost lookups,
/// not ten billion matches).
#[derive(Debug, Clone, Default)]
pub(crate) struct IndexIgnore {
    /// In collection order; the last that matches decides.
    patterns: Vec<Pattern>,
    /// Patterns that need this name as some component.
    by_name: HashMap<String, Vec<usize>>,
    /// Patterns that need this name at this component index.
    by_position: HashMap<(usize, String), Vec<usize>>,
    /// Patterns tried on every path (wildcards), ascending.
    general: Vec<usize>,
}

impl IndexIgnore {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Adds the patterns of one `.indexignore` file. `dir` is the directory holding it, relative to the
    /// catalog root, `/`-separated, "" for the root. Call in `WalkDir` lexical order of the ignore files' paths.
    pub(crate) fn add_file(&mut self, dir: &str, contents: &str) {
        let domain: Vec<&str> = if dir.is_empty() {
            Vec::new()
        } else {
            dir.split('/').collect()
        };
        // opm reads lines with `bufio.Scanner` and trims them with `strings.TrimSpace`
        // (Unicode white space, like `str::trim`). A BOM is not white space, so it stays
        // part of the first line: git would skip it, opm does not.
        for line in contents.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let pattern = Pattern::parse(line, &domain);
            let index = self.patterns.len();
            match pattern.key() {
                Key::AnyComponent(name) => self.by_name.entry(name).or_default().push(index),
                Key::Component(position, name) => {
                    self.by_position
                        .entry((position, name))
                        .or_default()
                        .push(index);
                }
                Key::None => self.general.push(index),
                Key::Never => {}
            }
            self.patterns.push(pattern);
        }
    }

    /// Whether a file at `path` (relative, `/`-separated, e.g. "pkg/catalog.yaml") is ignored.
    pub(crate) fn is_ignored(&self, path: &str) -> bool {
        self.matches(path, false)
    }

    /// go-git's `Matcher.Match`: the last pattern that matches decides, a `!` pattern
    /// keeping the path; no match keeps it too.
    fn matches(&self, path: &str, is_directory: bool) -> bool {
        if self.patterns.is_empty() {
            return false;
        }
        let components: Vec<&str> = path.split('/').collect();
        let mut candidates: Vec<usize> = Vec::new();
        for (position, name) in components.iter().enumerate() {
            if let Some(found) = self.by_name.get(*name) {
                candidates.extend(found);
            }
            if !self.by_position.is_empty()
                && let Some(found) = self.by_position.get(&(position, (*name).to_owned()))
            {
                candidates.extend(found);
            }
        }
        candidates.sort_unstable();
        candidates.dedup();
        // Both lists ascending: walk them from the end, highest index first.
        let (mut keyed, mut general) = (
            candidates.iter().rev().peekable(),
            self.general.iter().rev().peekable(),
        );
        loop {
            let next = match (keyed.peek(), general.peek()) {
                (Some(&&a), Some(&&b)) if a > b => keyed.next(),
                (Some(_) | None, Some(_)) => general.next(),
                (Some(_), None) => keyed.next(),
                (None, None) => return false,
            };
            let pattern = &self.patterns[*next.expect("peeked")];
            if pattern.matches(&components, is_directory) {
                return !pattern.negated;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The index gives the answer of trying every pattern from the last.
    #[test]
    fn indexed_matching_equals_trying_every_pattern() {
        let names = [
            "a", "b", "foo", "x.yaml", "*.yaml", "f?o", "[ab]", "**", "c\\*",
        ];
        let mut next = crate::testing::choices(7);
        for _ in 0..200 {
            let mut ignore = IndexIgnore::new();
            for dir in ["", "a", "a/b"] {
                let lines: Vec<String> = (0..next(6))
                    .map(|_| {
                        let parts: Vec<&str> =
                            (0..=next(3)).map(|_| names[next(names.len())]).collect();
                        let prefix = ["", "!", "/"][next(3)];
                        let suffix = ["", "/"][next(2)];
                        format!("{prefix}{}{suffix}", parts.join("/"))
                    })
                    .collect();
                ignore.add_file(dir, &lines.join("\n"));
            }
            for _ in 0..20 {
                let path: Vec<&str> = (0..=next(3))
                    .map(|_| ["a", "b", "foo", "x.yaml", "c*", "fxo"][next(6)])
                    .collect();
                let path = path.join("/");
                let components: Vec<&str> = path.split('/').collect();
                let naive = ignore
                    .patterns
                    .iter()
                    .rev()
                    .find(|pattern| pattern.matches(&components, false))
                    .is_some_and(|pattern| !pattern.negated);
                assert_eq!(
                    ignore.is_ignored(&path),
                    naive,
                    "{path} with {:?}",
                    ignore.patterns
                );
            }
        }
    }

    fn ignore(files: &[(&str, &str)]) -> IndexIgnore {
        let mut ignore = IndexIgnore::new();
        for (dir, contents) in files {
            ignore.add_file(dir, contents);
        }
        ignore
    }

    /// joelanford/ignore's `TestMatcher`, directories included (`true` = directory).
    #[test]
    fn upstream_matcher_example() {
        let ignore = ignore(&[
            (
                "",
                "\n\t\t\t\t\t\t# Always ignore a anywhere\n\t\t\t\t\t\ta\n\n\
                 \t\t\t\t\t\t# Ignore the root ignore directory\n\t\t\t\t\t\t/ignore\n\n\
                 \t\t\t\t\t\t# Ignore files named \"file1\" in dir \"really\"\n\
                 \t\t\t\t\t\t/really/**/file1\n\t\t\t\t\t",
            ),
            (
                "dir1",
                "\n  # Always ignore b anywhere in dir1\n  b\n\n  # Ignore the root/dir1/ignore \
                 directory\n  /ignore\n\n  # Don't ignore a in dir1\n  !a\n",
            ),
        ]);
        let expected: &[(&str, bool, bool)] = &[
            (".", true, false),
            (".indexignore", false, false),
            ("a", false, true),
            ("b", false, false),
            ("c", false, false),
            ("ignore", true, true),
            ("ignore/a", false, true),
            ("ignore/b", false, true),
            ("ignore/c", false, true),
            ("dir1", true, false),
            ("dir1/.indexignore", false, false),
            ("dir1/a", false, false),
            ("dir1/b", false, true),
            ("dir1/c", false, false),
            ("dir1/ignore", true, true),
            ("dir1/ignore/a", false, false),
            ("dir1/ignore/b", false, true),
            ("dir1/ignore/c", false, true),
            ("really", true, false),
            ("really/file1", false, true),
            ("really/file2", false, false),
            ("really/long", true, false),
            ("really/long/file1", false, true),
            ("really/long/file2", false, false),
            ("really/long/path", true, false),
            ("really/long/path/file1", false, true),
            ("really/long/path/file2", false, false),
            ("really/long/path/to", true, false),
            ("really/long/path/to/file1", false, true),
            ("really/long/path/to/file2", false, false),
            ("really/long/path/to/the", true, false),
            ("really/long/path/to/the/file1", false, true),
            ("really/long/path/to/the/file2", false, false),
        ];
        for &(path, is_directory, ignored) in expected {
            assert_eq!(ignore.matches(path, is_directory), ignored, "{path}");
        }
    }

    /// opm's `validFS` in `alpha/declcfg/load_test.go`.
    #[test]
    fn opm_valid_fs_example() {
        let ignore = ignore(&[("", "*\n!*.json\n!*.yaml\n*.clusterserviceversion.yaml\n")]);
        assert!(!ignore.is_ignored("cockroachdb.json"));
        assert!(!ignore.is_ignored("etcd.yaml"));
        assert!(ignore.is_ignored("README.md"));
        assert!(ignore.is_ignored("etcd.v0.9.2.clusterserviceversion.yaml"));
        // `*` matches the directory component too, and `!*.yaml` the file: the file wins
        // because the later pattern is checked first.
        assert!(!ignore.is_ignored("dir/catalog.yaml"));
        assert!(ignore.is_ignored("dir/notes.txt"));
    }

    #[test]
    fn later_patterns_win_within_a_file() {
        let ignore = ignore(&[("", "*.yaml\n!keep.yaml\n")]);
        assert!(ignore.is_ignored("drop.yaml"));
        assert!(!ignore.is_ignored("keep.yaml"));
        let reversed = self::ignore(&[("", "!keep.yaml\n*.yaml\n")]);
        assert!(reversed.is_ignored("keep.yaml"));
    }

    #[test]
    fn later_files_win_even_when_shallower() {
        // WalkDir visits `-sub/.indexignore` before the root `.indexignore` (`-` < `.`),
        // so the root file is collected last and overrides the deeper one.
        let ignore = ignore(&[
            ("-sub", "!*.yaml\n"),
            ("", "*.yaml\n"),
            ("sub", "!*.yaml\n"),
        ]);
        assert!(ignore.is_ignored("-sub/a.yaml"));
        assert!(!ignore.is_ignored("sub/a.yaml"));
        assert!(ignore.is_ignored("a.yaml"));
    }

    #[test]
    fn patterns_of_ignored_directories_still_count() {
        let ignore = ignore(&[("", "skipped\n"), ("skipped", "!keep.json\n")]);
        assert!(!ignore.is_ignored("skipped/keep.json"));
        assert!(ignore.is_ignored("skipped/other.json"));
    }

    #[test]
    fn lines_are_trimmed_and_comments_skipped() {
        let ignore = ignore(&[(
            "",
            "  a.json \t\r\n\n   \n# b.json\n  # c.json\n\u{a0}d.json\u{2003}\n",
        )]);
        assert!(ignore.is_ignored("a.json"));
        assert!(!ignore.is_ignored("b.json"));
        assert!(!ignore.is_ignored("c.json"));
        assert!(!ignore.is_ignored("# b.json"));
        assert!(ignore.is_ignored("d.json"));
        assert_eq!(ignore.patterns.len(), 2);
    }

    #[test]
    fn escaped_hash_and_bang_are_literal() {
        let ignore = ignore(&[("", "*.md\n\\#notes\n\\!keep.md\n")]);
        assert!(ignore.is_ignored("#notes"));
        assert!(ignore.is_ignored("!keep.md"));
        assert!(ignore.is_ignored("keep.md"));
    }

    #[test]
    fn crlf_line_endings() {
        let ignore = ignore(&[("", "a.json\r\nb/\r\n")]);
        assert!(ignore.is_ignored("a.json"));
        assert!(ignore.is_ignored("b/c.json"));
        assert!(!ignore.is_ignored("b"));
    }

    #[test]
    fn byte_order_mark_stays_in_the_first_line() {
        let ignore = ignore(&[("", "\u{feff}a.json\nb.json\n")]);
        assert!(!ignore.is_ignored("a.json"));
        assert!(ignore.is_ignored("\u{feff}a.json"));
        assert!(ignore.is_ignored("b.json"));
        // Nor is a BOM-prefixed `#` line a comment.
        let commented = self::ignore(&[("", "\u{feff}# x\n")]);
        assert!(commented.is_ignored("\u{feff}# x"));
    }

    #[test]
    fn bang_class_is_not_negated() {
        let ignore = ignore(&[("", "[!a].json\n")]);
        assert!(ignore.is_ignored("a.json"));
        assert!(ignore.is_ignored("!.json"));
        assert!(!ignore.is_ignored("b.json"));
        let caret = self::ignore(&[("", "[^a].json\n")]);
        assert!(!caret.is_ignored("a.json"));
        assert!(caret.is_ignored("b.json"));
    }

    #[test]
    fn malformed_pattern_never_matches_but_others_still_do() {
        let ignore = ignore(&[("", "*.json\n!keep[.json\n")]);
        assert!(ignore.is_ignored("keep[.json"));
    }

    #[test]
    fn nested_domains() {
        let ignore = ignore(&[("a", "/x\n*.md\n"), ("a/b", "y/\n")]);
        assert!(ignore.is_ignored("a/x"));
        assert!(ignore.is_ignored("a/x/deep.yaml"));
        assert!(!ignore.is_ignored("x"));
        assert!(!ignore.is_ignored("a/c/x"));
        assert!(ignore.is_ignored("a/c/README.md"));
        assert!(!ignore.is_ignored("README.md"));
        assert!(ignore.is_ignored("a/b/y/z.json"));
        assert!(!ignore.is_ignored("a/b/y"));
        assert!(!ignore.is_ignored("a/y/z.json"));
    }

    #[test]
    fn no_patterns_ignores_nothing() {
        let ignore = IndexIgnore::new();
        assert!(!ignore.is_ignored("a.json"));
        let comments_only = self::ignore(&[("", "# nothing\n\n")]);
        assert!(!comments_only.is_ignored("a.json"));
    }
}
