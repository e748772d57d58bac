//! JSON text kept as Go's `json.RawMessage` keeps it. opm reads the CSV's
//! `olm.properties` annotation into properties whose values are the annotation's
//! own bytes: it de-duplicates and sorts on them and prints them with their key
//! order, escapes and number spelling. This scanner checks Go's JSON syntax and
//! returns the text of every value without decoding it.

/// Go's `maxNestingDepth`.
const MAX_DEPTH: usize = 10_000;

/// A JSON value as spans of the source text.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum RawValue<'a> {
    /// A string, number, `true`, `false` or `null`, as written.
    Scalar(&'a str),
    Array(&'a str, Vec<RawValue<'a>>),
    /// Members with their keys as written (quotes and escapes included).
    Object(&'a str, Vec<(&'a str, RawValue<'a>)>),
}

impl<'a> RawValue<'a> {
    /// The value's text, from its first byte to its last.
    pub(crate) fn text(&self) -> &'a str {
        match self {
            RawValue::Scalar(text) | RawValue::Array(text, _) | RawValue::Object(text, _) => text,
        }
    }

    /// The decoded string, when the value is a JSON string.
    pub(crate) fn as_string(&self) -> Option<String> {
        match self {
            RawValue::Scalar(text) if text.starts_with('"') => decode_string(text),
            _ => None,
        }
    }
}

/// Decodes a string token (quotes included). A lone surrogate escape, which Go
/// decodes as U+FFFD, is refused.
pub(crate) fn decode_string(token: &str) -> Option<String> {
    serde_json::from_str(token).ok()
}

/// Parses a whole text holding one JSON value (whitespace around it allowed), as
/// Go's `json.Unmarshal` checks it before decoding anything.
pub(crate) fn parse(text: &str) -> Option<RawValue<'_>> {
    let mut scanner = Scanner {
        text,
        bytes: text.as_bytes(),
        position: 0,
    };
    let value = scanner.value(0)?;
    scanner.skip_space();
    (scanner.position == scanner.bytes.len()).then_some(value)
}

struct Scanner<'a> {
    text: &'a str,
    bytes: &'a [u8],
    position: usize,
}

impl<'a> Scanner<'a> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.position).copied()
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.position += 1;
        }
    }

    fn expect(&mut self, byte: u8) -> Option<()> {
        self.skip_space();
        (self.peek() == Some(byte)).then(|| self.position += 1)
    }

    fn value(&mut self, depth: usize) -> Option<RawValue<'a>> {
        self.skip_space();
        let start = self.position;
        match self.peek()? {
            b'{' => self.object(start, depth + 1),
            b'[' => self.array(start, depth + 1),
            b'"' => {
                self.string()?;
                Some(RawValue::Scalar(&self.text[start..self.position]))
            }
            b't' => self.literal("true"),
            b'f' => self.literal("false"),
            b'n' => self.literal("null"),
            b'-' | b'0'..=b'9' => {
                self.number()?;
                Some(RawValue::Scalar(&self.text[start..self.position]))
            }
            _ => None,
        }
    }

    fn literal(&mut self, word: &'static str) -> Option<RawValue<'a>> {
        let start = self.position;
        self.bytes[start..].starts_with(word.as_bytes()).then(|| {
            self.position += word.len();
            RawValue::Scalar(&self.text[start..self.position])
        })
    }

    fn array(&mut self, start: usize, depth: usize) -> Option<RawValue<'a>> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.position += 1;
        let mut items = Vec::new();
        self.skip_space();
        if self.peek() == Some(b']') {
            self.position += 1;
            return Some(RawValue::Array(&self.text[start..self.position], items));
        }
        loop {
            items.push(self.value(depth)?);
            self.skip_space();
            match self.peek()? {
                b',' => self.position += 1,
                b']' => {
                    self.position += 1;
                    return Some(RawValue::Array(&self.text[start..self.position], items));
                }
                _ => return None,
            }
        }
    }

    fn object(&mut self, start: usize, depth: usize) -> Option<RawValue<'a>> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.position += 1;
        let mut members = Vec::new();
        self.skip_space();
        if self.peek() == Some(b'}') {
            self.position += 1;
            return Some(RawValue::Object(&self.text[start..self.position], members));
        }
        loop {
            self.skip_space();
            let key_start = self.position;
            (self.peek() == Some(b'"')).then_some(())?;
            self.string()?;
            let key = &self.text[key_start..self.position];
            self.expect(b':')?;
            members.push((key, self.value(depth)?));
            self.skip_space();
            match self.peek()? {
                b',' => self.position += 1,
                b'}' => {
                    self.position += 1;
                    return Some(RawValue::Object(&self.text[start..self.position], members));
                }
                _ => return None,
            }
        }
    }

    /// A string token; Go's syntax allows any byte from 0x20 on, and these escapes.
    fn string(&mut self) -> Option<()> {
        self.position += 1;
        loop {
            match self.peek()? {
                b'"' => {
                    self.position += 1;
                    return Some(());
                }
                b'\\' => {
                    self.position += 1;
                    match self.peek()? {
                        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {
                            self.position += 1;
                        }
                        b'u' => {
                            let digits = self.bytes.get(self.position + 1..self.position + 5)?;
                            digits.iter().all(u8::is_ascii_hexdigit).then_some(())?;
                            self.position += 5;
                        }
                        _ => return None,
                    }
                }
                0x00..0x20 => return None,
                _ => self.position += 1,
            }
        }
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    fn number(&mut self) -> Option<()> {
        if self.peek() == Some(b'-') {
            self.position += 1;
        }
        match self.peek()? {
            b'0' => self.position += 1,
            b'1'..=b'9' => self.digits(),
            _ => return None,
        }
        if self.peek() == Some(b'.') {
            self.position += 1;
            self.peek().filter(u8::is_ascii_digit)?;
            self.digits();
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.position += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.position += 1;
            }
            self.peek().filter(u8::is_ascii_digit)?;
            self.digits();
        }
        Some(())
    }

    fn digits(&mut self) {
        while self.peek().is_some_and(|byte| byte.is_ascii_digit()) {
            self.position += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_text_of_every_value() {
        let text = r#" [ {"type": "a", "value" : {"z": 1.0, "a": "\u003c"}}, 3, null ] "#;
        let Some(RawValue::Array(_, items)) = parse(text) else {
            panic!("an array");
        };
        let RawValue::Object(whole, members) = &items[0] else {
            panic!("an object");
        };
        assert_eq!(
            *whole,
            r#"{"type": "a", "value" : {"z": 1.0, "a": "\u003c"}}"#
        );
        assert_eq!(members[0].0, r#""type""#);
        assert_eq!(members[0].1.as_string().as_deref(), Some("a"));
        assert_eq!(members[1].1.text(), r#"{"z": 1.0, "a": "\u003c"}"#);
        assert_eq!(items[1], RawValue::Scalar("3"));
        assert_eq!(items[2].text(), "null");
    }

    #[test]
    fn refuses_what_go_refuses() {
        for text in [
            "",
            "[1,]",
            "{\"a\" 1}",
            "01",
            "1.",
            "-",
            "1e",
            "tru",
            "\"\\x\"",
            "\"a\nb\"",
            "[1] x",
            "{,}",
            "\"\\u12\"",
        ] {
            assert_eq!(parse(text), None, "{text:?}");
        }
        for text in ["-0.5e+10", "\"\\ud800\"", "[]", "{}", " true "] {
            assert!(parse(text).is_some(), "{text:?}");
        }
    }
}
