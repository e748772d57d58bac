//! Go's `%q`, `%v` and `%t` as opm's messages use them on decoded JSON values.

use std::fmt::Write as _;

use serde_json::Value;

use crate::go::number;

/// Go's `strconv.Quote` (`%q` of a string).
pub(crate) fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for character in text.chars() {
        match character {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if is_print(c) => out.push(c),
            c if u32::from(c) < 0x80 => {
                write!(out, "\\x{:02x}", u32::from(c)).expect("writing to a String");
            }
            c if u32::from(c) < 0x10000 => {
                write!(out, "\\u{:04x}", u32::from(c)).expect("writing to a String");
            }
            c => write!(out, "\\U{:08x}", u32::from(c)).expect("writing to a String"),
        }
    }
    out.push('"');
    out
}

/// Go's `strconv.IsPrint`: letters, marks, numbers, punctuation and symbols, and the
/// ASCII space; format characters, separators, private use and unassigned code points
/// are escaped. The tables are Unicode 16's, Go 1.26's are Unicode 15's: the
/// characters added in 16 print raw here where opm escapes them.
fn is_print(character: char) -> bool {
    use unicode_general_category::{GeneralCategory as C, get_general_category};
    if character == ' ' {
        return true;
    }
    !matches!(
        get_general_category(character),
        C::Control
            | C::Format
            | C::Surrogate
            | C::PrivateUse
            | C::Unassigned
            | C::SpaceSeparator
            | C::LineSeparator
            | C::ParagraphSeparator
    )
}

/// A float as Go's `%v` prints it: `%g` with the shortest precision, switching to
/// the exponent form from 1e21 on.
pub(crate) fn float(value: f64) -> String {
    let magnitude = value.abs();
    if magnitude != 0.0 && !(1e-4..1e21).contains(&magnitude) {
        let mut text = format!("{value:e}");
        let position = text.find('e').expect("`{:e}` prints an exponent");
        let exponent: i32 = text[position + 1..].parse().expect("decimal exponent");
        let sign = if exponent < 0 { '-' } else { '+' };
        text.truncate(position);
        format!("{text}e{sign}{:02}", exponent.unsigned_abs())
    } else {
        number::json(value)
    }
}

/// Go's `%v` of a value decoded into `any` (maps print with sorted keys).
pub(crate) fn value(value: &Value) -> String {
    match value {
        Value::Null => "<nil>".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => float(n.as_f64().unwrap_or_default()),
        Value::String(s) => s.clone(),
        Value::Array(items) => {
            let items: Vec<_> = items.iter().map(self::value).collect();
            format!("[{}]", items.join(" "))
        }
        Value::Object(map) => {
            let entries: Vec<_> = map
                .iter()
                .map(|(k, v)| format!("{k}:{}", self::value(v)))
                .collect();
            format!("map[{}]", entries.join(" "))
        }
    }
}

/// Go's `%t` of a value decoded into `any`: fine for booleans, a `%!t(type=value)`
/// complaint for everything else (containers complain element by element).
pub(crate) fn bool_verb(value: &Value) -> String {
    match value {
        Value::Null => "%!t(<nil>)".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => format!("%!t(float64={})", float(n.as_f64().unwrap_or_default())),
        Value::String(s) => format!("%!t(string={s})"),
        Value::Array(items) => {
            let items: Vec<_> = items.iter().map(bool_verb).collect();
            format!("[{}]", items.join(" "))
        }
        Value::Object(map) => {
            let entries: Vec<_> = map
                .iter()
                .map(|(k, v)| format!("{}:{}", bool_verb_key(k), bool_verb(v)))
                .collect();
            format!("map[{}]", entries.join(" "))
        }
    }
}

fn bool_verb_key(key: &str) -> String {
    format!("%!t(string={key})")
}

/// An OS error as Go prints it (`no such file or directory`): Rust's text without the
/// ` (os error N)` suffix, lower-cased like Go's table.
pub(crate) fn os_error(error: &std::io::Error) -> String {
    let text = error.to_string();
    let text = match (error.raw_os_error(), text.rfind(" (os error ")) {
        (Some(_), Some(suffix)) => &text[..suffix],
        _ => text.as_str(),
    };
    let mut characters = text.chars();
    characters.next().map_or_else(String::new, |first| {
        first.to_lowercase().chain(characters).collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn os_errors_read_like_go() {
        let error = std::io::Error::from_raw_os_error(2);
        assert_eq!(os_error(&error), "no such file or directory");
        let custom = std::io::Error::other("Odd");
        assert_eq!(os_error(&custom), "odd");
    }
    use serde_json::json;

    #[test]
    fn quote_escapes_like_strconv() {
        assert_eq!(quote("a\"b\\c\n"), r#""a\"b\\c\n""#);
        assert_eq!(quote("é\u{0}"), r#""é\x00""#);
        assert_eq!(quote("\u{2028}"), r#""\u2028""#);
        // Format characters, unassigned code points and private use are escaped;
        // letters, marks and symbols of any plane are not.
        assert_eq!(quote("1.0.0\u{61c}"), r#""1.0.0\u061c""#);
        assert_eq!(quote("x\u{e0067}"), r#""x\U000e0067""#);
        assert_eq!(quote("\u{378}\u{e000}\u{a0}"), r#""\u0378\ue000\u00a0""#);
        assert_eq!(quote("é\u{301}😀"), "\"é\u{301}😀\"");
    }

    #[test]
    fn values_print_like_fmt() {
        assert_eq!(bool_verb(&json!(5.0)), "%!t(float64=5)");
        assert_eq!(value(&json!(5.0)), "5");
        assert_eq!(bool_verb(&json!({})), "map[]");
        assert_eq!(
            value(&json!({"b": 1.0, "a": [true, null]})),
            "map[a:[true <nil>] b:1]"
        );
        assert_eq!(float(1e21), "1e+21");
        assert_eq!(float(1e-5), "1e-05");
        assert_eq!(float(123_456.0), "123456");
    }
}
