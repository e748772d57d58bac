//! Lints beyond opm: problems opm accepts that bite later (extra heads from a
//! skipRange, replaces edges into nothing, tags instead of digests, bundle
//! objects, YAML 1.1 booleans and numbers where strings were meant). They warn; `--strict` makes them errors.

use std::collections::BTreeSet;

use std::sync::Arc;

use crate::catalog::{Catalog, Location, SharedPath};
use crate::files::limits;
use crate::go::fmt::quote;
use crate::go::semver::range::Range;
use crate::model::Bundle;
use crate::model::property::BUNDLE_OBJECT;

use super::chain;
use super::finding::{Collector, Finding, Rule};
use super::opm_model::{Model, ModelChannel, ModelPackage};

/// The lints of the model's channels.
pub(crate) fn check_model(model: &Model<'_>, collector: &mut Collector) {
    for package in model.packages.values() {
        for channel in package.channels.values() {
            skip_range_heads(package, channel, collector);
            replaces_unknown(package, channel, collector);
        }
    }
}

/// The lints of YAML scalars read as another type, which name no package.
pub(crate) fn check_implicit(catalog: &Catalog, collector: &mut Collector) {
    for implicit in &catalog.implicit {
        let item = &implicit.item;
        let message = format!(
            "{}: {} is read as a {}, not as the string {}",
            item.key,
            item.text,
            item.kind,
            quote(&item.text)
        );
        let help = format!(
            "quote it ({}: '{}'): opm reads YAML 1.1, where unquoted yes/no/on/off/y/n \
             are booleans and 1.0 or 010 are numbers",
            item.key, item.text
        );
        collector.push(
            Finding::new(Rule::YamlImplicitType, message)
                .at(&implicit.location)
                .help(help),
        );
    }
}

/// The lints of the bundles at `bundles` (indices into the catalog's list).
pub(crate) fn check_bundles(catalog: &Catalog, bundles: &[u32], collector: &mut Collector) {
    // Room for a finding per bundle at once: a list that doubles as it grows holds
    // its old and its new buffer while it moves (room never written costs no memory).
    collector.reserve(bundles.len());
    let mut sources = Sources::default();
    let mut find = |blob: &Location, value: &str| match catalog.spot(blob, value) {
        Some(spot) => spot.clone(),
        None => sources.find(blob, value),
    };
    for bundle in bundles
        .iter()
        .map(|index| &catalog.bundles[*index as usize])
    {
        let item = &bundle.item;
        let finding = |rule, message, location: &Location| {
            Finding::new(rule, message)
                .package(&item.package)
                .bundle(&item.name)
                .at(location)
        };
        if !item.image.is_empty() && !is_pinned(&item.image) {
            let message = format!(
                "bundle image {} is not pinned by digest",
                quote(&item.image)
            );
            let location = find(&bundle.location, &item.image);
            collector.push(finding(Rule::ImageNotPinned, message, &location).help(PIN_HELP));
        }
        for related in &item.related_images {
            if !related.image.is_empty() && !is_pinned(&related.image) {
                let message = format!(
                    "related image {} ({}) is not pinned by digest",
                    quote(&related.name),
                    quote(&related.image)
                );
                let location = find(&bundle.location, &related.image);
                collector.push(finding(Rule::ImageNotPinned, message, &location).help(PIN_HELP));
            }
        }
        if item.properties.iter().any(|p| p.kind == BUNDLE_OBJECT) {
            let message = "bundle still carries olm.bundle.object properties".to_owned();
            collector.push(
                finding(Rule::BundleObjectPresent, message, &bundle.location).help(
                    "olm.bundle.object embeds whole manifests; migrate to olm.csv.metadata with \
                 `fbc render --migrate` (opm: `opm render --migrate-level \
                 bundle-object-to-csv-metadata`)",
                ),
            );
        }
    }
}

/// The images of a bundle that [`check_bundles`] reports as not pinned, for the
/// loader to locate while it has the bundle's source (`catalog::locate_at_load`).
pub(crate) fn unpinned_images(bundle: &Bundle, want: &mut dyn FnMut(&str)) {
    let related = bundle.related_images.iter().map(|related| &*related.image);
    for image in std::iter::once(&*bundle.image).chain(related) {
        if !image.is_empty() && !is_pinned(image) {
            want(image);
        }
    }
}

/// Finds where a value is written in the source of a blob, so that a finding about
/// one image points at that image's line rather than at the start of its bundle.
/// The loader finds most of them while it has each file's text
/// ([`unpinned_images`]); this reads again the files of the others (large JSON
/// files, which are read a block at a time). Each file is read once while its
/// blobs come in order (one bounded read, as `Catalog::load` did); a file that
/// cannot be read again (a large JSON file read from git or from an image that is
/// gone) leaves the blob's own location.
#[derive(Default)]
struct Sources {
    file: Option<SharedPath>,
    text: Option<Vec<u8>>,
    /// Where the last blob began: byte offset, line and column (1-based).
    cursor: (usize, usize, usize),
}

impl Sources {
    fn find(&mut self, blob: &Location, value: &str) -> Location {
        if self.file.as_ref() != Some(&blob.file) {
            self.file = Some(Arc::clone(&blob.file));
            self.text = limits::read_file(&blob.file).ok();
            self.cursor = (0, 1, 1);
        }
        let Some(text) = self.text.as_deref() else {
            return blob.clone();
        };
        let target = (blob.line as usize, blob.column as usize);
        if target < (self.cursor.1, self.cursor.2) {
            self.cursor = (0, 1, 1);
        }
        let (mut start, mut line, mut column) = self.cursor;
        while line < target.0 {
            let Some(newline) = memchr::memchr(b'\n', &text[start..]) else {
                return blob.clone();
            };
            start += newline + 1;
            line += 1;
            column = 1;
        }
        while column < target.1 && start < text.len() {
            start += utf8_width(text[start]);
            column += 1;
        }
        let start = start.min(text.len());
        self.cursor = (start, line, column);
        crate::catalog::locate(text, start, blob, value).unwrap_or_else(|| blob.clone())
    }
}

/// The length of the UTF-8 sequence that `lead` starts (1 for a stray byte).
fn utf8_width(lead: u8) -> usize {
    match lead {
        0xF0..=0xF7 => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}

const PIN_HELP: &str = "a tag can move; reference the image as name@sha256:<digest> so that \
                        the catalog always installs what was tested";

/// A digest reference (`name@algorithm:hex`), possibly with a tag before it.
fn is_pinned(image: &str) -> bool {
    image
        .rsplit_once('@')
        .is_some_and(|(_, digest)| digest.contains(':'))
}

/// opm's head check ignores skipRange, so a bundle only covered by a skipRange
/// of its channel is a head of its own.
fn skip_range_heads(
    package: &ModelPackage<'_>,
    channel: &ModelChannel<'_>,
    collector: &mut Collector,
) {
    let heads = chain::heads(&channel.entries);
    if heads.len() < 2 {
        return;
    }
    for head in heads {
        let Some(version) = package
            .bundles
            .get(head)
            .and_then(|blob| blob.version.as_ref())
        else {
            continue;
        };
        let cover = channel.entries.values().find(|entry| {
            entry.name != head
                && !entry.skip_range.is_empty()
                && Range::parse(&entry.skip_range).is_ok_and(|range| range.contains(version))
        });
        let Some(cover) = cover else { continue };
        let message = format!(
            "bundle {} is covered by skipRange {} of {} in the same channel, but nothing replaces or skips it, so it is a channel head",
            quote(head),
            quote(&cover.skip_range),
            quote(&cover.name)
        );
        let mut finding = Finding::new(Rule::SkipRangeExtraHead, message)
            .package(package.name())
            .channel(channel.name)
            .bundle(head)
            .at(channel.location_or(package.location()))
            .help(
                "opm counts only replaces and skips as edges when it looks for the channel \
                 head; list the bundle in `skips` of the entry whose skipRange covers it, \
                 or make that entry `replaces` it",
            );
        if let Some(blob) = package.bundles.get(head) {
            finding = finding.at(&blob.blob.location);
        }
        collector.push(finding);
    }
}

/// A `replaces` naming a bundle that exists nowhere in the package is only
/// expected of the tail of the channel (the oldest bundle kept in the catalog).
fn replaces_unknown(
    package: &ModelPackage<'_>,
    channel: &ModelChannel<'_>,
    collector: &mut Collector,
) {
    // Without a single head there is no tail, and opm already rejects the channel.
    let Some(tail) = chain::tail(&channel.entries) else {
        return;
    };
    let known: BTreeSet<&str> = package
        .channels
        .values()
        .flat_map(|channel| channel.entries.keys().copied())
        .chain(package.bundles.keys().copied())
        .collect();
    for entry in channel.entries.values() {
        if entry.replaces.is_empty()
            || known.contains(entry.replaces.as_str())
            || entry.name == tail
        {
            continue;
        }
        let message = format!(
            "bundle {} replaces {}, which is not in the catalog",
            quote(&entry.name),
            quote(&entry.replaces)
        );
        let mut finding = Finding::new(Rule::ReplacesUnknownBundle, message)
            .package(package.name())
            .channel(channel.name)
            .bundle(&entry.name)
            .at(channel.location_or(package.location()))
            .help(
                "only the tail of a channel may replace a bundle that is gone; elsewhere \
                 the edge leads nowhere: fix the name or drop the replaces",
            );
        if let Some(blob) = package.bundles.get(entry.name.as_str()) {
            finding = finding.at(&blob.blob.location);
        }
        collector.push(finding);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_count_as_pinned() {
        assert!(is_pinned("quay.io/a/b@sha256:abc"));
        assert!(is_pinned("quay.io/a/b:v1@sha256:abc"));
        assert!(!is_pinned("quay.io/a/b:v1"));
        assert!(!is_pinned("localhost:5000/a"));
    }

    /// The loader finds every unpinned image of the corpus's community catalog
    /// where reading its file again finds it.
    #[test]
    fn images_found_at_load_are_where_the_files_have_them() {
        let Some(root) = crate::testing::corpus("catalogs/community-v4.18") else {
            return;
        };
        crate::catalog::locate_at_load(unpinned_images);
        let catalog = crate::catalog::load_directory(&root).expect("loads");
        let mut sources = Sources::default();
        let mut found = 0;
        for bundle in &catalog.bundles {
            unpinned_images(&bundle.item, &mut |image| {
                let spot = catalog.spot(&bundle.location, image);
                assert_eq!(
                    spot,
                    Some(&sources.find(&bundle.location, image)),
                    "{image}"
                );
                assert_ne!(spot, Some(&bundle.location), "{image}");
                found += 1;
            });
        }
        assert!(found > 1000, "{found}");
    }
}
