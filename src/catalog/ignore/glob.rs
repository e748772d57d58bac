//! One path component matched the way Go's `path/filepath.Match` does on Unix, which is
//! what go-git's gitignore (and so opm's `.indexignore`) uses for every pattern segment:
//! `*`, `?`, `[...]` classes with `^` negation and ranges, and `\` escapes.
//!
//! A pattern is compiled once. Matching then follows Go step by step, byte offsets
//! included, so that even its corner cases (a `*` retried from inside a multi-byte
//! character) agree with opm.

/// A compiled `filepath.Match` pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Glob {
    /// The pattern cut at every `*` outside a class, as Go's `scanChunk` cuts it.
    chunks: Vec<Chunk>,
}

/// Go's `filepath.ErrBadPattern`. Go validates the whole pattern on every call, whatever
/// the name, so a malformed pattern never matches anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct BadPattern;

/// A run of single-character operators, possibly preceded by a `*`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Chunk {
    star: bool,
    operators: Vec<Operator>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Operator {
    /// Bytes compared exactly (escaped characters end up here too).
    Literal(Vec<u8>),
    /// `?`: one character.
    AnyCharacter,
    /// `[...]`: one character inside (or, negated, outside) the inclusive ranges.
    Class {
        negated: bool,
        ranges: Vec<(char, char)>,
    },
}

impl Glob {
    /// Compiles `pattern`, failing exactly where Go returns `ErrBadPattern`.
    pub(super) fn parse(pattern: &str) -> Result<Self, BadPattern> {
        let mut chunks = Vec::new();
        let mut rest = pattern;
        while !rest.is_empty() {
            let after_stars = rest.trim_start_matches('*');
            let star = after_stars.len() != rest.len();
            let end = chunk_end(after_stars);
            let operators = compile_chunk(&after_stars[..end])?;
            chunks.push(Chunk { star, operators });
            rest = &after_stars[end..];
        }
        Ok(Self { chunks })
    }

    /// Whether the whole of `name` matches.
    /// The name this glob matches, when it matches one name only (no `*`, `?` or
    /// class): such patterns are looked up rather than tried one by one.
    pub(super) fn literal(&self) -> Option<String> {
        let [chunk] = self.chunks.as_slice() else {
            return None;
        };
        if chunk.star {
            return None;
        }
        let mut bytes = Vec::new();
        for operator in &chunk.operators {
            let Operator::Literal(literal) = operator else {
                return None;
            };
            bytes.extend_from_slice(literal);
        }
        String::from_utf8(bytes).ok()
    }

    pub(super) fn matches(&self, name: &str) -> bool {
        let mut name = name.as_bytes();
        for (index, chunk) in self.chunks.iter().enumerate() {
            let last = index + 1 == self.chunks.len();
            if chunk.star && chunk.operators.is_empty() {
                // A trailing `*` takes the rest, unless it holds a separator.
                return !name.contains(&b'/');
            }
            // The last chunk must use up the name; earlier ones match where they first can
            // (leftmost commitment is enough because chunks hold no stars).
            let fits = |rest: &[u8]| !last || rest.is_empty();
            match chunk.match_prefix(name) {
                Some(rest) if fits(rest) => name = rest,
                _ if chunk.star => match chunk.match_after_star(name, fits) {
                    Some(rest) => name = rest,
                    None => return false,
                },
                _ => return false,
            }
        }
        name.is_empty()
    }
}

impl Chunk {
    /// The rest of `name` after this chunk matched its beginning.
    fn match_prefix<'n>(&self, mut name: &'n [u8]) -> Option<&'n [u8]> {
        for operator in &self.operators {
            if name.is_empty() {
                return None;
            }
            match operator {
                Operator::Literal(bytes) => name = name.strip_prefix(bytes.as_slice())?,
                Operator::AnyCharacter => {
                    if name[0] == b'/' {
                        return None;
                    }
                    name = &name[decode(name).1..];
                }
                Operator::Class { negated, ranges } => {
                    let (character, width) = decode(name);
                    let inside = ranges
                        .iter()
                        .any(|&(low, high)| low <= character && character <= high);
                    if inside == *negated {
                        return None;
                    }
                    name = &name[width..];
                }
            }
        }
        Some(name)
    }

    /// Go lets the star skip one more byte at a time (not one character), never a `/`.
    fn match_after_star<'n>(
        &self,
        name: &'n [u8],
        fits: impl Fn(&[u8]) -> bool,
    ) -> Option<&'n [u8]> {
        (1..=name.len())
            .take_while(|&skip| name[skip - 1] != b'/')
            .filter_map(|skip| self.match_prefix(&name[skip..]))
            .find(|rest| fits(rest))
    }
}

/// Where the chunk starting at `pattern` ends: at the first `*` that Go's `scanChunk`
/// sees outside brackets (it tracks brackets naively and skips escaped bytes).
fn chunk_end(pattern: &str) -> usize {
    let bytes = pattern.as_bytes();
    let mut in_brackets = false;
    let mut index = 0;
    while index < bytes.len() {
        match bytes[index] {
            b'\\' if index + 1 < bytes.len() => index += 1,
            b'[' => in_brackets = true,
            b']' => in_brackets = false,
            b'*' if !in_brackets => return index,
            _ => {}
        }
        index += 1;
    }
    bytes.len()
}

/// Compiles one star-free chunk, with Go's `matchChunk` syntax rules.
fn compile_chunk(mut chunk: &str) -> Result<Vec<Operator>, BadPattern> {
    let mut operators = Vec::new();
    while let Some(first) = chunk.chars().next() {
        chunk = &chunk[first.len_utf8()..];
        match first {
            '[' => {
                let (class, rest) = compile_class(chunk)?;
                operators.push(class);
                chunk = rest;
            }
            '?' => operators.push(Operator::AnyCharacter),
            '\\' => {
                let escaped = chunk.chars().next().ok_or(BadPattern)?;
                chunk = &chunk[escaped.len_utf8()..];
                push_literal(&mut operators, escaped);
            }
            literal => push_literal(&mut operators, literal),
        }
    }
    Ok(operators)
}

fn push_literal(operators: &mut Vec<Operator>, character: char) {
    let mut buffer = [0; 4];
    let encoded = character.encode_utf8(&mut buffer).as_bytes();
    if let Some(Operator::Literal(bytes)) = operators.last_mut() {
        bytes.extend_from_slice(encoded);
    } else {
        operators.push(Operator::Literal(encoded.to_vec()));
    }
}

/// Compiles a class whose `[` was just consumed; returns it and the pattern after `]`.
/// A class needs at least one range, so `[]a]` is malformed rather than a class of `]`.
fn compile_class(mut chunk: &str) -> Result<(Operator, &str), BadPattern> {
    let negated = match chunk.strip_prefix('^') {
        Some(rest) => {
            chunk = rest;
            true
        }
        None => false,
    };
    let mut ranges = Vec::new();
    loop {
        if !ranges.is_empty()
            && let Some(rest) = chunk.strip_prefix(']')
        {
            return Ok((Operator::Class { negated, ranges }, rest));
        }
        let (low, rest) = class_character(chunk)?;
        chunk = rest;
        let mut high = low;
        if let Some(rest) = chunk.strip_prefix('-') {
            (high, chunk) = class_character(rest)?;
        }
        ranges.push((low, high));
    }
}

/// Go's `getEsc`: one possibly escaped character of a class, which may not be an
/// unescaped `-` or `]` and must be followed by more pattern (at least the closing `]`).
fn class_character(chunk: &str) -> Result<(char, &str), BadPattern> {
    let chunk = match chunk.as_bytes().first() {
        None | Some(b'-' | b']') => return Err(BadPattern),
        Some(b'\\') => &chunk[1..],
        Some(_) => chunk,
    };
    let character = chunk.chars().next().ok_or(BadPattern)?;
    let rest = &chunk[character.len_utf8()..];
    if rest.is_empty() {
        return Err(BadPattern);
    }
    Ok((character, rest))
}

/// Go's `utf8.DecodeRuneInString` on a name that may start inside a character (after
/// a star skipped single bytes): a stray byte reads as U+FFFD, one byte wide.
fn decode(name: &[u8]) -> (char, usize) {
    let width = match name[0] {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => 0,
    };
    name.get(..width)
        .and_then(|bytes| std::str::from_utf8(bytes).ok())
        .and_then(|text| text.chars().next())
        .map_or((char::REPLACEMENT_CHARACTER, 1), |character| {
            (character, width)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(pattern: &str, name: &str) -> Result<bool, BadPattern> {
        Glob::parse(pattern).map(|glob| glob.matches(name))
    }

    /// The table of Go's own `TestMatch` (facts about Go's behaviour, Unix rules).
    #[test]
    fn agrees_with_go_match_table() {
        let bad = Err(BadPattern);
        let cases: &[(&str, &str, Result<bool, BadPattern>)] = &[
            ("abc", "abc", Ok(true)),
            ("*", "abc", Ok(true)),
            ("*c", "abc", Ok(true)),
            ("a*", "a", Ok(true)),
            ("a*", "abc", Ok(true)),
            ("a*", "ab/c", Ok(false)),
            ("a*/b", "abc/b", Ok(true)),
            ("a*/b", "a/c/b", Ok(false)),
            ("a*b*c*d*e*/f", "axbxcxdxe/f", Ok(true)),
            ("a*b*c*d*e*/f", "axbxcxdxexxx/f", Ok(true)),
            ("a*b*c*d*e*/f", "axbxcxdxe/xxx/f", Ok(false)),
            ("a*b*c*d*e*/f", "axbxcxdxexxx/fff", Ok(false)),
            ("a*b?c*x", "abxbbxdbxebxczzx", Ok(true)),
            ("a*b?c*x", "abxbbxdbxebxczzy", Ok(false)),
            ("ab[c]", "abc", Ok(true)),
            ("ab[b-d]", "abc", Ok(true)),
            ("ab[e-g]", "abc", Ok(false)),
            ("ab[^c]", "abc", Ok(false)),
            ("ab[^b-d]", "abc", Ok(false)),
            ("ab[^e-g]", "abc", Ok(true)),
            ("a\\*b", "a*b", Ok(true)),
            ("a\\*b", "ab", Ok(false)),
            ("a?b", "a☺b", Ok(true)),
            ("a[^a]b", "a☺b", Ok(true)),
            ("a???b", "a☺b", Ok(false)),
            ("a[^a][^a][^a]b", "a☺b", Ok(false)),
            ("[a-ζ]*", "α", Ok(true)),
            ("*[a-ζ]", "A", Ok(false)),
            ("a?b", "a/b", Ok(false)),
            ("a*b", "a/b", Ok(false)),
            ("[\\]a]", "]", Ok(true)),
            ("[\\-]", "-", Ok(true)),
            ("[x\\-]", "x", Ok(true)),
            ("[x\\-]", "-", Ok(true)),
            ("[x\\-]", "z", Ok(false)),
            ("[\\-x]", "x", Ok(true)),
            ("[\\-x]", "-", Ok(true)),
            ("[\\-x]", "a", Ok(false)),
            ("[]a]", "]", bad),
            ("[-]", "-", bad),
            ("[x-]", "x", bad),
            ("[-x]", "x", bad),
            ("\\", "a", bad),
            ("[a-b-c]", "a", bad),
            ("[", "a", bad),
            ("[^", "a", bad),
            ("[^bc", "a", bad),
            ("a[", "a", bad),
            ("a[", "ab", bad),
            ("a[", "x", bad),
            ("a/b[", "x", bad),
            ("*x", "xxx", Ok(true)),
        ];
        for &(pattern, name, expected) in cases {
            assert_eq!(matches(pattern, name), expected, "{pattern:?} vs {name:?}");
        }
    }

    #[test]
    fn bang_is_not_a_negation_in_classes() {
        assert_eq!(matches("[!a]", "b"), Ok(false));
        assert_eq!(matches("[!a]", "!"), Ok(true));
        assert_eq!(matches("[!a]", "a"), Ok(true));
        assert_eq!(matches("[^a]", "b"), Ok(true));
        assert_eq!(matches("[^a]", "a"), Ok(false));
    }

    #[test]
    fn escapes_make_special_characters_literal() {
        assert_eq!(matches("\\#x", "#x"), Ok(true));
        assert_eq!(matches("\\?", "?"), Ok(true));
        assert_eq!(matches("\\?", "a"), Ok(false));
        assert_eq!(matches("\\[a]", "[a]"), Ok(true));
        assert_eq!(matches("\\a\\b", "ab"), Ok(true));
        assert_eq!(matches("[\\^]", "^"), Ok(true));
        assert_eq!(matches("a\\", "a"), Err(BadPattern));
    }

    #[test]
    fn classes_hold_ranges_and_stars() {
        assert_eq!(matches("[a-c]x", "bx"), Ok(true));
        assert_eq!(matches("[a-cx-z]", "y"), Ok(true));
        assert_eq!(matches("[a-cx-z]", "m"), Ok(false));
        // An inverted range is well formed but holds nothing.
        assert_eq!(matches("[z-a]", "m"), Ok(false));
        assert_eq!(matches("[^z-a]", "m"), Ok(true));
        // A `*` inside brackets does not cut the pattern.
        assert_eq!(matches("[*]", "*"), Ok(true));
        assert_eq!(matches("a[*]b", "axb"), Ok(false));
        // `^` only negates in first position.
        assert_eq!(matches("[a^]", "^"), Ok(true));
        assert_eq!(matches("[]", "a"), Err(BadPattern));
        assert_eq!(matches("[^]a]", "b"), Err(BadPattern));
    }

    #[test]
    fn stars_and_question_marks() {
        assert_eq!(matches("*.yaml", "catalog.yaml"), Ok(true));
        assert_eq!(matches("*.yaml", "catalog.yaml.bak"), Ok(false));
        assert_eq!(matches("**", "anything"), Ok(true));
        assert_eq!(matches("foo**", "foobar"), Ok(true));
        assert_eq!(matches("*", ""), Ok(true));
        assert_eq!(matches("a*a", "a"), Ok(false));
        assert_eq!(matches("*a*b", "xaxxb"), Ok(true));
        assert_eq!(matches("?", ""), Ok(false));
        assert_eq!(matches("?", "é"), Ok(true));
        assert_eq!(matches("??", "é"), Ok(false));
        assert_eq!(matches("", ""), Ok(true));
        assert_eq!(matches("", "a"), Ok(false));
    }

    #[test]
    fn malformed_tail_is_reported_even_after_a_mismatch() {
        // Go checks the rest of the pattern before answering "no match".
        assert_eq!(matches("x*[", "abc"), Err(BadPattern));
        assert_eq!(matches("b*[a-]", "a"), Err(BadPattern));
    }

    #[test]
    fn star_retries_from_inside_a_character_like_go() {
        // Go retries the chunk after each skipped byte; from the middle of `é` the class
        // sees U+FFFD, which is inside this class, so Go says yes.
        assert_eq!(matches("*[\u{fffd}]", "é"), Ok(true));
        assert_eq!(matches("[\u{fffd}]", "é"), Ok(false));
    }
}
