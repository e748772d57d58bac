//! yaml.v2's timestamp check, needed only to accept or refuse an explicit
//! `!!timestamp` tag (untagged timestamps stay strings either way).

/// yaml.v2's `parseTimestamp`, needed only for an explicit `!!timestamp` tag: a
/// four-digit year, then one of `2006-1-2T15:4:5.999999999Z07:00` (also with `t`),
/// `2006-1-2 15:4:5.999999999`, or `2006-1-2`, with Go's range checks.
pub(super) fn is_timestamp(text: &str) -> bool {
    let mut cursor = Cursor {
        bytes: text.as_bytes(),
        at: 0,
    };
    let Some(year) = cursor.number(4, 4) else {
        return false;
    };
    let date = cursor.eat(b'-') && cursor.date(year);
    if !date {
        return false;
    }
    if cursor.done() {
        return true;
    }
    let zoned = match cursor.next() {
        Some(b'T' | b't') => true,
        Some(b' ') => false,
        _ => return false,
    };
    if !cursor.clock() {
        return false;
    }
    if zoned && !cursor.zone() {
        return false;
    }
    cursor.done()
}

/// A reader for the timestamp layouts.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn done(&self) -> bool {
        self.at == self.bytes.len()
    }

    fn next(&mut self) -> Option<u8> {
        let byte = *self.bytes.get(self.at)?;
        self.at += 1;
        Some(byte)
    }

    fn eat(&mut self, expected: u8) -> bool {
        let matched = self.bytes.get(self.at) == Some(&expected);
        self.at += usize::from(matched);
        matched
    }

    /// Between `min` and `max` digits.
    fn number(&mut self, min: usize, max: usize) -> Option<u32> {
        let count = self.bytes[self.at..]
            .iter()
            .take(max)
            .take_while(|b| b.is_ascii_digit())
            .count();
        if count < min {
            return None;
        }
        let digits = &self.bytes[self.at..self.at + count];
        self.at += count;
        Some(digits.iter().fold(0, |n, d| n * 10 + u32::from(d - b'0')))
    }

    fn date(&mut self, year: u32) -> bool {
        let Some(month) = self.number(1, 2) else {
            return false;
        };
        if !self.eat(b'-') {
            return false;
        }
        let Some(day) = self.number(1, 2) else {
            return false;
        };
        let leap =
            year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400));
        let days = match month {
            2 if leap => 29,
            2 => 28,
            4 | 6 | 9 | 11 => 30,
            1..=12 => 31,
            _ => return false,
        };
        (1..=days).contains(&day)
    }

    fn clock(&mut self) -> bool {
        let ok = |value: Option<u32>, max| value.is_some_and(|v| v <= max);
        if !ok(self.number(1, 2), 23) || !self.eat(b':') || !ok(self.number(1, 2), 59) {
            return false;
        }
        if !self.eat(b':') || !ok(self.number(1, 2), 59) {
            return false;
        }
        if self.eat(b'.') {
            return self.number(1, usize::MAX).is_some();
        }
        true
    }

    fn zone(&mut self) -> bool {
        match self.next() {
            Some(b'Z') => true,
            Some(b'+' | b'-') => {
                let hours = self.number(2, 2).is_some_and(|h| h <= 24);
                hours && self.eat(b':') && self.number(2, 2).is_some_and(|m| m <= 59)
            }
            _ => false,
        }
    }
}
