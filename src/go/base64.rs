//! Go's `base64.StdEncoding.Decode`: standard alphabet, padding required, `\r` and
//! `\n` ignored anywhere, trailing bits not checked, and its error offsets
//! (`illegal base64 data at input byte N`), which opm prints.

/// A `base64.CorruptInputError`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("illegal base64 data at input byte {0}")]
pub(crate) struct CorruptInput(pub(crate) usize);

const fn sextet(byte: u8) -> Option<u8> {
    match byte {
        b'A'..=b'Z' => Some(byte - b'A'),
        b'a'..=b'z' => Some(byte - b'a' + 26),
        b'0'..=b'9' => Some(byte - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// Each byte's value in the alphabet, or [`NOT_IN_ALPHABET`].
const SEXTETS: [u8; 256] = {
    let mut table = [NOT_IN_ALPHABET; 256];
    let mut index = 0;
    while index < 256 {
        if let Some(value) = sextet(index as u8) {
            table[index] = value;
        }
        index += 1;
    }
    table
};
const NOT_IN_ALPHABET: u8 = 0xff;

fn is_newline(byte: u8) -> bool {
    byte == b'\n' || byte == b'\r'
}

/// Decodes like Go. The output is only built when `out` is given, so the check
/// alone costs no allocation.
pub(crate) fn decode_into(input: &[u8], mut out: Option<&mut Vec<u8>>) -> Result<(), CorruptInput> {
    // Whole quanta of four alphabet characters, the bulk of any input, by table;
    // the rest (line breaks, padding, errors) one byte at a time below.
    let mut position = 0;
    while let Some(&[a, b, c, d]) = input.get(position..position + 4) {
        let values = [a, b, c, d].map(|byte| SEXTETS[usize::from(byte)]);
        if values.contains(&NOT_IN_ALPHABET) {
            break;
        }
        if let Some(out) = out.as_deref_mut() {
            let bits = values
                .iter()
                .fold(0u32, |bits, &value| bits << 6 | u32::from(value));
            out.extend_from_slice(&bits.to_be_bytes()[1..]);
        }
        position += 4;
    }
    loop {
        let mut quantum = [0u8; 4];
        let mut length = 4;
        let mut finished = false;
        let mut j = 0;
        while j < 4 {
            if position == input.len() {
                if j == 0 {
                    return Ok(());
                }
                // Padding is required, so a short final quantum is corrupt.
                return Err(CorruptInput(position - j));
            }
            let byte = input[position];
            position += 1;
            if let Some(value) = sextet(byte) {
                quantum[j] = value;
                j += 1;
                continue;
            }
            if is_newline(byte) {
                continue;
            }
            if byte != b'=' || j < 2 {
                return Err(CorruptInput(position - 1));
            }
            if j == 2 {
                // "==" is expected; the first '=' is consumed.
                while position < input.len() && is_newline(input[position]) {
                    position += 1;
                }
                if position == input.len() {
                    return Err(CorruptInput(input.len()));
                }
                if input[position] != b'=' {
                    return Err(CorruptInput(position - 1));
                }
                position += 1;
            }
            while position < input.len() && is_newline(input[position]) {
                position += 1;
            }
            if position < input.len() {
                return Err(CorruptInput(position));
            }
            length = j;
            finished = true;
            break;
        }
        if let Some(out) = out.as_deref_mut() {
            let bits = u32::from(quantum[0]) << 18
                | u32::from(quantum[1]) << 12
                | u32::from(quantum[2]) << 6
                | u32::from(quantum[3]);
            let bytes = bits.to_be_bytes();
            out.extend_from_slice(&bytes[1..length]);
        }
        if finished {
            return Ok(());
        }
    }
}

/// Decodes a whole input.
pub(crate) fn decode(input: &[u8]) -> Result<Vec<u8>, CorruptInput> {
    let mut out = Vec::with_capacity(input.len() / 4 * 3);
    decode_into(input, Some(&mut out))?;
    Ok(out)
}

/// Go's `base64.StdEncoding.EncodeToString`.
pub(crate) fn encode(input: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let sextet = |bits: u32, shift: u32| ALPHABET[(bits >> shift & 63) as usize];
    let mut out = Vec::with_capacity(input.len().div_ceil(3) * 4);
    let chunks = input.chunks_exact(3);
    let rest = chunks.remainder();
    for chunk in chunks {
        let bits = u32::from(chunk[0]) << 16 | u32::from(chunk[1]) << 8 | u32::from(chunk[2]);
        out.extend_from_slice(&[
            sextet(bits, 18),
            sextet(bits, 12),
            sextet(bits, 6),
            sextet(bits, 0),
        ]);
    }
    match *rest {
        [first] => {
            let bits = u32::from(first) << 16;
            out.extend_from_slice(&[sextet(bits, 18), sextet(bits, 12), b'=', b'=']);
        }
        [first, second] => {
            let bits = u32::from(first) << 16 | u32::from(second) << 8;
            out.extend_from_slice(&[sextet(bits, 18), sextet(bits, 12), sextet(bits, 6), b'=']);
        }
        _ => {}
    }
    String::from_utf8(out).expect("the base64 alphabet is ASCII")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_like_go() {
        assert_eq!(encode(b""), "");
        assert_eq!(encode(b"h"), "aA==");
        assert_eq!(encode(b"hi"), "aGk=");
        assert_eq!(encode(b"hello"), "aGVsbG8=");
        assert_eq!(encode(&[0xfb, 0xff, 0xbf]), "+/+/");
    }

    #[test]
    fn decodes_with_go_rules() {
        assert_eq!(decode(b"aGVsbG8="), Ok(b"hello".to_vec()));
        assert_eq!(decode(b"aGVs\nbG8=\r\n"), Ok(b"hello".to_vec()));
        assert_eq!(decode(b""), Ok(Vec::new()));
        assert_eq!(decode(b"aGk="), Ok(b"hi".to_vec()));
        assert_eq!(decode(b"aA=="), Ok(b"h".to_vec()));
    }

    #[test]
    fn errors_carry_go_offsets() {
        assert_eq!(decode(b"!!!!"), Err(CorruptInput(0)));
        assert_eq!(decode(b"aGVsbG8"), Err(CorruptInput(4)));
        assert_eq!(decode(b"aA="), Err(CorruptInput(3)));
        assert_eq!(decode(b"aA=x"), Err(CorruptInput(2)));
        assert_eq!(decode(b"aGk=aGk="), Err(CorruptInput(4)));
        assert_eq!(decode(b"a==="), Err(CorruptInput(1)));
    }

    #[test]
    fn every_position_of_a_long_input_is_read_alike() {
        let data: Vec<u8> = (0..=255).collect();
        let encoded = encode(&data);
        for at in 0..encoded.len() {
            let mut broken = encoded.clone().into_bytes();
            broken.insert(at, b'\n');
            assert_eq!(decode(&broken), Ok(data.clone()), "line break at {at}");
            // Before the padded last quantum, a bad byte is reported where it is.
            broken[at] = b'!';
            if at < encoded.len() - 4 {
                assert_eq!(decode(&broken), Err(CorruptInput(at)), "bad byte at {at}");
            }
        }
    }

    #[test]
    fn encode_round_trips() {
        for text in ["", "h", "hi", "hello", "<svg/>"] {
            assert_eq!(
                decode(encode(text.as_bytes()).as_bytes()),
                Ok(text.as_bytes().to_vec())
            );
        }
        assert_eq!(encode(b"hello"), "aGVsbG8=");
    }
}
