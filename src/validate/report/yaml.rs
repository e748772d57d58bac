//! `-o yaml`: the JSON report in opm's YAML shape. opm marshals its result with
//! `sigs.k8s.io/yaml`, i.e. Go's JSON encoder and then yaml.v2, the pipeline that
//! `render -o yaml` emulates for each blob; `Fprintln` then adds an empty line.

use super::Outcome;
use crate::codec::node::Node;
use crate::codec::sink::Sink;
use crate::output::yaml::{YamlWriteError, write_value};

/// The report, or yaml.v2's refusal of a string in it (opm then prints nothing,
/// and nothing is written).
pub(crate) fn write(outcome: &Outcome, out: &mut impl Sink) -> Result<(), YamlWriteError> {
    let findings = super::json::findings_each(&outcome.findings);
    write_node(&super::json::report(outcome, &findings), out)
}

/// A report object in opm's YAML shape; nothing is written when it is refused (the
/// whole report is checked before its first byte is written, findings made one at
/// a time on both passes).
pub(crate) fn write_node(node: &Node<'_>, out: &mut impl Sink) -> Result<(), YamlWriteError> {
    write_value(node, out)?;
    out.push(b'\n');
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(message: &str) -> Result<String, YamlWriteError> {
        let outcome = Outcome {
            findings: Vec::new().into(),
            opm_message: Some(message.to_owned().into()),
            passed: false,
        };
        let mut out = Vec::new();
        write(&outcome, &mut out)?;
        Ok(String::from_utf8(out).expect("UTF-8"))
    }

    #[test]
    fn report_shape_matches_opm() {
        assert_eq!(
            report("invalid index:\n└── invalid package \"foo\":\n    └── default channel must be set"),
            Ok("error:\n  message: |-\n    invalid index:\n    └── invalid package \"foo\":\n        └── default channel must be set\nfindings: []\nformatVersion: 1\npassed: false\n\n".to_owned())
        );
    }

    #[test]
    fn styles_and_folding_follow_go_yaml() {
        let message = "package \"foo\" bundle \"foo.v0.2.0\" must have exactly 1 \"olm.package\" property, found 0";
        assert_eq!(
            report(message),
            Ok("error:\n  message: package \"foo\" bundle \"foo.v0.2.0\" must have exactly 1 \"olm.package\" property,\n    found 0\nfindings: []\nformatVersion: 1\npassed: false\n\n".to_owned())
        );
        // A trailing space rules out a literal block: double-quoted and folded.
        let shown = report("invalid index:\n└── heads z \n    └── x").expect("writable");
        assert!(
            shown.contains("message: \"invalid index:\\n└── heads z \\n    └── x\""),
            "{shown}"
        );
        // Characters outside the BMP are escaped, as yaml.v2 does.
        let shown = report("bundle \"a😀\"").expect("writable");
        assert!(shown.contains("\\U0001F600"), "{shown}");
    }

    #[test]
    fn strings_yaml_cannot_hold_fail_as_opm_fails() {
        assert_eq!(
            report("bundle \"a\u{7f}\""),
            Err(YamlWriteError::ControlCharacters)
        );
    }
}
