//! A shortcut for the long base64 lines that make up most of a catalog's bytes
//! (`olm.bundle.object` data). saphyr scans plain scalars one character at a time,
//! which dominates loading; these lines are swapped for short placeholders before
//! parsing and the original text is put back when the scalar is built.
//!
//! A line qualifies only when the swap cannot change what the document means: the run
//! follows `: ` or `- ` (a value, never a key, tag or anchor), holds only base64
//! characters, ends the line, and contains a letter that no YAML 1.1 number, boolean
//! or null can hold, so it resolves to a string whatever surrounds it. Inside quoted
//! or block scalars the placeholder is replaced by the same characters, and in a
//! comment it vanishes with the comment, so the swap is exact there too.

use std::borrow::Cow;

/// Runs shorter than this are left to the parser.
const MIN_RUN: usize = 512;

/// Marks a placeholder: a printable private-use character that cannot appear in the
/// document (documents that contain it are not rewritten).
const OPEN: char = '\u{E000}';
const CLOSE: char = '\u{E001}';

/// A document with its long runs replaced, and the runs.
pub(super) struct Shortened<'a> {
    pub(super) text: Cow<'a, str>,
    pub(super) runs: Vec<&'a str>,
}

pub(super) fn shorten(text: &str) -> Shortened<'_> {
    let unchanged = || Shortened {
        text: Cow::Borrowed(text),
        runs: Vec::new(),
    };
    if text.len() < MIN_RUN || text.contains(OPEN) || escapes_to_a_marker(text) {
        return unchanged();
    }
    let mut runs = Vec::new();
    let mut shortened = String::new();
    let mut copied = 0;
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let start = line_start;
        line_start += line.len();
        let Some(run) = long_run(line) else { continue };
        let run_start = start + run.start;
        shortened.push_str(&text[copied..run_start]);
        shortened.push(OPEN);
        shortened.push_str(&runs.len().to_string());
        shortened.push(CLOSE);
        runs.push(&text[run_start..run_start + run.len]);
        copied = run_start + run.len;
    }
    if runs.is_empty() {
        return unchanged();
    }
    shortened.push_str(&text[copied..]);
    Shortened {
        text: Cow::Owned(shortened),
        runs,
    }
}

/// Whether a double-quoted escape (`\uE000`, `\U0000E001`) could put a marker
/// into a scalar, where it would be taken for a placeholder. Any such spelling
/// counts, even one that is really an escaped backslash followed by letters.
fn escapes_to_a_marker(text: &str) -> bool {
    let bytes = text.as_bytes();
    memchr::memchr_iter(b'\\', bytes).any(|at| {
        let hex = |width: usize| {
            bytes
                .get(at + 2..at + 2 + width)
                .and_then(|digits| std::str::from_utf8(digits).ok())
                .and_then(|digits| u32::from_str_radix(digits, 16).ok())
        };
        let code = match bytes.get(at + 1) {
            Some(b'u') => hex(4),
            Some(b'U') => hex(8),
            _ => None,
        };
        code.is_some_and(|code| code == u32::from(OPEN) || code == u32::from(CLOSE))
    })
}

struct Run {
    start: usize,
    len: usize,
}

/// The long base64 value that ends this line, if it qualifies.
fn long_run(line: &str) -> Option<Run> {
    if line.len() < MIN_RUN {
        return None;
    }
    let bytes = line.as_bytes();
    let mut end = bytes.len();
    if bytes[..end].ends_with(b"\n") {
        end -= 1;
    }
    if bytes[..end].ends_with(b"\r") {
        end -= 1;
    }
    let start = bytes[..end]
        .iter()
        .rposition(|&byte| !is_base64(byte))
        .map_or(0, |at| at + 1);
    let len = end - start;
    let after_indicator = start >= 2
        && bytes[start - 1] == b' '
        && matches!(bytes[start - 2], b':' | b'-')
        && (start == 2 || bytes[start - 3] != b'-' || bytes[start - 2] == b':');
    let run = &bytes[start..end];
    let first_plain = run.first().is_some_and(u8::is_ascii_alphanumeric);
    (len >= MIN_RUN && after_indicator && first_plain && run.iter().any(|&b| never_numeric(b)))
        .then_some(Run { start, len })
}

fn is_base64(byte: u8) -> bool {
    const TABLE: [bool; 256] = crate::text::bytes::byte_table!(|byte| {
        byte.is_ascii_alphanumeric() || matches!(byte, b'+' | b'/' | b'=')
    });
    TABLE[usize::from(byte)]
}

/// Letters that no YAML 1.1 int, float, bool or null form of this length can contain.
fn never_numeric(byte: u8) -> bool {
    matches!(byte, b'g'..=b'm' | b'p'..=b'w' | b'z' | b'G'..=b'M' | b'P'..=b'W' | b'Z' | b'/')
}

/// The scalar text with its placeholders replaced by the runs they stand for.
pub(super) fn restore<'a>(text: Cow<'a, str>, runs: &[&str]) -> Cow<'a, str> {
    if runs.is_empty() || !text.contains(OPEN) {
        return text;
    }
    let mut pieces = Vec::new();
    let mut rest = &*text;
    while let Some(open) = rest.find(OPEN) {
        let after = &rest[open + OPEN.len_utf8()..];
        let close = after.find(CLOSE).expect("placeholders are written whole");
        let index: usize = after[..close].parse().expect("placeholders hold an index");
        pieces.push((&rest[..open], runs[index]));
        rest = &after[close + CLOSE.len_utf8()..];
    }
    let len: usize = pieces
        .iter()
        .map(|(before, run)| before.len() + run.len())
        .sum();
    let mut restored = String::with_capacity(len + rest.len());
    for (before, run) in pieces {
        restored.push_str(before);
        restored.push_str(run);
    }
    restored.push_str(rest);
    Cow::Owned(restored)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base64(len: usize) -> String {
        "QUJDRGhpams/".chars().cycle().take(len).collect()
    }

    #[test]
    fn long_values_become_placeholders_and_come_back() {
        let data = base64(600);
        let text = format!("a: 1\nb: {data}\nc:\n- {data}\r\n");
        let shortened = shorten(&text);
        assert_eq!(shortened.runs, [data.as_str(), data.as_str()]);
        assert_eq!(
            shortened.text,
            "a: 1\nb: \u{E000}0\u{E001}\nc:\n- \u{E000}1\u{E001}\r\n"
        );
        let scalar = Cow::Borrowed("x \u{E000}1\u{E001} y");
        assert_eq!(restore(scalar, &shortened.runs), format!("x {data} y"));
    }

    #[test]
    fn other_escapes_keep_the_shortcut() {
        let data = base64(600);
        for escape in [r"\u00e9", r"\ue00f", r"\x41", r"\\"] {
            let text = format!("a: \"{escape}\"\nb: {data}\n");
            assert_eq!(shorten(&text).runs.len(), 1, "{text}");
        }
    }

    #[test]
    fn only_safe_runs_are_replaced() {
        let data = base64(600);
        let digits = "1".repeat(600);
        let cases = [
            format!("b: {data} \n"),         // trailing space
            format!("b: !!binary {data}\n"), // tagged
            format!("b: &x {data}\n"),       // anchored
            format!("b:{data}\n"),           // no separating space
            format!("b: {digits}\n"),        // could be a number
            format!("b: {data}: c\n"),       // a key
            format!("--- {data}\n"),         // after a document marker
            format!("b: {}\n", base64(100)), // short
            format!("b: \u{E000} {data}\n"), // the marker is already in use
            // An escape could make a marker (found by fuzzing).
            format!("a: \"\\ue000\"\nb: {data}\n"),
            format!("a: \"\\uE001\"\nb: {data}\n"),
            format!("a: \"\\U0000e000\"\nb: {data}\n"),
        ];
        for text in cases {
            assert!(shorten(&text).runs.is_empty(), "{text}");
        }
    }
}
