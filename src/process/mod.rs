//! The process itself: signals that leave nothing half-made behind, and threads
//! with stacks deep enough for the deepest values fbc accepts.

pub(crate) mod interrupt;
pub(crate) mod stack;
