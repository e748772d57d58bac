//! Where saphyr's scanner (YAML 1.2) and yaml.v2's (YAML 1.1, opm's) disagree on
//! syntax. Some differences are rewrites of the text that yaml.v2 reads alike and
//! saphyr then accepts (tabs after `:`, quoted scalars and flow collections at any
//! indentation, NEL, LS and PS as line breaks); others are yaml.v2's refusals,
//! checked here (`\/`, a leading `...`). Tabs in block indentation are in `tabs`.

use super::{YamlError, messages};

/// A rewrite of a document's text at a byte offset; `None` when it changes nothing.
pub(super) type Rewrite = fn(&str, usize) -> Option<String>;

/// The rewrite for a saphyr error where saphyr follows YAML 1.2 and refuses what
/// yaml.v2 reads; the caller parses the rewritten text again.
/// - a tab after a `:` value indicator, which yaml.v2 skips as white space: read
///   as a space;
/// - a quoted scalar whose continuation lines are indented less than its block,
///   which yaml.v2 does not check (their leading white space is folded away):
///   those lines are indented further, and tabs there read as spaces;
/// - a line of a flow collection indented less than its block, which yaml.v2
///   does not check either: the line is indented further. (saphyr raises the bare
///   "invalid indentation" only in flow collections: block indentation unrolls
///   first.)
pub(super) fn rewrite_for(saphyr_error: &str) -> Option<Rewrite> {
    match saphyr_error {
        "':' must be followed by a valid YAML whitespace" => Some(tabs_after_colon_as_spaces),
        "invalid indentation in quoted scalar" => Some(quoted_continuations_indented),
        "tab cannot be used as indentation" => Some(leading_tabs_as_spaces),
        "invalid indentation in flow construct" | "invalid indentation" => Some(flow_line_indented),
        _ => None,
    }
}

/// yaml.v2 (YAML 1.1) takes NEL, LS and PS for line breaks, saphyr (YAML 1.2) for
/// ordinary characters: they become line breaks here, NEL a CRLF (as long, and
/// read as yaml.v2 reads NEL), LS and PS a LF. `None` when there are none.
/// (yaml.v2 keeps LS and PS themselves in the content of a block scalar.)
pub(super) fn unicode_breaks_as_newlines(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let present = memchr::memchr2_iter(0xC2, 0xE2, bytes).any(|at| {
        matches!(
            bytes[at..],
            [0xC2, 0x85, ..] | [0xE2, 0x80, 0xA8 | 0xA9, ..]
        )
    });
    present.then(|| {
        text.replace('\u{85}', "\r\n")
            .replace(['\u{2028}', '\u{2029}'], "\n")
    })
}

/// A `...` document end marker before any content: yaml.v2 then expects a node and
/// fails (saphyr reads an empty document).
pub(super) fn leading_document_end(text: &str) -> Option<YamlError> {
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim_start_matches(' ');
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let marker = line
            .strip_prefix("...")
            .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t', '\r']));
        // A parser error: yaml.v2 names the 0-based line.
        return marker.then(|| error(index, index + 1, 1, "did not find expected node content"));
    }
    None
}

/// A scanner error at a 1-based line and column: yaml.v2 names the same line.
pub(super) fn scanner_error(line: usize, column: usize, message: &str) -> YamlError {
    error(line, line, column, message)
}

/// yaml.v2's text names `named_line` unless it is the first line of the document
/// (0 for its parser, 1 for its scanner), where it names none.
fn error(named_line: usize, line: usize, column: usize, message: &str) -> YamlError {
    let detail = if named_line <= 1 && line == 1 {
        format!("yaml: {message}")
    } else {
        format!("yaml: line {named_line}: {message}")
    };
    YamlError::invalid(detail, line, column)
}

/// yaml.v2 knows no `\/` escape (YAML 1.2 and JSON do): a double-quoted scalar
/// holding one fails there, at the backslash.
pub(super) fn escaped_slash_error(text: &str, span: saphyr_parser::Span) -> Option<YamlError> {
    let start = messages::byte_offset(text, span.start.index());
    let end = start + messages::byte_offset(&text[start..], span.end.index() - span.start.index());
    let source = &text.as_bytes()[start..end];
    let mut index = 0;
    while index + 1 < source.len() {
        match (source[index], source[index + 1]) {
            (b'\\', b'/') => {
                let before = &text[..start + index];
                let line = before.matches('\n').count() + 1;
                let column = before
                    .rsplit('\n')
                    .next()
                    .unwrap_or_default()
                    .chars()
                    .count()
                    + 1;
                return Some(scanner_error(
                    line,
                    column,
                    "found unknown escape character",
                ));
            }
            (b'\\', _) => index += 2,
            _ => index += 1,
        }
    }
    None
}

/// `text` with the tabs between the `:` before `offset` and `offset` made spaces
/// (yaml.v2 reads both alike there), or `None` when there are none.
fn tabs_after_colon_as_spaces(text: &str, offset: usize) -> Option<String> {
    let bytes = text.as_bytes();
    let start = bytes[..offset]
        .iter()
        .rposition(|byte| !matches!(byte, b' ' | b'\t'))?;
    (bytes[start] == b':').then_some(())?;
    tabs_as_spaces(text, start + 1..offset)
}

/// `text` with the tabs in the leading white space of the line holding `offset`
/// made spaces, or `None` when there are none.
fn leading_tabs_as_spaces(text: &str, offset: usize) -> Option<String> {
    let bytes = text.as_bytes();
    let start = bytes[..offset]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let blanks = bytes[start..]
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    tabs_as_spaces(text, start..start + blanks)
}

/// `text` with the tabs in `range` made spaces; `None` when it holds none.
fn tabs_as_spaces(text: &str, range: std::ops::Range<usize>) -> Option<String> {
    let mut patched = text.as_bytes().to_vec();
    let tabs = patched[range].iter_mut().filter(|byte| **byte == b'\t');
    let mut replaced = false;
    for byte in tabs {
        *byte = b' ';
        replaced = true;
    }
    replaced.then(|| String::from_utf8(patched).expect("only ASCII tabs were replaced"))
}

/// `text` with the continuation lines of the quoted scalar that opens at `offset`
/// indented past its opening quote, or `None` when none needed it (or the scalar
/// does not end). Lines keep their numbers; only those lines' columns move.
fn quoted_continuations_indented(text: &str, offset: usize) -> Option<String> {
    let bytes = text.as_bytes();
    let quote = *bytes.get(offset)?;
    if quote != b'"' && quote != b'\'' {
        return None;
    }
    let mut end = offset + 1;
    loop {
        match (bytes.get(end)?, bytes.get(end + 1)) {
            (b'\\', Some(_)) if quote == b'"' => end += 2,
            (b'\'', Some(b'\'')) if quote == b'\'' => end += 2,
            (&byte, _) if byte == quote => break,
            _ => end += 1,
        }
    }
    let line_start = bytes[..offset]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let wanted = text[line_start..offset].chars().count() + 1;
    let mut patched = String::with_capacity(text.len() + 64);
    let mut copied = 0;
    for (index, _) in text[offset..end].match_indices('\n') {
        let start = offset + index + 1;
        let indentation = bytes[start..].iter().take_while(|&&b| b == b' ').count();
        if indentation < wanted {
            patched.push_str(&text[copied..start]);
            patched.extend(std::iter::repeat_n(' ', wanted - indentation));
            copied = start;
        }
    }
    if copied == 0 {
        return None;
    }
    patched.push_str(&text[copied..]);
    Some(patched)
}

/// `text` with the line of the flow collection entry at `offset` indented past the
/// collection's opening bracket (yaml.v2 does not check indentation inside flow
/// collections), or `None` when it already is.
fn flow_line_indented(text: &str, offset: usize) -> Option<String> {
    let bytes = text.as_bytes();
    let mut depth = 0_usize;
    let opening = bytes[..offset].iter().rposition(|&byte| match byte {
        b']' | b'}' => {
            depth += 1;
            false
        }
        b'[' | b'{' if depth == 0 => true,
        b'[' | b'{' => {
            depth -= 1;
            false
        }
        _ => false,
    })?;
    let column = |at: usize| {
        let start = bytes[..at]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        (start, text[start..at].chars().count())
    };
    let wanted = column(opening).1 + 1;
    let (line_start, _) = column(offset);
    let indentation = bytes[line_start..]
        .iter()
        .take_while(|&&b| b == b' ')
        .count();
    (indentation < wanted).then(|| {
        let mut patched = String::with_capacity(text.len() + wanted);
        patched.push_str(&text[..line_start]);
        patched.extend(std::iter::repeat_n(' ', wanted - indentation));
        patched.push_str(&text[line_start..]);
        patched
    })
}
