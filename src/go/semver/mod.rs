//! Bundle versions as OLM reads them: `github.com/blang/semver/v4` v4.0.0 strict
//! `Parse`, its precedence order and its `String()`, with blang's message texts
//! word for word; and the bundle *release* built from the same identifiers (spec §2.7).

pub(crate) mod range;

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};

use crate::go::fmt::quote;

/// A semantic version as blang's strict `Parse` accepts it.
///
/// Equality, hashing and ordering follow semver precedence, like blang's `Compare`
/// and `Equals`: build metadata is ignored, so `1.0.0+a == 1.0.0+b`. Keeping `Eq`
/// consistent with `Ord` this way lets callers sort by version and then by a second
/// key (a release, a name) exactly as opm does. Where build metadata matters
/// (duplicate-version detection, normalised names) use the `Display` text or [`Version::build`].
/// `Default` is 0.0.0, Go's zero value.
#[derive(Debug, Clone, Default)]
pub(crate) struct Version {
    major: u64,
    minor: u64,
    patch: u64,
    pre: Box<[Prerelease]>,
    build: Box<[String]>,
}

impl Version {
    /// blang's strict `Parse`; the error's `Display` is blang's message text.
    pub(crate) fn parse(text: &str) -> Result<Self, SemverError> {
        if text.is_empty() {
            return Err(SemverError::Empty);
        }
        let mut elements = text.splitn(3, '.');
        let (Some(major), Some(minor), Some(rest)) =
            (elements.next(), elements.next(), elements.next())
        else {
            return Err(SemverError::MissingElements);
        };
        let major = number(Element::Major, major)?;
        let minor = number(Element::Minor, minor)?;
        // Build metadata starts at the first `+`; the pre-release at the first `-` before it.
        let (rest, build) = match rest.split_once('+') {
            Some((rest, build)) => (rest, Some(build)),
            None => (rest, None),
        };
        let (patch, pre) = match rest.split_once('-') {
            Some((patch, pre)) => (patch, Some(pre)),
            None => (rest, None),
        };
        let patch = number(Element::Patch, patch)?;
        let pre = match pre {
            Some(pre) => pre
                .split('.')
                .map(Prerelease::parse)
                .collect::<Result<_, _>>()?,
            None => Box::default(),
        };
        let build = match build {
            Some(build) => build
                .split('.')
                .map(build_identifier)
                .collect::<Result<_, _>>()?,
            None => Box::default(),
        };
        Ok(Self {
            major,
            minor,
            patch,
            pre,
            build,
        })
    }

    /// blang's `ParseTolerant`: surrounding spaces, a leading `v`, leading zeros
    /// and a missing minor or patch are accepted.
    pub(crate) fn parse_tolerant(text: &str) -> Result<Self, String> {
        let trimmed = text.trim();
        let trimmed = trimmed.strip_prefix('v').unwrap_or(trimmed);
        let mut parts: Vec<String> = trimmed.splitn(3, '.').map(str::to_owned).collect();
        for part in &mut parts {
            if part.len() > 1 {
                let stripped = part.trim_start_matches('0');
                *part = if stripped.starts_with(|c: char| c.is_ascii_digit()) {
                    stripped.to_owned()
                } else {
                    format!("0{stripped}")
                };
            }
        }
        if parts.len() < 3 {
            if parts.last().is_some_and(|last| last.contains(['+', '-'])) {
                return Err("Short version cannot contain PreRelease/Build meta data".to_owned());
            }
            parts.resize(3, "0".to_owned());
        }
        Self::parse(&parts.join(".")).map_err(|error| error.to_string())
    }

    pub(crate) fn major(&self) -> u64 {
        self.major
    }

    pub(crate) fn minor(&self) -> u64 {
        self.minor
    }

    /// The build metadata identifiers (after `+`), which take no part in precedence.
    pub(crate) fn build(&self) -> &[String] {
        &self.build
    }

    /// The same version without build metadata (OLM's legacy release inference
    /// moves build metadata into the release).
    pub(crate) fn without_build(&self) -> Self {
        Self {
            build: Box::default(),
            ..self.clone()
        }
    }
}

impl Ord for Version {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.major, self.minor, self.patch)
            .cmp(&(other.major, other.minor, other.patch))
            // A version without pre-release ranks above all of its pre-releases.
            .then_with(|| match (self.pre.is_empty(), other.pre.is_empty()) {
                (true, true) => Ordering::Equal,
                (true, false) => Ordering::Greater,
                (false, true) => Ordering::Less,
                (false, false) => self.pre.cmp(&other.pre),
            })
    }
}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Version {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Version {}

impl Hash for Version {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // Build metadata is left out, as it is of equality.
        (self.major, self.minor, self.patch, &self.pre).hash(state);
    }
}

/// blang's `String()`: `major.minor.patch[-pre][+build]`.
impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        if !self.pre.is_empty() {
            write!(f, "-{}", join(&self.pre))?;
        }
        if !self.build.is_empty() {
            write!(f, "+{}", self.build.join("."))?;
        }
        Ok(())
    }
}

/// One dot-separated pre-release identifier (blang's `PRVersion`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Prerelease {
    /// Digits only, compared as numbers.
    Numeric(u64),
    /// Letters, digits and `-`, with at least one non-digit; compared byte-wise.
    Alphanumeric(String),
}

impl Prerelease {
    /// blang's `NewPRVersion`.
    pub(crate) fn parse(text: &str) -> Result<Self, PrereleaseError> {
        if text.is_empty() {
            Err(PrereleaseError::Empty)
        } else if text.bytes().all(|byte| byte.is_ascii_digit()) {
            if has_leading_zero(text) {
                return Err(PrereleaseError::LeadingZeroes {
                    text: text.to_owned(),
                });
            }
            Ok(Self::Numeric(parse_uint(text)?))
        } else if is_alphanumeric(text) {
            Ok(Self::Alphanumeric(text.to_owned()))
        } else {
            Err(PrereleaseError::InvalidCharacters {
                text: text.to_owned(),
            })
        }
    }
}

impl Ord for Prerelease {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (Self::Numeric(left), Self::Numeric(right)) => left.cmp(right),
            (Self::Numeric(_), Self::Alphanumeric(_)) => Ordering::Less,
            (Self::Alphanumeric(_), Self::Numeric(_)) => Ordering::Greater,
            (Self::Alphanumeric(left), Self::Alphanumeric(right)) => left.cmp(right),
        }
    }
}

impl PartialOrd for Prerelease {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Prerelease {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Numeric(number) => write!(f, "{number}"),
            Self::Alphanumeric(text) => f.write_str(text),
        }
    }
}

/// An OLM bundle release (opm's `model.Release`): dot-separated pre-release
/// identifiers, at most 20 bytes. The empty release means "no release".
///
/// The derived order is opm's `Release.Compare`: no release sorts before any
/// release, and two releases compare identifier by identifier, a longer list
/// winning over its own prefix.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Release(Box<[Prerelease]>);

/// The CSV CRD's limit on a release, which opm enforces.
const RELEASE_MAX_LENGTH: usize = 20;

impl Release {
    /// opm's `NewRelease`: the empty string is no release; every bad segment is reported.
    pub(crate) fn parse(text: &str) -> Result<Self, ReleaseError> {
        if text.is_empty() {
            return Ok(Self::default());
        }
        if text.len() > RELEASE_MAX_LENGTH {
            return Err(ReleaseError::TooLong {
                text: text.to_owned(),
            });
        }
        let mut identifiers = Vec::new();
        let mut segments = Vec::new();
        for (index, segment) in text.split('.').enumerate() {
            match Prerelease::parse(segment) {
                Ok(identifier) => identifiers.push(identifier),
                Err(error) => segments.push((index, error)),
            }
        }
        if segments.is_empty() {
            Ok(Self(identifiers.into_boxed_slice()))
        } else {
            Err(ReleaseError::Segments {
                text: text.to_owned(),
                segments,
            })
        }
    }

    /// Whether this is "no release".
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Display for Release {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&join(&self.0))
    }
}

/// Why a version did not parse; `Display` is blang's text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum SemverError {
    #[error("Version string empty")]
    Empty,
    #[error("No Major.Minor.Patch elements found")]
    MissingElements,
    #[error("Invalid character(s) found in {} number {}", .element.name(), quote(.text))]
    InvalidCharacters { element: Element, text: String },
    #[error("{} number must not contain leading zeroes {}", .element.title(), quote(.text))]
    LeadingZeroes { element: Element, text: String },
    #[error(transparent)]
    Number(#[from] NumberError),
    #[error(transparent)]
    Prerelease(#[from] PrereleaseError),
    #[error("Build meta data is empty")]
    BuildEmpty,
    #[error("Invalid character(s) found in build meta data {}", quote(.text))]
    BuildInvalidCharacters { text: String },
}

/// The three numeric elements of a version, as blang names them in messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Element {
    Major,
    Minor,
    Patch,
}

impl Element {
    fn name(self) -> &'static str {
        match self {
            Self::Major => "major",
            Self::Minor => "minor",
            Self::Patch => "patch",
        }
    }

    fn title(self) -> &'static str {
        match self {
            Self::Major => "Major",
            Self::Minor => "Minor",
            Self::Patch => "Patch",
        }
    }
}

/// Why a pre-release identifier did not parse; `Display` is blang's text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum PrereleaseError {
    #[error("Prerelease is empty")]
    Empty,
    #[error("Invalid character(s) found in prerelease {}", quote(.text))]
    InvalidCharacters { text: String },
    #[error("Numeric PreRelease version must not contain leading zeroes {}", quote(.text))]
    LeadingZeroes { text: String },
    #[error(transparent)]
    Number(#[from] NumberError),
}

/// Go's `strconv.ParseUint` error, which blang passes through unchanged: an empty
/// element, or one too large for 64 bits.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("strconv.ParseUint: parsing {}: {}", quote(.text), if *.out_of_range { "value out of range" } else { "invalid syntax" })]
pub(crate) struct NumberError {
    text: String,
    out_of_range: bool,
}

/// Why a release did not parse; `Display` is opm's text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ReleaseError {
    #[error("invalid release {}: exceeds maximum length of {RELEASE_MAX_LENGTH} characters", quote(.text))]
    TooLong { text: String },
    /// Go's `errors.Join` puts one `segment <i>: …` per line.
    #[error("invalid release {}: {}", quote(.text), segment_lines(.segments))]
    Segments {
        text: String,
        segments: Vec<(usize, PrereleaseError)>,
    },
}

fn segment_lines(segments: &[(usize, PrereleaseError)]) -> String {
    let lines: Vec<String> = segments
        .iter()
        .map(|(index, error)| format!("segment {index}: {error}"))
        .collect();
    lines.join("\n")
}

/// One of major, minor, patch: ASCII digits without a leading zero, fitting in 64 bits.
fn number(element: Element, text: &str) -> Result<u64, SemverError> {
    if !text.bytes().all(|byte| byte.is_ascii_digit()) {
        return Err(SemverError::InvalidCharacters {
            element,
            text: text.to_owned(),
        });
    }
    if has_leading_zero(text) {
        return Err(SemverError::LeadingZeroes {
            element,
            text: text.to_owned(),
        });
    }
    Ok(parse_uint(text)?)
}

fn build_identifier(text: &str) -> Result<String, SemverError> {
    if text.is_empty() {
        Err(SemverError::BuildEmpty)
    } else if is_alphanumeric(text) {
        Ok(text.to_owned())
    } else {
        Err(SemverError::BuildInvalidCharacters {
            text: text.to_owned(),
        })
    }
}

/// `strconv.ParseUint(text, 10, 64)` for text already known to be ASCII digits,
/// so the only failures are emptiness and overflow.
fn parse_uint(digits: &str) -> Result<u64, NumberError> {
    let error = |out_of_range| NumberError {
        text: digits.to_owned(),
        out_of_range,
    };
    if digits.is_empty() {
        return Err(error(false));
    }
    digits.parse().map_err(|_| error(true))
}

fn has_leading_zero(digits: &str) -> bool {
    digits.len() > 1 && digits.starts_with('0')
}

/// blang's identifier alphabet: ASCII letters, digits and `-`.
fn is_alphanumeric(text: &str) -> bool {
    text.bytes()
        .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-')
}

fn join(identifiers: &[Prerelease]) -> String {
    let parts: Vec<String> = identifiers.iter().map(ToString::to_string).collect();
    parts.join(".")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        Version::parse(text).expect_err(text).to_string()
    }

    #[test]
    fn valid_versions_print_back_as_written() {
        for text in [
            "0.0.0",
            "1.2.3",
            "1.0.0-0",
            "1.0.0-alpha.1",
            "1.0.0-a-b--c.x-1",
            "1.0.0-alpha.1+build.5",
            "1.0.0+001.-",
            "1.0.0+build-1",
            "18446744073709551615.18446744073709551615.18446744073709551615",
        ] {
            let version = Version::parse(text).expect(text);
            assert_eq!(version.to_string(), text);
        }
    }

    #[test]
    fn invalid_versions_carry_blangs_messages() {
        let cases = [
            ("", "Version string empty"),
            ("1", "No Major.Minor.Patch elements found"),
            ("1.0", "No Major.Minor.Patch elements found"),
            (
                "1.0.0.1",
                r#"Invalid character(s) found in patch number "0.1""#,
            ),
            (
                "v1.0.0",
                r#"Invalid character(s) found in major number "v1""#,
            ),
            ("1.a.0", r#"Invalid character(s) found in minor number "a""#),
            (
                "1.0.0 ",
                r#"Invalid character(s) found in patch number "0 ""#,
            ),
            (
                "01.0.0",
                r#"Major number must not contain leading zeroes "01""#,
            ),
            (
                "1.00.1",
                r#"Minor number must not contain leading zeroes "00""#,
            ),
            (
                "1.0.01",
                r#"Patch number must not contain leading zeroes "01""#,
            ),
            (".1.0", r#"strconv.ParseUint: parsing "": invalid syntax"#),
            ("1.0.", r#"strconv.ParseUint: parsing "": invalid syntax"#),
            ("1.0.-a", r#"strconv.ParseUint: parsing "": invalid syntax"#),
            (
                "18446744073709551616.0.0",
                r#"strconv.ParseUint: parsing "18446744073709551616": value out of range"#,
            ),
            ("1.0.0-", "Prerelease is empty"),
            ("1.0.0-a..b", "Prerelease is empty"),
            (
                "1.0.0-01",
                r#"Numeric PreRelease version must not contain leading zeroes "01""#,
            ),
            (
                "1.0.0-a_b",
                r#"Invalid character(s) found in prerelease "a_b""#,
            ),
            (
                "1.0.0-\u{e9}",
                "Invalid character(s) found in prerelease \"\u{e9}\"",
            ),
            (
                "1.0.0-a\tb",
                r#"Invalid character(s) found in prerelease "a\tb""#,
            ),
            (
                "1.0.0-99999999999999999999",
                r#"strconv.ParseUint: parsing "99999999999999999999": value out of range"#,
            ),
            ("1.0.0+", "Build meta data is empty"),
            ("1.0.0+a..b", "Build meta data is empty"),
            (
                "1.0.0+a_b",
                r#"Invalid character(s) found in build meta data "a_b""#,
            ),
            (
                "1.0.0+a+b",
                r#"Invalid character(s) found in build meta data "a+b""#,
            ),
            // The first problem in reading order wins.
            (
                "01.0.x-01",
                r#"Major number must not contain leading zeroes "01""#,
            ),
            (
                "1.0.x-01",
                r#"Invalid character(s) found in patch number "x""#,
            ),
            (
                "1.0.0-!+!",
                r#"Invalid character(s) found in prerelease "!""#,
            ),
        ];
        for (text, message) in cases {
            assert_eq!(error(text), message, "{text:?}");
        }
    }

    #[test]
    fn precedence_follows_semver() {
        let ascending = [
            "0.9.9",
            "1.0.0-1",
            "1.0.0-2",
            "1.0.0-10",
            "1.0.0-B",
            "1.0.0-alpha",
            "1.0.0-alpha.1",
            "1.0.0-alpha.beta",
            "1.0.0-beta",
            "1.0.0-beta.2",
            "1.0.0-beta.11",
            "1.0.0-rc.1",
            "1.0.0",
            "1.0.1",
            "1.1.0",
            "1.10.0",
            "2.0.0",
        ];
        let versions: Vec<Version> = ascending
            .iter()
            .map(|text| Version::parse(text).expect(text))
            .collect();
        for pair in versions.windows(2) {
            assert!(pair[0] < pair[1], "{} < {}", pair[0], pair[1]);
        }
        let mut shuffled = versions.clone();
        shuffled.reverse();
        shuffled.sort();
        assert_eq!(
            shuffled.iter().map(ToString::to_string).collect::<Vec<_>>(),
            ascending
        );
    }

    #[test]
    fn build_metadata_takes_no_part_in_equality_order_or_hash() {
        use std::collections::HashSet;
        let left = Version::parse("1.0.0-rc.1+a").expect("valid");
        let right = Version::parse("1.0.0-rc.1+b.2").expect("valid");
        assert_eq!(left, right);
        assert_eq!(left.cmp(&right), Ordering::Equal);
        assert_eq!(HashSet::from([left.clone(), right.clone()]).len(), 1);
        assert_eq!(right.build(), ["b", "2"]);
        assert_eq!(right.without_build().to_string(), "1.0.0-rc.1");
        assert_ne!(left, Version::parse("1.0.0").expect("valid"));
    }

    #[test]
    fn releases_parse_print_and_report_every_bad_segment() {
        assert!(Release::parse("").expect("empty is no release").is_empty());
        assert_eq!(
            Release::parse("alpha.1.0-x").expect("valid").to_string(),
            "alpha.1.0-x"
        );
        assert!(Release::parse("abcdefghijklmnopqrst").is_ok());
        let message = |text: &str| Release::parse(text).expect_err(text).to_string();
        assert_eq!(
            message("abcdefghijklmnopqrstu"),
            r#"invalid release "abcdefghijklmnopqrstu": exceeds maximum length of 20 characters"#
        );
        assert_eq!(
            message("!!!"),
            r#"invalid release "!!!": segment 0: Invalid character(s) found in prerelease "!!!""#
        );
        assert_eq!(
            message("a..01.b"),
            "invalid release \"a..01.b\": segment 1: Prerelease is empty\n\
             segment 2: Numeric PreRelease version must not contain leading zeroes \"01\""
        );
        assert_eq!(
            message("99999999999999999999"),
            r#"invalid release "99999999999999999999": segment 0: strconv.ParseUint: parsing "99999999999999999999": value out of range"#
        );
    }

    #[test]
    fn no_release_sorts_first_then_identifiers_compare_like_prereleases() {
        let ascending = [
            "",
            "0",
            "2",
            "10",
            "10.0",
            "B",
            "alpha",
            "alpha.1",
            "alpha.beta",
        ];
        let releases: Vec<Release> = ascending
            .iter()
            .map(|text| Release::parse(text).expect(text))
            .collect();
        for pair in releases.windows(2) {
            assert!(
                pair[0] < pair[1],
                "{:?} < {:?}",
                pair[0].to_string(),
                pair[1].to_string()
            );
        }
    }
}
