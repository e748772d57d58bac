//! Numbers as Go prints them. opm round-trips every catalog number through
//! `float64`, so its output shows Go's float formatting, which differs from Rust's
//! (`1e+21` rather than `1e21`, `1e-07` in YAML).

/// Shortest decimal digits and exponent of a finite, non-zero `f64`: the value is
/// `0.d1d2d3… × 10^(exponent + 1)`, i.e. `d1.d2d3… × 10^exponent`.
fn shortest_digits(value: f64) -> (String, i32) {
    // `{:e}` prints the shortest round-trip digits, like Go's precision -1.
    let text = format!("{:e}", value.abs());
    let (mantissa, exponent) = text
        .split_once('e')
        .expect("`{:e}` always prints an exponent");
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    (
        digits,
        exponent.parse().expect("`{:e}` prints a decimal exponent"),
    )
}

/// Go's `strconv.FormatFloat(value, 'e', -1, 64)` for a finite value.
fn exponent_form(value: f64) -> String {
    let sign = if value.is_sign_negative() { "-" } else { "" };
    if value == 0.0 {
        return format!("{sign}0e+00");
    }
    let (digits, exponent) = shortest_digits(value);
    let (first, rest) = digits.split_at(1);
    let point = if rest.is_empty() { "" } else { "." };
    let exponent_sign = if exponent < 0 { '-' } else { '+' };
    format!(
        "{sign}{first}{point}{rest}e{exponent_sign}{:02}",
        exponent.unsigned_abs()
    )
}

/// Go's `strconv.FormatFloat(value, 'f', -1, 64)` for a finite value.
fn positional_form(value: f64) -> String {
    // Rust's `Display` prints the shortest round-trip digits without an exponent,
    // which is exactly Go's 'f' with precision -1 (including `-0`).
    format!("{value}")
}

/// A number as Go's `encoding/json` writes a `float64`.
pub(crate) fn json(value: f64) -> String {
    let magnitude = value.abs();
    if magnitude != 0.0 && !(1e-6..1e21).contains(&magnitude) {
        let mut text = exponent_form(value);
        // encoding/json shortens a two-digit negative exponent `e-07` to `e-7`.
        let bytes = text.as_bytes();
        let n = bytes.len();
        if n >= 4 && bytes[n - 4] == b'e' && bytes[n - 3] == b'-' && bytes[n - 2] == b'0' {
            text.remove(n - 2);
        }
        text
    } else {
        positional_form(value)
    }
}

/// A float as yaml.v2 writes it: Go's `strconv.FormatFloat(value, 'g', -1, 64)` with
/// YAML's names for the non-finite values.
pub(crate) fn yaml_float(value: f64) -> String {
    if value.is_nan() {
        return ".nan".to_owned();
    }
    if value.is_infinite() {
        return if value > 0.0 { ".inf" } else { "-.inf" }.to_owned();
    }
    if value == 0.0 {
        return positional_form(value);
    }
    let (_, exponent) = shortest_digits(value);
    // With the shortest precision Go's 'g' uses the exponent form when the decimal
    // exponent is below -4 or at least 6 (strconv sets eprec = 6).
    if (-4..6).contains(&exponent) {
        positional_form(value)
    } else {
        exponent_form(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_matches_go_encoding() {
        let cases = [
            (1.0, "1"),
            (-0.0, "-0"),
            (0.0, "0"),
            (1.5, "1.5"),
            (12_345_678_901_234_567_890.0, "12345678901234567000"),
            (1e20, "100000000000000000000"),
            (1e21, "1e+21"),
            (1.5e300, "1.5e+300"),
            (0.000_001, "0.000001"),
            (1e-7, "1e-7"),
            (-1.25e-10, "-1.25e-10"),
            (0.1, "0.1"),
        ];
        for (value, expected) in cases {
            assert_eq!(json(value), expected, "{value:e}");
        }
    }

    #[test]
    fn yaml_matches_go_g_format() {
        let cases = [
            (1.5, "1.5"),
            (1e20, "1e+20"),
            (1e-7, "1e-07"),
            (0.0001, "0.0001"),
            (0.000_01, "1e-05"),
            (100_000.5, "100000.5"),
            (1_234_567.5, "1.2345675e+06"),
            (-0.0, "-0"),
            (f64::INFINITY, ".inf"),
        ];
        for (value, expected) in cases {
            assert_eq!(yaml_float(value), expected, "{value:e}");
        }
    }
}
