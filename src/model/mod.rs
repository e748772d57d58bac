//! The typed FBC model: packages, channels, bundles, deprecations and properties,
//! decoded with Go's rules so that what opm drops or rejects, fbc does too.

pub(crate) mod bundle;
pub(crate) mod channel;
pub(crate) mod deprecation;
pub(crate) mod go_decode;
pub(crate) mod package;
pub(crate) mod property;
pub(crate) mod text;

pub(crate) use bundle::Bundle;
pub(crate) use channel::Channel;
pub(crate) use deprecation::Deprecation;
pub(crate) use package::Package;
pub(crate) use text::Text;
