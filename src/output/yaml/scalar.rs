//! Strings as yaml.v2 writes them: the encoder asks for a literal block when the
//! text has a newline, plain style when the text would read back as a string, double
//! quotes otherwise; the emitter's analysis of the characters then downgrades plain
//! to single quotes and anything to double quotes where the style cannot hold the
//! text. The writers fold long lines at spaces as the emitter does.

use super::{BEST_INDENT, BEST_WIDTH, Context, Emitter, resolve};
use crate::codec::sink::Sink;
use crate::text::bytes::{self, byte_table};

/// What the emitter's `yaml_emitter_analyze_scalar` finds out about a text. Flow
/// contexts never hold scalars here (only empty collections are written in flow
/// style), so the flow-only facts are left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(clippy::struct_excessive_bools)] // libyaml's own flags, kept as they are
pub(super) struct Analysis {
    pub(super) multiline: bool,
    /// The text has a `\n` (the encoder then asks for a literal block).
    newline: bool,
    /// The text is printable ASCII without spaces: nothing but its first
    /// character and leading `---`/`...` can matter.
    pub(super) quiet: bool,
    block_plain_allowed: bool,
    single_quoted_allowed: bool,
    block_allowed: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
}

/// Bytes that change nothing in the block-context analysis after the first character
/// of a text without spaces: printable ASCII other than space and `:` (an indicator
/// when it ends the text). `#` only counts after whitespace, and flow indicators
/// never matter here.
const QUIET: [bool; 256] = byte_table!(|byte| byte > b' ' && byte < 0x7F && byte != b':');

/// Indicators that make a text unfit for plain style when they start it.
fn is_leading_indicator(character: char) -> bool {
    matches!(
        character,
        '#' | ','
            | '['
            | ']'
            | '{'
            | '}'
            | '&'
            | '*'
            | '!'
            | '|'
            | '>'
            | '\''
            | '"'
            | '%'
            | '@'
            | '`'
    )
}

/// libyaml's `is_printable` (on characters rather than UTF-8 bytes): tab, CR, NEL,
/// BOM and everything beyond the Basic Multilingual Plane are not printable.
pub(super) fn is_printable(character: char) -> bool {
    matches!(character, '\n' | ' '..='~' | '\u{A0}'..='\u{D7FF}')
        || (('\u{E000}'..='\u{FFFD}').contains(&character) && character != '\u{FEFF}')
}

pub(super) fn is_break(character: char) -> bool {
    matches!(character, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

fn is_blank(character: Option<char>) -> bool {
    matches!(character, Some(' ' | '\t'))
}

/// The blank-or-break-or-NUL test the analysis uses for "preceded by whitespace".
fn is_blank_or_break(character: char) -> bool {
    matches!(character, ' ' | '\t' | '\0') || is_break(character)
}

pub(super) fn analyze(value: &str) -> Analysis {
    let Some(first) = value.chars().next() else {
        return Analysis {
            multiline: false,
            newline: false,
            quiet: true,
            block_plain_allowed: true,
            single_quoted_allowed: true,
            block_allowed: false,
        };
    };
    let document_marker = value.starts_with("---") || value.starts_with("...");
    // Fast path for the long tokens that fill catalogs (base64, digests, names).
    if first.is_ascii_graphic() && bytes::all_in(&value.as_bytes()[1..], &QUIET) {
        let alone = value.len() == 1;
        let indicator = is_leading_indicator(first)
            || (matches!(first, '?' | ':' | '-') && alone)
            || document_marker;
        return Analysis {
            multiline: false,
            newline: false,
            quiet: true,
            block_plain_allowed: !indicator,
            single_quoted_allowed: true,
            block_allowed: true,
        };
    }
    full_analysis(value, document_marker)
}

#[derive(Default)]
#[allow(clippy::struct_excessive_bools)] // libyaml's own flags, kept as they are
struct Facts {
    block_indicators: bool,
    line_breaks: bool,
    newline: bool,
    special_characters: bool,
    leading_space_or_break: bool,
    trailing_space: bool,
    trailing_break: bool,
    break_space: bool,
    space_break: bool,
}

fn full_analysis(value: &str, document_marker: bool) -> Analysis {
    let mut scan = Scan::new(document_marker);
    let mut characters = value.chars().peekable();
    while let Some(character) = characters.next() {
        scan.step(character, characters.peek().copied());
    }
    scan.analysis()
}

/// The analysis's walk over the characters, one at a time.
#[allow(clippy::struct_excessive_bools)] // libyaml's own state, kept as it is
struct Scan {
    facts: Facts,
    preceded_by_whitespace: bool,
    previous_space: bool,
    previous_break: bool,
    first: bool,
}

impl Scan {
    fn new(document_marker: bool) -> Scan {
        Scan {
            facts: Facts {
                block_indicators: document_marker,
                ..Facts::default()
            },
            preceded_by_whitespace: true,
            previous_space: false,
            previous_break: false,
            first: true,
        }
    }

    /// One character, and the one after it (`None` at the end).
    fn step(&mut self, character: char, next: Option<char>) {
        let facts = &mut self.facts;
        let followed_by_whitespace = next.is_none() || is_blank(next);
        let (first, last) = (self.first, next.is_none());
        facts.block_indicators |= if first {
            is_leading_indicator(character)
                || (matches!(character, '?' | ':' | '-') && followed_by_whitespace)
        } else {
            (character == ':' && followed_by_whitespace)
                || (character == '#' && self.preceded_by_whitespace)
        };
        facts.special_characters |= !is_printable(character);
        if character == ' ' {
            facts.leading_space_or_break |= first;
            facts.trailing_space |= last;
            facts.break_space |= self.previous_break;
            (self.previous_space, self.previous_break) = (true, false);
        } else if is_break(character) {
            facts.line_breaks = true;
            facts.newline |= character == '\n';
            facts.leading_space_or_break |= first;
            facts.trailing_break |= last;
            facts.space_break |= self.previous_space;
            (self.previous_space, self.previous_break) = (false, true);
        } else {
            (self.previous_space, self.previous_break) = (false, false);
        }
        self.preceded_by_whitespace = is_blank_or_break(character);
        self.first = false;
    }

    fn analysis(&self) -> Analysis {
        let facts = &self.facts;
        let mangled = facts.space_break || facts.special_characters;
        Analysis {
            multiline: facts.line_breaks,
            newline: facts.newline,
            quiet: false,
            block_plain_allowed: !(facts.leading_space_or_break
                || facts.trailing_space
                || facts.trailing_break
                || facts.break_space
                || mangled
                || facts.line_breaks
                || facts.block_indicators),
            single_quoted_allowed: !(facts.break_space || mangled),
            block_allowed: !(facts.trailing_space || mangled),
        }
    }
}

/// A text given in pieces, looked at as [`analyze`] looks at it whole: whether
/// it is written as a literal block, and what the block's header needs.
pub(super) struct Pieces {
    scan: Scan,
    first: Option<char>,
    /// The character waiting for the one after it.
    pending: Option<char>,
    /// The last two characters, the last one last.
    end: [Option<char>; 2],
}

impl Pieces {
    pub(super) fn new() -> Pieces {
        Pieces {
            // A document marker only bars plain style, which a text with a
            // newline never has.
            scan: Scan::new(false),
            first: None,
            pending: None,
            end: [None; 2],
        }
    }

    pub(super) fn feed(&mut self, piece: &str) {
        for character in piece.chars() {
            self.first.get_or_insert(character);
            if let Some(previous) = self.pending.replace(character) {
                self.scan.step(previous, Some(character));
            }
            self.end = [self.end[1], Some(character)];
        }
    }

    /// Whether yaml.v2 writes the text, in `context`, as a literal block: it has a
    /// newline, nothing a block cannot hold, and is no key ([`select_style`]).
    pub(super) fn literal(mut self, context: Context) -> Option<Literal> {
        if let Some(last) = self.pending.take() {
            self.scan.step(last, None);
        }
        let analysis = self.scan.analysis();
        let literal = analysis.newline && analysis.block_allowed && !context.simple_key;
        literal.then(|| Literal {
            first: self.first,
            chomp: chomping(self.end[1], self.end[0]),
        })
    }
}

/// What a literal block's header says.
pub(super) struct Literal {
    first: Option<char>,
    chomp: Option<u8>,
}

/// The style yaml.v2 ends up with for a string in `context`.
pub(super) fn select_style(value: &str, analysis: Analysis, context: Context) -> Style {
    let mut style = if analysis.newline {
        Style::Literal
    } else if resolve::plain_reads_as_string(value) {
        Style::Plain
    } else {
        Style::DoubleQuoted
    };
    if context.simple_key && analysis.multiline {
        style = Style::DoubleQuoted;
    }
    if style == Style::Plain
        && (!analysis.block_plain_allowed || (value.is_empty() && context.simple_key))
    {
        style = Style::SingleQuoted;
    }
    if style == Style::SingleQuoted && !analysis.single_quoted_allowed {
        style = Style::DoubleQuoted;
    }
    if style == Style::Literal && (!analysis.block_allowed || context.simple_key) {
        style = Style::DoubleQuoted;
    }
    style
}

impl<S: Sink> Emitter<'_, S> {
    pub(super) fn string(&mut self, value: &str, analysis: Analysis, context: Context) {
        let style = select_style(value, analysis, context);
        let saved = self.indent;
        self.increase_indent(true, false);
        let allow_breaks = !context.simple_key;
        match style {
            Style::Plain => self.write_plain(value, allow_breaks),
            Style::SingleQuoted => self.write_single_quoted(value, allow_breaks),
            Style::DoubleQuoted => self.write_double_quoted(value, allow_breaks),
            Style::Literal => self.write_literal(value),
        }
        self.indent = saved;
    }

    /// Plain text never holds line breaks (the analysis rules them out), so only
    /// spaces matter: runs between them are copied whole.
    fn write_plain(&mut self, value: &str, allow_breaks: bool) {
        if !self.whitespace {
            self.put(b' ');
        }
        let bytes = value.as_bytes();
        let mut spaces = false;
        let mut start = 0;
        for space in memchr::memchr_iter(b' ', bytes) {
            if space > start {
                self.write_run(&value[start..space]);
                spaces = false;
            }
            let next_is_space = bytes.get(space + 1) == Some(&b' ');
            if allow_breaks && !spaces && self.column > BEST_WIDTH && !next_is_space {
                self.write_indent();
            } else {
                self.put(b' ');
            }
            spaces = true;
            start = space + 1;
        }
        if start < bytes.len() {
            self.write_run(&value[start..]);
        }
        self.whitespace = false;
        self.indention = false;
    }

    fn write_single_quoted(&mut self, value: &str, allow_breaks: bool) {
        self.write_indicator(b"'", true, false, false);
        let (mut spaces, mut breaks) = (false, false);
        let mut characters = value.char_indices().peekable();
        while let Some((index, character)) = characters.next() {
            let next = characters.peek().map(|&(_, next)| next);
            if character == ' ' {
                if allow_breaks
                    && !spaces
                    && self.column > BEST_WIDTH
                    && index > 0
                    && next.is_some()
                    && next != Some(' ')
                {
                    self.write_indent();
                } else {
                    self.put(b' ');
                }
                spaces = true;
            } else if is_break(character) {
                if !breaks && character == '\n' {
                    self.put_break();
                }
                self.write_break(character);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                if character == '\'' {
                    self.put(b'\'');
                }
                self.write_char(character);
                self.indention = false;
                (spaces, breaks) = (false, false);
            }
        }
        self.write_indicator(b"'", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_double_quoted(&mut self, value: &str, allow_breaks: bool) {
        self.write_indicator(b"\"", true, false, false);
        // libyaml tests for a byte order mark at the start of the text for every
        // character, so a leading BOM escapes the whole text.
        let bom = value.starts_with('\u{FEFF}');
        let mut spaces = false;
        let mut characters = value.char_indices().peekable();
        while let Some((index, character)) = characters.next() {
            let next = characters.peek().map(|&(_, next)| next);
            if bom
                || !is_printable(character)
                || is_break(character)
                || character == '"'
                || character == '\\'
            {
                self.write_escape(character);
                spaces = false;
            } else if character == ' ' {
                if allow_breaks
                    && !spaces
                    && self.column > BEST_WIDTH
                    && index > 0
                    && next.is_some()
                {
                    self.write_indent();
                    if next == Some(' ') {
                        self.put(b'\\');
                    }
                } else {
                    self.put(b' ');
                }
                spaces = true;
            } else {
                self.write_char(character);
                spaces = false;
            }
        }
        self.write_indicator(b"\"", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_escape(&mut self, character: char) {
        const HEX: &[u8; 16] = b"0123456789ABCDEF";
        self.put(b'\\');
        let short = match character {
            '\0' => Some(b'0'),
            '\u{7}' => Some(b'a'),
            '\u{8}' => Some(b'b'),
            '\t' => Some(b't'),
            '\n' => Some(b'n'),
            '\u{B}' => Some(b'v'),
            '\u{C}' => Some(b'f'),
            '\r' => Some(b'r'),
            '\u{1B}' => Some(b'e'),
            '"' => Some(b'"'),
            '\\' => Some(b'\\'),
            '\u{85}' => Some(b'N'),
            '\u{A0}' => Some(b'_'),
            '\u{2028}' => Some(b'L'),
            '\u{2029}' => Some(b'P'),
            _ => None,
        };
        if let Some(letter) = short {
            self.put(letter);
            return;
        }
        let code = u32::from(character);
        let (letter, digits) = match code {
            0..=0xFF => (b'x', 2),
            0x100..=0xFFFF => (b'u', 4),
            _ => (b'U', 8),
        };
        self.put(letter);
        for shift in (0..digits).rev() {
            self.put(HEX[((code >> (shift * 4)) & 0xF) as usize]);
        }
    }

    fn write_literal(&mut self, value: &str) {
        let mut reversed = value.chars().rev();
        let (last, before) = (reversed.next(), reversed.next());
        let literal = Literal {
            first: value.chars().next(),
            chomp: chomping(last, before),
        };
        let mut breaks = self.literal_header(&literal);
        self.literal_text(value, &mut breaks);
    }

    /// A literal block of a text given in pieces (see [`Pieces`]), in the
    /// indentation [`Emitter::string`] gives a string.
    pub(super) fn literal_pieces(
        &mut self,
        literal: &Literal,
        pieces: impl FnOnce(&mut dyn FnMut(&str)),
    ) {
        let saved = self.indent;
        self.increase_indent(true, false);
        let mut breaks = self.literal_header(literal);
        pieces(&mut |piece| self.literal_text(piece, &mut breaks));
        self.indent = saved;
    }

    /// `|`, an indentation hint when the text starts with a space or break, the
    /// chomping indicator; returns the state [`Emitter::literal_text`] starts from.
    fn literal_header(&mut self, literal: &Literal) -> bool {
        self.write_indicator(b"|", true, false, false);
        if literal
            .first
            .is_some_and(|first| first == ' ' || is_break(first))
        {
            let hint = b'0' + u8::try_from(BEST_INDENT).expect("a one-digit indentation");
            self.write_indicator(&[hint], false, false, false);
        }
        if let Some(chomp) = literal.chomp {
            self.write_indicator(&[chomp], false, false, false);
        }
        self.put_break();
        self.indention = true;
        self.whitespace = true;
        true
    }

    /// The lines of a literal block; `breaks` says whether the last character
    /// written was a break (the next line is indented).
    fn literal_text(&mut self, text: &str, breaks: &mut bool) {
        for character in text.chars() {
            if character == '\n' {
                self.put_break();
                self.indention = true;
                *breaks = true;
            } else if is_break(character) {
                self.write_break(character);
                self.indention = true;
                *breaks = true;
            } else {
                if *breaks {
                    self.write_indent();
                }
                self.write_char(character);
                self.indention = false;
                *breaks = false;
            }
        }
    }

    /// A line break inside a scalar: `\n` as a newline, other breaks copied.
    fn write_break(&mut self, character: char) {
        if character == '\n' {
            self.put_break();
        } else {
            self.write_char(character);
            self.column = 0;
        }
    }
}

/// `-` when the text does not end with a line break, `+` when it ends with two (or
/// is a single break), none when it ends with exactly one: from its `last`
/// character and the one `before` it.
fn chomping(last: Option<char>, before: Option<char>) -> Option<u8> {
    match (last, before) {
        (None, _) => Some(b'-'),
        (Some(last), _) if !is_break(last) => Some(b'-'),
        (Some(_), None) => Some(b'+'),
        (Some(_), Some(before)) if is_break(before) => Some(b'+'),
        (Some(_), Some(_)) => None,
    }
}
