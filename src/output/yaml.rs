//! Placeholder until the YAML writer lands.

use super::node::Node;

#[derive(Debug, thiserror::Error)]
pub(crate) enum YamlWriteError {
    #[error("yaml output is not supported yet")]
    Unsupported,
}

pub(crate) fn write_document(_node: &Node<'_>, _out: &mut Vec<u8>) -> Result<(), YamlWriteError> {
    Err(YamlWriteError::Unsupported)
}

pub(crate) fn check(_node: &Node<'_>) -> Result<(), YamlWriteError> {
    Err(YamlWriteError::Unsupported)
}
