//! The order in which yaml.v2 writes a map's keys: `sort.Sort` with its `keyList.Less`,
//! a "natural" order on characters where letters sort after other characters, letters
//! compare by code point, and runs of digits compare by their numeric value.

use std::borrow::Cow;

use crate::codec::node::Node;

/// One character as `keyList.Less` sees it (a Go rune).
trait Rune: Copy + Eq {
    fn code(self) -> u32;
    fn is_letter(self) -> bool;
    fn is_digit(self) -> bool;
}

impl Rune for u8 {
    fn code(self) -> u32 {
        u32::from(self)
    }
    fn is_letter(self) -> bool {
        self.is_ascii_alphabetic()
    }
    fn is_digit(self) -> bool {
        self.is_ascii_digit()
    }
}

/// Go's `unicode.IsLetter` is the general category L and `unicode.IsDigit` the category
/// Nd; Rust's standard library only offers the wider Alphabetic and Numeric
/// properties, which agree on ASCII and on nearly every key a catalog holds.
impl Rune for char {
    fn code(self) -> u32 {
        u32::from(self)
    }
    fn is_letter(self) -> bool {
        self.is_alphabetic() && !self.is_numeric()
    }
    fn is_digit(self) -> bool {
        self.is_ascii_digit() || (!self.is_ascii() && self.is_numeric())
    }
}

/// yaml.v2's `keyList.Less` on two string keys.
pub(super) fn key_less(a: &str, b: &str) -> bool {
    if a.is_ascii() && b.is_ascii() {
        runes_less(a.as_bytes(), b.as_bytes())
    } else {
        let a: Vec<char> = a.chars().collect();
        let b: Vec<char> = b.chars().collect();
        runes_less(&a, &b)
    }
}

fn runes_less<R: Rune>(a: &[R], b: &[R]) -> bool {
    for index in 0..a.len().min(b.len()) {
        let (x, y) = (a[index], b[index]);
        if x == y {
            continue;
        }
        match (x.is_letter(), y.is_letter()) {
            (true, true) => return x.code() < y.code(),
            (true, false) => return false,
            (false, true) => return true,
            (false, false) => {}
        }
        // Neither is a letter: compare the digit runs starting here by value.
        let zero = u32::from(b'0');
        let mut seed = 0;
        if x.code() == zero || y.code() == zero {
            // A zero inside a number ("10" vs "1a") counts as part of it.
            let inside_number = a[..index]
                .iter()
                .rev()
                .take_while(|rune| rune.is_digit())
                .any(|rune| rune.code() != zero);
            if inside_number {
                seed = 1;
            }
        }
        let (a_value, a_end) = digit_run(a, index, seed);
        let (b_value, b_end) = digit_run(b, index, seed);
        if a_value != b_value {
            return a_value < b_value;
        }
        if a_end != b_end {
            return a_end < b_end;
        }
        return x.code() < y.code();
    }
    a.len() < b.len()
}

/// The value of the digits from `start` on (accumulated onto `seed`, wrapping as
/// Go's `int64` does) and where they end.
fn digit_run<R: Rune>(runes: &[R], start: usize, seed: i64) -> (i64, usize) {
    let mut value = seed;
    let mut end = start;
    while end < runes.len() && runes[end].is_digit() {
        let digit = i64::from(runes[end].code()) - i64::from(b'0');
        value = value.wrapping_mul(10).wrapping_add(digit);
        end += 1;
    }
    (value, end)
}

type Field<'n, 'a> = &'n (Cow<'a, str>, Node<'a>);

/// The fields of a mapping in yaml.v2's key order.
pub(super) fn sorted<'n, 'a>(fields: &'n [(Cow<'a, str>, Node<'a>)]) -> Vec<Field<'n, 'a>> {
    let mut sorted: Vec<Field<'n, 'a>> = fields.iter().collect();
    crate::go::sort::slice_by(&mut sorted, |a, b| key_less(&a.0, &b.0));
    sorted
}
