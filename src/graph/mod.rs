//! The upgrade graph of a catalog: its edges (`replaces`, `skips`, `skipRange`),
//! the channels a graph draws, the mermaid, dot, SVG and JSON writers, and the upgrade
//! successors OLM classic and OLM v1 pick.

pub(crate) mod deprecations;
pub(crate) mod dot;
pub(crate) mod edges;
pub(crate) mod error;
pub(crate) mod json;
pub(crate) mod mermaid;
pub(crate) mod selection;
pub(crate) mod svg;
pub(crate) mod upgrade;
pub(crate) mod versions;

#[cfg(test)]
mod testing;
