//! Tabs that yaml.v2 refuses and saphyr reads. yaml.v2 skips a tab between tokens
//! only in flow collections or right after a value indicator; at the start of a
//! line and after a `-` entry indicator it stops there and fails. saphyr (YAML
//! 1.2) reads such a tab as white space in blank and comment lines and after `-`.
//! Only the two cases yaml.v2 refuses in every block context are checked: a tab at
//! the very start of a blank or comment line, and a tab after block entries.

use saphyr_parser::ScalarStyle;

/// What the check needs of a parsed document: where its quoted scalars, multi-line
/// scalars and flow collections lie (1-based lines), and where scalars end.
#[derive(Default)]
pub(super) struct Layout {
    /// Lines inside a quoted scalar or a flow collection (after the line it opens on).
    flow_or_quoted: Vec<(usize, usize)>,
    /// Lines inside any multi-line scalar (after the line it starts on).
    scalar: Vec<(usize, usize)>,
    /// The first line and style of each scalar, in document order.
    scalar_starts: Vec<(usize, ScalarStyle)>,
    /// Open collections: the line they start on, when they are flow collections.
    open: Vec<Option<usize>>,
    /// Character index -> byte offset, moving forward through the text.
    cursor: (usize, usize),
}

impl Layout {
    pub(super) fn scalar(&mut self, style: ScalarStyle, start: usize, end: usize) {
        if end > start {
            self.scalar.push((start + 1, end));
            if matches!(style, ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted) {
                self.flow_or_quoted.push((start + 1, end));
            }
        }
        self.scalar_starts.push((start, style));
    }

    /// A collection opens at character `index` of `text`, on `line`.
    pub(super) fn open(&mut self, text: &str, index: usize, line: usize) {
        let flow = matches!(
            text.as_bytes().get(self.byte_offset(text, index)),
            Some(b'[' | b'{')
        );
        self.open.push(flow.then_some(line));
    }

    fn byte_offset(&mut self, text: &str, index: usize) -> usize {
        if index < self.cursor.0 {
            self.cursor = (0, 0);
        }
        let (mut characters, mut offset) = self.cursor;
        for character in text[offset..].chars() {
            if characters == index {
                break;
            }
            characters += 1;
            offset += character.len_utf8();
        }
        self.cursor = (characters, offset);
        offset
    }

    pub(super) fn close(&mut self, line: usize) {
        if let Some(Some(start)) = self.open.pop()
            && line > start
        {
            self.flow_or_quoted.push((start + 1, line));
        }
    }
}

fn within(ranges: &[(usize, usize)], line: usize) -> bool {
    ranges
        .iter()
        .any(|(first, last)| (*first..=*last).contains(&line))
}

/// The first tab yaml.v2 would fail on: its 1-based line and column and yaml.v2's
/// message.
pub(super) fn refused_tab(text: &str, layout: &Layout) -> Option<(usize, usize, &'static str)> {
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        if !line.contains('\t') || within(&layout.flow_or_quoted, number) {
            continue;
        }
        let rest = line.trim_start_matches([' ', '\t']);
        if line.starts_with('\t') && (rest.is_empty() || rest.starts_with('#')) {
            return Some((number, 1, message_after(layout, number)));
        }
        if within(&layout.scalar, number) {
            continue;
        }
        if let Some(column) = tab_after_entries(line) {
            return Some((number, column, CANNOT_START));
        }
    }
    None
}

const CANNOT_START: &str = "found character that cannot start any token";

/// yaml.v2's message for a tab at the start of a line: what it says depends on the
/// scalar it is still scanning, if any.
fn message_after(layout: &Layout, line: usize) -> &'static str {
    match layout
        .scalar_starts
        .iter()
        .rev()
        .find(|(start, _)| *start < line)
    {
        Some((_, ScalarStyle::Plain)) => "found a tab character that violates indentation",
        Some((_, ScalarStyle::Literal | ScalarStyle::Folded)) => {
            "found a tab character where an indentation space is expected"
        }
        _ => CANNOT_START,
    }
}

/// The 1-based column of a tab that follows one or more `-` entry indicators at the
/// start of a line (`-\tvalue`, `- \tvalue`, `- -\tvalue`).
fn tab_after_entries(line: &str) -> Option<usize> {
    let bytes = line.as_bytes();
    let mut position = bytes.iter().take_while(|&&b| b == b' ').count();
    while bytes.get(position) == Some(&b'-')
        && bytes
            .get(position + 1)
            .is_some_and(|b| *b == b' ' || *b == b'\t')
    {
        position += 1;
        while bytes.get(position) == Some(&b' ') {
            position += 1;
        }
        if bytes.get(position) == Some(&b'\t') {
            return Some(line[..position].chars().count() + 1);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tabs_after_entries_are_found() {
        assert_eq!(tab_after_entries("-\ta"), Some(2));
        assert_eq!(tab_after_entries("  - \ta"), Some(5));
        assert_eq!(tab_after_entries("- - \ta"), Some(5));
        assert_eq!(tab_after_entries("- a\tb"), None);
        assert_eq!(tab_after_entries("-a\tb"), None);
    }
}
