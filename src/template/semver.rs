//! The semver template (`olm.semver`, spec §10.4): bundle images listed per
//! archetype (candidate, fast, stable) become major and/or minor channels with
//! generated edges, a default channel and package metadata from the default
//! channel's head.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde_json::Value;

use super::decode::{self, SemverTemplate};
use super::{BundleRenderer, Rendered, RenderedBundle, Source, TemplateError};
use crate::catalog::{Catalog, Located};
use crate::go::fmt::quote;
use crate::go::semver::Version;
use crate::model::channel::ChannelEntry;
use crate::model::go_decode::GoDecoder;
use crate::model::package::Icon;
use crate::model::{Channel, Package, Text};

const SCHEMA: &str = "olm.semver";
const ARCHETYPES: [&str; 3] = ["candidate", "fast", "stable"];

/// A generated channel kind, ranked as opm ranks them (none < major < minor).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    None,
    Major,
    Minor,
}

pub(super) fn render(
    source: &Source<'_>,
    renderer: &dyn BundleRenderer,
) -> Result<Catalog, TemplateError> {
    let template =
        read(source.text).map_err(|error| error.prefixed("render: unable to read file: "))?;
    let preference = template.1;
    let template = template.0;
    // Every distinct image once, in template order (opm's order is Go's map order).
    let mut references: Vec<&str> = Vec::new();
    for image in template.archetypes.iter().flatten() {
        if !references.contains(&image.as_str()) {
            references.push(image);
        }
    }
    let fetched = Rendered::fetch(renderer, &references);
    let mut bundles: Vec<(String, std::sync::Arc<RenderedBundle>)> = Vec::new();
    for reference in &references {
        let bundle = fetched
            .get(reference)
            .map_err(|message| TemplateError::new(message).at(source.find(reference)))?;
        bundles.push(((*reference).to_owned(), bundle));
    }
    if bundles.is_empty() {
        return Err(TemplateError::new(
            "render: no bundles specified or no bundles could be rendered",
        ));
    }
    let by_image: HashMap<&str, &RenderedBundle> = bundles
        .iter()
        .map(|(image, bundle)| (image.as_str(), bundle.as_ref()))
        .collect();
    let mut package = String::new();
    let mut versions: [Vec<(String, Version)>; 3] = Default::default();
    for (archetype, images) in template.archetypes.iter().enumerate() {
        versions[archetype] = archetype_versions(images, &by_image, &mut package)
            .and_then(|found| without_build_conflicts(&found).map(|()| found))
            .map_err(|message| {
                TemplateError::new(format!(
                    "render: unable to post-process bundle info: {message}"
                ))
            })?;
    }
    let generated = generate(&versions, &package, &template, preference);
    let mut catalog = Catalog::default();
    let location = source.location(None);
    let mut blob = Package {
        name: package.into(),
        default_channel: generated.default_channel.as_str().into(),
        ..Package::default()
    };
    let head = generated
        .channels
        .get(&generated.default_channel)
        .and_then(|channel| channel.entries.as_ref()?.last());
    if let Some(csv) = head.and_then(|head| {
        bundles
            .iter()
            .find(|(_, bundle)| bundle.bundle.name == head.name)
            .and_then(|(_, bundle)| bundle.csv.as_ref())
    }) {
        package_metadata(&mut blob, csv);
    }
    catalog.packages.push(Located {
        item: blob,
        location: location.clone(),
    });
    for channel in generated.channels.into_values() {
        catalog.channels.push(Located {
            item: channel,
            location: location.clone(),
        });
    }
    for (image, bundle) in &bundles {
        catalog.bundles.push(Located {
            item: bundle.bundle.clone(),
            location: source.location(source.find(image)),
        });
    }
    Ok(catalog)
}

/// `readFile`: the strict decode, the schema, and the generate flags' defaults;
/// the preferred kind of default channel.
fn read(text: &str) -> Result<(SemverTemplate, Kind), TemplateError> {
    let mut template = decode::semver_template(text)?;
    if template.schema != SCHEMA {
        return Err(TemplateError::new(format!(
            "readFile: input file has unknown schema, should be {}",
            quote(SCHEMA)
        )));
    }
    if !template.generate_major && !template.generate_minor {
        template.generate_minor = true;
    }
    let preference = match template.preference.as_str() {
        "" | "minor" if template.generate_minor => Kind::Minor,
        "" => Kind::Major,
        "major" if template.generate_major => Kind::Major,
        kind @ ("minor" | "major") => {
            return Err(TemplateError::new(format!(
                "schema attribute mismatch: DefaultChannelTypePreference set to '{kind}' doesn't make sense if not generating {kind}-version channels"
            )));
        }
        other => {
            return Err(TemplateError::new(format!(
                "unknown DefaultChannelTypePreference: {}\nValid values are 'major' or 'minor'",
                quote(other)
            )));
        }
    };
    Ok((template, preference))
}

/// `getVersionsFromChannel`: each listed bundle's name and version, the package
/// fixed by the first bundle of all, names unique within the archetype.
fn archetype_versions(
    images: &[String],
    by_image: &HashMap<&str, &RenderedBundle>,
    package: &mut String,
) -> Result<Vec<(String, Version)>, String> {
    let mut found: Vec<(String, Version)> = Vec::new();
    for image in images {
        let Some(rendered) = by_image.get(image.as_str()) else {
            return Err(format!(
                "supplied bundle image name {} not found in rendered bundle images",
                quote(image)
            ));
        };
        let bundle = &rendered.bundle;
        let parsed = crate::validate::properties::parse(&bundle.properties).map_err(|error| {
            format!(
                "parse properties for bundle {}: {error}",
                quote(&bundle.name)
            )
        })?;
        let [property] = &*parsed.packages else {
            return Err(format!(
                "bundle {} has multiple \"olm.package\" properties, expected exactly 1",
                quote(&bundle.name)
            ));
        };
        let version = Version::parse(&property.version).map_err(|error| {
            format!(
                "bundle {} has invalid version {}: {error}",
                quote(&bundle.name),
                quote(&property.version)
            )
        })?;
        if package.is_empty() {
            *package = property.package_name.to_string();
        } else if property.package_name != *package {
            return Err(format!(
                "bundle {} does not belong to this package: {}",
                quote(&property.package_name),
                quote(package)
            ));
        }
        if found.iter().any(|(name, _)| *name == bundle.name) {
            return Err(format!("duplicate bundle name {}", quote(&bundle.name)));
        }
        found.push((bundle.name.to_string(), version));
    }
    Ok(found)
}

/// `withoutBuildMetadataConflict`: versions equal once build metadata is dropped
/// cannot be ordered (opm names them in Go's map order; fbc in template order).
fn without_build_conflicts(versions: &[(String, Version)]) -> Result<(), String> {
    let mut seen = BTreeSet::new();
    let mut errors: Vec<String> = Vec::new();
    for (_, version) in versions {
        let stripped = version.without_build().to_string();
        if !seen.insert(stripped.clone()) {
            let error = format!(
                "bundle version {} cannot be compared to {}",
                quote(&version.to_string()),
                quote(&stripped)
            );
            // apimachinery's aggregate prints each distinct message once.
            if !errors.contains(&error) {
                errors.push(error);
            }
        }
    }
    let joined = match errors.as_slice() {
        [] => return Ok(()),
        [one] => one.clone(),
        many => format!("[{}]", many.join(", ")),
    };
    Err(format!(
        "encountered bundle versions which differ only by build metadata, which cannot be ordered: {joined}"
    ))
}

/// The generated channels, by name, and the default channel.
struct Generated {
    channels: BTreeMap<String, Channel>,
    default_channel: String,
}

/// One appended channel entry, as opm's `entryTuple`.
struct Tuple {
    archetype: usize,
    kind: Kind,
    channel: String,
    name: String,
    version: Version,
    index: usize,
}

/// The running "most stable" channel (`highwaterChannel`).
struct Highwater {
    archetype: usize,
    kind: Kind,
    version: Version,
    name: String,
}

impl Highwater {
    fn beaten_by(&self, offer: &Highwater, preference: Kind) -> bool {
        if offer.archetype != self.archetype {
            return offer.archetype > self.archetype;
        }
        if offer.version != self.version {
            return offer.version > self.version;
        }
        if offer.kind != self.kind {
            if offer.kind == preference {
                return true;
            }
            if self.kind == preference {
                return false;
            }
            return offer.kind > self.kind;
        }
        false
    }
}

/// `generateChannels`: per archetype, bundles in ascending version order, each
/// appended to its major and/or minor channel; then the edges.
fn generate(
    versions: &[Vec<(String, Version)>; 3],
    package: &str,
    template: &SemverTemplate,
    preference: Kind,
) -> Generated {
    // Each channel's entries while they are generated.
    let mut channels: BTreeMap<String, Vec<ChannelEntry>> = BTreeMap::new();
    let mut tuples = Vec::new();
    let mut best = Highwater {
        archetype: 0,
        kind: Kind::None,
        version: Version::parse("0.0.0").expect("a valid version"),
        name: String::new(),
    };
    for (archetype, bundles) in versions.iter().enumerate() {
        let mut ordered: Vec<&(String, Version)> = bundles.iter().collect();
        ordered.sort_by(|a, b| a.1.cmp(&b.1));
        for (name, version) in ordered {
            let mut kinds = Vec::new();
            if template.generate_major {
                kinds.push((
                    Kind::Major,
                    format!("{}-v{}", ARCHETYPES[archetype], version.major()),
                ));
            }
            if template.generate_minor {
                kinds.push((
                    Kind::Minor,
                    format!(
                        "{}-v{}.{}",
                        ARCHETYPES[archetype],
                        version.major(),
                        version.minor()
                    ),
                ));
            }
            for (kind, channel_name) in kinds {
                let channel = channels.entry(channel_name.clone()).or_insert_with(|| {
                    let offer = Highwater {
                        archetype,
                        kind,
                        version: version.clone(),
                        name: channel_name.clone(),
                    };
                    if best.beaten_by(&offer, preference) {
                        best = offer;
                    }
                    Vec::new()
                });
                channel.push(ChannelEntry {
                    name: name.clone().into(),
                    ..ChannelEntry::default()
                });
                tuples.push(Tuple {
                    archetype,
                    kind,
                    channel: channel_name,
                    name: name.clone(),
                    version: version.clone(),
                    index: channel.len() - 1,
                });
            }
        }
    }
    link(&mut channels, &mut tuples);
    let channels = channels
        .into_iter()
        .map(|(name, entries)| {
            let channel = Channel {
                name: name.as_str().into(),
                package: package.into(),
                entries: Some(entries.into_boxed_slice()),
                properties: Box::default(),
            };
            (name, channel)
        })
        .collect();
    Generated {
        channels,
        default_channel: best.name,
    }
}

/// `linkChannels`: only the highest bundle of each minor stream gets edges: it
/// replaces the previous stream's head and skips every other lower bundle of the
/// same archetype, kind and major.
fn link(channels: &mut BTreeMap<String, Vec<ChannelEntry>>, tuples: &mut [Tuple]) {
    tuples.sort_by(|a, b| {
        (a.archetype, a.kind)
            .cmp(&(b.archetype, b.kind))
            .then_with(|| a.version.cmp(&b.version))
    });
    let mut previous_head = String::new();
    let mut skips: BTreeSet<String> = BTreeSet::new();
    let same_major = |a: &Tuple, b: &Tuple| {
        a.archetype == b.archetype && a.kind == b.kind && a.version.major() == b.version.major()
    };
    for pair in tuples.windows(2) {
        let (previous, current) = (&pair[0], &pair[1]);
        let same_stream =
            same_major(previous, current) && previous.version.minor() == current.version.minor();
        if !same_stream {
            set_edges(channels, previous, &previous_head, &skips);
        }
        if same_major(previous, current) {
            if !same_stream {
                previous_head.clone_from(&previous.name);
            }
            skips.insert(previous.name.clone());
        } else {
            skips.clear();
            previous_head.clear();
        }
    }
    if let [.., penultimate, last] = &tuples[..]
        && same_major(penultimate, last)
    {
        set_edges(channels, last, &previous_head, &skips);
    }
}

fn set_edges(
    channels: &mut BTreeMap<String, Vec<ChannelEntry>>,
    tuple: &Tuple,
    replaces: &str,
    skips: &BTreeSet<String>,
) {
    let entry = channels
        .get_mut(&tuple.channel)
        .and_then(|entries| entries.get_mut(tuple.index))
        .expect("every tuple names an entry of its channel");
    entry.replaces = replaces.into();
    let skipped: Box<[Text]> = skips
        .iter()
        .filter(|name| *name != replaces)
        .map(|name| name.as_str().into())
        .collect();
    if !skipped.is_empty() {
        entry.skips = skipped;
    }
}

/// `populatePackageMetadata`: description and first icon of the head's CSV, each
/// only when it decodes as opm's types read it (`spec.description`, `spec.icon`:
/// keys matched exactly, `null` as absent).
fn package_metadata(package: &mut Package, csv: &Value) {
    let Some(spec) = csv.get("spec").and_then(Value::as_object) else {
        return;
    };
    let mut details = package
        .details
        .take()
        .map(|details| *details)
        .unwrap_or_default();
    if let Some(Value::String(description)) = spec.get("description") {
        details.description = description.as_str().into();
    }
    if let Some(Value::Array(icons)) = spec.get("icon")
        && !icons.is_empty()
    {
        let mut decoder = GoDecoder::default();
        let icons: Vec<Option<Icon>> = icons
            .iter()
            .map(|icon| Icon::decode(&mut decoder, icon.clone()))
            .collect();
        if decoder.finish().is_ok() {
            details.icon = Some(icons.into_iter().next().flatten().unwrap_or_default());
        }
    }
    package.set_details(details);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn versions(list: &[&str]) -> Vec<(String, Version)> {
        list.iter()
            .map(|v| (format!("foo.v{v}"), Version::parse(v).expect("a version")))
            .collect()
    }

    fn channels_of(template: &str, stable: &[&str], candidate: &[&str]) -> (String, Vec<String>) {
        let (template, preference) = read(template).expect("a template");
        let generated = generate(
            &[versions(candidate), Vec::new(), versions(stable)],
            "foo",
            &template,
            preference,
        );
        let lines = generated
            .channels
            .values()
            .map(|channel| {
                let entries: Vec<String> = channel
                    .entries
                    .iter()
                    .flatten()
                    .map(|entry| {
                        let mut text = entry.name.to_string();
                        if !entry.replaces.is_empty() {
                            text.push_str(" replaces ");
                            text.push_str(&entry.replaces);
                        }
                        if !entry.skips.is_empty() {
                            text.push_str(" skips [");
                            text.push_str(&entry.skips.join(", "));
                            text.push(']');
                        }
                        text
                    })
                    .collect();
                format!("{}: {}", channel.name, entries.join("; "))
            })
            .collect();
        (generated.default_channel, lines)
    }

    #[test]
    fn minor_streams_link_within_a_major() {
        let (default, lines) = channels_of(
            "schema: olm.semver\n",
            &["1.1.1", "1.0.0", "2.0.0", "1.0.1", "1.1.0"],
            &[],
        );
        assert_eq!(default, "stable-v2.0");
        assert_eq!(
            lines,
            [
                "stable-v1.0: foo.v1.0.0; foo.v1.0.1 skips [foo.v1.0.0]",
                "stable-v1.1: foo.v1.1.0; foo.v1.1.1 replaces foo.v1.0.1 skips [foo.v1.0.0, foo.v1.1.0]",
                "stable-v2.0: foo.v2.0.0",
            ]
        );
    }

    #[test]
    fn major_preference_can_still_pick_a_minor_channel() {
        let both = "schema: olm.semver\ngenerateMajorChannels: true\ngenerateMinorChannels: true\ndefaultChannelTypePreference: major\n";
        assert_eq!(channels_of(both, &["1.0.0", "1.1.0"], &[]).0, "stable-v1.1");
        assert_eq!(
            channels_of(both, &["1.0.0", "1.0.1", "1.1.0", "1.1.1", "2.0.0"], &[]).0,
            "stable-v2"
        );
        let (default, lines) = channels_of(
            "schema: olm.semver\ngenerateMajorChannels: true\ngenerateMinorChannels: false\n",
            &["1.0.0", "1.0.1", "1.1.0"],
            &[],
        );
        assert_eq!(default, "stable-v1");
        assert_eq!(
            lines,
            [
                "stable-v1: foo.v1.0.0; foo.v1.0.1 skips [foo.v1.0.0]; foo.v1.1.0 replaces foo.v1.0.1 skips [foo.v1.0.0]"
            ]
        );
    }

    #[test]
    fn a_lone_pre_release_candidate_leaves_no_default() {
        assert_eq!(
            channels_of("schema: olm.semver\n", &[], &["0.0.0-rc.1"]).0,
            ""
        );
    }

    #[test]
    fn preferences_are_checked_as_opm_does() {
        let message = |text: &str| read(text).map(|_| ()).expect_err("refused").message;
        assert_eq!(
            message("schema: olm.semver\ndefaultChannelTypePreference: major\n"),
            "schema attribute mismatch: DefaultChannelTypePreference set to 'major' doesn't make sense if not generating major-version channels"
        );
        assert_eq!(
            message("schema: olm.semver\ndefaultChannelTypePreference: Minor\n"),
            "unknown DefaultChannelTypePreference: \"Minor\"\nValid values are 'major' or 'minor'"
        );
        assert_eq!(
            message("schema: olm.basic\n"),
            "readFile: input file has unknown schema, should be \"olm.semver\""
        );
    }

    #[test]
    fn build_metadata_conflicts_are_named_once_each() {
        let error = without_build_conflicts(&versions(&["1.0.0+2", "1.0.0", "1.0.0"]))
            .expect_err("conflicts");
        assert_eq!(
            error,
            "encountered bundle versions which differ only by build metadata, which cannot be ordered: bundle version \"1.0.0\" cannot be compared to \"1.0.0\""
        );
        let error = without_build_conflicts(&versions(&["1.0.0", "1.0.0+2", "2.0.0", "2.0.0+1"]))
            .expect_err("conflicts");
        assert!(error.ends_with(": [bundle version \"1.0.0+2\" cannot be compared to \"1.0.0\", bundle version \"2.0.0+1\" cannot be compared to \"2.0.0\"]"), "{error}");
    }
}
