//! The registry API's messages and server stubs, generated at build time from
//! `proto/registry.proto`, and its descriptors for server reflection.

#![allow(clippy::all, clippy::pedantic, missing_docs)]

tonic::include_proto!("api");

/// The encoded `FileDescriptorSet` of `proto/registry.proto` and its imports.
pub(crate) const DESCRIPTORS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/registry.bin"));
