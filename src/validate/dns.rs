//! Kubernetes' RFC 1123 label check (`k8s.io/apimachinery/pkg/util/validation`
//! `IsDNS1123Label`), which opm applies to package names, with its messages.

const LABEL_MAX_LENGTH: usize = 63;

const LABEL_MESSAGE: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

/// The problems apimachinery reports for `value`; empty when it is a valid label.
pub(crate) fn label_errors(value: &str) -> Vec<&'static str> {
    let mut errors = Vec::new();
    if value.len() > LABEL_MAX_LENGTH {
        errors.push("must be no more than 63 characters");
    }
    if !is_label(value) {
        // A valid subdomain that is not a label can only be one with dots.
        if value.split('.').all(is_label) {
            errors.push("must not contain dots");
        } else {
            errors.push(LABEL_MESSAGE);
        }
    }
    errors
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?`, anchored, with no length limit.
fn is_label(value: &str) -> bool {
    let bytes = value.as_bytes();
    let alphanumeric = |byte: &u8| byte.is_ascii_lowercase() || byte.is_ascii_digit();
    match (bytes.first(), bytes.last()) {
        (Some(first), Some(last)) => {
            alphanumeric(first)
                && alphanumeric(last)
                && bytes.iter().all(|byte| alphanumeric(byte) || *byte == b'-')
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_pass() {
        assert!(label_errors("foo").is_empty());
        assert!(label_errors("a-1").is_empty());
        assert!(label_errors(&"a".repeat(63)).is_empty());
    }

    #[test]
    fn dots_and_other_characters_are_told_apart() {
        assert_eq!(label_errors("foo.bar"), ["must not contain dots"]);
        assert_eq!(label_errors("Foo"), [LABEL_MESSAGE]);
        assert_eq!(label_errors("foo..bar"), [LABEL_MESSAGE]);
        assert_eq!(label_errors("-foo"), [LABEL_MESSAGE]);
    }

    #[test]
    fn long_names_get_both_messages() {
        assert_eq!(
            label_errors(&"a".repeat(64)),
            ["must be no more than 63 characters"]
        );
        let dotted = format!("{}.b", "a".repeat(63));
        assert_eq!(
            label_errors(&dotted),
            [
                "must be no more than 63 characters",
                "must not contain dots"
            ]
        );
    }
}
