//! Placeholder until the YAML 1.1 reader lands: YAML documents are not decoded yet.
#![allow(dead_code, clippy::unused_self)]

use serde_json::Value;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub(crate) enum YamlError {
    #[error("{message}")]
    Syntax {
        message: String,
        line: Option<usize>,
        column: Option<usize>,
    },
    #[error("content after the first node")]
    TrailingContent { line: usize, column: usize },
}

pub(crate) fn document_to_json(_text: &str) -> Result<Option<Value>, YamlError> {
    Err(YamlError::Syntax {
        message: "YAML is not supported yet".to_owned(),
        line: None,
        column: None,
    })
}
