//! Placeholder until the `.indexignore` matcher lands: nothing is ignored yet.
#![allow(dead_code, clippy::unused_self)]

pub(crate) struct IndexIgnore;

impl IndexIgnore {
    pub(crate) fn new() -> Self {
        IndexIgnore
    }

    pub(crate) fn add_file(&mut self, _dir: &str, _contents: &str) {}

    pub(crate) fn is_ignored(&self, _path: &str) -> bool {
        false
    }
}
