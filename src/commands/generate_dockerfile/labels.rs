//! `--extra-labels` values as opm reads them: each value is one CSV record (pflag's
//! string slices go through Go's `encoding/csv`), each field a `key=value` label.

use std::collections::BTreeMap;

/// Why a `--extra-labels` value could not be read.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum LabelError {
    /// The value is not a valid CSV record; carries Go's parse error text.
    Syntax { value: String, message: String },
    /// A field has no `=`.
    NoEquals { label: String },
}

/// All labels of all values; a later duplicate key replaces the earlier value, as in opm.
pub(crate) fn parse_labels(values: &[String]) -> Result<BTreeMap<String, String>, LabelError> {
    let mut labels = BTreeMap::new();
    for value in values {
        let fields = split_record(value).map_err(|message| LabelError::Syntax {
            value: value.clone(),
            message,
        })?;
        for field in fields {
            let Some((key, label_value)) = field.split_once('=') else {
                return Err(LabelError::NoEquals { label: field });
            };
            labels.insert(key.to_owned(), label_value.to_owned());
        }
    }
    Ok(labels)
}

/// The first CSV record of `value` (comma-separated, `"`-quoted fields with `""` for a
/// quote), or Go's error text. An empty value is no field at all, as in pflag.
fn split_record(value: &str) -> Result<Vec<String>, String> {
    // Go's reader skips empty lines before the record and stops after its first line
    // (unless a quoted field spans lines), with `\r\n` read as `\n`.
    let text = value.replace("\r\n", "\n");
    let text = text.as_str();
    let mut fields = Vec::new();
    let mut rest = text.trim_start_matches('\n');
    if rest.is_empty() {
        return Ok(fields);
    }
    loop {
        let (field, after) = if let Some(quoted) = rest.strip_prefix('"') {
            quoted_field(quoted, text)?
        } else {
            plain_field(rest, text)?
        };
        fields.push(field);
        match after {
            Some(next) => rest = next,
            None => return Ok(fields),
        }
    }
}

/// A field without quotes up to the next comma; `None` when the record ends with it.
fn plain_field<'a>(rest: &'a str, text: &str) -> Result<(String, Option<&'a str>), String> {
    let end = rest.find([',', '\n']).unwrap_or(rest.len());
    let field = &rest[..end];
    if let Some(quote) = field.find('"') {
        return Err(parse_error(
            text,
            rest,
            quote,
            "bare \" in non-quoted-field",
        ));
    }
    let after = rest[end..].strip_prefix(',');
    Ok((field.to_owned(), after))
}

/// A field after its opening quote, up to the closing quote and the comma after it.
fn quoted_field<'a>(mut rest: &'a str, text: &str) -> Result<(String, Option<&'a str>), String> {
    let mut field = String::new();
    loop {
        let Some(quote) = rest.find('"') else {
            return Err(parse_error(
                text,
                "",
                0,
                "extraneous or missing \" in quoted-field",
            ));
        };
        field.push_str(&rest[..quote]);
        let after = &rest[quote + 1..];
        if let Some(next) = after.strip_prefix('"') {
            field.push('"');
            rest = next;
        } else if let Some(next) = after.strip_prefix(',') {
            return Ok((field, Some(next)));
        } else if after.is_empty() || after.starts_with('\n') {
            return Ok((field, None));
        } else {
            let closing = &rest[quote..];
            return Err(parse_error(
                text,
                closing,
                0,
                "extraneous or missing \" in quoted-field",
            ));
        }
    }
}

/// Go's `ParseError` text for a problem at byte `offset` of `rest` (a suffix of `text`):
/// lines count from the start of the value, columns are 1-based bytes within the line,
/// and the record's own first line is named when the problem is on a later one.
fn parse_error(text: &str, rest: &str, offset: usize, problem: &str) -> String {
    let position = text.len() - rest.len() + offset;
    let before = &text[..position];
    let line = before.matches('\n').count() + 1;
    let column = position - before.rfind('\n').map_or(0, |newline| newline + 1) + 1;
    let record_line = text.len() - text.trim_start_matches('\n').len() + 1;
    if record_line == line {
        format!("parse error on line {line}, column {column}: {problem}")
    } else {
        format!(
            "record on line {record_line}; parse error on line {line}, column {column}: {problem}"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(values: &[&str]) -> Result<Vec<(String, String)>, LabelError> {
        let values: Vec<String> = values.iter().map(|value| (*value).to_owned()).collect();
        parse_labels(&values).map(|labels| labels.into_iter().collect())
    }

    fn pairs(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(key, value)| ((*key).to_owned(), (*value).to_owned()))
            .collect()
    }

    #[test]
    fn repeated_and_comma_separated_values_combine_and_the_last_duplicate_wins() {
        assert_eq!(
            labels(&["b=1,a=2", "b=3", "", "c=x=y", "d="]),
            Ok(pairs(&[("a", "2"), ("b", "3"), ("c", "x=y"), ("d", "")]))
        );
    }

    #[test]
    fn quoted_fields_may_hold_commas_and_doubled_quotes() {
        assert_eq!(
            labels(&[r#""desc=a, b","q=say ""hi""""#]),
            Ok(pairs(&[("desc", "a, b"), ("q", "say \"hi\"")]))
        );
    }

    #[test]
    fn a_field_without_equals_is_an_invalid_label() {
        assert_eq!(
            labels(&["a=1, b"]),
            Err(LabelError::NoEquals {
                label: " b".to_owned()
            })
        );
        assert_eq!(
            labels(&["a=1,"]),
            Err(LabelError::NoEquals {
                label: String::new()
            })
        );
    }

    #[test]
    fn misplaced_quotes_are_csv_errors_with_their_column() {
        let error = |value: &str| match labels(&[value]) {
            Err(LabelError::Syntax { message, .. }) => message,
            other => panic!("{value}: {other:?}"),
        };
        assert_eq!(
            error(r#"a=1,k="v""#),
            "parse error on line 1, column 7: bare \" in non-quoted-field"
        );
        assert_eq!(
            error(r#""k=v"x"#),
            "parse error on line 1, column 5: extraneous or missing \" in quoted-field"
        );
        assert_eq!(
            error("\n\"k=v"),
            "parse error on line 2, column 5: extraneous or missing \" in quoted-field"
        );
        assert_eq!(
            error("\"a=1\nb"),
            "record on line 1; parse error on line 2, column 2: extraneous or missing \" in quoted-field"
        );
    }

    #[test]
    fn only_the_first_line_counts() {
        assert_eq!(labels(&["\na=1\nb=2"]), Ok(pairs(&[("a", "1")])));
        assert_eq!(
            labels(&["\"a=1\nb\",c=2"]),
            Ok(pairs(&[("a", "1\nb"), ("c", "2")]))
        );
    }
}
