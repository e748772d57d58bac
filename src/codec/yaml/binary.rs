//! `!!binary` scalars: how Go's JSON encoder writes the bytes they decode to.

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
