//! yaml.v2's `parseTimestamp` (`resolve.go`): a quick check for four digits and a
//! dash, then Go's `time.Parse` with the layouts `2006-1-2T15:4:5.999999999Z07:00`,
//! the same with a lower-case `t`, `2006-1-2 15:4:5.999999999` and `2006-1-2`.
//! The reader uses it for an explicit `!!timestamp` tag, the writer to quote
//! strings that yaml.v2 would read back as timestamps. Go's rules, from `time`'s
//! `format.go`: a space in a layout matches a run of spaces (`skip`); a fraction
//! after the seconds starts with `.` or `,` and takes any number of digits; hours
//! are below 24, minutes and seconds below 60, but a zone offset's hours go up to
//! 24 and its minutes up to 60 (the range test uses `>`).

/// Whether any of yaml.v2's timestamp layouts parses `text`.
pub(crate) fn is_timestamp(text: &str) -> bool {
    let bytes = text.as_bytes();
    let year_digits = bytes
        .iter()
        .take_while(|byte| byte.is_ascii_digit())
        .count();
    if year_digits != 4 || bytes.get(4) != Some(&b'-') {
        return false;
    }
    let year = bytes[..4]
        .iter()
        .fold(0, |year, digit| year * 10 + u32::from(digit - b'0'));
    let mut rest = &bytes[5..];
    let Some(month) = number(&mut rest) else {
        return false;
    };
    if !(1..=12).contains(&month) || !literal(&mut rest, b'-') {
        return false;
    }
    let Some(day) = number(&mut rest) else {
        return false;
    };
    if day < 1 || day > days_in(month, year) {
        return false;
    }
    match rest {
        [] => true,
        [b'T' | b't', time @ ..] => {
            let mut time = time;
            clock(&mut time) && zone(&mut time) && time.is_empty()
        }
        [b' ', time @ ..] => {
            // A space in a layout matches a run of spaces.
            let spaces = time.iter().take_while(|&&byte| byte == b' ').count();
            let mut time = &time[spaces..];
            clock(&mut time) && time.is_empty()
        }
        _ => false,
    }
}

/// Go's `getnum(value, false)`: one or two digits.
fn number(rest: &mut &[u8]) -> Option<u32> {
    let digits = rest
        .iter()
        .take(2)
        .take_while(|byte| byte.is_ascii_digit())
        .count();
    if digits == 0 {
        return None;
    }
    let value = rest[..digits]
        .iter()
        .fold(0, |value, digit| value * 10 + u32::from(digit - b'0'));
    *rest = &rest[digits..];
    Some(value)
}

fn literal(rest: &mut &[u8], expected: u8) -> bool {
    match rest {
        [first, after @ ..] if *first == expected => {
            *rest = after;
            true
        }
        _ => false,
    }
}

/// `15:4:5.999999999`: hour, minute, second in range, then an optional fraction
/// (a `.` or `,` and any number of digits).
fn clock(rest: &mut &[u8]) -> bool {
    let in_range = |value: Option<u32>, limit| value.is_some_and(|value| value < limit);
    if !in_range(number(rest), 24) || !literal(rest, b':') {
        return false;
    }
    if !in_range(number(rest), 60) || !literal(rest, b':') {
        return false;
    }
    if !in_range(number(rest), 60) {
        return false;
    }
    if let [b'.' | b',', digit, ..] = rest
        && digit.is_ascii_digit()
    {
        let digits = rest[1..]
            .iter()
            .take_while(|byte| byte.is_ascii_digit())
            .count();
        *rest = &rest[1 + digits..];
    }
    true
}

/// `Z07:00`: `Z`, or a sign, two hour digits (at most 24), `:` and two minute digits
/// (at most 60).
fn zone(rest: &mut &[u8]) -> bool {
    if literal(rest, b'Z') {
        return true;
    }
    let [sign, h1, h2, b':', m1, m2, after @ ..] = rest else {
        return false;
    };
    let digits = [*h1, *h2, *m1, *m2];
    if !digits.iter().all(u8::is_ascii_digit) || !matches!(sign, b'+' | b'-') {
        return false;
    }
    let hours = u32::from(h1 - b'0') * 10 + u32::from(h2 - b'0');
    let minutes = u32::from(m1 - b'0') * 10 + u32::from(m2 - b'0');
    *rest = after;
    hours <= 24 && minutes <= 60
}

fn days_in(month: u32, year: u32) -> u32 {
    match month {
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::is_timestamp;

    #[test]
    fn dates_and_times_in_go_layouts_are_timestamps() {
        for text in [
            "2021-01-01",
            "2021-1-2",
            "2020-02-29",
            "2000-02-29",
            "2021-06-02T12:00:00Z",
            "2021-06-02t12:00:00Z",
            "2021-6-2T1:2:3Z",
            "2021-06-02T12:00:00.123456789Z",
            "2021-06-02T12:00:00,5Z",
            "2021-06-02T12:00:00.1234567891234+01:00",
            "2021-06-02T12:00:00-24:60",
            "2021-06-02 12:00:00",
            "2021-06-02   12:00:00.5",
        ] {
            assert!(is_timestamp(text), "{text}");
        }
    }

    #[test]
    fn near_misses_are_not_timestamps() {
        for text in [
            "21-01-01",
            "02021-01-01",
            "2021-13-01",
            "2021-00-01",
            "2021-02-29",
            "1900-02-29",
            "2021-04-31",
            "2021-01-001",
            "2021-01-01T",
            "2021-01-01T12:00:00",
            "2021-01-01T24:00:00Z",
            "2021-01-01T12:60:00Z",
            "2021-01-01T12:00:60Z",
            "2021-01-01T12:00:00+25:00",
            "2021-01-01T12:00:00+0100",
            "2021-01-01T12:00:00 Z",
            "2021-01-01 12:00:00Z",
            "2021-01-01 12:00",
            "2021-01-01x",
            "2021-01-01.",
            "2021-01-01T12:00:00.Z",
        ] {
            assert!(!is_timestamp(text), "{text}");
        }
    }
}
