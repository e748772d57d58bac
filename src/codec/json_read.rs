//! A JSON stream parser with Go's `encoding/json` behaviour: the same syntax rules,
//! the same error texts and byte offsets (opm shows them), every number turned into
//! an `f64` the way Go's `float64` decoding does, and objects with sorted keys where
//! the last duplicate wins.

use serde_json::{Map, Number, Value};

/// Go's `maxNestingDepth`: deeper documents are a syntax error, not a stack overflow.
const MAX_DEPTH: usize = 10_000;

/// Why a JSON value could not be read.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum JsonError {
    /// A `*json.SyntaxError`: Go's message and its offset, the 1-based position of the
    /// offending byte counted from the start of the stream.
    Syntax { message: String, offset: usize },
    /// The input ended inside a value (Go's `io.ErrUnexpectedEOF`).
    UnexpectedEof { offset: usize },
    /// Valid syntax that Go cannot decode into `map[string]any` values.
    NumberOutOfRange { literal: String, offset: usize },
    /// A `\u` escape that is half of a surrogate pair: Go silently writes U+FFFD.
    LoneSurrogate { offset: usize },
    /// A list or string whose memory cannot be had.
    OutOfMemory { offset: usize },
}

impl JsonError {
    /// The byte index in the input where the problem is.
    pub(crate) fn position(&self) -> usize {
        match self {
            JsonError::Syntax { offset, .. } => offset.saturating_sub(1),
            JsonError::UnexpectedEof { offset }
            | JsonError::NumberOutOfRange { offset, .. }
            | JsonError::LoneSurrogate { offset }
            | JsonError::OutOfMemory { offset } => *offset,
        }
    }
}

/// An open array, or an open object with the key whose value is being read.
enum Container {
    Array(Vec<Value>),
    Object(Map<String, Value>, String),
}

/// Reads consecutive JSON values from a text, like Go's `json.Decoder`.
pub(crate) struct JsonStream<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> JsonStream<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        JsonStream {
            text,
            bytes: text.as_bytes(),
            pos: 0,
        }
    }

    /// Byte position just after the last value read.
    pub(crate) fn position(&self) -> usize {
        self.pos
    }

    /// The next value with the byte index where it starts, `None` at the end.
    pub(crate) fn next_value(&mut self) -> Option<Result<(usize, Value), JsonError>> {
        self.skip_space();
        if self.pos >= self.bytes.len() {
            return None;
        }
        let start = self.pos;
        Some(self.value().map(|value| (start, value)))
    }

    fn skip_space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.pos) {
            self.pos += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn syntax(&self, context: &str) -> JsonError {
        match self.peek() {
            Some(byte) => JsonError::Syntax {
                message: format!("invalid character {} {context}", quote_char(byte)),
                offset: self.pos + 1,
            },
            None => JsonError::UnexpectedEof { offset: self.pos },
        }
    }

    /// Parses one value with an explicit stack, so that nesting depth costs heap,
    /// not call stack.
    fn value(&mut self) -> Result<Value, JsonError> {
        let mut stack: Vec<Container> = Vec::new();
        loop {
            // Read a value start: either a scalar or the opening of a container.
            self.skip_space();
            let mut value = match self.peek() {
                Some(b'{' | b'[') => {
                    if stack.len() >= MAX_DEPTH {
                        return Err(self.syntax("exceeded max depth"));
                    }
                    let is_object = self.peek() == Some(b'{');
                    self.pos += 1;
                    self.skip_space();
                    if is_object && self.peek() != Some(b'}') {
                        let key = self.object_key()?;
                        stack.push(Container::Object(Map::new(), key));
                        continue;
                    }
                    if !is_object && self.peek() != Some(b']') {
                        stack.push(Container::Array(Vec::new()));
                        continue;
                    }
                    self.pos += 1;
                    if is_object {
                        Value::Object(Map::new())
                    } else {
                        Value::Array(Vec::new())
                    }
                }
                Some(b'"') => Value::String(self.string()?),
                Some(b'-' | b'0'..=b'9') => self.number()?,
                Some(b't') => self.literal(b"true", "true").map(|()| Value::Bool(true))?,
                Some(b'f') => self
                    .literal(b"false", "false")
                    .map(|()| Value::Bool(false))?,
                Some(b'n') => self.literal(b"null", "null").map(|()| Value::Null)?,
                _ => return Err(self.syntax("looking for beginning of value")),
            };
            // Attach the finished value to its parent; close parents that end here.
            loop {
                let Some(parent) = stack.last_mut() else {
                    return Ok(value);
                };
                self.skip_space();
                match parent {
                    Container::Array(items) => {
                        crate::files::limits::room_for_one(items)
                            .map_err(|_| JsonError::OutOfMemory { offset: self.pos })?;
                        items.push(value);
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                break;
                            }
                            Some(b']') => self.pos += 1,
                            _ => return Err(self.syntax("after array element")),
                        }
                    }
                    Container::Object(map, key) => {
                        map.insert(std::mem::take(key), value);
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                self.skip_space();
                                *key = self.object_key()?;
                                break;
                            }
                            Some(b'}') => self.pos += 1,
                            _ => return Err(self.syntax("after object key:value pair")),
                        }
                    }
                }
                value = match stack.pop().expect("the parent was just inspected") {
                    Container::Array(items) => Value::Array(items),
                    Container::Object(map, _) => Value::Object(map),
                };
            }
        }
    }

    /// Reads `"key":`, leaving the position at the value.
    fn object_key(&mut self) -> Result<String, JsonError> {
        if self.peek() != Some(b'"') {
            return Err(self.syntax("looking for beginning of object key string"));
        }
        let key = self.string()?;
        self.skip_space();
        if self.peek() != Some(b':') {
            return Err(self.syntax("after object key"));
        }
        self.pos += 1;
        Ok(key)
    }

    fn literal(&mut self, word: &[u8], name: &str) -> Result<(), JsonError> {
        for (index, &expected) in word.iter().enumerate() {
            if self.peek() != Some(expected) {
                let context = format!("in literal {name} (expecting {})", quote_char(expected));
                return Err(if index == 0 {
                    self.syntax("looking for beginning of value")
                } else {
                    self.syntax(&context)
                });
            }
            self.pos += 1;
        }
        Ok(())
    }

    fn number(&mut self) -> Result<Value, JsonError> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => self.skip_digits(),
            _ => return Err(self.syntax("in numeric literal")),
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.syntax("after decimal point in numeric literal"));
            }
            self.skip_digits();
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.syntax("in exponent of numeric literal"));
            }
            self.skip_digits();
        }
        let literal =
            std::str::from_utf8(&self.bytes[start..self.pos]).expect("a number literal is ASCII");
        let parsed: f64 = literal
            .parse()
            .expect("a JSON number literal is a valid f64 literal");
        match Number::from_f64(parsed) {
            Some(number) if parsed.is_finite() => Ok(Value::Number(number)),
            _ => Err(JsonError::NumberOutOfRange {
                literal: literal.to_owned(),
                offset: start,
            }),
        }
    }

    fn skip_digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
    }

    fn string(&mut self) -> Result<String, JsonError> {
        self.pos += 1;
        let mut out = String::new();
        loop {
            let run_start = self.pos;
            self.pos += run_length(&self.bytes[run_start..]);
            crate::files::limits::room_for(&mut out, self.pos - run_start)
                .map_err(|_| JsonError::OutOfMemory { offset: run_start })?;
            // Runs start and stop beside ASCII bytes: character boundaries.
            out.push_str(&self.text[run_start..self.pos]);
            match self.peek() {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    self.escape(&mut out)?;
                }
                _ => return Err(self.syntax("in string literal")),
            }
        }
    }

    fn escape(&mut self, out: &mut String) -> Result<(), JsonError> {
        let replacement = match self.peek() {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                let escape_start = self.pos - 1;
                self.pos += 1;
                let unit = self.hex4()?;
                let character = if (0xD800..0xDC00).contains(&unit) {
                    self.low_surrogate(unit, escape_start)?
                } else {
                    char::from_u32(unit).ok_or(JsonError::LoneSurrogate {
                        offset: escape_start,
                    })?
                };
                out.push(character);
                return Ok(());
            }
            _ => return Err(self.syntax("in string escape code")),
        };
        self.pos += 1;
        out.push(replacement);
        Ok(())
    }

    fn low_surrogate(&mut self, high: u32, escape_start: usize) -> Result<char, JsonError> {
        if self.bytes.get(self.pos..self.pos + 2) != Some(b"\\u") {
            return Err(JsonError::LoneSurrogate {
                offset: escape_start,
            });
        }
        self.pos += 2;
        let low = self.hex4()?;
        if !(0xDC00..0xE000).contains(&low) {
            return Err(JsonError::LoneSurrogate {
                offset: escape_start,
            });
        }
        let code = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
        Ok(char::from_u32(code).expect("a surrogate pair decodes to a valid scalar value"))
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let mut unit = 0;
        for _ in 0..4 {
            let digit = self
                .peek()
                .and_then(|byte| char::from(byte).to_digit(16))
                .ok_or_else(|| self.syntax("in \\u hexadecimal character escape"))?;
            unit = unit * 16 + digit;
            self.pos += 1;
        }
        Ok(unit)
    }
}

/// Go's `quoteChar`: how its JSON scanner names an offending byte.
pub(crate) fn quote_char(byte: u8) -> String {
    match byte {
        b'\'' => r"'\''".to_owned(),
        b'"' => "'\"'".to_owned(),
        0x07 => r"'\a'".to_owned(),
        0x08 => r"'\b'".to_owned(),
        0x0C => r"'\f'".to_owned(),
        b'\n' => r"'\n'".to_owned(),
        b'\r' => r"'\r'".to_owned(),
        b'\t' => r"'\t'".to_owned(),
        0x0B => r"'\v'".to_owned(),
        b'\\' => r"'\\'".to_owned(),
        0x00..0x20 | 0x7F => format!("'\\x{byte:02x}'"),
        // Go converts the byte to the rune of the same number (Latin-1).
        0x80..=0xA0 | 0xAD => format!("'\\u{byte:04x}'"),
        _ => format!("'{}'", char::from(byte)),
    }
}

/// One JSON value decoded with the loader's rules (Go's syntax, numbers as `f64`);
/// `None` unless `text` is exactly one valid value.
pub(crate) fn parse_json(text: &str) -> Option<Value> {
    let mut stream = JsonStream::new(text);
    let (_, value) = stream.next_value()?.ok()?;
    stream.next_value().is_none().then_some(value)
}

/// The length of a string literal's run of bytes that stand for themselves: up
/// to the first `"`, `\\` or control character (or the end). Blocks of 32 bytes
/// are tested without branches (vector code), so long strings (base64 manifests)
/// go by at memory speed.
fn run_length(bytes: &[u8]) -> usize {
    let stop = |byte: u8| u8::from(byte < 0x20) | u8::from(byte == b'"') | u8::from(byte == b'\\');
    let mut start = 0;
    for block in bytes.chunks_exact(32) {
        if block.iter().fold(0, |any, &byte| any | stop(byte)) != 0 {
            break;
        }
        start += 32;
    }
    bytes[start..]
        .iter()
        .position(|&byte| stop(byte) == 1)
        .map_or(bytes.len(), |at| start + at)
}

#[cfg(test)]
mod tests {

    #[test]
    fn string_runs_stop_at_every_special_byte() {
        for len in [0, 1, 31, 32, 33, 64, 100] {
            assert_eq!(super::run_length(&vec![b'a'; len]), len);
            for at in 0..len {
                for special in [b'"', b'\\', 0x00, 0x1f] {
                    let mut bytes = vec![b'a'; len];
                    bytes[at] = special;
                    assert_eq!(super::run_length(&bytes), at, "{special} at {at}/{len}");
                }
            }
        }
    }

    use super::*;

    fn all(text: &str) -> Result<Vec<Value>, JsonError> {
        let mut stream = JsonStream::new(text);
        let mut values = Vec::new();
        while let Some(next) = stream.next_value() {
            values.push(next?.1);
        }
        Ok(values)
    }

    fn syntax(text: &str) -> (String, usize) {
        match all(text) {
            Err(JsonError::Syntax { message, offset }) => (message, offset),
            other => panic!("expected a syntax error for {text:?}, got {other:?}"),
        }
    }

    #[test]
    fn streams_with_and_without_separators() {
        assert_eq!(all("{}{}\n{\"a\":1}  ").map(|v| v.len()), Ok(3));
        assert_eq!(all("").map(|v| v.len()), Ok(0));
    }

    #[test]
    fn numbers_become_go_float64() {
        let values = all(r#"{"a":1.0,"b":12345678901234567890,"c":-0}"#).expect("valid");
        let object = values[0].as_object().expect("object");
        assert_eq!(object["a"].as_f64(), Some(1.0));
        assert_eq!(object["b"].as_f64(), Some(12_345_678_901_234_567_000.0));
        assert!(object["c"].as_f64().expect("number").is_sign_negative());
        assert!(matches!(
            all("{\"a\":1e400}"),
            Err(JsonError::NumberOutOfRange { .. })
        ));
    }

    #[test]
    fn keys_are_sorted_and_last_duplicate_wins() {
        let values = all(r#"{"b":1,"a":2,"b":3}"#).expect("valid");
        let keys: Vec<_> = values[0]
            .as_object()
            .expect("object")
            .keys()
            .cloned()
            .collect();
        assert_eq!(keys, ["a", "b"]);
        assert_eq!(values[0]["b"].as_f64(), Some(3.0));
    }

    #[test]
    fn syntax_errors_read_like_go() {
        assert_eq!(
            syntax(r#"{"schema":"olm.package","name":"a",}"#),
            (
                "invalid character '}' looking for beginning of object key string".to_owned(),
                36
            )
        );
        assert_eq!(
            syntax("{\"a\" 1}").0,
            "invalid character '1' after object key"
        );
        assert_eq!(
            syntax("{\"a\":1 2}").0,
            "invalid character '2' after object key:value pair"
        );
        assert_eq!(
            syntax("{\"a\":[1 2]}").0,
            "invalid character '2' after array element"
        );
        assert_eq!(
            syntax("{\"a\":tru}").0,
            "invalid character '}' in literal true (expecting 'e')"
        );
        assert_eq!(
            syntax("{\"a\":\"\t\"}").0,
            r"invalid character '\t' in string literal"
        );
        assert_eq!(
            syntax("{\"a\":\"\\q\"}").0,
            "invalid character 'q' in string escape code"
        );
        assert_eq!(
            syntax("{\"a\":1.}").0,
            "invalid character '}' after decimal point in numeric literal"
        );
        assert_eq!(
            syntax("{\"a\":'x'}").0,
            r"invalid character '\'' looking for beginning of value"
        );
        assert_eq!(
            syntax("{\"a\":-}").0,
            "invalid character '}' in numeric literal"
        );
    }

    #[test]
    fn truncated_input_is_unexpected_eof() {
        assert!(matches!(
            all("{\"a\":"),
            Err(JsonError::UnexpectedEof { .. })
        ));
        assert!(matches!(
            all("{\"a\":\"abc"),
            Err(JsonError::UnexpectedEof { .. })
        ));
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = "[".repeat(20_000);
        let text = format!("{{\"a\":{deep}");
        assert_eq!(syntax(&text).0, "invalid character '[' exceeded max depth");
    }

    #[test]
    fn escapes_and_surrogates() {
        let values = all(r#"{"a":"\u00e9\ud83d\ude00\n"}"#).expect("valid");
        assert_eq!(values[0]["a"], "é😀\n");
        assert!(matches!(
            all(r#"{"a":"\ud800"}"#),
            Err(JsonError::LoneSurrogate { .. })
        ));
    }

    #[test]
    fn quote_char_names_bytes_like_go() {
        assert_eq!(quote_char(b'x'), "'x'");
        assert_eq!(quote_char(0), r"'\x00'");
        assert_eq!(quote_char(0x85), r"'\u0085'");
        assert_eq!(quote_char(0xE9), "'é'");
    }
}
