//! One `.indexignore` line as go-git v5.19.1's gitignore `ParsePattern` reads it, and
//! how it matches a path (`pattern.Match`). Deliberately not git's own rules: go-git lets
//! a pattern match any ancestor directory and never backtracks over `**`.

use super::glob::Glob;

/// A parsed pattern and the directory its file lives in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Pattern {
    /// Components of the ignore file's directory; the pattern only sees paths inside it.
    domain: Vec<Box<str>>,
    /// A leading `!`: a match keeps the path instead of ignoring it.
    pub(super) negated: bool,
    /// A trailing `/`: the path's last component (the candidate itself) may not be the match.
    directory_only: bool,
    form: Form,
}

/// A literal component a path needs for a pattern to match it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Key {
    /// This name as any component (below the pattern's directory).
    AnyComponent(String),
    /// This name as the component at this index.
    Component(usize, String),
    /// Nothing to look up: the pattern is tried on every path.
    None,
    /// The pattern matches nothing.
    Never,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Form {
    /// No `/`: the glob may match any component below the domain.
    Name(Glob),
    /// With a `/`: segments matched from the domain on.
    Anchored(Vec<Segment>),
    /// Go would answer "no match" for every path (malformed glob, or a segment that
    /// contains `**` without being `**`).
    Never,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Segment {
    /// An empty segment (a leading `/` or `//`): skipped, and it cancels a pending `**`.
    Empty,
    /// `**` as a whole segment.
    AnyDirectories,
    Glob(Glob),
}

impl Pattern {
    /// Parses a trimmed, non-comment line found in the ignore file of `domain`.
    pub(super) fn parse(line: &str, domain: &[&str]) -> Self {
        let (negated, text) = match line.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, line),
        };
        // go-git trims trailing spaces here, but the caller already trimmed the line
        // (so nothing can end in a space), and leading spaces after `!` stay.
        let (directory_only, text) = match text.strip_suffix('/') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let form = if text.contains('/') {
            parse_anchored(text)
        } else {
            Glob::parse(text).map_or(Form::Never, Form::Name)
        };
        Self {
            domain: domain.iter().map(|&component| component.into()).collect(),
            negated,
            directory_only,
            form,
        }
    }

    /// What a path must hold for this pattern to match, where that is one literal
    /// component; `None` for patterns that must be tried on every path.
    pub(super) fn key(&self) -> Key {
        match &self.form {
            Form::Never => Key::Never,
            Form::Name(glob) => glob.literal().map_or(Key::None, Key::AnyComponent),
            Form::Anchored(segments) => {
                match segments.iter().find(|segment| **segment != Segment::Empty) {
                    Some(Segment::Glob(glob)) => glob.literal().map_or(Key::None, |literal| {
                        Key::Component(self.domain.len(), literal)
                    }),
                    _ => Key::None,
                }
            }
        }
    }

    /// Whether the pattern matches `path` (its components; `is_directory` tells what the
    /// last one is). The caller decides what a match of a negated pattern means.
    pub(super) fn matches(&self, path: &[&str], is_directory: bool) -> bool {
        // Only paths strictly inside the domain; the domain directory itself is outside.
        if path.len() <= self.domain.len() {
            return false;
        }
        let (head, inside) = path.split_at(self.domain.len());
        if !head.iter().zip(&self.domain).all(|(a, b)| *a == &**b) {
            return false;
        }
        let last_may_match = is_directory || !self.directory_only;
        match &self.form {
            Form::Name(glob) => match inside.iter().position(|name| glob.matches(name)) {
                // go-git stops at the first matching component, even when dir-only
                // rejects it because it is the file itself.
                Some(index) => last_may_match || index + 1 < inside.len(),
                None => false,
            },
            Form::Anchored(segments) => match match_segments(segments, inside) {
                Some(rest) => last_may_match || !rest.is_empty(),
                None => false,
            },
            Form::Never => false,
        }
    }
}

fn parse_anchored(text: &str) -> Form {
    let mut segments = Vec::new();
    for segment in text.split('/') {
        segments.push(match segment {
            "" => Segment::Empty,
            "**" => Segment::AnyDirectories,
            // go-git answers "no match" when it reaches such a segment, and it reaches
            // every segment unless it has already said "no match".
            _ if segment.contains("**") => return Form::Never,
            _ => match Glob::parse(segment) {
                Ok(glob) => Segment::Glob(glob),
                Err(_) => return Form::Never,
            },
        });
    }
    Form::Anchored(segments)
}

/// go-git's `globMatch`: on success, the components left after the last segment matched
/// (a prefix match ignores everything below it). A `**` takes the first component that
/// fits the next segment and never reconsiders.
fn match_segments<'p, 'a>(segments: &[Segment], mut path: &'p [&'a str]) -> Option<&'p [&'a str]> {
    let mut matched = false;
    let mut pending_any = false;
    for (index, segment) in segments.iter().enumerate() {
        let glob = match segment {
            Segment::Empty => {
                pending_any = false;
                continue;
            }
            // A trailing `**` accepts whatever earlier segments left (even nothing, so
            // `foo/**` matches a file `foo`); it cannot make a match by itself.
            Segment::AnyDirectories if index + 1 == segments.len() => break,
            Segment::AnyDirectories => {
                pending_any = true;
                continue;
            }
            Segment::Glob(glob) => glob,
        };
        if path.is_empty() {
            return None;
        }
        if pending_any {
            pending_any = false;
            // Failing to find one leaves nothing for later segments, hence no match.
            let found = path.iter().position(|name| glob.matches(name));
            matched = found.is_some();
            path = found.map_or(&[], |found| &path[found + 1..]);
        } else if glob.matches(path[0]) {
            path = &path[1..];
            matched = true;
        } else {
            return None;
        }
    }
    matched.then_some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(line: &str, domain: &[&str], path: &str, is_directory: bool) -> bool {
        let components: Vec<&str> = path.split('/').collect();
        Pattern::parse(line, domain).matches(&components, is_directory)
    }

    fn file(line: &str, path: &str) -> bool {
        matches(line, &[], path, false)
    }

    #[test]
    fn simple_name_matches_any_component() {
        assert!(file("foo", "foo"));
        assert!(file("foo", "a/b/foo"));
        assert!(file("foo", "foo/x.yaml"));
        assert!(file("foo", "a/foo/b/x.yaml"));
        assert!(!file("foo", "foobar"));
        assert!(!file("foo", "a/xfoo/b"));
        assert!(file("*.yaml", "x.yaml/catalog.json"));
        assert!(file("*.yaml", "pkg/catalog.yaml"));
        assert!(!file("*.yaml", "pkg/catalog.json"));
    }

    #[test]
    fn dir_only_simple_name_skips_the_file_itself() {
        assert!(!file("foo/", "foo"));
        assert!(!file("foo/", "a/foo"));
        assert!(file("foo/", "foo/x"));
        assert!(file("foo/", "a/foo/b/x"));
        assert!(matches("foo/", &[], "a/foo", true));
        // The first matching component decides: here it is the file, so no match even
        // though go-git could have kept looking.
        assert!(!file("*/", "x"));
        assert!(file("*/", "x/y"));
    }

    #[test]
    fn slash_patterns_are_anchored_at_the_domain() {
        assert!(file("/ignore", "ignore"));
        assert!(file("/ignore", "ignore/a"));
        assert!(!file("/ignore", "x/ignore"));
        assert!(file("a/b", "a/b"));
        assert!(file("a/b", "a/b/c.yaml"));
        assert!(!file("a/b", "x/a/b"));
        assert!(!file("a/b", "a"));
        assert!(file("a/*.yaml", "a/x.yaml"));
        assert!(!file("a/*.yaml", "a/b/x.yaml"));
        assert!(file("*/x", "dir/x"));
        assert!(!file("a/b", "a/bc"));
        // `//` is an empty segment, skipped.
        assert!(file("a//b", "a/b"));
    }

    #[test]
    fn dir_only_slash_pattern_rejects_only_a_full_match() {
        assert!(!file("a/b/", "a/b"));
        assert!(file("a/b/", "a/b/c"));
        assert!(matches("a/b/", &[], "a/b", true));
        assert!(!file("/x/", "x"));
        assert!(file("/x/", "x/y"));
    }

    #[test]
    fn double_star_segments() {
        assert!(file("**/foo", "foo"));
        assert!(file("**/foo", "a/b/foo"));
        assert!(file("**/foo", "a/foo/b"));
        assert!(file("a/**/b", "a/b"));
        assert!(file("a/**/b", "a/x/y/b"));
        assert!(file("a/**/b", "a/x/b/c"));
        assert!(!file("a/**/b", "a/x/y"));
        assert!(!file("a/**/b", "x/a/b"));
        assert!(file("a/**", "a/x"));
        assert!(file("a/**", "a/x/y"));
        assert!(!file("a/**", "b/a"));
        // Quirk: the trailing `**` also accepts the bare `a`.
        assert!(file("a/**", "a"));
        assert!(!file("a/**/", "a"));
        assert!(file("a/**/", "a/x"));
        // A leading `/**` alone never matches: nothing sets "matched".
        assert!(!file("/**", "a"));
        assert!(!file("**/", "a"));
        assert!(file("**/", "a/b"));
    }

    #[test]
    fn double_star_never_backtracks() {
        // `**` takes the first `b`, then `c` must follow right away: go-git says no.
        assert!(!file("**/b/c", "b/b/c"));
        assert!(file("**/b/c", "x/b/c"));
        assert!(!file("a/**/b/c", "a/b/x/b/c"));
        // An empty segment cancels a pending `**`.
        assert!(!file("a/**//c", "a/b/c"));
        assert!(file("a/**//c", "a/c"));
    }

    #[test]
    fn segment_merely_containing_double_star_never_matches() {
        assert!(!file("a/foo**", "a/foo"));
        assert!(!file("a/foo**", "a/foobar"));
        assert!(!file("**x/a", "x/a"));
        // Without a slash it is a plain glob where `**` is `*`.
        assert!(file("foo**", "a/foobar"));
    }

    #[test]
    fn malformed_globs_never_match() {
        assert!(!file("[", "["));
        assert!(!file("a[", "a["));
        assert!(!file("x/[", "x/["));
        assert!(!file("x/y/[a-]", "x/y/a"));
        assert!(!file("!a\\", "a"));
    }

    #[test]
    fn domain_limits_to_paths_strictly_inside() {
        let domain = ["a", "b"];
        assert!(matches("x", &domain, "a/b/x", false));
        assert!(matches("x", &domain, "a/b/c/x", false));
        assert!(!matches("x", &domain, "a/x", false));
        assert!(!matches("x", &domain, "x", false));
        assert!(!matches("x", &domain, "a/bb/x", false));
        // Components of the domain itself are not candidates.
        assert!(!matches("b", &domain, "a/b", true));
        assert!(!matches("a", &domain, "a/b/c", false));
        assert!(matches("/c", &domain, "a/b/c/d", false));
        assert!(!matches("/c", &domain, "a/b/x/c", false));
    }

    #[test]
    fn negation_is_recorded_and_stripped() {
        let pattern = Pattern::parse("!a", &[]);
        assert!(pattern.negated);
        assert!(pattern.matches(&["x", "a"], false));
        // Only one `!` is removed; the rest is the glob.
        assert!(!file("!!a", "a"));
        assert!(file("!!a", "!a"));
        // Spaces after `!` are part of the glob.
        assert!(file("! a", " a"));
        assert!(!file("! a", "a"));
        // A bare `!` or `/` is an empty glob, which matches no real name.
        assert!(!file("!", "a"));
        assert!(!file("/", "a"));
    }
}
