//! Scalar resolution as yaml.v2 (`resolve.go`, `decode.go`) does it: YAML 1.1 booleans
//! and nulls, Go-syntax integers, the `yamlStyleFloat` rule, and explicit tags.

use std::borrow::Cow;

use super::binary::go_lossy_utf8;
use crate::go::timestamp::is_timestamp;
use crate::go::yaml_v2::{Named, named};

/// The core-schema tag prefix that `!!` expands to.
pub(super) const CORE_PREFIX: &str = "tag:yaml.org,2002:";

/// A scalar after resolution, with the Go type yaml.v2 gives it when decoding into
/// `interface{}` (`int`, `uint64`, `float64`, `bool`, `nil` or `string`).
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Scalar<'a> {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Float(f64),
    Str(Cow<'a, str>),
}

/// Why an explicitly tagged scalar cannot be decoded (a yaml.v2 `failf` text, without
/// the `yaml: ` prefix).
pub(super) type Failure = String;

/// Resolves a scalar from its text, whether it was plain (untagged and unquoted), and
/// its tag (the full form, `tag:yaml.org,2002:int`, or `None`).
pub(super) fn scalar<'a>(
    text: Cow<'a, str>,
    plain: bool,
    tag: Option<&str>,
) -> Result<Scalar<'a>, Failure> {
    let Some(tag) = tag else {
        return Ok(if plain {
            plain_scalar(text)
        } else {
            Scalar::Str(text)
        });
    };
    let Some(core) = tag.strip_prefix(CORE_PREFIX) else {
        // `!foo`, the non-specific `!`, and other local tags keep the text.
        return Ok(Scalar::Str(text));
    };
    match core {
        // yaml.v2 decodes `!!binary` with Go's `base64.StdEncoding`.
        "binary" => crate::go::base64::decode(text.as_bytes())
            .map(|bytes| Scalar::Str(Cow::Owned(go_lossy_utf8(&bytes))))
            .map_err(|_| "!!binary value contains invalid base64 data".to_owned()),
        "bool" | "int" | "float" | "null" => {
            let resolved = plain_scalar(Cow::Borrowed(&text));
            let matches = matches!(
                (&resolved, core),
                (Scalar::Bool(_), "bool")
                    | (Scalar::Null, "null")
                    | (Scalar::Int(_) | Scalar::Uint(_), "int")
                    | (Scalar::Float(_), "float")
            );
            if matches {
                return Ok(resolved.into_owned());
            }
            match (resolved, core) {
                // yaml.v2 widens an integer to `float64` for `!!float`, but not a `uint64`.
                #[allow(clippy::cast_precision_loss)] // Go's float64(int) rounds too
                (Scalar::Int(value), "float") => Ok(Scalar::Float(value as f64)),
                (other, _) => Err(cannot_decode(&other, &text, core)),
            }
        }
        "timestamp" if is_timestamp(&text) => Ok(Scalar::Str(text)),
        "timestamp" => Err(cannot_decode(
            &plain_scalar(Cow::Borrowed(&text)),
            &text,
            core,
        )),
        // `!!str` keeps the text; `!!map`, `!!seq`, `!!merge` and unknown core tags
        // are not resolvable, so yaml.v2 keeps the text as a string too.
        _ => Ok(Scalar::Str(text)),
    }
}

/// yaml.v2's message for a tagged scalar whose text resolves to another type.
fn cannot_decode(resolved: &Scalar<'_>, text: &str, wanted: &str) -> Failure {
    let found = match resolved {
        Scalar::Null => "null",
        Scalar::Bool(_) => "bool",
        Scalar::Int(_) | Scalar::Uint(_) => "int",
        Scalar::Float(_) => "float",
        Scalar::Str(_) => "str",
    };
    format!("cannot decode !!{found} `{text}` as a !!{wanted}")
}

impl Scalar<'_> {
    fn into_owned(self) -> Scalar<'static> {
        match self {
            Scalar::Null => Scalar::Null,
            Scalar::Bool(value) => Scalar::Bool(value),
            Scalar::Int(value) => Scalar::Int(value),
            Scalar::Uint(value) => Scalar::Uint(value),
            Scalar::Float(value) => Scalar::Float(value),
            Scalar::Str(text) => Scalar::Str(Cow::Owned(text.into_owned())),
        }
    }
}

/// Resolves an untagged plain scalar. The first byte decides which rules can apply,
/// so long base64 data and names are rejected by one table lookup.
pub(super) fn plain_scalar(text: Cow<'_, str>) -> Scalar<'_> {
    let Some(&first) = text.as_bytes().first() else {
        return Scalar::Null;
    };
    let resolved = match first {
        b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~' => {
            keyword(&text)
        }
        b'.' => keyword(&text).or_else(|| go_parse_float(&text).map(Scalar::Float)),
        b'0'..=b'9' | b'+' | b'-' => keyword(&text).or_else(|| number(&text)),
        _ => None,
    };
    resolved.unwrap_or(Scalar::Str(text))
}

/// The fixed spellings of yaml.v2's resolve table.
fn keyword(text: &str) -> Option<Scalar<'static>> {
    Some(match named(text)? {
        Named::Bool(value) => Scalar::Bool(value),
        Named::Null => Scalar::Null,
        Named::Float(value) => Scalar::Float(value),
    })
}

/// A scalar starting with a digit or a sign: `int`, then `uint64`, then a float
/// matching `yamlStyleFloat`, all after dropping every underscore. (Timestamps are
/// tried first by yaml.v2 but always come back as their own text, as here.)
fn number(text: &str) -> Option<Scalar<'static>> {
    let plain: Cow<'_, str> = if text.contains('_') {
        Cow::Owned(text.replace('_', ""))
    } else {
        Cow::Borrowed(text)
    };
    if let Some(value) = go_parse_int(&plain) {
        return Some(value);
    }
    if is_yaml_style_float(&plain) {
        return plain
            .parse::<f64>()
            .ok()
            .filter(|value| value.is_finite())
            .map(Scalar::Float);
    }
    None
}

/// Go's `strconv.ParseInt(text, 0, 64)`, falling back to `ParseUint(text, 0, 64)` for
/// values above `i64::MAX`: base prefixes `0x`, `0o`, `0b`, and a leading `0` for octal.
fn go_parse_int(text: &str) -> Option<Scalar<'static>> {
    let (negative, signed, unsigned) = match text.as_bytes().first()? {
        b'-' => (true, true, &text[1..]),
        b'+' => (false, true, &text[1..]),
        _ => (false, false, text),
    };
    let magnitude = go_parse_uint(unsigned)?;
    if negative {
        return match magnitude {
            0..=0x7fff_ffff_ffff_ffff => Some(Scalar::Int(-magnitude.cast_signed())),
            0x8000_0000_0000_0000 => Some(Scalar::Int(i64::MIN)),
            _ => None,
        };
    }
    match i64::try_from(magnitude) {
        Ok(value) => Some(Scalar::Int(value)),
        // ParseUint takes no sign, so `+9223372036854775808` is not a number.
        Err(_) if !signed => Some(Scalar::Uint(magnitude)),
        Err(_) => None,
    }
}

/// Go's `strconv.ParseUint(text, 0, 64)` on text without underscores.
fn go_parse_uint(text: &str) -> Option<u64> {
    let bytes = text.as_bytes();
    let (radix, digits) = match bytes {
        [b'0', prefix, _, ..] if prefix.eq_ignore_ascii_case(&b'x') => (16, &text[2..]),
        [b'0', prefix, _, ..] if prefix.eq_ignore_ascii_case(&b'o') => (8, &text[2..]),
        [b'0', prefix, _, ..] if prefix.eq_ignore_ascii_case(&b'b') => (2, &text[2..]),
        [b'0', ..] => (8, &text[1..]),
        [] => return None,
        _ => (10, text),
    };
    if digits.is_empty() {
        // Only a lone `0` gets here with no digits left.
        return Some(0);
    }
    if !digits.bytes().all(|byte| (byte as char).is_digit(radix)) {
        return None;
    }
    u64::from_str_radix(digits, radix).ok()
}

/// yaml.v2's `yamlStyleFloat`: `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`.
fn is_yaml_style_float(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut at = usize::from(matches!(bytes.first(), Some(b'+' | b'-')));
    let digits = |from: usize| {
        bytes[from..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let integer = digits(at);
    at += integer;
    if bytes.get(at) == Some(&b'.') {
        let fraction = digits(at + 1);
        if integer == 0 && fraction == 0 {
            return false;
        }
        at += 1 + fraction;
    } else if integer == 0 {
        return false;
    }
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        at += 1;
        at += usize::from(matches!(bytes.get(at), Some(b'+' | b'-')));
        let exponent = digits(at);
        if exponent == 0 {
            return false;
        }
        at += exponent;
    }
    at == bytes.len()
}

/// Go's `strconv.ParseFloat(text, 64)` for text starting with `.`: decimal digits with
/// optional underscores between digits and an optional exponent; out of range is an
/// error (so `.5e999` stays a string).
fn go_parse_float(text: &str) -> Option<f64> {
    let bytes = text.as_bytes();
    let mut previous = b'.';
    for &byte in &bytes[1..] {
        let ok = match byte {
            b'0'..=b'9' => true,
            // Go accepts an underscore only between two digits; an exponent needs a
            // digit before it.
            b'_' | b'e' | b'E' => previous.is_ascii_digit(),
            b'+' | b'-' => matches!(previous, b'e' | b'E'),
            _ => false,
        };
        if !ok {
            return None;
        }
        previous = byte;
    }
    if previous == b'_' {
        return None;
    }
    let cleaned = text.replace('_', "");
    cleaned
        .parse::<f64>()
        .ok()
        .filter(|value| value.is_finite())
}

/// The scalar's text without the spare capacity saphyr reserves for every plain
/// scalar (a line's worth): kept for the whole run, it would double the memory.
pub(super) fn exact(text: Cow<'_, str>) -> String {
    let mut text = text.into_owned();
    text.shrink_to_fit();
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(text: &str) -> Scalar<'_> {
        plain_scalar(Cow::Borrowed(text))
    }

    fn string(text: &str) -> Scalar<'_> {
        Scalar::Str(Cow::Borrowed(text))
    }

    #[test]
    fn booleans_use_every_yaml_1_1_spelling() {
        for text in [
            "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON",
        ] {
            assert_eq!(plain(text), Scalar::Bool(true), "{text}");
        }
        for text in [
            "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF",
        ] {
            assert_eq!(plain(text), Scalar::Bool(false), "{text}");
        }
        for text in ["yEs", "tRUE", "oN", "nO!", "yes please"] {
            assert_eq!(plain(text), string(text), "{text}");
        }
    }

    #[test]
    fn nulls() {
        for text in ["", "~", "null", "Null", "NULL"] {
            assert_eq!(plain(text), Scalar::Null, "{text}");
        }
        assert_eq!(plain("nULL"), string("nULL"));
    }

    #[test]
    fn integers_follow_go_parse_int_with_base_prefixes() {
        let cases = [
            ("0", 0),
            ("-0", 0),
            ("+1", 1),
            ("1_000", 1000),
            ("0x1F", 31),
            ("0X1f", 31),
            ("0o17", 15),
            ("010", 8),
            ("0b101", 5),
            ("-0b101", -5),
            ("-0x10", -16),
            ("-9223372036854775808", i64::MIN),
        ];
        for (text, value) in cases {
            assert_eq!(plain(text), Scalar::Int(value), "{text}");
        }
        assert_eq!(plain("9223372036854775808"), Scalar::Uint(1 << 63));
        assert_eq!(plain("18446744073709551615"), Scalar::Uint(u64::MAX));
        // Not octal, but a yamlStyleFloat.
        assert_eq!(plain("08"), Scalar::Float(8.0));
        assert_eq!(plain("0x"), string("0x"));
        assert_eq!(plain("0x1_0"), Scalar::Int(16));
        assert_eq!(
            plain("0xffffffffffffffffff"),
            string("0xffffffffffffffffff")
        );
        assert_eq!(
            plain("+9223372036854775808"),
            Scalar::Float(9.223_372_036_854_776e18)
        );
    }

    #[test]
    fn floats_follow_yaml_style_float() {
        let cases = [
            ("1.0", 1.0),
            ("1.", 1.0),
            (".5", 0.5),
            ("-.5", -0.5),
            ("1e3", 1000.0),
            ("1.e3", 1000.0),
            ("6.02E+23", 6.02e23),
            ("1_0.5", 10.5),
            (".5_5", 0.55),
            ("99999999999999999999999", 1e23),
        ];
        for (text, value) in cases {
            assert_eq!(plain(text), Scalar::Float(value), "{text}");
        }
        for text in [
            "1e", "1e400", ".", ".e5", "._5", "1.2.3", "1.0.0", "0x1p3", "+", "-",
        ] {
            assert_eq!(plain(text), string(text), "{text}");
        }
        assert!(matches!(plain(".NaN"), Scalar::Float(v) if v.is_nan()));
        assert_eq!(plain("-.inf"), Scalar::Float(f64::NEG_INFINITY));
        assert_eq!(plain("+.INF"), Scalar::Float(f64::INFINITY));
        assert_eq!(plain(".Inf"), Scalar::Float(f64::INFINITY));
    }

    #[test]
    fn timestamps_and_other_text_stay_strings() {
        for text in [
            "2001-12-14",
            "2001-12-14t21:59:43.10-05:00",
            "v1.0.0",
            "<<",
            "1.2.3-rc",
        ] {
            assert_eq!(plain(text), string(text), "{text}");
        }
    }

    #[test]
    fn quoted_scalars_are_strings() {
        assert_eq!(scalar(Cow::Borrowed("1"), false, None), Ok(string("1")));
        assert_eq!(scalar(Cow::Borrowed(""), false, None), Ok(string("")));
    }

    #[test]
    fn explicit_tags() {
        let tagged = |text: &'static str, tag: &str| {
            scalar(
                Cow::Borrowed(text),
                true,
                Some(&format!("{CORE_PREFIX}{tag}")),
            )
        };
        assert_eq!(tagged("1", "str"), Ok(string("1")));
        assert_eq!(tagged("12", "int"), Ok(Scalar::Int(12)));
        assert_eq!(tagged("12", "float"), Ok(Scalar::Float(12.0)));
        assert_eq!(tagged("yes", "bool"), Ok(Scalar::Bool(true)));
        assert_eq!(tagged("~", "null"), Ok(Scalar::Null));
        assert_eq!(tagged("aGVsbG8=", "binary"), Ok(string("hello")));
        assert_eq!(tagged("aGVs\nbG8=\n", "binary"), Ok(string("hello")));
        assert_eq!(tagged("/w==", "binary"), Ok(string("\u{fffd}")));
        assert_eq!(tagged("4oI=", "binary"), Ok(string("\u{fffd}\u{fffd}")));
        assert_eq!(tagged("2001-12-14", "timestamp"), Ok(string("2001-12-14")));
        assert_eq!(
            tagged("2001-12-14T21:59:43.1Z", "timestamp"),
            Ok(string("2001-12-14T21:59:43.1Z"))
        );
        assert_eq!(
            tagged("2001-12-14 1:2:3", "timestamp"),
            Ok(string("2001-12-14 1:2:3"))
        );
        assert_eq!(tagged("x", "map"), Ok(string("x")));
        assert_eq!(
            tagged("abc", "int"),
            Err("cannot decode !!str `abc` as a !!int".to_owned())
        );
        assert_eq!(
            tagged("1.5", "int"),
            Err("cannot decode !!float `1.5` as a !!int".to_owned())
        );
        assert_eq!(
            tagged("1", "bool"),
            Err("cannot decode !!int `1` as a !!bool".to_owned())
        );
        assert_eq!(
            tagged("2001-02-30", "timestamp"),
            Err("cannot decode !!str `2001-02-30` as a !!timestamp".to_owned())
        );
        assert_eq!(
            tagged("==", "binary"),
            Err("!!binary value contains invalid base64 data".to_owned())
        );
        let local = scalar(Cow::Borrowed("12"), true, Some("!"));
        assert_eq!(local, Ok(string("12")));
    }
}
