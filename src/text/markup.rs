//! Text inside XML and HTML documents (content and quoted attributes).

use std::fmt::Write as _;

/// `text` for XML or HTML: markup characters as entities, control characters
/// shown as escapes (as in text output), and the two non-characters XML forbids
/// escaped too, so that no name can end an element or make the document invalid.
pub(crate) fn escape(text: &str) -> String {
    let shown = super::shown::text(text);
    let mut out = String::with_capacity(shown.len());
    for character in shown.chars() {
        match character {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\u{FFFE}' | '\u{FFFF}' => {
                let _ = write!(out, "{}", character.escape_unicode());
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn markup_control_characters_and_non_characters_are_escaped() {
        assert_eq!(
            super::escape("a<b>&\"c\"\u{1b}\n\u{FFFF}"),
            "a&lt;b&gt;&amp;&quot;c&quot;\\u{1b}\\n\\u{ffff}"
        );
    }
}
