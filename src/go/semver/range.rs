//! OLM's `skipRange` syntax and semantics: `github.com/blang/semver/v4` v4.0.0
//! `ParseRange`, quirks included (wildcard expansion, dropped one-character words,
//! spaces after operators), with blang's message texts word for word.
//!
//! A range is alternatives separated by `||`, each a space-separated list of
//! comparators that must all hold. Matching is a plain precedence comparison:
//! unlike npm, pre-releases are not excluded, so `<2.0.0` contains `2.0.0-alpha`.

use std::cmp::Ordering;

use crate::go::fmt::quote;
use crate::go::semver::{SemverError, Version};

/// A parsed version range.
#[derive(Debug, Clone)]
pub(crate) struct Range {
    /// The `||` alternatives, each a conjunction of comparators. An alternative
    /// can be empty (`a || || b`): blang then holds a nil function and panics
    /// when it reaches it; here an empty alternative matches nothing.
    alternatives: Vec<Vec<Comparator>>,
}

#[derive(Debug, Clone)]
struct Comparator {
    operator: Operator,
    version: Version,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Operator {
    Equal,
    NotEqual,
    Greater,
    GreaterOrEqual,
    Less,
    LessOrEqual,
}

impl Range {
    /// blang's `ParseRange`; the error's `Display` is the text opm prints after
    /// `invalid skipRange "<r>": `. (opm skips the check for an empty skipRange,
    /// which blang rejects with `Last element in range is '||'`.)
    pub(crate) fn parse(text: &str) -> Result<Self, RangeError> {
        let words = split_words(text);
        let groups = split_alternatives(&words)?;
        // blang expands every wildcard before reading any comparator, so an
        // expansion error wins over an earlier bad comparator.
        let expanded: Vec<Vec<String>> = groups
            .into_iter()
            .map(expand_wildcards)
            .collect::<Result<_, _>>()?;
        let alternatives = expanded
            .iter()
            .map(|group| group.iter().map(|word| comparator(word)).collect())
            .collect::<Result<_, _>>()?;
        Ok(Self { alternatives })
    }

    /// Whether `version` satisfies the range (build metadata is ignored).
    pub(crate) fn contains(&self, version: &Version) -> bool {
        self.alternatives.iter().any(|comparators| {
            !comparators.is_empty() && comparators.iter().all(|c| c.matches(version))
        })
    }
}

impl Comparator {
    fn matches(&self, version: &Version) -> bool {
        let order = version.cmp(&self.version);
        match self.operator {
            Operator::Equal => order == Ordering::Equal,
            Operator::NotEqual => order != Ordering::Equal,
            Operator::Greater => order == Ordering::Greater,
            Operator::GreaterOrEqual => order != Ordering::Less,
            Operator::Less => order == Ordering::Less,
            Operator::LessOrEqual => order != Ordering::Greater,
        }
    }
}

impl Operator {
    fn parse(text: &str) -> Option<Self> {
        Some(match text {
            "" | "=" | "==" => Self::Equal,
            "!" | "!=" => Self::NotEqual,
            ">" => Self::Greater,
            ">=" => Self::GreaterOrEqual,
            "<" => Self::Less,
            "<=" => Self::LessOrEqual,
            _ => return None,
        })
    }
}

/// Why a range did not parse; `Display` is blang's text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum RangeError {
    #[error("First element in range is '||'")]
    FirstIsOr,
    /// Also what an empty or blank range gives.
    #[error("Last element in range is '||'")]
    LastIsOr,
    #[error("Could not get version from string: {}", quote(.word))]
    MissingVersion { word: String },
    #[error(
        "Could not parse Range {}: Could not parse comparator {} in {}",
        quote(.word), quote(.operator), quote(&format!("{}{}", .operator, .version))
    )]
    Operator {
        word: String,
        operator: String,
        version: String,
    },
    #[error(
        "Could not parse Range {}: Could not parse version {} in {}: {reason}",
        quote(.word), quote(.version), quote(&format!("{}{}", .operator, .version))
    )]
    Version {
        word: String,
        operator: String,
        version: String,
        reason: SemverError,
    },
}

/// blang's `splitAndTrim`: split on spaces, except a space after `>`, `<` or `=`
/// (so `>= 1.0.0` stays one word), then delete the spaces inside words. A word of
/// a single character is dropped (`1.0.0 - 2.0.0` is `1.0.0 2.0.0`).
fn split_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut start = 0;
    let mut last_non_space = 0u8;
    for (index, byte) in text.bytes().enumerate() {
        if byte == b' ' && !matches!(last_non_space, b'>' | b'<' | b'=') {
            if start + 1 < index {
                words.push(&text[start..index]);
            }
            start = index + 1;
        } else if byte != b' ' {
            last_non_space = byte;
        }
    }
    if start + 1 < text.len() {
        words.push(&text[start..]);
    }
    words
        .into_iter()
        .map(|word| word.replace(' ', ""))
        .collect()
}

/// blang's `splitORParts`. No words at all counts as a trailing `||`.
fn split_alternatives(words: &[String]) -> Result<Vec<&[String]>, RangeError> {
    let mut groups = Vec::new();
    let mut start = 0;
    for (index, word) in words.iter().enumerate() {
        if word == "||" {
            if index == 0 {
                return Err(RangeError::FirstIsOr);
            }
            groups.push(&words[start..index]);
            start = index + 1;
        }
    }
    if start == words.len() {
        return Err(RangeError::LastIsOr);
    }
    groups.push(&words[start..]);
    Ok(groups)
}

/// blang's `splitComparatorVersion`: the version starts at the first Unicode
/// decimal digit; what precedes it, trimmed, is the operator.
fn split_operator(word: &str) -> Result<(&str, &str), RangeError> {
    match word.char_indices().find(|&(_, c)| is_decimal_digit(c)) {
        Some((index, _)) => Ok((word[..index].trim(), &word[index..])),
        None => Err(RangeError::MissingVersion {
            word: word.to_owned(),
        }),
    }
}

fn comparator(word: &str) -> Result<Comparator, RangeError> {
    let (operator, version) = split_operator(word)?;
    let context = || (word.to_owned(), operator.to_owned(), version.to_owned());
    let Some(parsed_operator) = Operator::parse(operator) else {
        let (word, operator, version) = context();
        return Err(RangeError::Operator {
            word,
            operator,
            version,
        });
    };
    match Version::parse(version) {
        Ok(version) => Ok(Comparator {
            operator: parsed_operator,
            version,
        }),
        Err(reason) => {
            let (word, operator, version) = context();
            Err(RangeError::Version {
                word,
                operator,
                version,
                reason,
            })
        }
    }
}

/// Which element an `x` wildcard stands for (blang's `getWildcardType`; its
/// major wildcard cannot occur because a version starts with a digit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Wildcard {
    Minor,
    Patch,
}

/// blang's `expandWildcardVersion`, applied to every word containing an `x`
/// (even inside a pre-release, where it can mangle or break the word):
/// `>=1.2.x` → `>=1.2.0`, `<=1.2.x` → `<1.3.0`, `>1.2.x` → `>=1.3.0`,
/// `<1.2.x` → `<1.2.0`, `1.2.x` → `>=1.2.0 <1.3.0`, `!=1.2.x` → `<1.2.0 >=1.3.0`
/// (an impossible conjunction), and alike for `1.x` on the major number.
/// An unknown operator is dropped (`~1.x` → `1.0.0`); a bound that needs an
/// increment without a wildcard to increment becomes the bare operator, which
/// then fails to parse.
fn expand_wildcards(words: &[String]) -> Result<Vec<String>, RangeError> {
    let mut expanded = Vec::with_capacity(words.len());
    for word in words {
        if !word.contains('x') {
            expanded.push(word.clone());
            continue;
        }
        let (operator, version) = split_operator(word)?;
        let flat = flatten_wildcards(version);
        let (bound_operator, increment, lower_operator) = match operator {
            ">" => (">=", true, None),
            ">=" => (">=", false, None),
            "<" => ("<", false, None),
            "<=" => ("<", true, None),
            "" | "=" | "==" => ("<", true, Some(">=")),
            "!=" | "!" => (">=", true, Some("<")),
            _ => ("", false, None),
        };
        if let Some(lower_operator) = lower_operator {
            expanded.push(format!("{lower_operator}{flat}"));
        }
        let bound = if increment {
            wildcard(version)
                .and_then(|w| increment_element(&flat, w))
                .unwrap_or_default()
        } else {
            flat
        };
        expanded.push(format!("{bound_operator}{bound}"));
    }
    Ok(expanded)
}

/// An `x` as the last of two or three dot-separated elements.
fn wildcard(version: &str) -> Option<Wildcard> {
    let elements: Vec<&str> = version.split('.').collect();
    match (elements.len(), elements.last()) {
        (2, Some(&"x")) => Some(Wildcard::Minor),
        (3, Some(&"x")) => Some(Wildcard::Patch),
        _ => None,
    }
}

/// blang's `createVersionFromWildcard`: `.x.x` → `.x` once, then `.x` → `.0`
/// once, then a patch `.0` appended to two elements (so `1.x.x` is `1.0.0`,
/// but with a patch wildcard: `1.x.x` means `>=1.0.0 <1.1.0`).
fn flatten_wildcards(version: &str) -> String {
    let flat = version.replacen(".x.x", ".x", 1).replacen(".x", ".0", 1);
    if flat.split('.').count() == 2 {
        flat + ".0"
    } else {
        flat
    }
}

/// Adds one to the major (minor wildcard) or minor (patch wildcard) element, read
/// as Go's `strconv.Atoi` reads it (a sign allowed, 64-bit, wrapping on `+1`).
/// `None` when Go's `Atoi` fails; blang then leaves the bound empty.
fn increment_element(flat: &str, wildcard: Wildcard) -> Option<String> {
    let index = match wildcard {
        Wildcard::Minor => 0,
        Wildcard::Patch => 1,
    };
    let mut elements: Vec<String> = flat.split('.').map(str::to_owned).collect();
    let element = elements.get_mut(index)?;
    let number: i64 = element.parse().ok()?;
    *element = number.wrapping_add(1).to_string();
    Some(elements.join("."))
}

/// Go's `unicode.IsDigit` (general category Nd, Unicode 15.0): where blang
/// thinks a version starts.
fn is_decimal_digit(character: char) -> bool {
    // First code point of each run of ten Nd digits.
    const ZEROS: [u32; 63] = [
        0x30, 0x660, 0x6F0, 0x7C0, 0x966, 0x9E6, 0xA66, 0xAE6, 0xB66, 0xBE6, 0xC66, 0xCE6, 0xD66,
        0xDE6, 0xE50, 0xED0, 0xF20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80, 0x1A90,
        0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0,
        0xFF10, 0x104A0, 0x10D30, 0x11066, 0x110F0, 0x11136, 0x111D0, 0x112F0, 0x11450, 0x114D0,
        0x11650, 0x116C0, 0x11730, 0x118E0, 0x11950, 0x11C50, 0x11D50, 0x11DA0, 0x11F50, 0x16A60,
        0x16AC0, 0x16B50, 0x1E140, 0x1E2F0, 0x1E4F0, 0x1E950, 0x1FBF0,
    ];
    let code = u32::from(character);
    if character.is_ascii() {
        return character.is_ascii_digit();
    }
    // Mathematical digits: five styles of ten.
    (0x1D7CE..=0x1D7FF).contains(&code)
        || ZEROS.iter().any(|&zero| (zero..zero + 10).contains(&code))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(text: &str) -> Range {
        Range::parse(text).unwrap_or_else(|error| panic!("{text:?}: {error}"))
    }

    fn error(text: &str) -> String {
        Range::parse(text).expect_err(text).to_string()
    }

    /// Asserts which of `versions` the range contains (`+` prefix) and which not (`-`).
    fn check(text: &str, versions: &[&str]) {
        let parsed = range(text);
        for expectation in versions {
            let (expected, version) = match expectation.split_at(1) {
                ("+", version) => (true, version),
                ("-", version) => (false, version),
                _ => panic!("bad expectation {expectation:?}"),
            };
            let version = Version::parse(version).expect(version);
            assert_eq!(
                parsed.contains(&version),
                expected,
                "{text:?} contains {version}"
            );
        }
    }

    #[test]
    fn plain_comparators() {
        check(
            ">=1.0.0 <2.0.0",
            &["+1.0.0", "+1.5.0", "-2.0.0", "-0.9.9", "-1.0.0-alpha"],
        );
        check(
            ">1.0.0",
            &["-1.0.0", "+1.0.1", "+1.0.1-alpha", "-1.0.0+build"],
        );
        check("<=1.0.0", &["+1.0.0", "+1.0.0+build", "-1.0.1-0"]);
        for equal in ["1.0.0", "=1.0.0", "==1.0.0"] {
            check(equal, &["+1.0.0", "+1.0.0+build", "-1.0.1", "-1.0.0-rc.1"]);
        }
        for not_equal in ["!1.0.0", "!=1.0.0"] {
            check(
                not_equal,
                &["-1.0.0", "-1.0.0+build", "+1.0.1", "+1.0.0-rc.1"],
            );
        }
        check("<=1.0.0+build.7", &["+1.0.0", "-1.0.1"]);
        check(
            ">1.0.0 <3.0.0 !2.0.3-beta.2",
            &["+2.0.3-beta.1", "-2.0.3-beta.2", "+2.0.3"],
        );
    }

    #[test]
    fn prereleases_compare_by_precedence_without_exclusion() {
        check("<2.0.0", &["+2.0.0-alpha", "+1.0.0-0"]);
        check(
            ">=1.0.0-alpha <1.0.0",
            &["+1.0.0-alpha", "+1.0.0-beta.2", "-1.0.0", "-0.9.0"],
        );
    }

    #[test]
    fn alternatives() {
        check("<1.0.0 || >=2.0.0", &["+0.5.0", "-1.5.0", "+2.0.0"]);
        check(
            ">1.0.0 <2.0.0 || >3.0.0 !4.2.1",
            &["+1.2.3", "+3.1.1", "-4.2.1", "-2.1.1"],
        );
        // An empty alternative parses (opm accepts it) and matches nothing.
        check(">2.0.0 || || <1.0.0", &["+3.0.0", "-1.5.0", "+0.5.0"]);
    }

    #[test]
    fn spaces_after_operators_and_between_words() {
        check("> 1.0.0", &["-1.0.0", "+1.0.1"]);
        check(">=  1.0.0   <  2.0.0", &["+1.0.0", "-2.0.0"]);
        check("  >= 1.0.0 || < 0.5.0  ", &["+1.0.0", "+0.1.0", "-0.7.0"]);
        check("= 1.0.0", &["+1.0.0", "-1.0.1"]);
        check(">=\t1.0.0", &["+1.0.0", "-0.1.0"]);
        // A one-character word is dropped: no hyphen ranges, `~ ` vanishes.
        check("1.0.0 - 2.0.0", &["-1.0.0", "-1.5.0", "-2.0.0"]);
        check("~ 1.0.0", &["+1.0.0", "-1.0.1"]);
        check(">=1.0.0 5", &["+1.0.0"]);
        // ... which turns `! 1.0.0` (not `!=`) into an equality.
        check("! 1.0.0", &["+1.0.0", "-1.0.1"]);
        assert_eq!(
            error(">~ 1.0.0"),
            r#"Could not get version from string: ">~""#
        );
    }

    #[test]
    fn wildcards_expand_like_blang() {
        check(
            "1.x",
            &[
                "-0.9.9",
                "+1.0.0",
                "+1.9.9",
                "+2.0.0-alpha",
                "-2.0.0",
                "-1.0.0-alpha",
            ],
        );
        check("=1.x", &["+1.0.0", "-2.0.0"]);
        check("1.2.x", &["-1.1.9", "+1.2.0", "+1.2.99", "-1.3.0"]);
        // `1.x.x` is read as a patch wildcard on `1.0.0`.
        check("1.x.x", &["+1.0.5", "-1.1.0", "-1.5.0"]);
        check(">1.x", &["-1.9.9", "+2.0.0"]);
        check(">=1.x", &["-0.9.9", "+1.0.0"]);
        check("<1.x", &["+0.9.9", "-1.0.0"]);
        check("<=1.x", &["+1.9.9", "-2.0.0"]);
        check(">1.2.x", &["-1.2.9", "+1.3.0"]);
        check("<1.2.x", &["+1.1.9", "-1.2.0"]);
        check("<=1.2.x", &["+1.2.9", "-1.3.0"]);
        check(">= 1.2.x", &["+1.2.0", "-1.1.0"]);
        // Not-equal expands to an impossible conjunction.
        for never in ["!=1.x", "!1.2.x"] {
            check(never, &["-0.5.0", "-1.2.5", "-1.5.0", "-2.5.0"]);
        }
        // An unknown operator before a wildcard word is dropped.
        check("~1.x", &["+1.0.0", "-1.0.1"]);
        check("x1.0.0", &["+1.0.0", "-1.0.1"]);
        // Sign handling of Go's Atoi in the increment.
        check("<=1.+2.x", &["+1.2.9", "-1.3.0"]);
        // An `x` in a pre-release is only harmless when no increment is needed.
        check(">=1.0.0-xyz", &["+1.0.0", "-1.0.0-abc"]);
    }

    #[test]
    fn invalid_ranges_carry_blangs_messages() {
        let cases = [
            (
                ">v0.1.0",
                r#"Could not parse Range ">v0.1.0": Could not parse comparator ">v" in ">v0.1.0""#,
            ),
            (
                ">1.00.1",
                r#"Could not parse Range ">1.00.1": Could not parse version "1.00.1" in ">1.00.1": Minor number must not contain leading zeroes "00""#,
            ),
            ("|| >1.0.0", "First element in range is '||'"),
            (">1.0.0 ||", "Last element in range is '||'"),
            ("", "Last element in range is '||'"),
            ("   ", "Last element in range is '||'"),
            ("*", "Last element in range is '||'"),
            (
                "~1.0.0",
                r#"Could not parse Range "~1.0.0": Could not parse comparator "~" in "~1.0.0""#,
            ),
            (
                "^1.0.0",
                r#"Could not parse Range "^1.0.0": Could not parse comparator "^" in "^1.0.0""#,
            ),
            (
                "~\t1.0.0",
                r#"Could not parse Range "~\t1.0.0": Could not parse comparator "~" in "~1.0.0""#,
            ),
            (
                "1.0.0,2.0.0",
                r#"Could not parse Range "1.0.0,2.0.0": Could not parse version "1.0.0,2.0.0" in "1.0.0,2.0.0": Invalid character(s) found in patch number "0,2.0.0""#,
            ),
            (
                ">=1.0.0||<2.0.0",
                r#"Could not parse Range ">=1.0.0||<2.0.0": Could not parse version "1.0.0||<2.0.0" in ">=1.0.0||<2.0.0": Invalid character(s) found in patch number "0||<2.0.0""#,
            ),
            (
                "1.X",
                r#"Could not parse Range "1.X": Could not parse version "1.X" in "1.X": No Major.Minor.Patch elements found"#,
            ),
            (">=x", r#"Could not get version from string: ">=x""#),
            ("latest", r#"Could not get version from string: "latest""#),
            (">1.0.0-xyz", r#"Could not get version from string: ">=""#),
            ("1.x.0", r#"Could not get version from string: "<""#),
            // Wildcards are expanded everywhere before any comparator is read.
            (
                ">1.00.1 || >x",
                r#"Could not get version from string: ">x""#,
            ),
        ];
        for (text, message) in cases {
            assert_eq!(error(text), message, "{text:?}");
        }
    }

    #[test]
    fn spec_examples() {
        assert_eq!(
            format!(
                "invalid skipRange {}: {}",
                quote(">v0.1.0"),
                error(">v0.1.0")
            ),
            r#"invalid skipRange ">v0.1.0": Could not parse Range ">v0.1.0": Could not parse comparator ">v" in ">v0.1.0""#
        );
        assert_eq!(
            format!(
                "invalid skipRange {}: {}",
                quote(">1.00.1"),
                error(">1.00.1")
            ),
            r#"invalid skipRange ">1.00.1": Could not parse Range ">1.00.1": Could not parse version "1.00.1" in ">1.00.1": Minor number must not contain leading zeroes "00""#
        );
        // §6.4's worked example: v2.0.0's skipRange covers v1.0.0.
        check(">=1.0.0 <2.0.0", &["+1.0.0", "-2.0.0", "-3.0.0"]);
    }

    #[test]
    fn versions_start_at_any_unicode_decimal_digit() {
        // U+0663 ARABIC-INDIC DIGIT THREE: Go's unicode.IsDigit says yes, so the
        // operator is `>` and the version is what fails.
        assert_eq!(
            error(">\u{663}1.0.0"),
            "Could not parse Range \">\u{663}1.0.0\": Could not parse version \"\u{663}1.0.0\" in \">\u{663}1.0.0\": Invalid character(s) found in major number \"\u{663}1\""
        );
        assert!(is_decimal_digit('\u{1D7CE}') && is_decimal_digit('\u{FF19}'));
        assert!(!is_decimal_digit('\u{B2}') && !is_decimal_digit('x'));
    }
}
