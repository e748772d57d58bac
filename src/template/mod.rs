//! Catalog templates, as `opm alpha render-template` renders them (spec §10): the
//! basic, semver and substitutes types, type detection from the `schema` field, and
//! the bundle images they name, rendered through a [`BundleRenderer`] so that pulls
//! can run in parallel before the template is put together in opm's order.

mod basic;
pub(crate) mod convert;
mod decode;
pub(crate) mod drift;
pub(crate) mod images;
mod semver;
mod substitutes;

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use serde_json::Value;

use crate::catalog::{Catalog, Location};
use crate::model::Bundle;

/// The template types opm registers, by the last segment of their schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TemplateType {
    Basic,
    Semver,
    Substitutes,
}

impl TemplateType {
    /// opm's `GetSupportedTypes`, sorted.
    pub(crate) const NAMES: &'static str = "[basic semver substitutes]";

    pub(crate) fn from_name(name: &str) -> Option<TemplateType> {
        match name {
            "basic" => Some(TemplateType::Basic),
            "semver" => Some(TemplateType::Semver),
            "substitutes" => Some(TemplateType::Substitutes),
            _ => None,
        }
    }

    fn from_schema(schema: &str) -> Option<TemplateType> {
        match schema {
            "olm.template.basic" => Some(TemplateType::Basic),
            "olm.semver" => Some(TemplateType::Semver),
            "olm.template.substitutes" => Some(TemplateType::Substitutes),
            _ => None,
        }
    }
}

/// Why a template could not be rendered: opm's message (without `Error: `), and
/// where in the template it is, when fbc knows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TemplateError {
    pub(crate) message: String,
    /// A byte offset in the template text.
    pub(crate) at: Option<usize>,
}

impl TemplateError {
    pub(crate) fn new(message: impl Into<String>) -> TemplateError {
        TemplateError {
            message: message.into(),
            at: None,
        }
    }

    fn at(mut self, at: Option<usize>) -> TemplateError {
        self.at = self.at.or(at);
        self
    }

    fn prefixed(mut self, prefix: &str) -> TemplateError {
        self.message.insert_str(0, prefix);
        self
    }
}

/// A bundle image rendered as opm renders a template's bundle reference (spec
/// §10.2): the `olm.bundle` blob (post-processed and migrated) and its CSV.
#[derive(Debug, Clone)]
pub(crate) struct RenderedBundle {
    pub(crate) bundle: Bundle,
    pub(crate) csv: Option<Value>,
}

/// Renders bundle image references. Every reference a template needs is asked for
/// in one call, in the order opm would render them, so an implementation may fetch
/// them all at once; each result is the bundle or opm's whole error text
/// (`render reference "<ref>": ...`).
pub(crate) trait BundleRenderer {
    fn render_all(&self, references: &[&str]) -> Vec<Result<Arc<RenderedBundle>, String>>;
}

/// Rendered bundles by reference, looked up in opm's order.
struct Rendered {
    by_reference: HashMap<String, Result<Arc<RenderedBundle>, String>>,
}

impl Rendered {
    fn fetch(renderer: &dyn BundleRenderer, references: &[&str]) -> Rendered {
        let mut unique: Vec<&str> = Vec::with_capacity(references.len());
        let mut seen = std::collections::HashSet::new();
        for reference in references {
            if seen.insert(*reference) {
                unique.push(reference);
            }
        }
        let results = renderer.render_all(&unique);
        Rendered {
            by_reference: unique
                .iter()
                .map(|reference| (*reference).to_owned())
                .zip(results)
                .collect(),
        }
    }

    fn get(&self, reference: &str) -> Result<Arc<RenderedBundle>, String> {
        self.by_reference
            .get(reference)
            .cloned()
            .unwrap_or_else(|| {
                Err(format!(
                    "render reference {}: not rendered",
                    crate::go::fmt::quote(reference)
                ))
            })
    }
}

/// The template's type: the one given, or the one its first document's `schema`
/// names (opm's `auto-detecting template type: ` errors otherwise).
pub(crate) fn template_type(
    given: Option<TemplateType>,
    text: &str,
) -> Result<TemplateType, TemplateError> {
    if let Some(given) = given {
        return Ok(given);
    }
    let schema = decode::detect_schema(text)
        .map_err(|error| error.prefixed("auto-detecting template type: "))?;
    TemplateType::from_schema(&schema).ok_or_else(|| {
        TemplateError::new(format!(
            "auto-detecting template type: unknown template schema: {schema}"
        ))
    })
}

/// Renders a template of the given type; errors read as opm's after
/// `rendering template: `.
pub(crate) fn render(
    kind: TemplateType,
    text: &str,
    file: &Path,
    renderer: &dyn BundleRenderer,
) -> Result<Catalog, TemplateError> {
    let source = Source {
        text,
        file: crate::catalog::shared_path(file),
    };
    let catalog = match kind {
        TemplateType::Basic => basic::render(&source, renderer),
        TemplateType::Semver => semver::render(&source, renderer),
        TemplateType::Substitutes => substitutes::render(&source, renderer),
    };
    catalog.map_err(|error| error.prefixed("rendering template: "))
}

/// The template being rendered: its text, for locating problems, and its name.
struct Source<'a> {
    text: &'a str,
    file: crate::catalog::SharedPath,
}

impl Source<'_> {
    /// Where generated blobs say they come from: the template itself.
    fn location(&self, at: Option<usize>) -> Location {
        let (line, column) = at.map_or((1, 1), |offset| {
            let before = &self.text[..offset.min(self.text.len())];
            let line_start = before.rfind('\n').map_or(0, |index| index + 1);
            (
                before.matches('\n').count() + 1,
                before[line_start..].chars().count() + 1,
            )
        });
        Location::new(&self.file, line, column)
    }

    /// The first place `needle` is written in the template, quoted or not: good
    /// enough to point at a bundle reference or a name that an error is about.
    fn find(&self, needle: &str) -> Option<usize> {
        if needle.is_empty() {
            return None;
        }
        self.text.find(needle)
    }
}

/// opm's `LoadSlice` over a template's entries: each read as a catalog document and
/// dispatched by schema, the first failure returned as opm words it.
fn load_entries(
    source: &Source<'_>,
    entries: Vec<Option<serde_json::Value>>,
) -> Result<Catalog, TemplateError> {
    let mut catalog = Catalog::default();
    for (index, entry) in entries.into_iter().enumerate() {
        // opm dereferences the nil pointer a `null` entry leaves and panics.
        let Some(entry) = entry else {
            return Err(TemplateError::new(format!(
                "entry {index} is null, which opm cannot load (it panics with a nil pointer dereference)"
            )));
        };
        catalog
            .push_value(entry, source.location(None))
            .map_err(TemplateError::new)?;
    }
    Ok(catalog)
}

#[cfg(test)]
mod tests;
