//! Tabs that yaml.v2 refuses and saphyr reads. yaml.v2 skips a tab between tokens
//! only in flow collections or right after a value indicator; at the start of a
//! line and after a `-` entry indicator it stops there and fails, unless it is
//! still scanning a plain scalar, whose continuation lines may hold tabs from the
//! scalar's indentation on. saphyr (YAML 1.2) reads such tabs as white space in
//! blank and comment lines and after `-`. Checked here: tabs in the indentation
//! of blank and comment lines, and tabs after block entries.

use saphyr_parser::ScalarStyle;

/// What yaml.v2 scanned last before a line, which decides whether a tab on it is
/// white space.
#[derive(Clone, Copy)]
enum Token {
    /// A plain scalar value in a block indented this much: yaml.v2 is still
    /// scanning it on the following blank lines.
    Plain { indentation: usize },
    /// A literal or folded scalar with its indentation, which scans the following
    /// blank lines too.
    Block { indentation: usize },
    /// Anything else: a key, a quoted scalar, the end of a flow collection.
    Other,
}

/// What the check needs of a parsed document: where its quoted scalars, multi-line
/// scalars and flow collections lie (1-based lines), and its tokens in order.
#[derive(Default)]
pub(super) struct Layout {
    /// Lines inside a quoted scalar or a flow collection (after the line it opens on).
    flow_or_quoted: Vec<(usize, usize)>,
    /// Lines inside any multi-line scalar (after the line it starts on).
    scalar: Vec<(usize, usize)>,
    /// Tokens by the line they start on (flow collections: end on), in order.
    tokens: Vec<(usize, Token)>,
    /// Open collections: the line they start on, when they are flow collections.
    open: Vec<Option<usize>>,
    /// Character index -> byte offset, moving from one event to the next.
    cursor: (usize, usize),
    /// The byte offset where each line starts.
    line_starts: Vec<usize>,
}

impl Layout {
    pub(super) fn new(text: &str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
        Layout {
            line_starts,
            ..Layout::default()
        }
    }

    /// The byte offset where 1-based `line` starts.
    fn line_start(&self, line: usize) -> usize {
        self.line_starts
            .get(line.saturating_sub(1))
            .copied()
            .unwrap_or_default()
    }

    /// A scalar from character `start` (on line `first`, column `column`) to
    /// character `end` (on line `last`).
    pub(super) fn scalar(
        &mut self,
        text: &str,
        style: ScalarStyle,
        (start, first, column): (usize, usize, usize),
        (end, last): (usize, usize),
    ) {
        let token = match style {
            ScalarStyle::Plain => {
                let start = self.byte_offset(text, start);
                let end = self.byte_offset(text, end);
                let key = text[end..].trim_start_matches([' ', '\t']).starts_with(':');
                // yaml.v2 scans it from its block's indentation on: that of its
                // key (or `-`) when it follows one on its line. A value on a line
                // of its own belongs to a block indented less, by how much is not
                // known here: 0 refuses only what every block refuses.
                let line_start = self.line_start(first).min(start);
                let before = &text[line_start..start];
                let indentation = if before.trim_start_matches(' ').is_empty() {
                    0
                } else {
                    before.len() - before.trim_start_matches(' ').len()
                };
                if key {
                    Token::Other
                } else {
                    Token::Plain { indentation }
                }
            }
            // A block scalar's event starts at its first content character (so at
            // its indentation) and ends where the next token starts.
            ScalarStyle::Literal | ScalarStyle::Folded => {
                let end = self.byte_offset(text, end);
                let line_start = self.line_start(last).min(end);
                let at_next_token = text[line_start..end].trim_start_matches(' ').is_empty();
                let last = if at_next_token { last - 1 } else { last };
                self.scalar.push((first, last.max(first)));
                self.tokens.push((
                    first,
                    Token::Block {
                        indentation: column,
                    },
                ));
                return;
            }
            _ => Token::Other,
        };
        if last > first {
            self.scalar.push((first + 1, last));
            if matches!(style, ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted) {
                self.flow_or_quoted.push((first + 1, last));
            }
        }
        self.tokens.push((first, token));
    }

    /// A collection opens, its event spanning characters `start..end` of `text`,
    /// on `line`. A flow collection's event spans its bracket; a block
    /// collection's is empty (and may sit on its first entry's bracket).
    pub(super) fn open(&mut self, text: &str, (start, end): (usize, usize), line: usize) {
        let flow = end > start
            && matches!(
                text.as_bytes().get(self.byte_offset(text, start)),
                Some(b'[' | b'{')
            );
        self.open.push(flow.then_some(line));
    }

    /// Events come in text order, so the cursor walks a short way each time.
    fn byte_offset(&mut self, text: &str, index: usize) -> usize {
        let (mut characters, mut offset) = self.cursor;
        let mut backwards = text[..offset].chars().rev();
        while characters > index {
            let Some(character) = backwards.next() else {
                break;
            };
            characters -= 1;
            offset -= character.len_utf8();
        }
        let mut forwards = text[offset..].chars();
        while characters < index {
            let Some(character) = forwards.next() else {
                break;
            };
            characters += 1;
            offset += character.len_utf8();
        }
        self.cursor = (characters, offset);
        offset
    }

    pub(super) fn close(&mut self, line: usize) {
        if let Some(Some(start)) = self.open.pop() {
            if line > start {
                self.flow_or_quoted.push((start + 1, line));
            }
            self.tokens.push((line, Token::Other));
        }
    }
}

/// Which 1-based lines `ranges` cover, for lines up to `count`.
fn covered(ranges: &[(usize, usize)], count: usize) -> Vec<bool> {
    let mut depth = vec![0_isize; count + 2];
    for &(first, last) in ranges {
        depth[first.min(count + 1)] += 1;
        depth[(last + 1).min(count + 1)] -= 1;
    }
    let mut open = 0;
    depth
        .into_iter()
        .map(|change| {
            open += change;
            open > 0
        })
        .collect()
}

/// The first tab yaml.v2 would fail on: its 1-based line and column and yaml.v2's
/// message.
pub(super) fn refused_tab(text: &str, layout: &Layout) -> Option<(usize, usize, &'static str)> {
    let count = layout.line_starts.len();
    let flow_or_quoted = covered(&layout.flow_or_quoted, count);
    let scalar = covered(&layout.scalar, count);
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        if !line.contains('\t') || flow_or_quoted.get(number) == Some(&true) {
            continue;
        }
        let rest = line.trim_start_matches([' ', '\t']);
        let indentation = &line[..line.len() - rest.len()];
        if rest.is_empty() || rest.starts_with('#') {
            let Some(tab) = indentation.find('\t') else {
                continue;
            };
            if let Some(message) = refused_in_blank_line(layout, number, tab) {
                return Some((number, tab + 1, message));
            }
            continue;
        }
        if scalar.get(number) == Some(&true) {
            continue;
        }
        if let Some(column) = tab_after_entries(line) {
            return Some((number, column, CANNOT_START));
        }
    }
    None
}

const CANNOT_START: &str = "found character that cannot start any token";

/// Whether yaml.v2 fails on a tab at 0-based `column` in the indentation of a blank
/// or comment line: it depends on the token it scanned last.
fn refused_in_blank_line(layout: &Layout, line: usize, column: usize) -> Option<&'static str> {
    // Tokens are in text order: the last one that starts before the line.
    let before = layout.tokens.partition_point(|(start, _)| *start < line);
    match before.checked_sub(1).map(|index| layout.tokens[index].1) {
        // Past the scalar's indentation, the tab is white space inside it.
        Some(Token::Plain { indentation }) => {
            (column <= indentation).then_some("found a tab character that violates indentation")
        }
        Some(Token::Block { indentation }) => (column < indentation)
            .then_some("found a tab character where an indentation space is expected"),
        Some(Token::Other) | None => Some(CANNOT_START),
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
