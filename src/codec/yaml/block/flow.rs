//! Flow scalars (plain and quoted) for the direct reader: folding their lines,
//! undoubling single quotes and decoding the double-quoted escapes it reads.

use std::borrow::Cow;

use saphyr_parser::ScalarStyle;

/// Where a quoted scalar's line ends.
pub(super) enum Close {
    /// At its closing quote, at this offset.
    Quote(usize),
    /// At the line break: the scalar goes on.
    Continues,
}

/// A flow scalar (plain or quoted) folded over lines: a single line break becomes a
/// space, each empty line a line break. A scalar of one line that needs no change
/// stays borrowed.
#[derive(Default)]
pub(super) struct Folded<'a> {
    /// The first line, while it is the only one and needs no change.
    borrowed: Option<&'a str>,
    text: String,
    lines: usize,
    /// Empty lines since the last segment.
    empty: usize,
    /// The last line ended in an escaped line break: no space before the next.
    pub(super) joined: bool,
}

impl<'a> Folded<'a> {
    pub(super) fn empty_line(&mut self) {
        self.empty += 1;
    }

    /// Adds the next line's text, unquoted as `style` wants; `None` for an escape
    /// left to the full reader.
    pub(super) fn push(&mut self, segment: &'a str, style: ScalarStyle) -> Option<()> {
        let joined = std::mem::take(&mut self.joined);
        if let Some(first) = self.borrowed.take() {
            self.text.push_str(first);
        }
        if self.lines > 0 {
            if self.empty == 0 && !joined {
                self.text.push(' ');
            } else {
                self.text.extend(std::iter::repeat_n('\n', self.empty));
            }
        }
        self.lines += 1;
        self.empty = 0;
        match style {
            ScalarStyle::DoubleQuoted if segment.contains('\\') => {
                return unescape(segment, &mut self.text);
            }
            ScalarStyle::SingleQuoted if segment.contains("''") => {
                self.text.push_str(&segment.replace("''", "'"));
            }
            _ if self.lines == 1 => self.borrowed = Some(segment),
            _ => self.text.push_str(segment),
        }
        Some(())
    }

    pub(super) fn finish(self) -> Cow<'a, str> {
        match self.borrowed {
            Some(only) => Cow::Borrowed(only),
            None => Cow::Owned(self.text),
        }
    }
}

/// The offset of a single-quoted scalar's closing quote in `line` (`''` is a quote).
pub(super) fn single_close(line: &[u8]) -> Option<usize> {
    let mut at = 0;
    loop {
        at += memchr::memchr(b'\'', &line[at..])?;
        if line.get(at + 1) == Some(&b'\'') {
            at += 2;
        } else {
            return Some(at);
        }
    }
}

/// How many bytes follow the backslash of an escape that is read here: `\\`, `\"`,
/// `\ `, `\n`, `\t`, `\r`, `\0` and `\xXX`/`\uXXXX` outside the surrogates. Others
/// (among them `\/`, which yaml.v2 refuses) are left to the full reader.
pub(super) fn escape_length(rest: &[u8]) -> Option<usize> {
    let hex = |width: usize| -> Option<usize> {
        let digits = std::str::from_utf8(rest.get(1..=width)?).ok()?;
        let code = u32::from_str_radix(digits, 16).ok()?;
        char::from_u32(code).map(|_| width + 1)
    };
    match rest.first()? {
        b'\\' | b'"' | b' ' | b'n' | b't' | b'r' | b'0' => Some(1),
        b'x' => hex(2),
        b'u' => hex(4),
        _ => None,
    }
}

/// Appends a double-quoted segment with its escapes decoded.
fn unescape(segment: &str, into: &mut String) -> Option<()> {
    let mut rest = segment;
    while let Some(at) = rest.find('\\') {
        into.push_str(&rest[..at]);
        let escape = &rest.as_bytes()[at + 1..];
        let length = escape_length(escape)?;
        let decoded = match escape[0] {
            b'n' => '\n',
            b't' => '\t',
            b'r' => '\r',
            b'0' => '\0',
            b'x' | b'u' => {
                let digits = &rest[at + 2..at + 1 + length];
                char::from_u32(u32::from_str_radix(digits, 16).ok()?)?
            }
            other => char::from(other),
        };
        into.push(decoded);
        rest = &rest[at + 1 + length..];
    }
    into.push_str(rest);
    Some(())
}
