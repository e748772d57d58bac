//! [`Text`]: the strings of loaded blobs.

use std::borrow::Borrow;
use std::fmt;
use std::ops::Deref;

/// An immutable string of a loaded blob: a boxed `str` (16 bytes, no spare
/// capacity) that reads like a `String`. Catalogs of many small blobs hold several
/// per blob, so the 8 bytes and the slack a `String` keeps add up.
#[derive(Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Text(Box<str>);

impl Text {
    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }
}

impl Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for Text {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&*self.0, f)
    }
}

impl From<String> for Text {
    fn from(text: String) -> Text {
        Text(text.into_boxed_str())
    }
}

impl From<&str> for Text {
    fn from(text: &str) -> Text {
        Text(text.into())
    }
}

impl From<Text> for String {
    fn from(text: Text) -> String {
        text.0.into_string()
    }
}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        *self.0 == *other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<String> for Text {
    fn eq(&self, other: &String) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<Text> for str {
    fn eq(&self, other: &Text) -> bool {
        *self == *other.0
    }
}

impl PartialEq<Text> for &str {
    fn eq(&self, other: &Text) -> bool {
        **self == *other.0
    }
}

impl PartialEq<Text> for String {
    fn eq(&self, other: &Text) -> bool {
        **self == *other.0
    }
}

impl serde::Serialize for Text {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}
