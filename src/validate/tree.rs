//! opm's validation error tree (`alpha/model/error.go`): a message with nested
//! causes, printed with box-drawing prefixes. fbc builds it only to print the
//! exact text opm would, for `error.message` in the JSON and YAML outputs.

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

    /// The text opm prints: the tree with `├── `/`└── ` prefixes, trimmed.
    pub(crate) fn render(&self) -> String {
        let mut out = String::new();
        self.render_into("", true, &mut out);
        // Trimmed in place: the tree of a catalog of many broken packages is long.
        out.truncate(out.trim_end().len());
        let start = out.len() - out.trim_start().len();
        out.drain(..start);
        out
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

    #[test]
    fn childless_nodes_are_no_error() {
        assert_eq!(node("empty", Vec::new()).or_none(), None);
        assert!(node("full", vec![leaf("x")]).or_none().is_some());
    }
}
