//! The type checks of apimachinery's `FromUnstructured`, which opm runs to turn the
//! CSV manifest into its typed `ClusterServiceVersion` (type and object metadata,
//! raw spec). Keys match exactly, fields are visited in struct order and the first
//! mismatch is reported with the converter's message (`cannot convert int64 to
//! string`, `unrecognized type: string`, `cannot restore map from slice`, ...).

use serde_json::{Map, Value};

/// What a field converts into.
#[derive(Clone, Copy)]
enum Target {
    Str,
    Int64,
    Bool,
    /// `metav1.Time`, read through its JSON decoder.
    Time,
    StringMap,
    Strings,
    /// A slice of structs with these fields.
    Structs(&'static [(&'static str, Target)]),
    /// Anything (`FieldsV1` keeps raw JSON).
    Any,
}

const OWNER_REFERENCE: &[(&str, Target)] = &[
    ("apiVersion", Target::Str),
    ("kind", Target::Str),
    ("name", Target::Str),
    ("uid", Target::Str),
    ("controller", Target::Bool),
    ("blockOwnerDeletion", Target::Bool),
];

const MANAGED_FIELDS_ENTRY: &[(&str, Target)] = &[
    ("manager", Target::Str),
    ("operation", Target::Str),
    ("apiVersion", Target::Str),
    ("time", Target::Time),
    ("fieldsType", Target::Str),
    ("fieldsV1", Target::Any),
    ("subresource", Target::Str),
];

/// `metav1.ObjectMeta` in declaration order.
const OBJECT_META: &[(&str, Target)] = &[
    ("name", Target::Str),
    ("generateName", Target::Str),
    ("namespace", Target::Str),
    ("selfLink", Target::Str),
    ("uid", Target::Str),
    ("resourceVersion", Target::Str),
    ("generation", Target::Int64),
    ("creationTimestamp", Target::Time),
    ("deletionTimestamp", Target::Time),
    ("deletionGracePeriodSeconds", Target::Int64),
    ("labels", Target::StringMap),
    ("annotations", Target::StringMap),
    ("ownerReferences", Target::Structs(OWNER_REFERENCE)),
    ("finalizers", Target::Strings),
    ("managedFields", Target::Structs(MANAGED_FIELDS_ENTRY)),
];

/// Checks that opm can convert the CSV object; the error is the converter's.
pub(crate) fn check_csv(object: &Map<String, Value>) -> Result<(), String> {
    // The inlined `TypeMeta` (kind, then apiVersion), then `metadata`; the raw
    // spec takes any JSON.
    for field in ["kind", "apiVersion"] {
        if let Some(value) = object.get(field) {
            convert(value, Target::Str)?;
        }
    }
    match object.get("metadata") {
        None | Some(Value::Null) => Ok(()),
        Some(Value::Object(metadata)) => check_struct(metadata, OBJECT_META),
        Some(other) => Err(format!("cannot restore struct from: {}", go_kind(other))),
    }
}

fn check_struct(map: &Map<String, Value>, fields: &[(&str, Target)]) -> Result<(), String> {
    for (name, target) in fields {
        if let Some(value) = map.get(*name) {
            convert(value, *target)?;
        }
    }
    Ok(())
}

/// The `reflect.Kind` of a decoded JSON value, as the converter names it.
fn go_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "invalid",
        Value::Bool(_) => "bool",
        Value::Number(number) if number.is_f64() => "float64",
        Value::Number(_) => "int64",
        Value::String(_) => "string",
        Value::Array(_) => "slice",
        Value::Object(_) => "map",
    }
}

fn convert(value: &Value, target: Target) -> Result<(), String> {
    if value.is_null() {
        return Ok(());
    }
    match (target, value) {
        (Target::Any, _)
        | (Target::Str | Target::Time, Value::String(_))
        | (Target::Bool, Value::Bool(_)) => Ok(()),
        // Only integers convert to strings (Go's `string(rune)`), and the
        // converter refuses that too.
        (Target::Str, Value::Number(number)) if !number.is_f64() => {
            Err("cannot convert int64 to string".to_owned())
        }
        (Target::Str, _) => Err("unrecognized type: string".to_owned()),
        (Target::Bool, _) => Err("unrecognized type: bool".to_owned()),
        (Target::Int64, Value::Number(number)) => match number.as_f64() {
            Some(float) if number.is_f64() && float.fract() != 0.0 => {
                Err("cannot convert float64 to int64".to_owned())
            }
            _ => Ok(()),
        },
        (Target::Int64, _) => Err("unrecognized type: int64".to_owned()),
        (Target::Time, other) => Err(format!(
            "json: cannot unmarshal {} into Go value of type string",
            crate::go::json_kind(other)
        )),
        (Target::StringMap, Value::Object(map)) => {
            map.values().try_for_each(|item| convert(item, Target::Str))
        }
        (Target::StringMap, other) => Err(format!("cannot restore map from {}", go_kind(other))),
        (Target::Strings, Value::Array(items)) => {
            items.iter().try_for_each(|item| convert(item, Target::Str))
        }
        (Target::Structs(fields), Value::Array(items)) => {
            items.iter().try_for_each(|item| match item {
                Value::Null => Ok(()),
                Value::Object(map) => check_struct(map, fields),
                other => Err(format!("cannot restore struct from: {}", go_kind(other))),
            })
        }
        (Target::Strings | Target::Structs(_), other) => {
            Err(format!("cannot restore slice from {}", go_kind(other)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(value: &Value) -> Result<(), String> {
        check_csv(value.as_object().expect("an object"))
    }

    #[test]
    fn accepts_well_typed_metadata() {
        let csv = json!({"apiVersion": "operators.coreos.com/v1alpha1", "kind": "ClusterServiceVersion",
            "metadata": {"name": "a", "generation": 2.0, "creationTimestamp": null,
                "annotations": {"a": "b", "c": null}, "finalizers": ["x"],
                "ownerReferences": [{"name": "o", "controller": true}], "Annotations": 1}});
        assert_eq!(check(&csv), Ok(()));
    }

    #[test]
    fn reports_the_converters_messages_in_field_order() {
        let cases = [
            (
                json!({"metadata": {"name": 1}}),
                "cannot convert int64 to string",
            ),
            (
                json!({"metadata": {"name": 1.5, "labels": 1}}),
                "unrecognized type: string",
            ),
            (
                json!({"metadata": {"annotations": {"a": true}}}),
                "unrecognized type: string",
            ),
            (
                json!({"metadata": {"labels": ["a"]}}),
                "cannot restore map from slice",
            ),
            (
                json!({"metadata": {"generation": 1.5}}),
                "cannot convert float64 to int64",
            ),
            (
                json!({"metadata": {"generation": "1"}}),
                "unrecognized type: int64",
            ),
            (
                json!({"metadata": {"finalizers": "a"}}),
                "cannot restore slice from string",
            ),
            (
                json!({"metadata": {"ownerReferences": [1]}}),
                "cannot restore struct from: int64",
            ),
            (
                json!({"metadata": "x"}),
                "cannot restore struct from: string",
            ),
            (
                json!({"metadata": {"creationTimestamp": 1}}),
                "json: cannot unmarshal number into Go value of type string",
            ),
            (
                json!({"apiVersion": 1, "metadata": {"name": 1.5}}),
                "cannot convert int64 to string",
            ),
        ];
        for (csv, message) in cases {
            assert_eq!(check(&csv), Err(message.to_owned()), "{csv}");
        }
    }
}
