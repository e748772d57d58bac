//! The report of `fbc diff` in each of its formats: text for people, markdown
//! for a pull request's job summary, JSON for tools (`schemas/diff.schema.json`).

pub(crate) mod json;
pub(crate) mod markdown;
pub(crate) mod text;
