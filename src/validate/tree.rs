//! opm's validation error tree (`alpha/model/error.go`): a message with nested
//! causes, printed with box-drawing prefixes. fbc builds it only to print the
//! exact text opm would, for `error.message` in the JSON and YAML outputs.

use super::spool::TextSpool;

/// A node with causes, or a plain error text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ErrorTree {
    Node {
        message: String,
        children: Vec<ErrorTree>,
    },
    Leaf(String),
}

impl ErrorTree {
    pub(crate) fn node(message: String) -> ErrorTree {
        ErrorTree::Node {
            message,
            children: Vec::new(),
        }
    }

    pub(crate) fn push(&mut self, child: ErrorTree) {
        if let ErrorTree::Node { children, .. } = self {
            children.push(child);
        }
    }

    pub(crate) fn push_leaf(&mut self, message: String) {
        self.push(ErrorTree::Leaf(message));
    }

    /// opm's `orNil`: a node without causes is no error at all.
    pub(crate) fn or_none(self) -> Option<ErrorTree> {
        match &self {
            ErrorTree::Node { children, .. } if children.is_empty() => None,
            _ => Some(self),
        }
    }

    /// The text opm prints: the tree with `├── `/`└── ` prefixes, trimmed
    /// ([`StreamedRoot`] writes it for a root whose causes come one at a time).
    #[cfg(test)]
    pub(crate) fn render(&self) -> String {
        let mut out = String::new();
        self.render_into("", true, &mut out);
        out.trim().to_owned()
    }

    fn render_into(&self, prefix: &str, last: bool, out: &mut String) {
        let (message, children) = match self {
            ErrorTree::Leaf(text) => {
                out.push_str(prefix);
                out.push_str(text);
                out.push('\n');
                return;
            }
            ErrorTree::Node { message, children } => (message, children),
        };
        out.push_str(prefix);
        out.push_str(message);
        out.push_str(if children.is_empty() { "\n" } else { ":\n" });
        // The parent's own branch marker becomes a vertical bar, or blank when it
        // was the last sibling; the root (no prefix) keeps none.
        let mut base: Vec<char> = prefix.chars().collect();
        if base.len() >= 4 {
            base.truncate(base.len() - 4);
            base.extend(if last { "    " } else { "│   " }.chars());
        }
        let base: String = base.into_iter().collect();
        for (index, child) in children.iter().enumerate() {
            let child_last = index + 1 == children.len();
            let marker = if child_last {
                "└── "
            } else {
                "├── "
            };
            child.render_into(&format!("{base}{marker}"), child_last, out);
        }
    }
}

/// opm's root node with its causes written as text as they come: each cause but
/// the latest is written at once, so the tree of a catalog of many broken packages
/// is never held whole. Without text (`keep_text` false) only whether there are
/// causes is kept.
pub(crate) struct StreamedRoot {
    /// The root's message and the causes written so far.
    text: Option<TextSpool>,
    latest: Option<ErrorTree>,
    /// Where a cause is rendered before it joins the text.
    scratch: String,
}

impl StreamedRoot {
    /// A root whose text (when kept) waits in a temporary file beyond `budget`
    /// bytes.
    pub(crate) fn new(message: &'static str, keep_text: bool, budget: usize) -> StreamedRoot {
        // The root's message starts the text: nothing before it to trim.
        debug_assert!(!message.starts_with(char::is_whitespace));
        StreamedRoot {
            text: keep_text.then(|| {
                let mut text = TextSpool::new(budget);
                text.push_str(&format!("{message}:\n"));
                text
            }),
            latest: None,
            scratch: String::new(),
        }
    }

    pub(crate) fn push(&mut self, cause: ErrorTree) {
        if let (Some(previous), Some(text)) = (self.latest.replace(cause), &mut self.text) {
            self.scratch.clear();
            previous.render_into("├── ", false, &mut self.scratch);
            text.push_str(&self.scratch);
        }
    }

    /// opm's text as [`ErrorTree::render`] writes the whole tree (empty when the
    /// text was not kept); `None` when there is no cause, opm's `orNil`.
    pub(crate) fn finish(mut self) -> Option<TextSpool> {
        let latest = self.latest?;
        let Some(mut text) = self.text else {
            return Some(String::new().into());
        };
        // Only the last cause can end the text with whitespace: it starts with a
        // branch marker.
        self.scratch.clear();
        latest.render_into("└── ", true, &mut self.scratch);
        self.scratch.truncate(self.scratch.trim_end().len());
        text.push_str(&self.scratch);
        Some(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(message: &str, children: Vec<ErrorTree>) -> ErrorTree {
        ErrorTree::Node {
            message: message.to_owned(),
            children,
        }
    }

    fn leaf(message: &str) -> ErrorTree {
        ErrorTree::Leaf(message.to_owned())
    }

    #[test]
    fn renders_like_opm_error_test() {
        let tree = node(
            "hello",
            vec![
                node("foo", vec![leaf("foo1"), leaf("foo2")]),
                node("bar", vec![leaf("bar1"), leaf("bar2")]),
            ],
        );
        assert_eq!(
            tree.render(),
            "hello:\n├── foo:\n│   ├── foo1\n│   └── foo2\n└── bar:\n    ├── bar1\n    └── bar2"
        );
    }

    #[test]
    fn renders_deep_last_branches_with_spaces() {
        let tree = node(
            "invalid index",
            vec![node(
                "invalid package \"foo\"",
                vec![node(
                    "invalid channel \"alpha\"",
                    vec![node("invalid bundle \"b\"", vec![leaf("x"), leaf("y")])],
                )],
            )],
        );
        assert_eq!(
            tree.render(),
            "invalid index:\n└── invalid package \"foo\":\n    └── invalid channel \"alpha\":\n        └── invalid bundle \"b\":\n            ├── x\n            └── y"
        );
    }

    /// Causes written as they come read as the whole tree rendered.
    #[test]
    fn a_streamed_root_renders_as_the_tree() {
        let causes = [
            node("foo", vec![leaf("foo1"), node("deep", vec![leaf("d")])]),
            leaf("plain "),
            node("bar", vec![leaf("bar1"), leaf("bar2")]),
        ];
        for count in 0..=causes.len() {
            let mut streamed = StreamedRoot::new("invalid index", true, usize::MAX);
            let mut spilled = StreamedRoot::new("invalid index", true, 0);
            let mut verdict = StreamedRoot::new("invalid index", false, usize::MAX);
            for cause in &causes[..count] {
                streamed.push(cause.clone());
                spilled.push(cause.clone());
                verdict.push(cause.clone());
            }
            let whole = node("invalid index", causes[..count].to_vec());
            let expected = whole.or_none().map(|tree| tree.render());
            assert_eq!(verdict.finish().is_some(), expected.is_some());
            assert_eq!(streamed.finish().map(|text| text.text()), expected);
            assert_eq!(spilled.finish().map(|text| text.text()), expected);
        }
    }

    #[test]
    fn childless_nodes_are_no_error() {
        assert_eq!(node("empty", Vec::new()).or_none(), None);
        assert!(node("full", vec![leaf("x")]).or_none().is_some());
    }
}
