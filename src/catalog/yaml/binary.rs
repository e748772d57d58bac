//! `!!binary` scalars: Go's base64 decoding and how Go's JSON encoder writes the
//! resulting bytes.

/// Go's `base64.StdEncoding.DecodeString`: padded standard alphabet; line breaks are
/// ignored.
pub(super) fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let symbols: Vec<u8> = text
        .bytes()
        .filter(|b| !matches!(b, b'\r' | b'\n'))
        .collect();
    if !symbols.len().is_multiple_of(4) {
        return None;
    }
    let value = |byte: u8| -> Option<u32> {
        Some(
            match byte {
                b'A'..=b'Z' => byte - b'A',
                b'a'..=b'z' => byte - b'a' + 26,
                b'0'..=b'9' => byte - b'0' + 52,
                b'+' => 62,
                b'/' => 63,
                _ => return None,
            }
            .into(),
        )
    };
    let mut out = Vec::with_capacity(symbols.len() / 4 * 3);
    let quanta = symbols.len() / 4;
    for (index, quantum) in symbols.chunks_exact(4).enumerate() {
        let padding = quantum.iter().rev().take_while(|&&b| b == b'=').count();
        if padding > 2 || (padding > 0 && index + 1 != quanta) {
            return None;
        }
        let mut bits = 0u32;
        for &byte in &quantum[..4 - padding] {
            bits = bits << 6 | value(byte)?;
        }
        bits <<= 6 * padding as u32;
        let bytes = bits.to_be_bytes();
        out.extend_from_slice(&bytes[1..4 - padding]);
    }
    Some(out)
}

/// Bytes as Go's `encoding/json` writes a string holding them: each byte of an invalid
/// UTF-8 sequence becomes one U+FFFD.
pub(super) fn go_lossy_utf8(mut bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    loop {
        match std::str::from_utf8(bytes) {
            Ok(text) => {
                out.push_str(text);
                return out;
            }
            Err(error) => {
                let (valid, rest) = bytes.split_at(error.valid_up_to());
                out.push_str(std::str::from_utf8(valid).expect("checked by valid_up_to"));
                let bad = error.error_len().unwrap_or(rest.len());
                out.extend(std::iter::repeat_n('\u{fffd}', bad));
                bytes = &rest[bad..];
            }
        }
    }
}
