//! Bundle directories (`manifests/` + `metadata/`) rendered into one `olm.bundle`
//! blob as `opm render` does, and opm's migrations of rendered catalogs.

mod apis;
mod csv;
pub(crate) mod decode;
mod manifests;
pub(crate) mod marshal;
mod metadata;
pub(crate) mod migrate;
mod properties;
mod raw;
mod template;
mod unstructured;

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

pub(crate) use template::ImageTemplate;

use crate::go::fmt::quote;
use crate::model::bundle::RelatedImage;
use crate::model::property::CSV_METADATA;
use crate::model::{Bundle, Text};
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
    Parse {
        message: String,
        file: Option<PathBuf>,
    },
    #[error(
        "failed templating image reference from bundle for {}: {message}",
        quote(reference)
    )]
    #[diagnostic(code(fbc::bundle::template))]
    Template { reference: String, message: String },
    #[error("get properties for bundle {}: {message}", quote(bundle))]
    #[diagnostic(code(fbc::bundle::properties))]
    Properties {
        bundle: String,
        message: String,
        file: Option<PathBuf>,
    },
    #[error("get related images for bundle {}: {message}", quote(bundle))]
    #[diagnostic(code(fbc::bundle::related_images))]
    RelatedImages {
        bundle: String,
        message: String,
        file: PathBuf,
    },
}

impl BundleError {
    /// The file the error is about, when one is (opm's messages name none).
    pub(crate) fn file(&self) -> Option<&Path> {
        match self {
            BundleError::Parse { file, .. } | BundleError::Properties { file, .. } => {
                file.as_deref()
            }
            BundleError::RelatedImages { file, .. } => Some(file),
            BundleError::Template { .. } => None,
        }
    }
}

fn parse_error(message: String) -> BundleError {
    BundleError::Parse {
        message,
        file: None,
    }
}

fn file_error(file: &Path) -> impl Fn(String) -> BundleError + '_ {
    |message| BundleError::Parse {
        message,
        file: Some(file.to_owned()),
    }
}

/// What opm's bundle parser produces.
struct Parsed {
    objects: Vec<Map<String, Value>>,
    files: Vec<PathBuf>,
    /// How many entries of `properties` come from the properties file.
    from_properties_file: usize,
    metadata_files: (Option<PathBuf>, Option<PathBuf>),
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

/// Where a rendered bundle's `image` comes from.
#[derive(Clone, Copy)]
pub(crate) enum BundleImage<'a> {
    /// A directory has no image, unless `--image-ref-template` makes one.
    Template(Option<&'a ImageTemplate>),
    /// A bundle image: the reference exactly as the user typed it.
    Reference(&'a str),
}

/// Renders the bundle directory `directory` (shown as `reference` in messages).
/// `migrating` says that the CSV-metadata migration will run next: it drops the
/// bundle objects of a bundle with an image, so they are not built then.
pub(crate) fn render_directory(
    directory: &Path,
    reference: &str,
    image: BundleImage<'_>,
    migrating: bool,
) -> Result<RenderedBundle, BundleError> {
    let mut parsed = parse(directory)?;
    let csv = Csv::new(&parsed.objects[parsed.csv_index]);
    let image = match image {
        BundleImage::Reference(reference) => reference.to_owned(),
        BundleImage::Template(None) => String::new(),
        BundleImage::Template(Some(template)) => {
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
        .map_err(|(message, origin)| BundleError::Properties {
            bundle: parsed.name.clone(),
            message,
            file: parsed.origin_file(origin),
        })?;
    let related_images =
        related_images(&csv, &image).map_err(|message| BundleError::RelatedImages {
            bundle: parsed.name.clone(),
            message,
            file: parsed.files[parsed.csv_index].clone(),
        })?;
    let bundle = Bundle {
        name: parsed.name.as_str().into(),
        package: parsed.package.as_str().into(),
        image: image.into(),
        properties: list.into_iter().map(RawProperty::into_property).collect(),
        related_images: related_images.into_boxed_slice(),
    };
    let csv = Value::Object(parsed.objects.swap_remove(parsed.csv_index));
    Ok(RenderedBundle { bundle, csv })
}

/// opm's post-processing of every rendered reference: bundle objects and CSV
/// metadata move to the end of the properties, related images are sorted by image.
pub(crate) fn post_process(bundle: &mut Bundle) {
    bundle.properties.sort_by_key(|property| {
        property.kind == crate::model::property::BUNDLE_OBJECT
            || property.kind == crate::model::property::CSV_METADATA
    });
    // opm's `sort.Slice` is not stable: equal images keep Go's order, not ours.
    crate::go::sort::slice_by(&mut bundle.related_images, |a, b| a.image < b.image);
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
/// Reads one file of a bundle directory: `Ok(None)` for what opm skips without a
/// word (a directory, an unreadable file); an error naming the file for what opm
/// would block on (a FIFO, a device) and for a file over `FBC_MAX_FILE_SIZE`.
pub(crate) fn read_file(path: &Path) -> Result<Option<Vec<u8>>, String> {
    let Ok(metadata) = std::fs::metadata(path) else {
        return Ok(None);
    };
    if metadata.is_dir() {
        return Ok(None);
    }
    if !metadata.is_file() {
        return Err(format!("{}: not a regular file", path.display()));
    }
    match crate::files::limits::read_file(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(crate::files::limits::ReadError::Io(_)) => Ok(None),
        Err(refused) => Err(format!("{}: {refused}", path.display())),
    }
}

fn parse(directory: &Path) -> Result<Parsed, BundleError> {
    let manifests::Manifests { objects, files } =
        manifests::read(&directory.join("manifests")).map_err(parse_error)?;
    // The typed CSV is the first object whose group-version-kind says so.
    let csv_index = objects
        .iter()
        .position(|object| apis::group_version_kind(object).2 == CSV_KIND);
    if let Some(index) = csv_index {
        Csv::new(&objects[index])
            .check_conversion()
            .map_err(file_error(&files[index]))?;
    }
    let crds =
        apis::crd_apis(&objects).map_err(|(index, message)| file_error(&files[index])(message))?;
    let Some(csv_index) = csv_index else {
        return Err(parse_error("no csv in bundle".to_owned()));
    };
    let csv_file = files[csv_index].clone();
    let csv_error = file_error(&csv_file);
    let csv = Csv::new(&objects[csv_index]);
    let name = csv.name();
    let provided = apis::provided(&crds, &csv)
        .and_then(|provided| apis::check_owned_crds(&provided, &csv).map(|()| provided))
        .map_err(|error| {
            csv_error(format!(
                "error checking provided apis in bundle {name}: {error}"
            ))
        })?;
    let metadata = metadata::read(&directory.join("metadata")).map_err(parse_error)?;
    let derive_error = |error: String| csv_error(format!("failed to derive properties: {error}"));
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
    // Entries of the properties file come first and keep their order when
    // de-duplicated, so they are the first ones of the list.
    let from_properties_file = properties::deduplicate(metadata.properties.clone()).len();
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
        files,
        from_properties_file,
        metadata_files: (metadata.dependencies_file, metadata.properties_file),
    })
}

impl Parsed {
    /// The file a failing value came from.
    fn origin_file(&self, origin: properties::Origin) -> Option<PathBuf> {
        let csv = || Some(self.files[self.csv_index].clone());
        match origin {
            properties::Origin::Property(index) if index < self.from_properties_file => {
                self.metadata_files.1.clone()
            }
            properties::Origin::Property(_) | properties::Origin::Csv => csv(),
            properties::Origin::Dependency => self.metadata_files.0.clone(),
        }
    }
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
        .map(|(name, image)| RelatedImage {
            name: name.into(),
            image: image.into(),
        })
        .collect();
    let mut seen: std::collections::HashSet<String> = related
        .iter()
        .map(|entry| entry.image.to_string())
        .collect();
    // opm does not remember the bundle image as seen, so a deployment using it
    // lists it a second time.
    if !image.is_empty() && !seen.contains(image) {
        related.push(RelatedImage {
            name: Text::default(),
            image: image.into(),
        });
    }
    for image in csv.operator_images()? {
        if seen.insert(image.clone()) {
            related.push(RelatedImage {
                name: Text::default(),
                image: image.into(),
            });
        }
    }
    Ok(related)
}
