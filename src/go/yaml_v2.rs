//! yaml.v2's resolve table (`resolve.go`): the scalars it looks up by name, YAML
//! 1.1's booleans, nulls and special floats. The reader resolves plain scalars
//! with it; the writer quotes strings that it would read back as something else.
//! (The table also holds the merge key `<<`, which both handle on their own.)

/// What a named scalar resolves to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Named {
    Bool(bool),
    Null,
    Float(f64),
}

/// The value yaml.v2's table gives `text`, if it is one of its names.
pub(crate) fn named(text: &str) -> Option<Named> {
    Some(match text {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            Named::Bool(true)
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            Named::Bool(false)
        }
        "" | "~" | "null" | "Null" | "NULL" => Named::Null,
        ".nan" | ".NaN" | ".NAN" => Named::Float(f64::NAN),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => Named::Float(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => Named::Float(f64::NEG_INFINITY),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_yaml_1_1_spelling_and_no_other() {
        assert_eq!(named("Yes"), Some(Named::Bool(true)));
        assert_eq!(named("OFF"), Some(Named::Bool(false)));
        assert_eq!(named(""), Some(Named::Null));
        assert_eq!(named("~"), Some(Named::Null));
        assert_eq!(named("-.Inf"), Some(Named::Float(f64::NEG_INFINITY)));
        assert!(matches!(named(".NaN"), Some(Named::Float(nan)) if nan.is_nan()));
        for text in ["yEs", "tRUE", "oN", "nil", "NaN", "inf", "<<"] {
            assert_eq!(named(text), None, "{text}");
        }
    }
}
