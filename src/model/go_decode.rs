//! Decoding JSON values into typed blobs with Go `encoding/json` semantics: field
//! names match exactly or case-insensitively, unknown fields are dropped, `null`
//! leaves the zero value, and the first type mismatch is reported in Go's words
//! while decoding carries on.

use serde_json::Value;

/// Collects the first error of one `json.Unmarshal` call and tracks the field path
/// Go puts into `UnmarshalTypeError` messages.
///
/// Go's `encoding/json` names a mismatch in two ways. Classic v1 names the innermost
/// struct and the field names that lead to it (`RelatedImage.relatedImages.name`);
/// the v1 API over `encoding/json/v2` (the Go that opm's catalog loader is built
/// with) names the root type and the JSON pointer to the value, array indices
/// included (`Bundle.relatedImages.0.name`). A decoder made with [`GoDecoder::rooted`]
/// writes the second form.
#[derive(Default)]
pub(crate) struct GoDecoder {
    error: Option<String>,
    root: Option<&'static str>,
    path: Vec<Step>,
}

/// One step of the path to the value being decoded.
#[derive(Clone, Copy)]
enum Step {
    Field(&'static str),
    Index(usize),
}

/// Go's field-name matching for ASCII names: exact, else case-insensitive, where
/// `ſ` (U+017F) folds to `s` and the Kelvin sign (U+212A) to `k`.
pub(crate) fn field_matches(key: &str, field: &str) -> bool {
    if key == field {
        return true;
    }
    let mut key_chars = key.chars().map(|c| match c {
        '\u{17f}' => 's',
        '\u{212a}' => 'k',
        other => other.to_ascii_lowercase(),
    });
    field
        .chars()
        .all(|f| key_chars.next() == Some(f.to_ascii_lowercase()))
        && key_chars.next().is_none()
}

/// Finds which of `fields` a key decodes into: an exact match first, then a folded one.
pub(crate) fn match_field(key: &str, fields: &[&'static str]) -> Option<&'static str> {
    match_field_by(key, fields, |field| field).copied()
}

/// [`match_field`] among any fields, each named by `name`.
pub(crate) fn match_field_by<'f, T>(
    key: &str,
    fields: &'f [T],
    name: impl Fn(&T) -> &str,
) -> Option<&'f T> {
    fields
        .iter()
        .find(|field| name(field) == key)
        .or_else(|| fields.iter().find(|field| field_matches(key, name(field))))
}

impl GoDecoder {
    /// A decoder for a value of Go type `root` that names mismatches as Go's v1 API
    /// over `encoding/json/v2` does.
    pub(crate) fn rooted(root: &'static str) -> GoDecoder {
        GoDecoder {
            root: Some(root),
            ..GoDecoder::default()
        }
    }

    pub(crate) fn finish(self) -> Result<(), String> {
        self.error.map_or(Ok(()), Err)
    }

    pub(crate) fn fail(&mut self, message: String) {
        self.error.get_or_insert(message);
    }

    /// Records Go's `UnmarshalTypeError` for the current field.
    pub(crate) fn mismatch(&mut self, found: &Value, struct_name: &str, go_type: &str) {
        self.mismatch_described(crate::go::json_kind(found), struct_name, go_type);
    }

    /// A number that does not fit an integer field: Go names the number, as the
    /// catalog's float64 normalisation wrote it.
    pub(crate) fn mismatch_number(&mut self, number: f64, struct_name: &str, go_type: &str) {
        let described = format!("number {}", crate::go::number::json(number));
        self.mismatch_described(&described, struct_name, go_type);
    }

    /// A `[]byte` field whose string is not base64: Go's `UnmarshalTypeError` with
    /// the base64 error as its cause (`...of type []uint8: illegal base64 data at
    /// input byte 3`).
    pub(crate) fn invalid_base64(&mut self, struct_name: &str, error: &impl std::fmt::Display) {
        if self.error.is_some() {
            return;
        }
        self.mismatch_described("string", struct_name, "[]uint8");
        if let Some(message) = &mut self.error {
            use std::fmt::Write as _;
            let _ = write!(message, ": {error}");
        }
    }

    fn mismatch_described(&mut self, found: &str, struct_name: &str, go_type: &str) {
        if self.error.is_some() {
            return;
        }
        let message = if self.path.is_empty() {
            format!("json: cannot unmarshal {found} into Go value of type {go_type}")
        } else {
            let mut path = String::new();
            for step in &self.path {
                match (step, self.root) {
                    (Step::Field(name), _) => path.push_str(name),
                    (Step::Index(index), Some(_)) => path.push_str(&index.to_string()),
                    (Step::Index(_), None) => continue,
                }
                path.push('.');
            }
            path.pop();
            let struct_name = self.root.unwrap_or(struct_name);
            format!(
                "json: cannot unmarshal {found} into Go struct field {struct_name}.{path} of type {go_type}"
            )
        };
        self.error = Some(message);
    }

    /// Runs `decode` with `field` pushed on the path.
    pub(crate) fn field<T>(
        &mut self,
        field: &'static str,
        decode: impl FnOnce(&mut Self) -> T,
    ) -> T {
        self.path.push(Step::Field(field));
        let result = decode(self);
        self.path.pop();
        result
    }

    /// A Go `string` field.
    pub(crate) fn string(&mut self, value: Value, struct_name: &str) -> String {
        match value {
            Value::String(text) => text,
            Value::Null => String::new(),
            other => {
                self.mismatch(&other, struct_name, "string");
                String::new()
            }
        }
    }

    /// A Go slice field: `None` for null (a nil slice), each element decoded by `item`.
    pub(crate) fn slice<T>(
        &mut self,
        value: Value,
        struct_name: &str,
        go_type: &str,
        mut item: impl FnMut(&mut Self, Value) -> T,
    ) -> Option<Vec<T>> {
        match value {
            Value::Array(items) => Some(
                items
                    .into_iter()
                    .enumerate()
                    .map(|(index, element)| {
                        self.path.push(Step::Index(index));
                        let decoded = item(self, element);
                        self.path.pop();
                        decoded
                    })
                    .collect(),
            ),
            Value::Null => None,
            other => {
                self.mismatch(&other, struct_name, go_type);
                None
            }
        }
    }

    /// A Go struct field or element: the object's entries, or `None` after recording
    /// a mismatch (null decodes to the zero value: an empty entry list).
    pub(crate) fn object(
        &mut self,
        value: Value,
        struct_name: &str,
        go_type: &str,
    ) -> Option<serde_json::Map<String, Value>> {
        match value {
            Value::Object(map) => Some(map),
            Value::Null => Some(serde_json::Map::new()),
            other => {
                self.mismatch(&other, struct_name, go_type);
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_match_like_go() {
        assert_eq!(match_field("Name", &["name", "image"]), Some("name"));
        assert_eq!(match_field("ſchema", &["schema"]), Some("schema"));
        assert_eq!(match_field("nameX", &["name"]), None);
    }

    #[test]
    fn first_mismatch_wins_with_go_text() {
        let mut decoder = GoDecoder::default();
        decoder.field("relatedImages", |d| {
            d.mismatch(&Value::Bool(true), "Bundle", "[]declcfg.RelatedImage");
        });
        decoder.field("image", |d| d.mismatch(&Value::Null, "Bundle", "string"));
        assert_eq!(
            decoder.finish(),
            Err("json: cannot unmarshal bool into Go struct field Bundle.relatedImages of type []declcfg.RelatedImage".to_owned())
        );
    }

    #[test]
    fn rooted_paths_name_the_root_and_indices() {
        let mut decoder = GoDecoder::rooted("Bundle");
        decoder.field("relatedImages", |d| {
            d.slice(
                serde_json::json!([{}, 7]),
                "Bundle",
                "[]declcfg.RelatedImage",
                |d, item| {
                    if !item.is_object() {
                        d.field("name", |d| d.mismatch(&item, "RelatedImage", "string"));
                    }
                },
            )
        });
        assert_eq!(
            decoder.finish(),
            Err("json: cannot unmarshal number into Go struct field Bundle.relatedImages.1.name of type string".to_owned())
        );
    }
}
