//! The basic template (`olm.template.basic`, spec §10.3): catalog blobs passed
//! through as they are, each `olm.bundle` given as an image reference alone and
//! replaced, in place, by the bundle rendered from that image.

use super::decode::{self, Shape};
use super::{BundleRenderer, Rendered, Source, TemplateError, load_entries};
use crate::catalog::{Catalog, Located};
use crate::go::fmt::quote;
use crate::model::Bundle;

const SCHEMA: &str = "olm.template.basic";

pub(super) fn render(
    source: &Source<'_>,
    renderer: &dyn BundleRenderer,
) -> Result<Catalog, TemplateError> {
    let shape = Shape {
        go_struct: "BasicTemplateData",
        go_package: "basic",
        substitutions: false,
    };
    let template = decode::entries_template(source.text, &shape)?;
    if template.schema != SCHEMA {
        return Err(TemplateError::new(format!(
            "template has unknown schema ({}), should be {}",
            quote(&template.schema),
            quote(SCHEMA)
        )));
    }
    let mut catalog = load_entries(source, template.entries)?;
    // opm renders bundle after bundle and stops at the first that is more than an
    // image: nothing after it is fetched.
    let references: Vec<&str> = catalog
        .bundles
        .iter()
        .take_while(|bundle| image_only(&bundle.item))
        .map(|bundle| bundle.item.image.as_str())
        .collect();
    let fetched = Rendered::fetch(renderer, &references);
    let mut bundles = Vec::with_capacity(catalog.bundles.len());
    for entry in &catalog.bundles {
        let at = source.find(&entry.item.image);
        if !image_only(&entry.item) {
            return Err(
                TemplateError::new("unexpected fields present in basic template bundle").at(at),
            );
        }
        let bundle = fetched
            .get(&entry.item.image)
            .map_err(|message| TemplateError::new(message).at(at))?;
        bundles.push(Located {
            item: bundle.bundle.clone(),
            location: entry.location.clone(),
        });
    }
    catalog.bundles = bundles;
    Ok(catalog)
}

/// opm's `isBundleTemplate`: an image and nothing a rendered bundle would carry
/// (its schema, which opm also requires, is always `olm.bundle` here).
fn image_only(bundle: &Bundle) -> bool {
    !bundle.image.is_empty()
        && bundle.package.is_empty()
        && bundle.properties.is_empty()
        && bundle.related_images.is_empty()
}
