//! File names as fbc shows them. A name is bytes: text output escapes what would
//! garble a terminal or be lost (control characters, bytes that are not UTF-8), data
//! formats leave escaping to their encoder but keep non-UTF-8 bytes visible, and
//! URIs percent-encode the exact bytes. Nothing becomes U+FFFD.

use std::fmt::Write as _;
use std::path::Path;

/// How a name is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Form {
    /// For people: control characters as `\n`, `\t`, `\u{1b}`; other bytes that are
    /// not UTF-8 as `\xff`.
    Text,
    /// For JSON and YAML, whose encoders escape control characters: only bytes that
    /// are not UTF-8 are written as `\xff`.
    Data,
}

/// `path` in `form`.
pub(crate) fn path(path: &Path, form: Form) -> String {
    let bytes = path.as_os_str().as_encoded_bytes();
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for character in chunk.valid().chars() {
            if form == Form::Text && character.is_control() {
                let _ = write!(out, "{}", character.escape_default());
            } else {
                out.push(character);
            }
        }
        for byte in chunk.invalid() {
            let _ = write!(out, "\\x{byte:02x}");
        }
    }
    out
}

/// A catalog string (a package, channel or bundle name, a message) for a line of
/// text: control characters written as `\n`, `\t`, `\u{1b}`, so that a name can
/// neither start a line of its own (a forged `::error` workflow command, a broken
/// table row) nor drive a terminal.
pub(crate) fn text(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for character in text.chars() {
        if character.is_control() {
            let _ = write!(out, "{}", character.escape_default());
        } else {
            out.push(character);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// `path` as a URI reference: its exact bytes, those outside the unreserved and
/// path sets percent-encoded.
pub(crate) fn uri(path: &Path) -> String {
    let mut out = String::new();
    for &byte in path.as_os_str().as_encoded_bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/!$&'()*+,;=:@".contains(&byte) {
            out.push(char::from(byte));
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    fn raw(bytes: &[u8]) -> std::path::PathBuf {
        use std::os::unix::ffi::OsStrExt as _;
        std::path::PathBuf::from(std::ffi::OsStr::from_bytes(bytes))
    }

    #[cfg(unix)]
    #[test]
    fn names_keep_their_bytes() {
        let name = raw(b"cat\xffalog/a\nb\\c \xc3\xa9.json");
        assert_eq!(path(&name, Form::Text), "cat\\xffalog/a\\nb\\c é.json");
        assert_eq!(path(&name, Form::Data), "cat\\xffalog/a\nb\\c é.json");
        assert_eq!(uri(&name), "cat%FFalog/a%0Ab%5Cc%20%C3%A9.json");
    }

    #[test]
    fn control_characters_in_catalog_strings_are_escaped() {
        assert_eq!(
            text("etcd\n::error ::forged\r\t\u{1b}[2J"),
            "etcd\\n::error ::forged\\r\\t\\u{1b}[2J"
        );
        assert!(matches!(
            text("plain é"),
            std::borrow::Cow::Borrowed("plain é")
        ));
    }

    #[test]
    fn plain_names_are_unchanged() {
        let name = Path::new("catalog/ünïcode-pkg/catalog.yaml");
        assert_eq!(path(name, Form::Text), "catalog/ünïcode-pkg/catalog.yaml");
        assert_eq!(path(name, Form::Data), "catalog/ünïcode-pkg/catalog.yaml");
    }
}
