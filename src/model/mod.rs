//! The typed FBC model: packages, channels, bundles, deprecations and properties.
