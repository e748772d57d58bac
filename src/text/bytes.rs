//! Fast scans over long byte runs. Most of a catalog's bytes sit in a few huge base64
//! strings, which are scanned several times (control characters, JSON escapes, base64
//! checks); these helpers test several bytes per step instead of one.

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The bytes of `word` (little-endian) below `limit`, which must be at most 128, as
/// their high bits. Only the lowest set bit is exact (a borrow can mark a byte above
/// a match too), which is what a search for the first match needs.
pub(crate) fn below(word: u64, limit: u8) -> u64 {
    debug_assert!(limit <= 128);
    word.wrapping_sub(ONES * u64::from(limit)) & !word & HIGHS
}

/// The bytes of `word` equal to `byte`, as [`below`] marks them.
pub(crate) fn equal(word: u64, byte: u8) -> u64 {
    below(word ^ (ONES * u64::from(byte)), 1)
}

/// The index in `word` (little-endian) of the first byte a [`below`] or [`equal`]
/// mark, or of the marks of several OR-ed together (not zero).
pub(crate) fn first_marked(marks: u64) -> usize {
    (marks.trailing_zeros() / 8) as usize
}

/// Whether every byte is in `table` (a 256-entry membership table). Branch-free over
/// blocks so the compiler can keep it fast on long runs.
pub(crate) fn all_in(bytes: &[u8], table: &[bool; 256]) -> bool {
    let mut blocks = bytes.chunks_exact(32);
    for block in blocks.by_ref() {
        if !block
            .iter()
            .fold(true, |all, &byte| all & table[usize::from(byte)])
        {
            return false;
        }
    }
    blocks
        .remainder()
        .iter()
        .all(|&byte| table[usize::from(byte)])
}

/// Whether every byte is standard base64's (`A-Z a-z 0-9 + /`): range tests the
/// compiler turns into vector code, about ten times the speed of a table lookup
/// per byte on the megabytes of an embedded manifest.
pub(crate) fn all_base64(bytes: &[u8]) -> bool {
    let member = |byte: u8| {
        byte.wrapping_sub(b'A') < 26
            || byte.wrapping_sub(b'a') < 26
            || byte.wrapping_sub(b'0') < 10
            || byte == b'+'
            || byte == b'/'
    };
    let mut blocks = bytes.chunks_exact(64);
    for block in blocks.by_ref() {
        if !block.iter().fold(true, |all, &byte| all & member(byte)) {
            return false;
        }
    }
    blocks.remainder().iter().all(|&byte| member(byte))
}

/// A 256-entry membership table, built at compile time from a byte predicate:
/// `byte_table!(|byte| byte.is_ascii_digit())`.
macro_rules! byte_table {
    (|$byte:ident| $member:expr) => {{
        let mut table = [false; 256];
        let mut index = 0;
        while index < 256 {
            let $byte = index as u8;
            table[index] = $member;
            index += 1;
        }
        table
    }};
}
pub(crate) use byte_table;

/// The characters of UTF-8 `bytes` (the bytes that do not continue a character).
pub(crate) fn characters(bytes: &[u8]) -> usize {
    bytes.iter().filter(|byte| (**byte & 0xC0) != 0x80).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(bytes: [u8; 8]) -> u64 {
        u64::from_le_bytes(bytes)
    }

    #[test]
    fn word_tests_agree_with_byte_tests() {
        let samples: Vec<[u8; 8]> = (0..=255u8)
            .flat_map(|byte| {
                (0..8).flat_map(move |at| {
                    // The byte alone, and with a second one after it.
                    [None, Some(0u8), Some(b'"'), Some(0xE2)].map(|second| {
                        let mut bytes = *b"QUJDRGhp";
                        bytes[at] = byte;
                        if let Some(second) = second.filter(|_| at < 7) {
                            bytes[at + 1] = second;
                        }
                        bytes
                    })
                })
            })
            .collect();
        let first = |marks: u64| (marks != 0).then(|| first_marked(marks));
        for bytes in samples {
            for limit in [1, 0x20, 0x80] {
                assert_eq!(
                    first(below(word(bytes), limit)),
                    bytes.iter().position(|&b| b < limit),
                    "{bytes:?} < {limit}"
                );
            }
            for target in [b'"', b'\\', 0xE2, 0x7F, 0] {
                assert_eq!(
                    first(equal(word(bytes), target)),
                    bytes.iter().position(|&b| b == target),
                    "{bytes:?} == {target}"
                );
            }
        }
    }

    #[test]
    fn all_base64_takes_exactly_the_alphabet() {
        let alphabet: [bool; 256] =
            byte_table!(|byte| byte.is_ascii_alphanumeric() || byte == b'+' || byte == b'/');
        for byte in 0..=255u8 {
            for len in [1, 63, 64, 65, 130] {
                for at in [0, len / 2, len - 1] {
                    let mut bytes = vec![b'Q'; len];
                    bytes[at] = byte;
                    assert_eq!(
                        all_base64(&bytes),
                        all_in(&bytes, &alphabet),
                        "{byte} at {at}/{len}"
                    );
                }
            }
        }
        assert!(all_base64(b""));
    }

    #[test]
    fn all_in_sees_every_position() {
        let alphabet: [bool; 256] = byte_table!(|byte| byte.is_ascii_alphanumeric());
        for len in 0..70 {
            for at in 0..len {
                let mut bytes = vec![b'a'; len];
                bytes[at] = b'"';
                assert!(!all_in(&bytes, &alphabet));
            }
            assert!(all_in(&vec![b'a'; len], &alphabet));
        }
    }
}
