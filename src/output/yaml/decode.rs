//! What yaml.v2 does when `JSONToYAML` reads the JSON text of a blob back. Go's JSON
//! encoder escapes C0 controls, quotes, backslashes and U+2028/U+2029, and writes the
//! rest raw on one line. So yaml.v2's reader sees raw DEL, C1 controls and U+FFFE/U+FFFF
//! (which it rejects), and raw NEL (U+0085), a YAML 1.1 line break: inside a quoted
//! scalar it folds like a newline, and it moves later text to a new line, which breaks
//! keys and can expose `--- `/`... ` as document markers.

use std::borrow::Cow;

use super::YamlWriteError;
use crate::codec::node::{self, Node};
use crate::text::bytes::{self, byte_table};

const NEL: char = '\u{85}';

/// yaml.v2's scanner requires a simple key's `:` within 1024 characters of the key's
/// start: the two quotes plus at most 1022 characters of JSON text between them.
const LONGEST_KEY_TEXT: usize = 1022;

const BELOW_DEL: [bool; 256] = byte_table!(|byte| byte < 0x7F);

/// Walks the blob in JSON text order (the order of its fields), counting the lines
/// NEL starts, and returns the first error yaml.v2 would report.
pub(super) fn check(node: &Node<'_>) -> Result<(), YamlWriteError> {
    let mut line = 0;
    check_node(node, &mut line)
}

fn check_node(node: &Node<'_>, line: &mut usize) -> Result<(), YamlWriteError> {
    match node {
        Node::String(text) => check_string(text, line),
        Node::Chunks(chunks) => {
            // Pieces are checked alone unless a NEL, which looks ahead, is in one.
            let (mut nel, mut result) = (false, Ok(()));
            chunks.for_each(&mut |piece| {
                if piece.contains(NEL) {
                    nel = true;
                } else if result.is_ok() {
                    result = check_string(piece, line);
                }
            });
            if nel {
                check_string(&chunks.text(), line)
            } else {
                result
            }
        }
        Node::Array(items) => items.iter().try_for_each(|item| check_node(item, line)),
        Node::Items(items) => {
            let mut result = Ok(());
            items.for_each(&mut |item| {
                if result.is_ok() {
                    result = check_node(item, line);
                }
            });
            result
        }
        Node::Object(fields) => fields.iter().try_for_each(|(key, value)| {
            let before = *line;
            check_string(key, line)?;
            if *line != before || json_text_length(key) > LONGEST_KEY_TEXT {
                return Err(YamlWriteError::KeyNotSimple { line: *line });
            }
            check_node(value, line)
        }),
        Node::Raw(text) => check_node(&Node::from_json(&node::decode_raw(text)), line),
        Node::Null | Node::Bool(_) | Node::Number(_) => Ok(()),
    }
}

/// The reader's character check and the quoted-scalar scanner's document-marker
/// check; `line` advances past the text's NEL breaks.
fn check_string(text: &str, line: &mut usize) -> Result<(), YamlWriteError> {
    if bytes::all_in(text.as_bytes(), &BELOW_DEL) {
        return Ok(());
    }
    let mut characters = text.chars().peekable();
    while let Some(character) = characters.next() {
        if is_rejected(character) {
            return Err(YamlWriteError::ControlCharacters);
        }
        if character == NEL {
            *line += 1;
            // The scanner is at column 0 right after the break.
            let rest = characters.clone().take(4).collect::<String>();
            let marker = rest.starts_with("---") || rest.starts_with("...");
            if marker && matches!(rest.chars().nth(3), Some(' ' | NEL)) {
                return Err(YamlWriteError::DocumentIndicator { line: *line + 1 });
            }
        }
    }
    Ok(())
}

/// Characters yaml.v2's reader refuses ("control characters are not allowed"); the
/// C0 controls never reach it raw.
fn is_rejected(character: char) -> bool {
    matches!(character, '\u{7F}'..='\u{84}' | '\u{86}'..='\u{9F}' | '\u{FFFE}' | '\u{FFFF}')
}

/// The number of characters Go's JSON encoder writes for `text`, quotes excluded.
fn json_text_length(text: &str) -> usize {
    // Escapes are at most six characters long: short texts cannot be too long.
    if text.len() <= LONGEST_KEY_TEXT / 6 {
        return text.len();
    }
    text.chars()
        .map(|character| match character {
            '"' | '\\' | '\n' | '\r' | '\t' | '\u{8}' | '\u{C}' => 2,
            '\0'..='\u{1F}' | '\u{2028}' | '\u{2029}' => 6,
            _ => 1,
        })
        .sum()
}

/// The string yaml.v2 reads from the JSON text of `text`: raw NEL breaks fold as in
/// any quoted scalar. Spaces before a break are dropped, and so are spaces after it;
/// a lone break becomes a space, and `n` breaks in a row become `n - 1` newlines.
pub(super) fn fold_line_breaks(text: &str) -> Cow<'_, str> {
    // NEL is U+0085, encoded C2 85; the byte 0x85 only ever continues a character.
    if !text.as_bytes().contains(&0x85) || !text.contains(NEL) {
        return Cow::Borrowed(text);
    }
    let mut folded = String::with_capacity(text.len());
    let mut characters = text.chars().peekable();
    loop {
        while let Some(&character) = characters.peek() {
            if character == ' ' || character == NEL {
                break;
            }
            folded.push(character);
            characters.next();
        }
        if characters.peek().is_none() {
            break;
        }
        let mut spaces = 0;
        let mut breaks = 0;
        while let Some(&character) = characters.peek() {
            match character {
                ' ' if breaks == 0 => spaces += 1,
                ' ' => {}
                NEL => breaks += 1,
                _ => break,
            }
            characters.next();
        }
        match breaks {
            0 => folded.extend(std::iter::repeat_n(' ', spaces)),
            1 => folded.push(' '),
            _ => folded.extend(std::iter::repeat_n('\n', breaks - 1)),
        }
    }
    Cow::Owned(folded)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nel_folds_like_a_line_break_in_a_quoted_scalar() {
        let cases = [
            ("a\u{85}b", "a b"),
            ("a  \u{85}  b", "a b"),
            ("a\u{85}\u{85}b", "a\nb"),
            ("a\u{85} \u{85}\u{85}b", "a\n\nb"),
            ("\u{85}b", " b"),
            ("a\u{85}", "a "),
            ("a ", "a "),
            ("a  b", "a  b"),
            ("\u{85}\u{85}", "\n"),
        ];
        for (text, expected) in cases {
            assert_eq!(fold_line_breaks(text), expected, "{text:?}");
        }
    }

    #[test]
    fn rejected_characters_are_the_readers() {
        for character in [
            '\u{7F}', '\u{80}', '\u{84}', '\u{86}', '\u{9F}', '\u{FFFE}', '\u{FFFF}',
        ] {
            let text = format!("a{character}b");
            assert_eq!(
                check(&Node::str(&text)),
                Err(YamlWriteError::ControlCharacters),
                "{character:?}"
            );
        }
        for character in [
            '\u{1}',
            '\t',
            '\u{85}',
            '\u{A0}',
            '\u{FEFF}',
            '\u{FFFD}',
            '\u{1F600}',
        ] {
            let text = format!("a{character}b");
            assert_eq!(check(&Node::str(&text)), Ok(()), "{character:?}");
        }
    }

    fn object(fields: Vec<(&'static str, Node<'static>)>) -> Node<'static> {
        Node::Object(
            fields
                .into_iter()
                .map(|(key, value)| (Cow::Borrowed(key), value))
                .collect(),
        )
    }

    #[test]
    fn nel_before_a_document_marker_ends_the_scalar() {
        let node = object(vec![
            ("a", Node::str("x\u{85}y")),
            ("b", Node::str("x\u{85}--- y")),
        ]);
        assert_eq!(
            check(&node),
            Err(YamlWriteError::DocumentIndicator { line: 3 })
        );
        assert_eq!(
            check(&node).map_err(|error| error.to_string()),
            Err("yaml: line 3: found unexpected document indicator".to_owned())
        );
        for harmless in ["x\u{85}---", "x\u{85} --- y", "x\u{85}--y", "x---\u{85}y"] {
            assert_eq!(check(&Node::str(harmless)), Ok(()), "{harmless:?}");
        }
        let dots = Node::str("x\u{85}...\u{85}");
        assert_eq!(
            check(&dots),
            Err(YamlWriteError::DocumentIndicator { line: 2 })
        );
    }

    #[test]
    fn keys_must_stay_simple() {
        let nel = object(vec![("a", Node::str("\u{85}")), ("b\u{85}c", Node::Null)]);
        assert_eq!(
            check(&nel).map_err(|error| error.to_string()),
            Err("yaml: line 2: did not find expected ',' or '}'".to_owned())
        );
        let longest = "k".repeat(1022);
        let too_long = "k".repeat(1023);
        let escaped = "\u{1}".repeat(171);
        let ok = Node::Object(vec![(Cow::Borrowed(longest.as_str()), Node::Null)]);
        assert_eq!(check(&ok), Ok(()));
        for key in [&too_long, &escaped] {
            let node = Node::Object(vec![(Cow::Borrowed(key.as_str()), Node::Null)]);
            assert_eq!(
                check(&node).map_err(|error| error.to_string()),
                Err("yaml: did not find expected ',' or '}'".to_owned())
            );
        }
    }
}
