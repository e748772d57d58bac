//! `-o github`: one GitHub Actions workflow command per finding
//! (`::error file=...,line=...,col=...,title=<rule>::<message>`), which the
//! runner turns into annotations on the pull request.

use std::fmt::Write as _;

use super::{display_path, subject};
use crate::codec::sink::Sink;
use crate::text::shown::Form;
use crate::validate::{Finding, Severity};

/// The workflow command of a finding.
pub(crate) fn write(finding: &Finding, out: &mut impl Sink) {
    let command = match finding.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let mut properties = Vec::new();
    if let Some(location) = finding.locations.first() {
        properties.push(format!(
            "file={}",
            escape_property(&display_path(&location.file, Form::Data))
        ));
        properties.push(format!("line={}", location.line));
        properties.push(format!("col={}", location.column));
    }
    properties.push(format!("title={}", escape_property(finding.rule.id())));
    let mut message = finding.message().to_owned();
    let mut about = subject(finding);
    if let Some(catalog) = finding.catalog() {
        about = if about.is_empty() {
            format!("catalog {catalog}")
        } else {
            format!("catalog {catalog}, {about}")
        };
    }
    if !about.is_empty() {
        message = format!("{about}: {message}");
    }
    for location in finding.locations.iter().skip(1) {
        let _ = write!(message, "\nsee also {}", super::display_location(location));
    }
    if let Some(help) = finding.help_text() {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    let line = format!(
        "::{command} {}::{}\n",
        properties.join(","),
        escape_data(&message)
    );
    out.extend_from_slice(line.as_bytes());
}

/// The runner's escaping of a command's message.
fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// The runner's escaping of a property value, which also reserves `:` and `,`.
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_follow_the_runner() {
        assert_eq!(escape_data("50%\r\ndone: a,b"), "50%25%0D%0Adone: a,b");
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    }
}
