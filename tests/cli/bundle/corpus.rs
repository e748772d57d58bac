//! The 338 corpus bundle directories: byte-for-byte parity with opm's own renders,
//! and the properties of `render --migrate` against the published catalog entries.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::{assert_same_text, corpus, fbc, stderr, stdout};

/// The template opm's renders in `expected/bundles/` were made with.
const TEMPLATE: &str = "example.com/{{.Package}}:v{{.Version}}";

/// Bundles whose migrated properties differ from their catalog entry, and why.
const KNOWN_DIFFERENCES: [(&str, &str); 1] = [(
    "slurm-operator/0.4.1",
    "mislabelled upstream: the directory holds a CSV named slurm-operator.v0.4.0 whose \
     alm-examples differ from the published v0.4.0 bundle's",
)];

/// The bundle directories, in `dirs.txt` order, relative to `bundles/`.
fn bundle_directories(corpus: &Path) -> Vec<String> {
    std::fs::read_to_string(corpus.join("expected/bundles/dirs.txt"))
        .expect("dirs.txt is readable")
        .lines()
        .map(str::to_owned)
        .collect()
}

fn render(corpus: &Path, flags: &[&str], directories: &[String]) -> String {
    let output = fbc()
        .current_dir(corpus.join("bundles"))
        .arg("render")
        .args(flags)
        .args(directories)
        .output()
        .expect("the fbc binary runs");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    stdout(&output)
}

/// The text of each top-level blob (a pretty-printed object ends with a `}` line).
fn blobs(text: &str) -> Vec<&str> {
    let mut blobs = Vec::new();
    let mut start = 0;
    for (offset, _) in text.match_indices("\n}\n") {
        blobs.push(&text[start..offset + 3]);
        start = offset + 3;
    }
    assert_eq!(start, text.len(), "the output ends with a complete blob");
    blobs
}

fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .fold(String::new(), |mut hex, byte| {
            use std::fmt::Write as _;
            write!(hex, "{byte:02x}").expect("writing to a String");
            hex
        })
}

/// Every directory renders to the blob opm wrote for it (`render.sha256` holds the
/// digest and size of each directory's output).
#[test]
#[cfg_attr(fbc_no_corpus, ignore = "needs ../shared/corpus")]
fn corpus_bundles_render_like_opm() {
    let corpus = corpus();
    let directories = bundle_directories(&corpus);
    let text = render(&corpus, &["--image-ref-template", TEMPLATE], &directories);
    let mut ours: BTreeMap<(String, usize), usize> = BTreeMap::new();
    for blob in blobs(&text) {
        *ours.entry((sha256_hex(blob), blob.len())).or_default() += 1;
    }
    let digests = std::fs::read_to_string(corpus.join("expected/bundles/render.sha256"))
        .expect("render.sha256 is readable");
    let mut differing = Vec::new();
    for line in digests.lines() {
        let mut fields = line.split(' ');
        let (Some(digest), Some(size), Some(directory)) =
            (fields.next(), fields.next(), fields.next())
        else {
            panic!("malformed line {line:?}");
        };
        let key = (digest.to_owned(), size.parse().expect("a size"));
        match ours.get_mut(&key) {
            Some(count) if *count > 0 => *count -= 1,
            _ => differing.push(directory.to_owned()),
        }
    }
    assert_eq!(directories.len(), 338);
    assert!(differing.is_empty(), "differ from opm: {differing:?}");
}

/// All directories in one call, migrated: the whole output is opm's.
#[test]
#[cfg_attr(fbc_no_corpus, ignore = "needs ../shared/corpus")]
fn corpus_bundles_migrate_like_opm() {
    let corpus = corpus();
    let directories = bundle_directories(&corpus);
    let flags = [
        "--migrate-level",
        "bundle-object-to-csv-metadata",
        "--image-ref-template",
        TEMPLATE,
    ];
    let actual = render(&corpus, &flags, &directories);
    let expected = std::fs::read_to_string(corpus.join("expected/bundles/render-migrated.json"))
        .expect("opm's output is readable");
    assert_same_text(&actual, &expected, "render-migrated.json");
}

fn json_stream(text: &str) -> Vec<Value> {
    serde_json::Deserializer::from_str(text)
        .into_iter::<Value>()
        .map(|blob| blob.expect("fbc writes JSON"))
        .collect()
}

/// Bundle name -> properties of the rendered community catalog.
fn catalog_properties(corpus: &Path) -> HashMap<String, Value> {
    let catalog: PathBuf = corpus.join("catalogs/community-v4.18");
    let output = fbc()
        .args(["render", catalog.to_str().expect("UTF-8 path")])
        .output()
        .expect("the fbc binary runs");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    json_stream(&stdout(&output))
        .into_iter()
        .filter(|blob| blob["schema"] == "olm.bundle")
        .map(|blob| {
            let name = blob["name"].as_str().expect("a name").to_owned();
            (name, blob["properties"].clone())
        })
        .collect()
}

/// Whether `render --migrate` of one directory gives its catalog entry's
/// properties: `None` when the catalog has no bundle of that name.
fn matches_catalog(catalog: &HashMap<String, Value>, blob: &Value) -> Option<bool> {
    let name = blob["name"].as_str().expect("a name");
    Some(*catalog.get(name)? == blob["properties"])
}

/// The catalog entries were rendered by opm from the bundles' images and migrated
/// to `olm.csv.metadata`; a bundle directory migrated (which needs an image, hence
/// the template) must carry the same properties.
#[test]
#[cfg_attr(fbc_no_corpus, ignore = "needs ../shared/corpus")]
fn migrated_bundles_match_the_community_catalog() {
    let corpus = corpus();
    let catalog = catalog_properties(&corpus);
    let directories = bundle_directories(&corpus);
    let mut matching = 0;
    let mut absent = 0;
    let mut differing = BTreeSet::new();
    // One directory per call, so that every result is tied to its directory.
    let chunks: Vec<&[String]> = directories.chunks(directories.len().div_ceil(2)).collect();
    let results: Vec<Vec<(String, Option<bool>)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = chunks
            .iter()
            .map(|chunk| {
                let (corpus, catalog) = (&corpus, &catalog);
                scope.spawn(move || {
                    chunk
                        .iter()
                        .map(|directory| {
                            let flags = ["--migrate", "--image-ref-template", TEMPLATE];
                            let text = render(corpus, &flags, std::slice::from_ref(directory));
                            let blob = json_stream(&text).pop().expect("one bundle");
                            let result = matches_catalog(catalog, &blob);
                            (directory.clone(), result)
                        })
                        .collect()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|handle| handle.join().expect("no panic"))
            .collect()
    });
    for (directory, result) in results.into_iter().flatten() {
        match result {
            None => absent += 1,
            Some(true) => matching += 1,
            Some(false) => {
                differing.insert(directory);
            }
        }
    }
    let known: BTreeSet<String> = KNOWN_DIFFERENCES
        .iter()
        .map(|(directory, _)| (*directory).to_owned())
        .collect();
    assert_eq!(differing, known, "unexplained differences from the catalog");
    // 154 of the 155 bundles with a catalog entry match; the other 183 directories
    // are versions (or packages) that the v4.18 catalog does not publish.
    assert_eq!((matching, absent), (154, 183));
}
