//! One module per subcommand: arguments -> settings -> core -> output.

pub(crate) mod render;
