//! Bundle directories (`manifests/` + `metadata/`) rendered into one `olm.bundle`
//! blob as `opm render` does, and opm's migrations of rendered catalogs.

mod apis;
mod csv;
mod decode;
pub(crate) mod marshal;
mod metadata;
pub(crate) mod migrate;
mod properties;
mod raw;
mod template;
mod unstructured;

use std::path::Path;

use serde_json::{Map, Value};

pub(crate) use template::ImageTemplate;

use crate::go::fmt::quote;
use crate::model::Bundle;
use crate::model::bundle::RelatedImage;
use crate::model::property::CSV_METADATA;
use apis::ApiSet;
use csv::Csv;
use properties::RawProperty;

const CSV_KIND: &str = "ClusterServiceVersion";

/// Why a bundle directory could not be rendered; the texts are opm's.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub(crate) enum BundleError {
    /// The bundle parser failed (manifests, metadata or derived properties).
    #[error("{message}")]
    #[diagnostic(code(fbc::bundle::parse))]
    Parse { message: String },
    #[error(
        "failed templating image reference from bundle for {}: {message}",
        quote(reference)
    )]
    #[diagnostic(code(fbc::bundle::template))]
    Template { reference: String, message: String },
    #[error("get properties for bundle {}: {message}", quote(bundle))]
    #[diagnostic(code(fbc::bundle::properties))]
    Properties { bundle: String, message: String },
    #[error("get related images for bundle {}: {message}", quote(bundle))]
    #[diagnostic(code(fbc::bundle::related_images))]
    RelatedImages { bundle: String, message: String },
}

fn parse_error(message: String) -> BundleError {
    BundleError::Parse { message }
}

/// What opm's bundle parser produces.
struct Parsed {
    objects: Vec<Map<String, Value>>,
    csv_index: usize,
    name: String,
    package: String,
    properties: Vec<RawProperty>,
    dependencies: Vec<RawProperty>,
    provided: ApiSet,
}

/// A rendered bundle directory: the `olm.bundle` blob and its CSV, which the
/// migrations read.
pub(crate) struct RenderedBundle {
    pub(crate) bundle: Bundle,
    pub(crate) csv: Value,
}

/// Renders the bundle directory `directory` (shown as `reference` in messages).
/// `migrating` says that the CSV-metadata migration will run next: it drops the
/// bundle objects of a bundle with an image, so they are not built then.
pub(crate) fn render_directory(
    directory: &Path,
    reference: &str,
    template: Option<&ImageTemplate>,
    migrating: bool,
) -> Result<RenderedBundle, BundleError> {
    let mut parsed = parse(directory)?;
    let csv = Csv::new(&parsed.objects[parsed.csv_index]);
    let image = match template {
        None => String::new(),
        Some(template) => {
            fill_template(template, &parsed).map_err(|message| BundleError::Template {
                reference: reference.to_owned(),
                message,
            })?
        }
    };
    let has_csv_metadata = (parsed.properties.iter())
        .chain(&parsed.dependencies)
        .any(|property| property.kind == CSV_METADATA);
    let objects = if migrating && !image.is_empty() && !has_csv_metadata {
        Vec::new()
    } else {
        parsed.objects.iter().map(marshal_object).collect()
    };
    let facts = properties::BundleFacts {
        package: &parsed.package,
        version: csv.version(),
        release: csv.release(),
        provided: Ok(parsed.provided.clone()),
        required: apis::required(&csv),
        objects,
    };
    let list = properties::final_properties(&parsed.properties, &parsed.dependencies, facts)
        .map_err(|message| BundleError::Properties {
            bundle: parsed.name.clone(),
            message,
        })?;
    let related_images =
        related_images(&csv, &image).map_err(|message| BundleError::RelatedImages {
            bundle: parsed.name.clone(),
            message,
        })?;
    let bundle = Bundle {
        schema: "olm.bundle".to_owned(),
        name: parsed.name.clone(),
        package: parsed.package.clone(),
        image,
        properties: list.into_iter().map(RawProperty::into_property).collect(),
        related_images,
    };
    let csv = Value::Object(parsed.objects.swap_remove(parsed.csv_index));
    Ok(RenderedBundle { bundle, csv })
}

fn marshal_object(object: &Map<String, Value>) -> String {
    let mut text = String::new();
    // A `Value` wrapper would copy the manifest; write the map's fields directly.
    text.push('{');
    for (index, (key, value)) in object.iter().enumerate() {
        if index > 0 {
            text.push(',');
        }
        text.push_str(&marshal::marshal(&Value::String(key.clone())));
        text.push(':');
        text.push_str(&marshal::marshal(value));
    }
    text.push('}');
    text
}

/// opm's `bundleParser.Parse`.
fn parse(directory: &Path) -> Result<Parsed, BundleError> {
    let objects = read_manifests(&directory.join("manifests")).map_err(parse_error)?;
    // The typed CSV is the first object whose group-version-kind says so.
    let csv_index = objects
        .iter()
        .position(|object| apis::group_version_kind(object).2 == CSV_KIND);
    if let Some(index) = csv_index {
        Csv::new(&objects[index])
            .check_conversion()
            .map_err(parse_error)?;
    }
    let crds = apis::crd_apis(&objects).map_err(parse_error)?;
    let Some(csv_index) = csv_index else {
        return Err(parse_error("no csv in bundle".to_owned()));
    };
    let csv = Csv::new(&objects[csv_index]);
    let name = csv.name();
    let provided = apis::provided(&crds, &csv)
        .and_then(|provided| apis::check_owned_crds(&provided, &csv).map(|()| provided))
        .map_err(|error| {
            parse_error(format!(
                "error checking provided apis in bundle {name}: {error}"
            ))
        })?;
    let metadata = metadata::read(&directory.join("metadata")).map_err(parse_error)?;
    let derive_error = |error: String| parse_error(format!("failed to derive properties: {error}"));
    let csv_properties = csv
        .annotation("olm.properties")
        .map(properties::annotation_properties)
        .unwrap_or_default();
    let version_and_release = if metadata.package.is_empty() {
        None
    } else {
        Some((
            csv.version().map_err(derive_error)?,
            csv.release().map_err(derive_error)?,
        ))
    };
    let derived = properties::derived(
        &metadata.package,
        version_and_release,
        csv_properties,
        &provided,
    );
    let mut list = metadata.properties;
    list.extend(derived);
    Ok(Parsed {
        csv_index,
        name,
        package: metadata.package,
        properties: properties::deduplicate(list),
        dependencies: metadata.dependencies,
        provided,
        objects,
    })
}

/// The kept manifest objects, in file name order: the first document of each
/// regular, non-hidden file that decodes to an object with a kind, and only the
/// first CSV.
fn read_manifests(directory: &Path) -> Result<Vec<Map<String, Value>>, String> {
    let mut entries: Vec<_> = std::fs::read_dir(directory)
        .map_err(|error| format!("open {}: {error}", directory.display()))?
        .filter_map(Result::ok)
        .filter(|entry| !entry.file_type().is_ok_and(|kind| kind.is_dir()))
        .map(|entry| entry.file_name())
        .filter(|name| !name.to_string_lossy().starts_with('.'))
        .collect();
    entries.sort();
    let mut objects = Vec::new();
    let mut csv_found = false;
    for name in entries {
        // Unreadable files (and links to directories) are skipped, as opm does.
        let Ok(bytes) = std::fs::read(directory.join(&name)) else {
            continue;
        };
        let Some(object) = decode::first_object(&bytes) else {
            continue;
        };
        if decode::kind_of(&object) == Some(CSV_KIND) {
            if csv_found {
                continue;
            }
            csv_found = true;
        }
        objects.push(object);
    }
    if objects.is_empty() {
        return Err("no bundle objects found".to_owned());
    }
    Ok(objects)
}

/// The image from the template: package, CSV name and the version of the first
/// `olm.package` property.
fn fill_template(template: &ImageTemplate, parsed: &Parsed) -> Result<String, String> {
    let package = parsed
        .properties
        .iter()
        .find(|property| property.kind == properties::PACKAGE);
    let version = match package {
        Some(property) => properties::decode_package(property.value.as_ref())?.swap_remove(1),
        None => String::new(),
    };
    template.execute(&template::TemplateData {
        package: &parsed.package,
        name: &parsed.name,
        version: &version,
    })
}

/// opm's `getRelatedImages`: the CSV's related images, then the bundle image and
/// the deployments' images that are not listed yet, without a name.
fn related_images(csv: &Csv<'_>, image: &str) -> Result<Vec<RelatedImage>, String> {
    let mut related: Vec<RelatedImage> = csv
        .related_images()?
        .into_iter()
        .map(|(name, image)| RelatedImage { name, image })
        .collect();
    let mut seen: std::collections::HashSet<String> =
        related.iter().map(|entry| entry.image.clone()).collect();
    // opm does not remember the bundle image as seen, so a deployment using it
    // lists it a second time.
    if !image.is_empty() && !seen.contains(image) {
        related.push(RelatedImage {
            name: String::new(),
            image: image.to_owned(),
        });
    }
    for image in csv.operator_images()? {
        if seen.insert(image.clone()) {
            related.push(RelatedImage {
                name: String::new(),
                image,
            });
        }
    }
    Ok(related)
}
