//! What the builder makes of finished nodes, by yaml.v2's rules: a mapping
//! key's text, a node's JSON value (numbers as float64 unless asked otherwise,
//! NaN and infinities marked until Go's `json.Marshal` would refuse them), and
//! yaml.v2's allowed share of aliased decodes.

use serde_json::{Number, Value};

use super::{Failure, NON_FINITE, Node, Slot};
use crate::codec::yaml::keys::{self, Key};
use crate::codec::yaml::resolve::{Scalar, exact};

/// The slot a key node leaves: its text, or why it cannot be a JSON key.
pub(super) fn key(
    node: Node<'_>,
    error: &mut Option<Failure>,
    position: impl FnOnce() -> (usize, usize),
) -> Slot {
    match node {
        Node::Scalar(scalar) => match keys::scalar_key(scalar) {
            Key::Text(key) => Slot::Key(key),
            Key::Unsupported { type_name, text } => Slot::Unsupported { type_name, text },
        },
        Node::Sequence(value) | Node::Mapping(value) => {
            if error.is_none() {
                let (line, column) = position();
                let detail = format!("invalid map key: {}", keys::go_syntax(&value, true));
                *error = Some(Failure {
                    detail,
                    line,
                    column,
                });
            }
            Slot::Broken
        }
    }
}

/// A node as JSON: every number is a `float64`, as after opm's JSON round trip,
/// unless `integers` keeps integers exact.
#[allow(clippy::cast_precision_loss)] // rounding to the nearest float64 is what Go does
pub(super) fn to_value(node: Node<'_>, integers: bool, non_finite: &mut bool) -> Value {
    match node {
        Node::Scalar(Scalar::Null) => Value::Null,
        Node::Scalar(Scalar::Bool(value)) => Value::Bool(value),
        Node::Scalar(Scalar::Int(value)) if integers => Value::Number(value.into()),
        Node::Scalar(Scalar::Uint(value)) if integers => Value::Number(value.into()),
        Node::Scalar(Scalar::Int(value)) => float(value as f64, non_finite),
        Node::Scalar(Scalar::Uint(value)) => float(value as f64, non_finite),
        Node::Scalar(Scalar::Float(value)) => float(value, non_finite),
        Node::Scalar(Scalar::Str(text)) => Value::String(exact(text)),
        Node::Sequence(value) | Node::Mapping(value) => value,
    }
}

pub(super) fn float(value: f64, non_finite: &mut bool) -> Value {
    if let Some(number) = Number::from_f64(value) {
        Value::Number(number)
    } else {
        *non_finite = true;
        // Go's `strconv.FormatFloat(f, 'g', -1, 64)` names.
        let name = if value.is_nan() {
            "NaN"
        } else if value > 0.0 {
            "+Inf"
        } else {
            "-Inf"
        };
        Value::String(format!("{NON_FINITE}{name}"))
    }
}

#[allow(clippy::cast_precision_loss)] // yaml.v2 compares these as float64 too
pub(super) fn ratio(aliased: u64, decodes: u64) -> f64 {
    aliased as f64 / decodes as f64
}

/// yaml.v2's `allowedAliasRatio`: 99% of decode steps may come from aliases up to
/// 400,000 steps, scaling down to 10% at 4,000,000.
#[allow(clippy::cast_precision_loss)]
pub(super) fn allowed_alias_ratio(decodes: u64) -> f64 {
    const LOW: u64 = 400_000;
    const HIGH: u64 = 4_000_000;
    if decodes <= LOW {
        0.99
    } else if decodes >= HIGH {
        0.10
    } else {
        0.99 - 0.89 * ((decodes - LOW) as f64 / (HIGH - LOW) as f64)
    }
}

/// The first NaN or infinity in Go's `json.Marshal` order (map keys sorted), named as
/// its error names it.
pub(crate) fn first_non_finite(root: &Value) -> Option<&str> {
    let mut pending = vec![root];
    while let Some(value) = pending.pop() {
        match value {
            Value::String(text) => {
                if let Some(name) = text.strip_prefix(NON_FINITE) {
                    return Some(name);
                }
            }
            Value::Array(items) => pending.extend(items.iter().rev()),
            Value::Object(map) => pending.extend(map.values().rev()),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alias_ratio_matches_yaml_v2_at_the_edges() {
        assert!((allowed_alias_ratio(1_000) - 0.99).abs() < f64::EPSILON);
        assert!((allowed_alias_ratio(4_000_000) - 0.10).abs() < f64::EPSILON);
        assert!((allowed_alias_ratio(2_200_000) - 0.545).abs() < 1e-9);
    }

    #[test]
    fn non_finite_values_are_found_in_sorted_key_order() {
        let value = serde_json::json!({
            "b": format!("{NON_FINITE}NaN"),
            "a": [1, format!("{NON_FINITE}-Inf")],
        });
        assert_eq!(first_non_finite(&value), Some("-Inf"));
    }
}
