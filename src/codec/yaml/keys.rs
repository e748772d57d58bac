//! Map keys and Go-syntax value texts, as sigs.k8s.io/yaml's `convertToJSONableObject`
//! and Go's `%#v` produce them.

use serde_json::Value;

use super::resolve::Scalar;

/// How a scalar key becomes a JSON object key.
pub(super) enum Key {
    /// The key text.
    Text(String),
    /// A key type sigs.k8s.io/yaml refuses (`nil`, `uint64`): its Go type name and
    /// `%#v` text, for `unsupported map key of type: ...`.
    Unsupported {
        type_name: &'static str,
        text: String,
    },
}

/// Stringifies a resolved scalar key: ints in decimal, floats with Go's
/// `FormatFloat(f, 'g', -1, 32)` (float32 precision), booleans as `true`/`false`.
pub(super) fn scalar_key(scalar: Scalar<'_>) -> Key {
    match scalar {
        Scalar::Str(text) => Key::Text(super::resolve::exact(text)),
        Scalar::Int(value) => Key::Text(value.to_string()),
        Scalar::Bool(value) => Key::Text(value.to_string()),
        Scalar::Float(value) => Key::Text(float32_key(value)),
        Scalar::Uint(value) => Key::Unsupported {
            type_name: "uint64",
            text: format!("{value:#x}"),
        },
        // `reflect.TypeOf(nil)` printed with `%s`.
        Scalar::Null => Key::Unsupported {
            type_name: "%!s(<nil>)",
            text: "<nil>".to_owned(),
        },
    }
}

/// Go's `strconv.FormatFloat(value, 'g', -1, 32)` with yaml.v2's names for the
/// non-finite values.
#[allow(clippy::cast_possible_truncation)] // rounding to float32 is the point
fn float32_key(value: f64) -> String {
    let single = value as f32;
    if single.is_nan() {
        return ".nan".to_owned();
    }
    if single.is_infinite() {
        return if single > 0.0 { ".inf" } else { "-.inf" }.to_owned();
    }
    go_format_g(&format!("{single:e}"))
}

/// Go's shortest `'g'` format from Rust's shortest `{:e}` text (`-1.5e-7`): exponent
/// form when the decimal exponent is below -4 or at least 6 (`1e+06`, `1.5e-07`),
/// positional otherwise.
fn go_format_g(scientific: &str) -> String {
    let (mantissa, exponent) = scientific
        .split_once('e')
        .expect("`{:e}` always prints an exponent");
    let exponent: i32 = exponent.parse().expect("`{:e}` prints a decimal exponent");
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    if digits == "0" {
        return format!("{sign}0");
    }
    if !(-4..6).contains(&exponent) {
        let exponent_sign = if exponent < 0 { '-' } else { '+' };
        return format!(
            "{sign}{mantissa}e{exponent_sign}{:02}",
            exponent.unsigned_abs()
        );
    }
    let point = usize::try_from(exponent + 1).unwrap_or(0);
    if exponent < 0 {
        let zeros = "0".repeat(exponent.unsigned_abs() as usize - 1);
        format!("{sign}0.{zeros}{digits}")
    } else if digits.len() <= point {
        format!("{sign}{digits}{}", "0".repeat(point - digits.len()))
    } else {
        format!("{sign}{}.{}", &digits[..point], &digits[point..])
    }
}

/// Go's `%#v` of a decoded YAML value (`map[interface {}]interface {}{"a":1}`,
/// `[]interface {}{"x"}`), as yaml.v2 and sigs.k8s.io/yaml print it in errors.
/// Approximate for nested values: map keys are shown after stringification.
pub(super) fn go_syntax(value: &Value, top_level: bool) -> String {
    match value {
        Value::Null if top_level => "<nil>".to_owned(),
        Value::Null => "interface {}(nil)".to_owned(),
        Value::Bool(value) => value.to_string(),
        Value::Number(number) => {
            let float = number.as_f64().unwrap_or_default();
            if float.fract() == 0.0 && float.abs() < 1e15 {
                format!("{float:.0}")
            } else {
                go_format_g(&format!("{float:e}"))
            }
        }
        Value::String(text) => crate::go::fmt::quote(text),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(|item| go_syntax(item, false)).collect();
            format!("[]interface {{}}{{{}}}", items.join(", "))
        }
        Value::Object(map) => {
            let entries: Vec<String> = map
                .iter()
                .map(|(key, value)| {
                    format!("{}:{}", crate::go::fmt::quote(key), go_syntax(value, false))
                })
                .collect();
            format!(
                "map[interface {{}}]interface {{}}{{{}}}",
                entries.join(", ")
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::*;

    fn text(key: Key) -> String {
        match key {
            Key::Text(text) => text,
            Key::Unsupported { type_name, text } => format!("unsupported {type_name} {text}"),
        }
    }

    #[test]
    fn scalar_keys_are_stringified_like_sigs_k8s_yaml() {
        assert_eq!(text(scalar_key(Scalar::Int(-12))), "-12");
        assert_eq!(text(scalar_key(Scalar::Bool(true))), "true");
        assert_eq!(text(scalar_key(Scalar::Str(Cow::Borrowed("x")))), "x");
        assert_eq!(
            text(scalar_key(Scalar::Uint(u64::MAX))),
            "unsupported uint64 0xffffffffffffffff"
        );
        assert_eq!(
            text(scalar_key(Scalar::Null)),
            "unsupported %!s(<nil>) <nil>"
        );
    }

    #[test]
    fn float_keys_use_float32_g_format() {
        let cases = [
            (1.0, "1"),
            (1.5, "1.5"),
            (0.1, "0.1"),
            (-2.25, "-2.25"),
            (1.234_567_89, "1.2345679"),
            (123_456.0, "123456"),
            (1e6, "1e+06"),
            (1_234_567.0, "1.234567e+06"),
            (0.0001, "0.0001"),
            (0.000_01, "1e-05"),
            (1e300, ".inf"),
            (f64::NEG_INFINITY, "-.inf"),
            (f64::NAN, ".nan"),
            (0.0, "0"),
            (-0.0, "-0"),
        ];
        for (value, expected) in cases {
            assert_eq!(float32_key(value), expected, "{value}");
        }
    }

    #[test]
    fn go_syntax_of_values() {
        let value = serde_json::json!({"a": [1, "x", null, 1.5]});
        assert_eq!(
            go_syntax(&value, true),
            r#"map[interface {}]interface {}{"a":[]interface {}{1, "x", interface {}(nil), 1.5}}"#
        );
        assert_eq!(go_syntax(&Value::Null, true), "<nil>");
        assert_eq!(go_syntax(&serde_json::json!("q\"\n"), true), r#""q\"\n""#);
    }
}
