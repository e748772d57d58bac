//! yaml.v2's syntax-error texts and line numbers for saphyr's errors.
//!
//! yaml.v2 (a libyaml port) prints `line N: <problem>` where N comes from the
//! problem mark: for scanner errors the 1-based line, for parser errors the 0-based
//! line (one less), and nothing at all when that 0-based line is 0.

use saphyr_parser::ScanError;

/// Which libyaml stage raised an error; it decides how the line is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    Scanner,
    Parser,
}

/// What the document builder was doing when the parser failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Context {
    /// No collection open.
    Root,
    BlockMapping,
    BlockSequence,
    /// A flow collection opened with this bracket.
    Flow(char),
}

/// A saphyr error translated to yaml.v2's text.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Translated {
    /// The `yaml: ...` text (without `yaml: `) and the 1-based line and column of the
    /// problem.
    Error {
        text: String,
        line: usize,
        column: usize,
    },
    /// Content yaml.v2 would silently drop after the first node.
    Trailing { line: usize, column: usize },
    /// Flow collections nested deeper than saphyr's limit (yaml.v2 allows 10,000).
    TooDeep { line: usize, column: usize },
}

/// Translates a saphyr error on `text` to yaml.v2's message and position.
pub(super) fn translate(error: &ScanError, text: &str, context: Context) -> Translated {
    let info = error.info();
    let marker = error.marker();
    let mut at = Position {
        line: marker.line(),
        column: marker.col() + 1,
    };
    let (problem, stage) = match info {
        "recursion limit exceeded" => {
            return Translated::TooDeep {
                line: at.line,
                column: at.column,
            };
        }
        "while parsing node, found unknown anchor" => {
            let name = anchor_name(text, byte_offset(text, marker.index()));
            let text = format!("unknown anchor '{name}' referenced");
            return Translated::Error {
                text,
                line: at.line,
                column: at.column,
            };
        }
        "comment intercepting the multiline text"
        | "invalid trailing content after double-quoted scalar"
        | "misplaced bracket" => {
            // libyaml ends the scalar at the comment (or quote) and takes what follows
            // as a new token, or a stray bracket as a collection end; the parser then
            // finds a token that does not fit where it stands.
            at = next_token(text, byte_offset(text, marker.index()));
            let problem = match context {
                Context::Root => {
                    return Translated::Trailing {
                        line: at.line,
                        column: at.column,
                    };
                }
                Context::BlockMapping => "did not find expected key",
                Context::BlockSequence => "did not find expected '-' indicator",
                Context::Flow('{') => "did not find expected ',' or '}'",
                Context::Flow(_) => "did not find expected ',' or ']'",
            };
            (problem.to_owned(), Stage::Parser)
        }
        "while scanning a quoted scalar, found unexpected end of stream" => {
            at = end_of_stream(text);
            ("found unexpected end of stream".to_owned(), Stage::Scanner)
        }
        "while scanning a plain scalar, found a tab" => {
            at = leading_tab(text, byte_offset(text, marker.index())).unwrap_or(at);
            (
                "found a tab character that violates indentation".to_owned(),
                Stage::Scanner,
            )
        }
        _ => {
            let (problem, stage) = problem_text(info);
            (problem.to_owned(), stage)
        }
    };
    // libyaml's marks are 0-based; yaml.v2 adds one for scanner errors only, and
    // prints no line when the 0-based line is 0.
    let line_text = match stage {
        Stage::Scanner if at.line > 1 => format!("line {}: ", at.line),
        Stage::Parser if at.line > 1 => format!("line {}: ", at.line - 1),
        _ => String::new(),
    };
    Translated::Error {
        text: format!("{line_text}{problem}"),
        line: at.line,
        column: at.column,
    }
}

/// libyaml's text and stage for a saphyr message; unknown messages keep saphyr's text
/// without its `while ..., ` context.
fn problem_text(info: &str) -> (&str, Stage) {
    let scanner = |text| (text, Stage::Scanner);
    let parser = |text| (text, Stage::Parser);
    match info {
        "mapping values are not allowed in this context"
        | "block sequence entries are not allowed in this context"
        | "mapping keys are not allowed in this context" => scanner(info),
        "simple key expect ':'" => scanner("could not find expected ':'"),
        "while parsing a block mapping, did not find expected key" => {
            parser("did not find expected key")
        }
        "while parsing a block collection, did not find expected '-' indicator" => {
            parser("did not find expected '-' indicator")
        }
        "while parsing a flow sequence, expected ',' or ']'" => {
            parser("did not find expected ',' or ']'")
        }
        "while parsing a flow mapping, did not find expected ',' or '}'" => {
            parser("did not find expected ',' or '}'")
        }
        "while parsing a node, did not find expected node content" => {
            parser("did not find expected node content")
        }
        "the handle wasn't declared" => parser("found undefined tag handle"),
        "while parsing a quoted scalar, did not find expected hexadecimal number" => {
            // libyaml's spelling.
            scanner("did not find expected hexdecimal number")
        }
        _ if info.starts_with("unexpected character: ")
            || info.starts_with("tabs disallowed")
            || info == "tab cannot be used as indentation" =>
        {
            scanner("found character that cannot start any token")
        }
        _ => match info
            .strip_prefix("while ")
            .and_then(|rest| rest.split_once(", "))
        {
            Some((_, problem)) => scanner(problem),
            None => scanner(info),
        },
    }
}

/// A 1-based line and column (in characters).
#[derive(Debug, Clone, Copy)]
struct Position {
    line: usize,
    column: usize,
}

/// The byte offset of a character index (saphyr counts characters).
pub(super) fn byte_offset(text: &str, char_index: usize) -> usize {
    text.char_indices()
        .nth(char_index)
        .map_or(text.len(), |(offset, _)| offset)
}

/// The position of a byte offset, counting `\n`, `\r\n` and a lone `\r` as one break.
fn position(text: &str, offset: usize) -> Position {
    let before = &text[..offset];
    let bytes = before.as_bytes();
    let breaks = bytes
        .iter()
        .enumerate()
        .filter(|&(i, &b)| b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')))
        .count();
    let line_start = before.rfind(['\n', '\r']).map_or(0, |i| i + 1);
    Position {
        line: breaks + 1,
        column: before[line_start..].chars().count() + 1,
    }
}

/// Where libyaml's scanner stands at the end of the input.
fn end_of_stream(text: &str) -> Position {
    position(text, text.len())
}

/// The first token after `from` that is not blank or a comment.
fn next_token(text: &str, from: usize) -> Position {
    let mut offset = from;
    let mut in_comment = false;
    for (index, character) in text[from..].char_indices() {
        offset = from + index;
        match character {
            '\n' | '\r' => in_comment = false,
            '#' => in_comment = true,
            ' ' | '\t' => {}
            _ if in_comment => {}
            _ => return position(text, offset),
        }
        offset = from + index + character.len_utf8();
    }
    position(text, offset)
}

/// The first tab in the indentation of a line after `from`.
fn leading_tab(text: &str, from: usize) -> Option<Position> {
    let mut line_start = false;
    for (index, byte) in text.as_bytes()[from..].iter().enumerate() {
        match byte {
            b'\n' | b'\r' => line_start = true,
            b'\t' if line_start => return Some(position(text, from + index)),
            b' ' => {}
            _ => line_start = false,
        }
    }
    None
}

/// The name of the alias at a byte offset (`*name`).
fn anchor_name(text: &str, offset: usize) -> &str {
    let rest = &text[offset..];
    let rest = rest.strip_prefix('*').unwrap_or(rest);
    let end = rest
        .find(|c: char| c.is_whitespace() || ",[]{}".contains(c))
        .unwrap_or(rest.len());
    &rest[..end]
}

/// The 1-based line and column (in characters) of a byte offset, for errors the
/// builder raises itself.
pub(super) fn line_and_column(text: &str, offset: usize) -> (usize, usize) {
    let at = position(text, offset);
    (at.line, at.column)
}

/// The name of the alias at a byte offset, for `anchor '...' value contains itself`.
pub(super) fn alias_name(text: &str, offset: usize) -> String {
    anchor_name(text, offset).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_line_breaks_and_characters() {
        let text = "ab\r\né: x\ry";
        let at = position(text, text.find('x').expect("x"));
        assert_eq!((at.line, at.column), (2, 4));
        let at = position(text, text.len());
        assert_eq!((at.line, at.column), (3, 2));
    }

    #[test]
    fn next_token_skips_comments_and_blanks() {
        let text = "a: b #c\n  # more\n  d: 1\n";
        let at = next_token(text, 5);
        assert_eq!((at.line, at.column), (3, 3));
    }

    #[test]
    fn anchor_names_end_at_flow_indicators() {
        assert_eq!(anchor_name("[*abc, 1]", 1), "abc");
        assert_eq!(anchor_name("a: *x\n", 3), "x");
    }

    #[test]
    fn unknown_messages_lose_their_context() {
        assert_eq!(
            problem_text(
                "while scanning a block scalar, found an indentation indicator equal to 0"
            ),
            ("found an indentation indicator equal to 0", Stage::Scanner)
        );
        assert_eq!(
            problem_text("invalid indentation"),
            ("invalid indentation", Stage::Scanner)
        );
    }
}
