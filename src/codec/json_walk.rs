//! Walks valid JSON text (the compact text fbc keeps for property values) token by
//! token, for checks that read a value once and keep nothing: strings are found by
//! their closing quote and handed over as they are written, escapes and all, so a
//! long description is never copied or unescaped only to be looked at. The text
//! is expected to be valid; anything unexpected ends the walk (`None`), which a
//! check reads as "unsure".

use std::borrow::Cow;

/// The start of a value: a whole scalar, or the opening of a container, whose
/// members or elements come next ([`Walk::key`], [`Walk::more`]).
pub(crate) enum Token<'t> {
    Object,
    Array,
    Str(JsonStr<'t>),
    /// A number as written.
    Number(&'t str),
    Bool(bool),
    Null,
}

/// What comes next in an object.
pub(crate) enum Member<'t> {
    /// A member's key; the walk is at its value.
    Key(JsonStr<'t>),
    /// The object's end, taken.
    End,
}

/// A string's content as written, between its quotes.
#[derive(Clone, Copy)]
pub(crate) struct JsonStr<'t>(&'t str);

impl<'t> JsonStr<'t> {
    /// The string itself, unescaped (borrowed when it has no escape).
    pub(crate) fn text(self) -> Option<Cow<'t, str>> {
        if self.0.contains('\\') {
            serde_json::from_str(&format!("\"{}\"", self.0))
                .ok()
                .map(Cow::Owned)
        } else {
            Some(Cow::Borrowed(self.0))
        }
    }
}

pub(crate) struct Walk<'t> {
    text: &'t str,
    at: usize,
}

impl<'t> Walk<'t> {
    pub(crate) fn new(text: &'t str) -> Walk<'t> {
        Walk { text, at: 0 }
    }

    fn bytes(&self) -> &'t [u8] {
        self.text.as_bytes()
    }

    /// The next byte that is not white space, not taken.
    fn peek(&mut self) -> Option<u8> {
        let bytes = self.bytes();
        while let Some(&byte) = bytes.get(self.at) {
            if !matches!(byte, b' ' | b'\t' | b'\n' | b'\r') {
                return Some(byte);
            }
            self.at += 1;
        }
        None
    }

    /// The next value's start: a scalar is taken whole, a container's opening
    /// bracket only.
    pub(crate) fn value(&mut self) -> Option<Token<'t>> {
        let byte = self.peek()?;
        self.at += 1;
        Some(match byte {
            b'{' => Token::Object,
            b'[' => Token::Array,
            b'"' => Token::Str(self.string()?),
            b't' => self.word("rue", Token::Bool(true))?,
            b'f' => self.word("alse", Token::Bool(false))?,
            b'n' => self.word("ull", Token::Null)?,
            b'-' | b'0'..=b'9' => {
                let start = self.at - 1;
                let length = self.bytes()[self.at..]
                    .iter()
                    .take_while(|&&b| matches!(b, b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-'))
                    .count();
                self.at += length;
                Token::Number(&self.text[start..self.at])
            }
            _ => return None,
        })
    }

    fn word(&mut self, rest: &str, token: Token<'t>) -> Option<Token<'t>> {
        self.text[self.at..].starts_with(rest).then(|| {
            self.at += rest.len();
            token
        })
    }

    /// A string's content, after its opening quote; leaves the walk after its
    /// closing quote: the first quote after an even run of backslashes. Only
    /// quotes are looked for, as line breaks (`\n`) are the common escape in the
    /// long strings of catalogs.
    fn string(&mut self) -> Option<JsonStr<'t>> {
        let start = self.at;
        let bytes = self.bytes();
        let mut from = start;
        loop {
            let quote = from + memchr::memchr(b'"', &bytes[from..])?;
            let backslashes = bytes[start..quote]
                .iter()
                .rev()
                .take_while(|&&b| b == b'\\')
                .count();
            if backslashes % 2 == 0 {
                self.at = quote + 1;
                return Some(JsonStr(&self.text[start..quote]));
            }
            from = quote + 1;
        }
    }

    /// In an object, after its opening or a member's value: the next member's
    /// key, or the object's end.
    pub(crate) fn key(&mut self) -> Option<Member<'t>> {
        if self.peek()? == b',' {
            self.at += 1;
        }
        match self.peek()? {
            b'}' => {
                self.at += 1;
                Some(Member::End)
            }
            b'"' => {
                self.at += 1;
                let key = self.string()?;
                (self.peek()? == b':').then(|| {
                    self.at += 1;
                    Member::Key(key)
                })
            }
            _ => None,
        }
    }

    /// In an array, after its opening or an element: whether another element
    /// follows (the walk is then at it); `false` takes the array's end.
    pub(crate) fn more(&mut self) -> Option<bool> {
        if self.peek()? == b',' {
            self.at += 1;
        }
        if self.peek()? == b']' {
            self.at += 1;
            return Some(false);
        }
        Some(true)
    }

    /// Skips the next value whole.
    pub(crate) fn skip(&mut self) -> Option<()> {
        let mut open = 0_usize;
        loop {
            match self.peek()? {
                b'{' | b'[' => {
                    self.at += 1;
                    open += 1;
                }
                b'}' | b']' => {
                    self.at += 1;
                    open = open.checked_sub(1)?;
                }
                b',' | b':' if open > 0 => self.at += 1,
                _ => {
                    self.value()?;
                }
            }
            if open == 0 {
                return Some(());
            }
        }
    }

    /// The text of the next value, which is skipped.
    pub(crate) fn take(&mut self) -> Option<&'t str> {
        self.peek()?;
        let start = self.at;
        self.skip()?;
        Some(&self.text[start..self.at])
    }

    /// Whether nothing but white space is left.
    pub(crate) fn end(&mut self) -> bool {
        self.peek().is_none()
    }
}

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;

    use serde_json::{Value, json};

    use super::{Member, Token, Walk};

    /// Every scalar of `text` in order, written back, with `{`, `[`, keys (`k=`)
    /// and ends (`}` `]`): the walk sees the structure as it is written.
    fn tokens(text: &str) -> Option<String> {
        fn value(walk: &mut Walk<'_>, out: &mut String) -> Option<()> {
            match walk.value()? {
                Token::Object => {
                    out.push('{');
                    while let Member::Key(key) = walk.key()? {
                        out.push_str(&key.text()?);
                        out.push('=');
                        value(walk, out)?;
                        out.push(' ');
                    }
                    out.push('}');
                }
                Token::Array => {
                    out.push('[');
                    while walk.more()? {
                        value(walk, out)?;
                        out.push(' ');
                    }
                    out.push(']');
                }
                Token::Str(text) => write!(out, "s:{}", text.text()?).ok()?,
                Token::Number(number) => write!(out, "n:{number}").ok()?,
                Token::Bool(flag) => write!(out, "b:{flag}").ok()?,
                Token::Null => out.push_str("null"),
            }
            Some(())
        }
        let mut walk = Walk::new(text);
        let mut out = String::new();
        value(&mut walk, &mut out)?;
        walk.end().then_some(out)
    }

    #[test]
    fn values_are_walked_as_written() {
        assert_eq!(
            tokens(r#"{"a":[1,-2.5e3,true,false,null],"b\"c":"x\\y\"z\u00e9","d":{},"e":[]}"#)
                .as_deref(),
            Some("{a=[n:1 n:-2.5e3 b:true b:false null ] b\"c=s:x\\y\"zé d={} e=[] }")
        );
        assert_eq!(
            tokens(" { \"a\" : [ 1 , 2 ] } ").as_deref(),
            Some("{a=[n:1 n:2 ] }")
        );
        assert_eq!(tokens("\"\"").as_deref(), Some("s:"));
    }

    /// The value the walk sees, built again.
    fn rebuild(walk: &mut Walk<'_>) -> Option<Value> {
        Some(match walk.value()? {
            Token::Object => {
                let mut map = serde_json::Map::new();
                while let Member::Key(key) = walk.key()? {
                    let key = key.text()?.into_owned();
                    map.insert(key, rebuild(walk)?);
                }
                Value::Object(map)
            }
            Token::Array => {
                let mut items = Vec::new();
                while walk.more()? {
                    items.push(rebuild(walk)?);
                }
                Value::Array(items)
            }
            Token::Str(text) => Value::String(text.text()?.into_owned()),
            Token::Number(number) => serde_json::from_str(number).ok()?,
            Token::Bool(flag) => Value::Bool(flag),
            Token::Null => Value::Null,
        })
    }

    /// A value of up to six levels, its choices made by `next`.
    fn generate(next: &mut dyn FnMut(usize) -> usize, pieces: &[&str], depth: usize) -> Value {
        let string = |next: &mut dyn FnMut(usize) -> usize| -> String {
            (0..next(6)).map(|_| pieces[next(pieces.len())]).collect()
        };
        match if depth > 4 { next(4) } else { next(6) } {
            0 => Value::String(string(next)),
            1 => json!(f64::from(u32::try_from(next(100_000)).expect("small")) / 8.0 - 5000.0),
            2 => [json!(true), json!(false), Value::Null][next(3)].clone(),
            3 => json!(next(1 << 30)),
            4 => Value::Array(
                (0..next(4))
                    .map(|_| generate(next, pieces, depth + 1))
                    .collect(),
            ),
            _ => Value::Object(
                (0..next(4))
                    .map(|_| (string(next), generate(next, pieces, depth + 1)))
                    .collect(),
            ),
        }
    }

    /// Generated values (escapes of every kind, runs of backslashes before
    /// quotes, nesting, numbers), compact and pretty: the walk sees what
    /// `serde_json` reads.
    #[test]
    fn generated_values_are_walked_as_serde_json_reads_them() {
        let pieces = [
            "a",
            "\\",
            "\"",
            "\n",
            "é",
            "\u{1F600}",
            "/",
            " ",
            "\t",
            "\u{7}",
            "}",
            "]",
            ":",
            ",",
        ];
        let mut next = crate::testing::choices(7);
        for _ in 0..2000 {
            let value = generate(&mut next, &pieces, 0);
            for text in [
                value.to_string(),
                serde_json::to_string_pretty(&value).unwrap(),
            ] {
                let mut walk = Walk::new(&text);
                assert_eq!(rebuild(&mut walk).as_ref(), Some(&value), "{text}");
                assert!(walk.end());
                let mut walk = Walk::new(&text);
                assert_eq!(walk.take(), Some(text.trim_end()), "{text}");
            }
        }
    }

    #[test]
    fn what_is_not_json_ends_the_walk() {
        for text in [
            "",
            "{",
            "[1",
            "\"abc",
            "{\"a\" 1}",
            "tru",
            "x",
            "1 2",
            "{\"a\":1",
        ] {
            assert_eq!(tokens(text), None, "{text}");
        }
    }

    #[test]
    fn skipping_and_taking_go_past_whole_values() {
        let mut walk = Walk::new(r#"[{"a":["]",{"b":"}"}]},"\"\\",3]"#);
        assert!(matches!(walk.value(), Some(Token::Array)));
        assert_eq!(walk.more(), Some(true));
        assert_eq!(walk.take(), Some(r#"{"a":["]",{"b":"}"}]}"#));
        assert_eq!(walk.more(), Some(true));
        walk.skip().expect("a string");
        assert_eq!(walk.more(), Some(true));
        assert!(matches!(walk.value(), Some(Token::Number("3"))));
        assert_eq!(walk.more(), Some(false));
        assert!(walk.end());
    }

    #[test]
    fn strings_are_unescaped_where_read() {
        let mut walk = Walk::new(r#""a\nb\u00e9\ud83d\ude00""#);
        let Some(Token::Str(text)) = walk.value() else {
            panic!("a string");
        };
        assert_eq!(text.text().as_deref(), Some("a\nbé😀"));
    }
}
