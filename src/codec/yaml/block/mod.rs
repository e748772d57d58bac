//! A direct reader for the block style that catalogs are written in: block mappings
//! with plain keys, block sequences, plain and quoted scalars (over several lines
//! too, with the common double-quoted escapes), literal and folded block scalars,
//! `[]`, `{}` and comments. It gives the builder the events saphyr would give,
//! borrowing every scalar that needs no unescaping, so values are built by the same
//! code either way. It reads every document of the corpus's catalogs, about twice as
//! fast as saphyr (`cargo bench --bench yaml`).
//!
//! Anything outside that subset (flow collections, anchors, aliases, tags, other
//! escapes, tabs, indentation indicators, empty block scalars, unusual indentation,
//! empty documents, and every error) makes [`read`] give `None`, and the document
//! goes to the full reader, which is exact for all of YAML and owns every message.
//! Tests compare the two readers on every document of the corpus and on generated
//! documents.

use std::borrow::Cow;

use saphyr_parser::{Event, Marker, ScalarStyle, Span};

use super::Converted;
use super::builder::{Builder, Capturing, Marks};
use flow::{Close, Folded, escape_length, single_close};

mod flow;

/// Deeper documents are left to the full reader, which applies the depth limit.
const MAX_DEPTH: usize = 64;

/// YAML's bound on an implicit key (1024 characters); longer keys go to the full
/// reader, which reports them.
const MAX_KEY: usize = 1024;

/// The document's value, or `None` when the full reader must read it. With
/// `capture`, the builder writes property values as text (see the builder's
/// `capture`), and whether it did comes back too.
pub(super) fn read(text: &str, integers: bool, capture: bool) -> Option<(Converted, bool)> {
    if !simple_bytes(text.as_bytes()) {
        return None;
    }
    let mut reader = Reader {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        end: 0,
        builder: Builder::new(text, &[]),
        depth: 0,
    };
    reader.builder.integers = integers;
    reader.builder.marks = Marks::Bytes;
    if capture {
        reader.builder.capturing = Capturing::On;
    }
    reader.go_to(0);
    let read = reader.document();
    let builder = reader.builder;
    if builder.capturing == Capturing::Failed {
        return self::read(text, integers, false);
    }
    read?;
    if builder.decode_error.is_some() || builder.convert_error.is_some() {
        return None;
    }
    let captured = builder.capturing == Capturing::Captured;
    super::finish(builder)
        .ok()
        .map(|converted| (converted, captured))
}

/// No tab or carriage return (their rules differ between YAML readers), and no
/// character the full reader rewrites first: NEL, LS, PS or a byte order mark.
fn simple_bytes(bytes: &[u8]) -> bool {
    if memchr::memchr2(b'\t', b'\r', bytes).is_some() {
        return false;
    }
    !memchr::memchr3_iter(0xc2, 0xe2, 0xef, bytes).any(|at| {
        matches!(
            (bytes[at], bytes.get(at + 1), bytes.get(at + 2)),
            (0xc2, Some(0x85), _)
                | (0xe2, Some(0x80), Some(0xa8 | 0xa9))
                | (0xef, Some(0xbb), Some(0xbf))
        )
    })
}

struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    /// The start and the end (its line break, or the end of the text) of the line
    /// being read.
    pos: usize,
    end: usize,
    builder: Builder<'a>,
    depth: usize,
}

/// What a value belongs to: a mapping key's value may be a sequence at the key's own
/// indentation, and a sequence entry may hold a mapping that starts on its line.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Parent {
    Mapping,
    Sequence,
}

impl<'a> Reader<'a> {
    fn document(&mut self) -> Option<()> {
        if let Some(rest) = self.text.strip_prefix("---") {
            let line = &rest[..rest.find('\n').unwrap_or(rest.len())];
            let after = line.trim_start_matches(' ');
            let marker = line.is_empty()
                || (line.starts_with(' ') && (after.is_empty() || after.starts_with('#')));
            if !marker {
                return None;
            }
            self.next_line();
        }
        // An empty document, or anything after the root node, goes to the full reader.
        let Next::Line(indent) = self.next_content()? else {
            return None;
        };
        self.block(indent)?;
        (self.next_content()? == Next::End).then_some(())
    }

    /// The mapping or sequence whose first line starts at `self.pos`, indented by
    /// `indent` spaces.
    fn block(&mut self, indent: usize) -> Option<()> {
        let start = self.pos + indent;
        if self.is_entry(start) {
            self.sequence(indent)
        } else {
            self.mapping(indent, start)
        }
    }

    fn sequence(&mut self, indent: usize) -> Option<()> {
        self.enter()?;
        self.emit(Event::SequenceStart(0, None), self.pos + indent)?;
        loop {
            let dash = self.pos + indent;
            self.value(dash + 1, indent, Parent::Sequence)?;
            match self.next_content()? {
                Next::Line(next) if next == indent && self.is_entry(self.pos + next) => {}
                Next::Line(next) if next > indent => return None,
                _ => break,
            }
        }
        self.emit(Event::SequenceEnd, self.pos)?;
        self.depth -= 1;
        Some(())
    }

    /// A mapping whose keys are indented by `indent`; the first key starts at
    /// `first` (after a `- ` when the mapping is a sequence entry).
    fn mapping(&mut self, indent: usize, first: usize) -> Option<()> {
        self.enter()?;
        self.emit(Event::MappingStart(0, None), first)?;
        let mut key = first;
        loop {
            let after = self.key(key)?;
            self.value(after, indent, Parent::Mapping)?;
            match self.next_content()? {
                Next::Line(next) if next == indent && !self.is_entry(self.pos + next) => {
                    key = self.pos + next;
                }
                Next::Line(next) if next < indent => break,
                Next::End => break,
                Next::Line(_) => return None,
            }
        }
        self.emit(Event::MappingEnd, self.pos)?;
        self.depth -= 1;
        Some(())
    }

    fn enter(&mut self) -> Option<()> {
        self.depth += 1;
        (self.depth <= MAX_DEPTH).then_some(())
    }

    /// Emits the plain key at `at` and returns the offset after its `:`.
    fn key(&mut self, at: usize) -> Option<usize> {
        let end = self.end;
        if starts_with_indicator(&self.bytes[at..end]) {
            return None;
        }
        let (stop, colon) = self.plain_end(at, end);
        let colon = colon.filter(|&colon| colon == stop)?;
        let key = &self.text[at..colon];
        if key.ends_with(' ') || key.len() > MAX_KEY {
            return None;
        }
        self.emit(
            Event::Scalar(Cow::Borrowed(key), ScalarStyle::Plain, 0, None),
            at,
        )?;
        Some(colon + 1)
    }

    /// The value that follows a key's `:` or an entry's `-` at `after`, in a
    /// collection indented by `indent`. Leaves `self.pos` at the start of a line.
    fn value(&mut self, after: usize, indent: usize, parent: Parent) -> Option<()> {
        let end = self.end;
        let at = after
            + self.bytes[after..end]
                .iter()
                .take_while(|&&b| b == b' ')
                .count();
        if at == end || self.bytes[at] == b'#' {
            return self.value_below(at, indent, parent);
        }
        let style = match self.bytes[at] {
            b'|' => return self.block_scalar(at, indent, ScalarStyle::Literal),
            b'>' => return self.block_scalar(at, indent, ScalarStyle::Folded),
            b'\'' => return self.quoted(at, indent, false),
            b'"' => return self.quoted(at, indent, true),
            b'[' | b'{' => return self.empty_flow(at, end),
            _ if starts_with_indicator(&self.bytes[at..end]) => return None,
            _ => ScalarStyle::Plain,
        };
        let (stop, colon) = self.plain_end(at, end);
        if colon.is_some() {
            // `- key: value` starts a mapping inside an entry; `key: a: b` is an error.
            if parent == Parent::Mapping {
                return None;
            }
            let column = at - self.pos;
            return self.mapping(column, at);
        }
        let first = self.text[at..stop].trim_end_matches(' ');
        self.next_line();
        let scalar = if stop < end {
            // A comment ends the scalar.
            Cow::Borrowed(first)
        } else {
            self.plain_continued(first, indent)?
        };
        self.emit(Event::Scalar(scalar, style, 0, None), at)
    }

    /// A plain scalar's first line and the lines that continue it (indented deeper
    /// than `indent`), folded. Leaves `self.pos` after the last of them.
    fn plain_continued(&mut self, first: &'a str, indent: usize) -> Option<Cow<'a, str>> {
        let mut folded = Folded::default();
        folded.push(first, ScalarStyle::Plain)?;
        let mut after_last = self.pos;
        while self.pos < self.bytes.len() {
            let end = self.end;
            let line = &self.text[self.pos..end];
            let content = line.trim_start_matches(' ');
            if content.is_empty() {
                folded.empty_line();
                self.next_line();
                continue;
            }
            if line.len() - content.len() <= indent || content.starts_with('#') {
                break;
            }
            let start = end - content.len();
            if self.plain_end(start, end) != (end, None) {
                return None;
            }
            folded.push(content.trim_end_matches(' '), ScalarStyle::Plain)?;
            self.next_line();
            after_last = self.pos;
        }
        // Mostly the scalar ends on its line, and the reader is there already.
        if self.pos != after_last {
            self.go_to(after_last);
        }
        Some(folded.finish())
    }

    /// A value on the lines below its key or `-`: a nested collection, or null.
    fn value_below(&mut self, at: usize, indent: usize, parent: Parent) -> Option<()> {
        self.next_line();
        match self.next_content()? {
            Next::Line(next) if next > indent => self.block(next),
            Next::Line(next)
                if next == indent
                    && parent == Parent::Mapping
                    && self.is_entry(self.pos + next) =>
            {
                self.sequence(indent)
            }
            _ => self.emit(
                Event::Scalar(Cow::Borrowed(""), ScalarStyle::Plain, 0, None),
                at,
            ),
        }
    }

    /// A single- or double-quoted scalar starting at `at`, on one line or folded
    /// over several, each indented deeper than `indent`.
    fn quoted(&mut self, at: usize, indent: usize, double: bool) -> Option<()> {
        let style = if double {
            ScalarStyle::DoubleQuoted
        } else {
            ScalarStyle::SingleQuoted
        };
        let mut folded = Folded::default();
        let mut from = at + 1;
        loop {
            let end = self.end;
            let close = if double {
                self.double_close(from, end)?
            } else {
                single_close(&self.bytes[from..end])
                    .map_or(Close::Continues, |close| Close::Quote(from + close))
            };
            let segment = match close {
                Close::Quote(close) => &self.text[from..close],
                Close::Continues => &self.text[from..end],
            };
            if let Close::Quote(close) = close {
                folded.push(segment, style)?;
                if !blank_or_comment(&self.bytes[close + 1..end]) {
                    return None;
                }
                let scalar = folded.finish();
                self.emit(Event::Scalar(scalar, style, 0, None), at)?;
                self.next_line();
                return Some(());
            }
            let trimmed = segment.trim_end_matches(' ');
            let backslashes = trimmed.len() - trimmed.trim_end_matches('\\').len();
            if double && backslashes % 2 == 1 {
                // An escaped line break joins the lines; an escaped space that the
                // trimming cut is left to the full reader.
                if trimmed.len() < segment.len() {
                    return None;
                }
                folded.push(&trimmed[..trimmed.len() - 1], style)?;
                folded.joined = true;
            } else {
                folded.push(trimmed, style)?;
            }
            // The continuation lines, after any empty ones.
            self.next_line();
            loop {
                if self.pos >= self.bytes.len() {
                    return None;
                }
                let end = self.end;
                let spaces = self.bytes[self.pos..end]
                    .iter()
                    .take_while(|&&b| b == b' ')
                    .count();
                if self.pos + spaces < end {
                    if spaces <= indent {
                        return None;
                    }
                    from = self.pos + spaces;
                    break;
                }
                folded.empty_line();
                self.next_line();
            }
        }
    }

    /// Where a double-quoted scalar's line `from..end` ends, or `None` for an
    /// escape left to the full reader.
    fn double_close(&self, from: usize, end: usize) -> Option<Close> {
        let mut at = from;
        while let Some(found) = memchr::memchr2(b'"', b'\\', &self.bytes[at..end]) {
            let here = at + found;
            if self.bytes[here] == b'"' {
                return Some(Close::Quote(here));
            }
            if here + 1 == end {
                // An escaped line break.
                return Some(Close::Continues);
            }
            at = here + 1 + escape_length(&self.bytes[here + 1..end])?;
        }
        Some(Close::Continues)
    }

    /// `[]` or `{}`, alone on the rest of the line.
    fn empty_flow(&mut self, at: usize, end: usize) -> Option<()> {
        let (start, finish) = match self.bytes.get(at..at + 2)? {
            b"[]" => (Event::SequenceStart(0, None), Event::SequenceEnd),
            b"{}" => (Event::MappingStart(0, None), Event::MappingEnd),
            _ => return None,
        };
        if !blank_or_comment(&self.bytes[at + 2..end]) {
            return None;
        }
        self.emit(start, at)?;
        self.emit(finish, at + 1)?;
        self.next_line();
        Some(())
    }

    /// A literal (`|`) or folded (`>`) scalar whose header is at `at`, in a
    /// collection indented by `indent`, with libyaml's folding and chomping.
    fn block_scalar(&mut self, at: usize, indent: usize, style: ScalarStyle) -> Option<()> {
        let end = self.end;
        let header = &self.bytes[at + 1..end];
        let chomp = match header.first() {
            Some(b'-') => Chomp::Strip,
            Some(b'+') => Chomp::Keep,
            _ => Chomp::Clip,
        };
        let rest = if chomp == Chomp::Clip {
            header
        } else {
            &header[1..]
        };
        if !blank_or_comment(rest) {
            return None;
        }
        self.next_line();
        let lines = self.block_lines(indent)?;
        // At the end of a text without a final line break, clipping keeps none.
        if !self.text.ends_with('\n') && self.pos == self.bytes.len() {
            return None;
        }
        let folded = style == ScalarStyle::Folded;
        // The lines' text and breaks: the most the scalar holds.
        let size: usize = lines
            .iter()
            .map(|line| line.map_or(1, |text| text.len() + 1))
            .sum();
        let mut scalar = String::with_capacity(size + 1);
        let mut breaks = 0;
        // Whether the previous content line started with white space.
        let mut previous_blank: Option<bool> = None;
        for line in &lines {
            let Some(content) = line else {
                breaks += 1;
                continue;
            };
            let blank = content.starts_with(' ');
            if let Some(previous_blank) = previous_blank {
                if folded && !previous_blank && !blank {
                    if breaks == 0 {
                        scalar.push(' ');
                    }
                } else {
                    scalar.push('\n');
                }
            }
            scalar.extend(std::iter::repeat_n('\n', breaks));
            scalar.push_str(content);
            previous_blank = Some(blank);
            breaks = 0;
        }
        match chomp {
            Chomp::Strip => {}
            Chomp::Clip => scalar.push('\n'),
            Chomp::Keep => scalar.extend(std::iter::repeat_n('\n', breaks + 1)),
        }
        self.emit(Event::Scalar(Cow::Owned(scalar), style, 0, None), at)
    }

    /// The lines of a block scalar below a collection indented by `indent`: each
    /// line's text after the scalar's indentation, or `None` for an empty line.
    /// Leaves `self.pos` at the first line after the scalar.
    fn block_lines(&mut self, indent: usize) -> Option<Vec<Option<&'a str>>> {
        let mut lines = Vec::new();
        let mut width = None;
        // The most spaces on an empty line before the first content line.
        let mut leading = 0;
        while self.pos < self.bytes.len() {
            let end = self.end;
            let line = &self.text[self.pos..end];
            let spaces = line.len() - line.trim_start_matches(' ').len();
            let empty = spaces == line.len();
            let Some(width) = width else {
                if empty {
                    leading = leading.max(spaces);
                    lines.push(None);
                    self.next_line();
                    continue;
                }
                // libyaml takes the widest leading empty line as the indentation;
                // a scalar that starts less indented than that is left to it.
                if spaces <= indent || leading > spaces {
                    return None;
                }
                width = Some(spaces);
                lines.push(Some(&line[spaces..]));
                self.next_line();
                continue;
            };
            if empty && spaces <= width {
                lines.push(None);
            } else if spaces >= width {
                lines.push(Some(&line[width..]));
            } else {
                break;
            }
            self.next_line();
        }
        width.map(|_| lines)
    }

    /// Where a plain scalar starting at `at` ends on its line (`end`): at a comment
    /// or the line's end, and the offset of the first `: ` or final `:` before that.
    fn plain_end(&self, at: usize, end: usize) -> (usize, Option<usize>) {
        let mut from = at;
        while let Some(found) = memchr::memchr2(b':', b'#', &self.bytes[from..end]) {
            let here = from + found;
            if self.bytes[here] == b':' {
                if here + 1 == end || self.bytes[here + 1] == b' ' {
                    return (here, Some(here));
                }
            } else if here > at && self.bytes[here - 1] == b' ' {
                return (here, None);
            }
            from = here + 1;
        }
        (end, None)
    }

    /// Skips empty and comment lines to the next content line, or the end. A
    /// document marker (`---`, `...`) gives `None`: it is left to the full reader.
    fn next_content(&mut self) -> Option<Next> {
        while self.pos < self.bytes.len() {
            let end = self.end;
            let line = &self.bytes[self.pos..end];
            let spaces = line.iter().take_while(|&&b| b == b' ').count();
            if spaces < line.len() && line[spaces] != b'#' {
                let marker = line.starts_with(b"---") || line.starts_with(b"...");
                return (!marker).then_some(Next::Line(spaces));
            }
            self.next_line();
        }
        Some(Next::End)
    }

    fn is_entry(&self, at: usize) -> bool {
        self.bytes.get(at) == Some(&b'-')
            && matches!(self.bytes.get(at + 1), None | Some(b' ' | b'\n'))
    }

    /// Moves to the line starting at `pos`.
    fn go_to(&mut self, pos: usize) {
        self.pos = pos;
        self.end = memchr::memchr(b'\n', &self.bytes[pos..]).map_or(self.bytes.len(), |i| pos + i);
    }

    fn next_line(&mut self) {
        self.go_to((self.end + 1).min(self.bytes.len()));
    }

    /// Hands an event to the builder, marked with the byte offset `at`. The builder
    /// reads only that offset: the line and column of a span serve its depth and
    /// trailing-content stops, which documents read here never reach.
    fn emit(&mut self, event: Event<'a>, at: usize) -> Option<()> {
        let marker = Marker::new(at, 0, 0);
        self.builder.event(event, Span::new(marker, marker)).ok()?;
        (self.builder.capturing != Capturing::Failed).then_some(())
    }
}

/// What follows empty and comment lines.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Next {
    /// A content line, indented by this many spaces.
    Line(usize),
    End,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Chomp {
    Strip,
    Clip,
    Keep,
}

/// Whether `text` starts with something other than a plain scalar. `-`, `?` and
/// `:` start one when a character other than white space follows.
fn starts_with_indicator(text: &[u8]) -> bool {
    if let [b'-' | b'?' | b':', next, ..] = text {
        return matches!(next, b' ' | b'\n');
    }
    matches!(
        text.first(),
        None | Some(
            b'-' | b'?'
                | b':'
                | b','
                | b'['
                | b']'
                | b'{'
                | b'}'
                | b'#'
                | b'&'
                | b'*'
                | b'!'
                | b'|'
                | b'>'
                | b'\''
                | b'"'
                | b'%'
                | b'@'
                | b'`'
        )
    )
}

/// Nothing, or white space and then a comment.
fn blank_or_comment(rest: &[u8]) -> bool {
    let spaces = rest.iter().take_while(|&&b| b == b' ').count();
    spaces == rest.len() || spaces > 0 && rest[spaces] == b'#'
}

#[cfg(test)]
mod tests;
