//! yaml.v2's `resolve` on plain scalars, both ways: JSON numbers read back as ints,
//! uints or floats (which decides how they are printed), and strings that would read
//! back as something else (YAML 1.1 booleans, nulls, numbers, timestamps) or look like
//! base-60 floats must be quoted.

use std::borrow::Cow;

use crate::go::number;

/// How yaml.v2 prints a number that Go's JSON encoder wrote: integers that fit
/// `int64` or `uint64` keep their digits (`-0` becomes `0`), anything else is a
/// float in Go's `%g` form (`1e+20`, `1e-07`).
pub(super) fn number_text(value: f64) -> Cow<'static, str> {
    let json = number::json(value);
    let digits = json.strip_prefix('-').unwrap_or(&json);
    if !digits.is_empty() && digits.bytes().all(|byte| byte.is_ascii_digit()) {
        if let Ok(integer) = json.parse::<i64>() {
            return Cow::Owned(integer.to_string());
        }
        if json.parse::<u64>().is_ok() {
            return Cow::Owned(json);
        }
    }
    Cow::Owned(number::yaml_float(value))
}

/// Whether yaml.v2 may write `text` as a plain scalar: `resolve` reads it back as
/// a string and it is no base-60 float.
pub(super) fn plain_reads_as_string(text: &str) -> bool {
    resolves_to_string(text) && !is_base60_float(text)
}

/// Whether yaml.v2 looks `text` up by name (a boolean, a null or a special float;
/// the merge key `<<` is in its table too, but `<` never leads to the lookup).
fn is_named(text: &str) -> bool {
    crate::go::yaml_v2::named(text).is_some()
}

/// `resolve("", text)` returning the string tag. The first byte decides what is
/// tried: names for `yYnNtTfFoO~`, floats for `.`, numbers and timestamps for
/// signs and digits; anything else is a string without further look.
fn resolves_to_string(text: &str) -> bool {
    let Some(&first) = text.as_bytes().first() else {
        return false; // the empty scalar is null
    };
    match first {
        b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~' => {
            !is_named(text)
        }
        b'.' => !is_named(text) && !is_dot_float(text),
        b'+' | b'-' | b'0'..=b'9' => !is_named(text) && !is_number_or_timestamp(text),
        _ => true,
    }
}

/// Go's `strconv.ParseFloat` success on a text starting with `.`: digits, an
/// optional exponent, and a finite value (overflow is an error).
fn is_dot_float(text: &str) -> bool {
    let rest = &text.as_bytes()[1..];
    let digits = leading_digits(rest);
    digits > 0 && is_exponent(&rest[digits..]) && is_finite(text)
}

fn is_number_or_timestamp(text: &str) -> bool {
    if crate::go::timestamp::is_timestamp(text) {
        return true;
    }
    let plain: Cow<'_, str> = if text.as_bytes().contains(&b'_') {
        Cow::Owned(text.replace('_', ""))
    } else {
        Cow::Borrowed(text)
    };
    is_go_integer(&plain)
        || (is_yaml_style_float(plain.as_bytes()) && is_finite(&plain))
        || plain.strip_prefix("0b").is_some_and(is_signed_binary)
}

fn leading_digits(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .take_while(|byte| byte.is_ascii_digit())
        .count()
}

/// `([eE][-+]?[0-9]+)?` matching the whole of `bytes`.
fn is_exponent(bytes: &[u8]) -> bool {
    match bytes {
        [] => true,
        [b'e' | b'E', rest @ ..] => {
            let rest = match rest {
                [b'+' | b'-', rest @ ..] => rest,
                _ => rest,
            };
            !rest.is_empty() && leading_digits(rest) == rest.len()
        }
        _ => false,
    }
}

/// yaml.v2's `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`.
fn is_yaml_style_float(bytes: &[u8]) -> bool {
    let bytes = match bytes {
        [b'+' | b'-', rest @ ..] => rest,
        _ => bytes,
    };
    let rest = if let [b'.', fraction @ ..] = bytes {
        let digits = leading_digits(fraction);
        if digits == 0 {
            return false;
        }
        &fraction[digits..]
    } else {
        let digits = leading_digits(bytes);
        if digits == 0 {
            return false;
        }
        match &bytes[digits..] {
            [b'.', fraction @ ..] => &fraction[leading_digits(fraction)..],
            rest => rest,
        }
    };
    is_exponent(rest)
}

/// The text (already known to be float syntax) parses to a finite `f64`; Go's
/// `ParseFloat` reports a range error for overflow, and yaml.v2 then keeps the string.
fn is_finite(text: &str) -> bool {
    text.parse::<f64>().is_ok_and(f64::is_finite)
}

/// Go's `strconv.ParseInt(text, 0, 64)` or `ParseUint(text, 0, 64)` succeeding:
/// an optional sign (`ParseInt` only), a `0x`/`0o`/`0b` prefix or a leading `0` for
/// octal, digits of that base, and a value in range.
fn is_go_integer(text: &str) -> bool {
    let bytes = text.as_bytes();
    let (sign, body) = match bytes {
        [sign @ (b'+' | b'-'), rest @ ..] => (Some(*sign), rest),
        _ => (None, bytes),
    };
    let (radix, digits) = match body {
        [b'0', prefix, rest @ ..] if body.len() >= 3 && matches!(prefix, b'x' | b'X') => (16, rest),
        [b'0', prefix, rest @ ..] if body.len() >= 3 && matches!(prefix, b'o' | b'O') => (8, rest),
        [b'0', prefix, rest @ ..] if body.len() >= 3 && matches!(prefix, b'b' | b'B') => (2, rest),
        [b'0', rest @ ..] => (8, rest),
        [] => return false,
        _ => (10, body),
    };
    let Some(magnitude) = parse_magnitude(digits, radix) else {
        return false;
    };
    match sign {
        None => true, // ParseUint takes anything up to u64::MAX
        Some(b'-') => magnitude <= 1 << 63,
        Some(_) => magnitude < 1 << 63,
    }
}

/// Digits of `radix` (possibly none) as a `u64`, `None` on a bad digit or overflow.
fn parse_magnitude(digits: &[u8], radix: u32) -> Option<u64> {
    digits.iter().try_fold(0u64, |value, &byte| {
        let digit = char::from(byte).to_digit(radix)?;
        value
            .checked_mul(u64::from(radix))?
            .checked_add(u64::from(digit))
    })
}

/// What follows `0b` parsed by `ParseInt(rest, 2, 64)` (which takes a sign) or
/// `ParseUint(rest, 2, 64)`.
fn is_signed_binary(rest: &str) -> bool {
    let bytes = rest.as_bytes();
    let (sign, digits) = match bytes {
        [sign @ (b'+' | b'-'), digits @ ..] => (Some(*sign), digits),
        _ => (None, bytes),
    };
    if digits.is_empty() {
        return false;
    }
    let Some(magnitude) = parse_magnitude(digits, 2) else {
        return false;
    };
    match sign {
        None => true,
        Some(b'-') => magnitude <= 1 << 63,
        Some(_) => magnitude < 1 << 63,
    }
}

/// yaml.v2's `isBase60Float`: `^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`.
fn is_base60_float(text: &str) -> bool {
    let bytes = text.as_bytes();
    let bytes = match bytes {
        [b'+' | b'-', rest @ ..] => rest,
        _ => bytes,
    };
    if !bytes.first().is_some_and(u8::is_ascii_digit) || !bytes.contains(&b':') {
        return false;
    }
    let is_digit_or_underscore = |byte: &u8| byte.is_ascii_digit() || *byte == b'_';
    let head = bytes
        .iter()
        .take_while(|byte| is_digit_or_underscore(byte))
        .count();
    let mut rest = &bytes[head..];
    let mut groups = 0;
    while let [b':', after @ ..] = rest {
        // `[0-5]?[0-9]`: one or two digits, the first of two at most 5.
        let digits = leading_digits(after).min(2);
        let take = match digits {
            2 if after[0] <= b'5' => 2,
            2 | 1 => 1,
            _ => return false,
        };
        groups += 1;
        rest = &after[take..];
    }
    if groups == 0 {
        return false;
    }
    match rest {
        [] => true,
        [b'.', fraction @ ..] => fraction.iter().all(is_digit_or_underscore),
        _ => false,
    }
}
