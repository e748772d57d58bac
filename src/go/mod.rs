//! Go behaviour that leaks into opm's output and messages, in one place for the
//! reader and the writers: string quoting and `fmt` value printing, numbers as
//! `strconv` and `encoding/json` print a `float64`, base64,
//! `encoding/json`'s kind names, `sort.Slice`'s order of equal elements,
//! `text/tabwriter`, blang/semver's versions and ranges, and yaml.v2's resolve
//! table and timestamps.

pub(crate) mod base64;
pub(crate) mod fmt;
pub(crate) mod number;
pub(crate) mod semver;
pub(crate) mod sort;
pub(crate) mod tabwriter;
pub(crate) mod timestamp;
pub(crate) mod yaml_v2;

/// The name `encoding/json` gives a JSON value's kind in `cannot unmarshal <kind>`.
pub(crate) fn json_kind(value: &serde_json::Value) -> &'static str {
    use serde_json::Value;
    match value {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}
