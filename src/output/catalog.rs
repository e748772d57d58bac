//! Writing a catalog in opm's order: packages sorted by name, each with its package
//! blobs, channels and bundles sorted by name, other blobs by schema, then its
//! deprecations; package-less other blobs last. Blobs without a package are dropped,
//! as opm drops them.

use std::io::Write;

use super::yaml;
use crate::codec::json_write as json;
use crate::codec::node::Node;
use crate::codec::sink::{Capped, Sink, Spill};
use rayon::prelude::*;

use crate::catalog::{Catalog, Other};
use crate::model::property::Property;
use crate::model::{Bundle, Channel, Deprecation, Package};

/// Output encodings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    Json,
    Yaml,
}

#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub(crate) enum WriteError {
    #[error(transparent)]
    #[diagnostic(code(fbc::output::yaml))]
    Yaml(#[from] yaml::YamlWriteError),
    #[error("write <stdout>: {0}")]
    #[diagnostic(code(fbc::output::io))]
    Io(#[from] std::io::Error),
}

/// One blob to write, borrowed from the catalog; its output tree is built only when
/// it is written, so the trees of the whole catalog never exist at once.
#[derive(Clone, Copy)]
enum Blob<'a> {
    Package(&'a Package),
    Channel(&'a Channel),
    Bundle(&'a Bundle),
    Other(&'a Other),
    Deprecation(&'a Deprecation),
}

impl<'a> Blob<'a> {
    fn node(self) -> Node<'a> {
        match self {
            Blob::Package(package) => package.to_node(),
            Blob::Channel(channel) => channel.to_node(),
            Blob::Bundle(bundle) => bundle.to_node(),
            Blob::Other(other) => Node::Raw(other.json().into()),
            Blob::Deprecation(deprecation) => deprecation.to_node(),
        }
    }
}

impl Blob<'_> {
    /// About the length of the blob's compact JSON, read off the model without
    /// writing it: enough to share out the work and size buffers.
    fn size_hint(self) -> usize {
        /// Field names, quotes and punctuation, per blob or entry.
        const SMALL: usize = 48;
        let properties = |list: &[Property]| {
            list.iter()
                .map(|property| SMALL + property.kind.len() + property.size_hint())
                .sum::<usize>()
        };
        match self {
            Blob::Package(package) => {
                let icon = package
                    .icon()
                    .map_or(0, |icon| icon.data.as_ref().map_or(0, Vec::len) * 4 / 3);
                SMALL
                    + package.name.len()
                    + package.default_channel.len()
                    + package.description().len()
                    + icon
                    + properties(package.properties())
            }
            Blob::Channel(channel) => {
                let entries = channel.entries.iter().flatten().map(|entry| {
                    SMALL
                        + entry.name.len()
                        + entry.replaces.len()
                        + entry.skip_range.len()
                        + entry.skips.iter().map(|skip| skip.len() + 3).sum::<usize>()
                });
                SMALL
                    + channel.name.len()
                    + channel.package.len()
                    + entries.sum::<usize>()
                    + properties(&channel.properties)
            }
            Blob::Bundle(bundle) => {
                let images = bundle
                    .related_images
                    .iter()
                    .map(|related| SMALL + related.name.len() + related.image.len());
                SMALL
                    + bundle.name.len()
                    + bundle.package.len()
                    + bundle.image.len()
                    + properties(&bundle.properties)
                    + images.sum::<usize>()
            }
            Blob::Other(other) => other.json().len(),
            Blob::Deprecation(deprecation) => {
                let entries = deprecation.entries.iter().flatten().map(|entry| {
                    SMALL
                        + entry.reference_schema.len()
                        + entry.reference_name.len()
                        + entry.message.len()
                });
                SMALL + deprecation.package.len() + entries.sum::<usize>()
            }
        }
    }

    /// Where the blob goes: blobs with a package first, by package name; in a
    /// package, its package blobs, channels by name, bundles by name, other blobs by
    /// schema, deprecations. Equal keys keep load order (opm leaves it unspecified).
    fn order(&self) -> (bool, &str, u8, &str) {
        match *self {
            Blob::Package(package) => (false, &package.name, 0, ""),
            Blob::Channel(channel) => (false, &channel.package, 1, &channel.name),
            Blob::Bundle(bundle) => (false, &bundle.package, 2, &bundle.name),
            // Other blobs without a package go last, in load order.
            Blob::Other(other) if other.package().is_empty() => (true, "", 3, ""),
            Blob::Other(other) => (false, other.package(), 3, other.schema()),
            Blob::Deprecation(deprecation) => (false, &deprecation.package, 4, ""),
        }
    }
}

/// A blob in the list of blobs to write: its kind (0 package, 1 channel, 2 bundle,
/// 3 other, 4 deprecation) and its index in the catalog's list of that kind, in
/// eight bytes, so that ordering a catalog of many small blobs costs little memory.
#[derive(Clone, Copy)]
struct Entry {
    kind: u8,
    index: u32,
}

impl Entry {
    fn new(kind: u8, index: usize) -> Entry {
        let index = u32::try_from(index).expect("fewer than 4 billion blobs fit in memory");
        Entry { kind, index }
    }

    fn blob(self, catalog: &Catalog) -> Blob<'_> {
        let index = self.index as usize;
        match self.kind {
            0 => Blob::Package(&catalog.packages[index].item),
            1 => Blob::Channel(&catalog.channels[index].item),
            2 => Blob::Bundle(&catalog.bundles[index].item),
            3 => Blob::Other(&catalog.others[index].item),
            _ => Blob::Deprecation(&catalog.deprecations[index].item),
        }
    }
}

/// The blobs of `catalog` in output order, sorted in place.
fn ordered_blobs(catalog: &Catalog) -> Vec<Entry> {
    fn entries<'l, T>(
        kind: u8,
        list: &'l [crate::catalog::Located<T>],
        keep: impl Fn(&T) -> bool + 'l,
    ) -> impl Iterator<Item = Entry> + 'l {
        list.iter()
            .enumerate()
            .filter(move |(_, located)| keep(&located.item))
            .map(move |(index, _)| Entry::new(kind, index))
    }
    let mut blobs = Vec::with_capacity(
        catalog.packages.len()
            + catalog.channels.len()
            + catalog.bundles.len()
            + catalog.others.len()
            + catalog.deprecations.len(),
    );
    // Blobs without a package are dropped, as opm drops them.
    blobs.extend(entries(0, &catalog.packages, |p: &Package| {
        !p.name.is_empty()
    }));
    blobs.extend(entries(1, &catalog.channels, |c: &Channel| {
        !c.package.is_empty()
    }));
    blobs.extend(entries(2, &catalog.bundles, |b: &Bundle| {
        !b.package.is_empty()
    }));
    blobs.extend(entries(3, &catalog.others, |_: &Other| true));
    blobs.extend(entries(4, &catalog.deprecations, |d: &Deprecation| {
        !d.package.is_empty()
    }));
    // Load order is kept among equal keys: they are blobs of one kind, whose
    // indices are in load order. (A stable sort would need a scratch copy of up to
    // all the entries.)
    blobs.sort_unstable_by(|a, b| {
        (a.blob(catalog).order(), a.index).cmp(&(b.blob(catalog).order(), b.index))
    });
    blobs
}

/// A blob as opm's JSON writer prints it, with what names it.
pub(crate) struct NamedBlob {
    /// `package`, `channel`, `bundle`, `deprecations` or the blob's own schema.
    pub(crate) kind: String,
    pub(crate) package: String,
    pub(crate) name: String,
    pub(crate) text: String,
}

/// Every blob that would be written, in output order, each with its JSON text.
pub(crate) fn named_blobs(catalog: &Catalog) -> Vec<NamedBlob> {
    ordered_blobs(catalog)
        .into_iter()
        .map(|entry| {
            let blob = entry.blob(catalog);
            let (kind, package, name): (String, &str, &str) = match blob {
                Blob::Package(package) => ("package".to_owned(), &package.name, &package.name),
                Blob::Channel(channel) => ("channel".to_owned(), &channel.package, &channel.name),
                Blob::Bundle(bundle) => ("bundle".to_owned(), &bundle.package, &bundle.name),
                Blob::Other(other) => (other.schema().to_owned(), other.package(), other.name()),
                Blob::Deprecation(deprecation) => (
                    "deprecations".to_owned(),
                    &deprecation.package,
                    &deprecation.package,
                ),
            };
            let mut text = Vec::new();
            json::write_pretty(&blob.node(), &mut text);
            NamedBlob {
                kind,
                package: package.to_owned(),
                name: name.to_owned(),
                text: String::from_utf8(text).expect("JSON output is UTF-8"),
            }
        })
        .collect()
}

/// Tasks per window written at once, and the output a task aims at: enough work
/// for every core and little scheduling per blob, while only about a megabyte of
/// output waits in memory. Tasks are cut by each blob's [`Blob::size_hint`], so a
/// window of large bundles holds as little as a window of small channels.
const TASKS_PER_WINDOW: usize = 8;
const TASK_TARGET: usize = 96 << 10;
/// Most blobs in one task (blobs of a few bytes).
const BLOBS_PER_TASK: usize = 1024;
/// Pretty JSON and YAML take about this many times a blob's compact text (the
/// indentation); a task's buffer is made this large at once.
const PRETTY_GROWTH: usize = 2;
/// Most bytes a task keeps in memory; past it, its blobs are written again
/// straight to the output, so a window never holds more than a few of these.
const TASK_CAP: usize = 8 << 20;
/// How much of a blob written straight to the output is buffered between writes.
const SPILL_SIZE: usize = 1 << 20;

/// Writes the whole catalog. YAML output is checked before anything is written, so
/// a blob that opm's YAML writer would reject leaves no partial output.
pub(crate) fn write_catalog(
    catalog: &Catalog,
    format: Format,
    out: &mut impl Write,
) -> Result<(), WriteError> {
    let blobs = ordered_blobs(catalog);
    if format == Format::Yaml
        && let Some(error) = blobs
            .par_iter()
            .find_map_first(|entry| yaml::check(&entry.blob(catalog).node()).err())
    {
        return Err(error.into());
    }
    let mut rest = &blobs[..];
    while !rest.is_empty() {
        let mut window = Vec::with_capacity(TASKS_PER_WINDOW);
        while window.len() < TASKS_PER_WINDOW && !rest.is_empty() {
            let (task, expected) = next_task(catalog, rest);
            rest = &rest[task.len()..];
            window.push((task, expected));
        }
        let parts: Vec<Result<Option<Vec<u8>>, WriteError>> = window
            .par_iter()
            .map(|&(task, expected)| {
                let mut sink = Capped::new(expected * PRETTY_GROWTH, TASK_CAP);
                encode(catalog, task, format, &mut sink)?;
                Ok(sink.into_bytes())
            })
            .collect();
        for ((task, _), part) in window.into_iter().zip(parts) {
            if let Some(bytes) = part? {
                out.write_all(&bytes)?;
            } else {
                let mut sink = Spill::new(&mut *out, SPILL_SIZE);
                encode(catalog, task, format, &mut sink)?;
                sink.finish()?;
            }
        }
    }
    out.flush()?;
    Ok(())
}

/// The blobs at the start of `rest` that make one task (at least one), and the
/// sum of their size hints.
fn next_task<'e>(catalog: &Catalog, rest: &'e [Entry]) -> (&'e [Entry], usize) {
    let mut expected = 0;
    let mut count = 0;
    for entry in rest.iter().take(BLOBS_PER_TASK) {
        if count > 0 && expected >= TASK_TARGET {
            break;
        }
        expected += entry.blob(catalog).size_hint();
        count += 1;
    }
    (&rest[..count], expected)
}

fn encode(
    catalog: &Catalog,
    blobs: &[Entry],
    format: Format,
    sink: &mut impl Sink,
) -> Result<(), WriteError> {
    for entry in blobs {
        let node = entry.blob(catalog).node();
        match format {
            Format::Json => json::write_pretty(&node, sink),
            Format::Yaml => yaml::write_document(&node, sink)?,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// opm's order: packages by name, and in each its package blob, channels and
    /// bundles by name, other blobs by schema, deprecations; blobs without a package
    /// dropped, except other blobs, which come last in load order.
    #[test]
    fn blobs_are_written_in_opm_order() {
        let text = [
            r#"{"schema":"z.custom","name":"root-1"}"#,
            r#"{"schema":"olm.bundle","package":"b","name":"b.v2"}"#,
            r#"{"schema":"olm.deprecations","package":"a"}"#,
            r#"{"schema":"olm.channel","package":"a","name":"stable"}"#,
            r#"{"schema":"a.custom","name":"root-2"}"#,
            r#"{"schema":"olm.package","name":"b"}"#,
            r#"{"schema":"olm.channel","package":"a","name":"alpha"}"#,
            r#"{"schema":"olm.bundle","package":"b","name":"b.v1"}"#,
            r#"{"schema":"olm.channel","name":"orphan"}"#,
            r#"{"schema":"c.custom","package":"a","name":"x"}"#,
            r#"{"schema":"b.custom","package":"a","name":"y"}"#,
            r#"{"schema":"olm.package","name":"a"}"#,
        ]
        .join("\n");
        let catalog =
            crate::catalog::decode_bytes(std::path::Path::new("c.json"), text.into_bytes())
                .expect("a catalog");
        let order: Vec<String> = named_blobs(&catalog)
            .into_iter()
            .map(|blob| format!("{}/{}/{}", blob.package, blob.kind, blob.name))
            .collect();
        assert_eq!(
            order,
            [
                "a/package/a",
                "a/channel/alpha",
                "a/channel/stable",
                "a/b.custom/y",
                "a/c.custom/x",
                "a/deprecations/a",
                "b/package/b",
                "b/bundle/b.v1",
                "b/bundle/b.v2",
                "/z.custom/root-1",
                "/a.custom/root-2",
            ]
        );
    }

    /// Among blobs of equal keys (thousands, so that the sort is not a simple
    /// insertion sort), load order is kept.
    #[test]
    fn equal_keys_keep_load_order() {
        let mut lines = Vec::new();
        for number in 0..3000 {
            lines.push(format!(r#"{{"schema":"x.y","name":"o{number}"}}"#));
            lines.push(format!(
                r#"{{"schema":"olm.bundle","package":"p","name":"b","image":"i{number}"}}"#
            ));
            lines.push(format!(
                r#"{{"schema":"x.y","package":"p","name":"p{number}"}}"#
            ));
        }
        let catalog = crate::catalog::decode_bytes(
            std::path::Path::new("c.json"),
            lines.join("\n").into_bytes(),
        )
        .expect("a catalog");
        let named = named_blobs(&catalog);
        let others: Vec<&str> = named
            .iter()
            .filter(|b| b.package.is_empty())
            .map(|b| b.name.as_str())
            .collect();
        let expected: Vec<String> = (0..3000).map(|number| format!("o{number}")).collect();
        assert_eq!(others, expected);
        let in_package: Vec<&str> = named
            .iter()
            .filter(|b| b.kind == "x.y" && !b.package.is_empty())
            .map(|b| b.name.as_str())
            .collect();
        let expected: Vec<String> = (0..3000).map(|number| format!("p{number}")).collect();
        assert_eq!(in_package, expected);
        let images: Vec<bool> = named
            .iter()
            .filter(|b| b.kind == "bundle")
            .enumerate()
            .map(|(number, b)| b.text.contains(&format!("\"image\": \"i{number}\"")))
            .collect();
        assert!(images.len() == 3000 && images.iter().all(|&ok| ok));
    }

    /// Blobs nested deeply enough that a task's output passes `TASK_CAP` are
    /// written straight to the output, byte for byte as when buffered.
    #[test]
    fn blobs_past_the_task_cap_are_written_the_same() {
        let depth = 1500;
        let blob = |name: &str| {
            format!(
                "{{\"schema\":\"custom\",\"package\":\"a\",\"name\":\"{name}\",\"x\":{}{}}}\n",
                "[".repeat(depth),
                "]".repeat(depth)
            )
        };
        let text =
            blob("one") + &blob("two") + r#"{"schema":"custom","package":"a","name":"small"}"#;
        let catalog =
            crate::catalog::decode_bytes(std::path::Path::new("c.json"), text.into_bytes())
                .expect("a catalog");
        for format in [Format::Json, Format::Yaml] {
            let blobs = ordered_blobs(&catalog);
            let mut expected = Vec::new();
            encode(&catalog, &blobs, format, &mut expected).expect("encoded");
            assert!(expected.len() > TASK_CAP || format == Format::Yaml);
            let mut written = Vec::new();
            write_catalog(&catalog, format, &mut written).expect("written");
            assert!(written == expected, "{format:?} output differs");
        }
    }

    /// Each kind of blob's size hint is near the length of its compact JSON, which
    /// is what the writer's tasks are cut by.
    #[test]
    fn size_hints_are_near_the_compact_length() {
        let text = [
            r#"{"schema":"olm.package","name":"a","defaultChannel":"stable","description":"a long description of the package","icon":{"base64data":"PHN2Zy8+PHN2Zy8+PHN2Zy8+","mediatype":"image/svg+xml"}}"#,
            r#"{"schema":"olm.channel","package":"a","name":"stable","entries":[{"name":"a.v1"},{"name":"a.v2","replaces":"a.v1","skips":["a.v0"],"skipRange":"<2.0.0"}]}"#,
            r#"{"schema":"olm.bundle","package":"a","name":"a.v2","image":"quay.io/a/a@sha256:0123456789abcdef","properties":[{"type":"olm.package","value":{"packageName":"a","version":"2.0.0"}},{"type":"olm.csv.metadata","value":{"description":"a bundle described in a few more words than most"}}],"relatedImages":[{"name":"operator","image":"quay.io/a/operator:v2"}]}"#,
            r#"{"schema":"olm.deprecations","package":"a","entries":[{"reference":{"schema":"olm.bundle","name":"a.v1"},"message":"a.v1 is deprecated"}]}"#,
            r#"{"schema":"custom","package":"a","name":"c","data":{"key":"value"}}"#,
        ]
        .join("\n");
        let catalog =
            crate::catalog::decode_bytes(std::path::Path::new("c.json"), text.into_bytes())
                .expect("a catalog");
        let blobs = ordered_blobs(&catalog);
        assert_eq!(blobs.len(), 5);
        for entry in blobs {
            let blob = entry.blob(&catalog);
            let mut compact = Vec::new();
            json::write_compact(&blob.node(), &mut compact);
            let hint = blob.size_hint();
            assert!(
                hint * 2 >= compact.len() && hint <= compact.len() * 2,
                "hint {hint} for {} compact bytes: {}",
                compact.len(),
                String::from_utf8_lossy(&compact)
            );
        }
    }
}
