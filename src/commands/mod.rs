//! One module per subcommand: arguments -> settings -> core -> output.

pub(crate) mod completions;
pub(crate) mod generate_dockerfile;
pub(crate) mod graph;
pub(crate) mod man;
pub(crate) mod render;
pub(crate) mod upgrade_path;
pub(crate) mod validate;
