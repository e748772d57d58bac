//! Finding catalog files and decoding them into located blobs, as opm's `LoadFS` does,
//! but with every file parsed in parallel, every broken file reported, and every blob
//! remembering where it came from.

mod decode;
mod documents;
mod error;
pub(crate) mod git;
pub(crate) mod ignore;
pub(crate) mod locate;
mod memo;
mod meta;
pub(crate) mod missing;
mod stream;
mod walk;

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use miette::NamedSource;
use rayon::prelude::*;
use serde_json::Value;

pub(crate) use crate::codec::yaml::Implicit;
pub(crate) use decode::split_documents;
pub(crate) use documents::{
    Meta, manifest_documents, meta_decoder_rejects, meta_documents, meta_fields, newest_change,
    walk_metas,
};
pub(crate) use error::{LoadError, LoadErrors};
pub(crate) use memo::{Memo, Reuse};
pub(crate) use meta::Other;
use meta::{Blob, Origin};

use crate::model::{Bundle, Channel, Deprecation, Package};

/// A file blobs are located in, shared by all of them: a thin pointer, so that a
/// location costs 16 bytes (catalogs of many tiny blobs hold one per blob).
pub(crate) type SharedPath = Arc<Box<Path>>;

/// A path to share among locations: one allocation for the path and one for the
/// count (a catalog of many small files keeps one per file).
pub(crate) fn shared_path(path: &Path) -> SharedPath {
    Arc::new(path.into())
}

/// Where a blob starts: the file and the 1-based line and column.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Location {
    pub(crate) file: SharedPath,
    pub(crate) line: u32,
    pub(crate) column: u32,
}

impl Location {
    /// A location at a line and column counted in `usize` (beyond `u32::MAX`, which
    /// files within the size limits never reach, the counts saturate).
    pub(crate) fn new(file: &SharedPath, line: usize, column: usize) -> Location {
        let narrow = |count: usize| u32::try_from(count).unwrap_or(u32::MAX);
        Location {
            file: Arc::clone(file),
            line: narrow(line),
            column: narrow(column),
        }
    }

    /// The start of a file of its own (a bundle directory, a template, a test).
    pub(crate) fn start_of(file: impl Into<PathBuf>) -> Location {
        Location::new(&shared_path(&file.into()), 1, 1)
    }
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let file = crate::text::shown::path(&self.file, crate::text::shown::Form::Text);
        write!(f, "{file}:{}:{}", self.line, self.column)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Located<T> {
    pub(crate) item: T,
    pub(crate) location: Location,
}

/// A loaded catalog: the blobs of each kind in a deterministic load order (file path
/// order, then position in the file).
#[derive(Debug, Default)]
pub(crate) struct Catalog {
    pub(crate) packages: Vec<Located<Package>>,
    pub(crate) channels: Vec<Located<Channel>>,
    pub(crate) bundles: Vec<Located<Bundle>>,
    pub(crate) deprecations: Vec<Located<Deprecation>>,
    pub(crate) others: Vec<Located<Other>>,
    /// Plain YAML booleans and numbers under string fields, where they stand.
    pub(crate) implicit: Vec<Located<Implicit>>,
    /// Where values of bundles were found in their source as it was loaded (see
    /// [`locate_at_load`]), by the bundle's location.
    spots: BTreeMap<Location, Vec<(Box<str>, Location)>>,
}

/// The values of a bundle whose place in its source is wanted: handed to the
/// function given, one at a time.
pub(crate) type Wanted = fn(&Bundle, &mut dyn FnMut(&str));

static WANTED: OnceLock<Wanted> = OnceLock::new();

/// From now on, finds where the values `wanted` names are written while each
/// bundle's source is at hand (see [`Catalog::spot`]), so that findings about
/// them are located without reading every file again.
pub(crate) fn locate_at_load(wanted: Wanted) {
    let _ = WANTED.set(wanted);
}

/// Where `value` is first written as a whole (`a/op:v1` is not found inside
/// `a/op:v10`) at or after `from` in `text`, where a blob starts at `blob`.
pub(crate) fn locate(text: &[u8], from: usize, blob: &Location, value: &str) -> Option<Location> {
    use crate::text::bytes::characters;
    let part_of_name = |byte: Option<&u8>| {
        byte.is_some_and(|byte| byte.is_ascii_alphanumeric() || b"-._:/@".contains(byte))
    };
    let found = memchr::memmem::find_iter(&text[from..], value.as_bytes()).find(|&at| {
        let at = from + at;
        !part_of_name(at.checked_sub(1).and_then(|before| text.get(before)))
            && !part_of_name(text.get(at + value.len()))
    })?;
    let before = &text[from..from + found];
    let (line, column) = (blob.line as usize, blob.column as usize);
    Some(match memchr::memrchr(b'\n', before) {
        None => Location::new(&blob.file, line, column + characters(before)),
        Some(last) => Location::new(
            &blob.file,
            line + memchr::memchr_iter(b'\n', before).count(),
            1 + characters(&before[last + 1..]),
        ),
    })
}

impl Catalog {
    /// Whether no file held a blob (a wrong directory, or everything ignored).
    pub(crate) fn is_empty(&self) -> bool {
        self.packages.is_empty()
            && self.channels.is_empty()
            && self.bundles.is_empty()
            && self.deprecations.is_empty()
            && self.others.is_empty()
    }

    fn push(&mut self, blob: Blob, location: Location) {
        self.push_expecting(blob, location, 0);
    }

    /// [`Catalog::push`] into a file's catalog of up to `expected` blobs: room for
    /// them all is made when the first of a kind comes. A list grown by doubling
    /// would copy a large file's blobs several times and leave the old copies to
    /// the allocator; room never used costs no memory.
    fn push_expecting(&mut self, blob: Blob, location: Location, expected: usize) {
        fn add<T>(list: &mut Vec<Located<T>>, item: T, location: Location, expected: usize) {
            if list.capacity() == 0 && expected > 1 {
                // Without the room (a small machine), the list grows as usual.
                let _ = list.try_reserve_exact(expected);
            }
            list.push(Located { item, location });
        }
        match blob {
            Blob::Package(item) => add(&mut self.packages, item, location, expected),
            Blob::Channel(item) => add(&mut self.channels, item, location, expected),
            Blob::Bundle(item) => add(&mut self.bundles, item, location, expected),
            Blob::Deprecation(item) => add(&mut self.deprecations, item, location, expected),
            Blob::Other(item) => add(&mut self.others, item, location, expected),
        }
    }

    /// Adds one decoded value as opm's `LoadSlice` adds a template entry: read as a
    /// `Meta`, then dispatched by schema, with opm's message when either fails.
    pub(crate) fn push_value(&mut self, value: Value, location: Location) -> Result<(), String> {
        let raw = meta::compact(&value);
        let blob = meta::blob_from_document(Some(value), &Origin::Json(&raw))?;
        self.push(blob, location);
        Ok(())
    }

    /// Reserves room for the blobs of `files` files of each kind when `loaded`
    /// files gave those held now (without the room, lists grow as usual).
    fn reserve_for(&mut self, files: usize, loaded: usize) {
        fn reserve<T>(list: &mut Vec<T>, files: usize, loaded: usize) {
            let wanted = list.len().saturating_mul(files) / loaded.max(1);
            let _ = list.try_reserve_exact(wanted.saturating_sub(list.len()));
        }
        reserve(&mut self.packages, files, loaded);
        reserve(&mut self.channels, files, loaded);
        reserve(&mut self.bundles, files, loaded);
        reserve(&mut self.deprecations, files, loaded);
        reserve(&mut self.others, files, loaded);
        reserve(&mut self.implicit, files, loaded);
    }

    fn shrink_to_fit(&mut self) {
        self.packages.shrink_to_fit();
        self.channels.shrink_to_fit();
        self.bundles.shrink_to_fit();
        self.deprecations.shrink_to_fit();
        self.others.shrink_to_fit();
        self.implicit.shrink_to_fit();
    }

    /// Where `value` was found in the source of the bundle at `blob` as it was
    /// loaded (see [`locate_at_load`]).
    pub(crate) fn spot(&self, blob: &Location, value: &str) -> Option<&Location> {
        let spots = self.spots.get(blob)?;
        spots
            .iter()
            .find(|(found, _)| **found == *value)
            .map(|(_, at)| at)
    }

    /// Appends another catalog's blobs after this one's, kind by kind.
    pub(crate) fn extend(&mut self, other: Catalog) {
        self.spots.extend(other.spots);
        append(&mut self.packages, other.packages);
        append(&mut self.channels, other.channels);
        append(&mut self.bundles, other.bundles);
        append(&mut self.deprecations, other.deprecations);
        append(&mut self.others, other.others);
        append(&mut self.implicit, other.implicit);
    }
}

/// `items` after `list`; an empty `list` takes over `items` (one file's blobs are
/// not copied: a catalog of one large file would briefly exist twice).
fn append<T>(list: &mut Vec<T>, mut items: Vec<T>) {
    if list.is_empty() {
        std::mem::swap(list, &mut items);
    } else {
        list.append(&mut items);
    }
}

/// Loads every catalog file below `root`. Files that cannot be loaded are all
/// reported, in path order.
pub(crate) fn load_directory(root: &Path) -> Result<Catalog, LoadErrors> {
    load_directory_reusing(root, Reuse::Nothing)
}

/// [`load_directory`], recording documents in a memo or taking them from it.
pub(crate) fn load_directory_reusing(root: &Path, reuse: Reuse) -> Result<Catalog, LoadErrors> {
    let files = walk::catalog_files(root).map_err(|error| LoadErrors {
        root: root.to_path_buf(),
        errors: vec![error],
    })?;
    load_listed_reusing(root, &files, reuse)
}

/// Loads the files a walk of `root` listed; one that has gone since is an error
/// naming it, like any other file that cannot be read.
pub(crate) fn load_listed(root: &Path, files: &[PathBuf]) -> Result<Catalog, LoadErrors> {
    load_listed_reusing(root, files, Reuse::Nothing)
}

fn load_listed_reusing(
    root: &Path,
    files: &[PathBuf],
    reuse: Reuse,
) -> Result<Catalog, LoadErrors> {
    // Files are decoded in parallel a chunk at a time and merged in order, so that
    // beside the merged catalog only one chunk's per-file parts exist (a catalog
    // of many small files would otherwise hold every blob twice).
    const CHUNK: usize = 256;
    let mut gathered = Gathered::default();
    for (index, chunk) in files.chunks(CHUNK).enumerate() {
        let loaded: Vec<Result<Catalog, LoadError>> = chunk
            .par_iter()
            .map(|file| load_file(&root.join(file), reuse))
            .collect();
        gathered.add_all(loaded);
        if index == 0 && files.len() > CHUNK {
            // Room for as many blobs per file as the first chunk had: lists grown
            // by doubling would copy every blob several times and leave the old
            // copies to the allocator. Room never used costs no memory.
            gathered.catalog.reserve_for(files.len(), CHUNK);
        }
    }
    let mut catalog = gathered.finish(root)?;
    catalog.shrink_to_fit();
    Ok(catalog)
}

/// Files' catalogs merged in load order, or every file's error.
#[derive(Default)]
struct Gathered {
    catalog: Catalog,
    errors: Vec<LoadError>,
}

impl Gathered {
    fn add_all(&mut self, loaded: Vec<Result<Catalog, LoadError>>) {
        for result in loaded {
            match result {
                Ok(part) if self.errors.is_empty() => self.catalog.extend(part),
                // Once a file has failed only errors are reported: blobs are not kept.
                Ok(_) => {}
                Err(error) => {
                    self.catalog = Catalog::default();
                    self.errors.push(error);
                }
            }
        }
    }

    fn finish(self, root: &Path) -> Result<Catalog, LoadErrors> {
        if self.errors.is_empty() {
            Ok(self.catalog)
        } else {
            Err(LoadErrors {
                root: root.to_path_buf(),
                errors: self.errors,
            })
        }
    }
}

/// The files' catalogs merged in order, or every error.
fn gather(root: &Path, loaded: Vec<Result<Catalog, LoadError>>) -> Result<Catalog, LoadErrors> {
    let mut gathered = Gathered::default();
    gathered.add_all(loaded);
    gathered.finish(root)
}

/// Loads one file.
fn load_file(path: &Path, reuse: Reuse) -> Result<Catalog, LoadError> {
    let shown = path.to_path_buf();
    let io_error = |error| LoadError::Io {
        path: path.to_path_buf(),
        error,
    };
    // Refuse what opm would block on (a FIFO) or fail on late (a link to a directory).
    let metadata = std::fs::metadata(path).map_err(io_error)?;
    if metadata.is_dir() {
        return Err(LoadError::DirectoryLink { path: shown });
    }
    if !metadata.is_file() {
        return Err(LoadError::SpecialFile { path: shown });
    }
    room_to_decode(&shown, metadata.len())?;
    if let Some(catalog) = stream::load_large_json(path, &shown, metadata.len()) {
        return Ok(catalog);
    }
    let bytes = read_file(path)?;
    decode_bytes_reusing(&shown, bytes, reuse)
}

/// Refuses a file of `size` bytes whose decoding may not fit in what is left of
/// an address-space limit ([`crate::files::limits::room_to_decode`]), before it
/// is read.
fn room_to_decode(path: &Path, size: u64) -> Result<(), LoadError> {
    crate::files::limits::room_to_decode(size).map_err(|(needed, limit)| LoadError::OutOfMemory {
        path: path.to_path_buf(),
        size,
        needed,
        limit,
    })
}

/// A file's bytes within the size limit, refusing procfs and sysfs files.
pub(crate) fn read_file(path: &Path) -> Result<Vec<u8>, LoadError> {
    use crate::files::limits::ReadError;
    crate::files::limits::read_file(path).map_err(|error| match error {
        ReadError::Io(error) => LoadError::Io {
            path: path.to_path_buf(),
            error,
        },
        ReadError::TooLarge { limit } => LoadError::TooLarge {
            path: path.to_path_buf(),
            limit,
        },
        ReadError::Pseudo | ReadError::NotRegular { .. } => LoadError::SpecialFile {
            path: path.to_path_buf(),
        },
    })
}

/// Decodes the contents of one catalog file, named `shown` in locations and errors.
pub(crate) fn decode_bytes(shown: &Path, bytes: Vec<u8>) -> Result<Catalog, LoadError> {
    decode_bytes_reusing(shown, bytes, Reuse::Nothing)
}

/// [`decode_bytes`], recording YAML documents in a memo or taking them from it.
pub(crate) fn decode_bytes_reusing(
    shown: &Path,
    bytes: Vec<u8>,
    reuse: Reuse,
) -> Result<Catalog, LoadError> {
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(error) => {
            let valid = &error.as_bytes()[..error.utf8_error().valid_up_to()];
            let valid = std::str::from_utf8(valid).expect("the prefix is valid UTF-8");
            let (line, column) = line_and_column(valid, valid.len());
            return Err(LoadError::InvalidUtf8 {
                path: shown.to_path_buf(),
                line,
                column,
            });
        }
    };
    let file = shared_path(shown);
    let expected = expected_blobs(&text);
    let mut catalog = Catalog::default();
    let mut cursor = LineCursor::default();
    let mut refusal = None;
    let recalling = reuse.recalling();
    let holds = |text: &str| recalling.is_some_and(|memo| memo.holds(text));
    let known: Option<&dyn Fn(&str) -> bool> = recalling.map(|_| &holds as &dyn Fn(&str) -> bool);
    // Property values are read straight to their compact text.
    let error = decode::decode_file_knowing(&text, known, true, &mut |document| {
        let origin = document.raw_json.map_or(Origin::Yaml, Origin::Json);
        let (first_line, _) = cursor.advance(&text, document.start);
        let recalled = match (recalling, document.text) {
            (Some(memo), Some(text)) if document.known => memo.recall(text),
            _ => None,
        };
        let (recalled, implicit) = match recalled {
            Some(memo::Remembered { blob, implicit }) => (Some(blob), implicit),
            None => (None, document.implicit),
        };
        let recording = reuse.recording().zip(document.text);
        let kept = recording.map(|_| implicit.clone());
        for implicit in implicit {
            let location = Location::new(&file, first_line + implicit.line - 1, implicit.column);
            catalog.implicit.push(Located {
                item: implicit,
                location,
            });
        }
        let content = content_start(&text, document.start);
        let (line, column) = cursor.advance(&text, content);
        if let Some(error) = document.json_error
            && meta::decoder_rejects(document.value.as_ref())
        {
            refusal = Some((error.position, error.message, error.help));
            return ControlFlow::Break(());
        }
        let blob = match recalled {
            Some(blob) => Ok(blob),
            None => meta::blob_from_captured(document.value, &origin, document.captured),
        };
        match blob {
            Ok(blob) => {
                if let (Some(wanted), Blob::Bundle(bundle)) = (WANTED.get(), &blob) {
                    let blob = Location::new(&file, line, column);
                    let mut spots = Vec::new();
                    wanted(bundle, &mut |value| {
                        if let Some(at) = locate(text.as_bytes(), content, &blob, value) {
                            spots.push((Box::from(value), at));
                        }
                    });
                    if !spots.is_empty() {
                        catalog.spots.insert(blob, spots);
                    }
                }
                if let (Some((memo, text)), Some(implicit)) = (recording, kept) {
                    memo.remember(
                        text,
                        memo::Remembered {
                            blob: blob.clone(),
                            implicit,
                        },
                    );
                }
                let location = Location::new(&file, line, column);
                catalog.push_expecting(blob, location, expected);
                ControlFlow::Continue(())
            }
            Err(message) => {
                refusal = Some((document.start, message, None));
                ControlFlow::Break(())
            }
        }
    });
    let refusal = refusal.or(error.map(|error| (error.position, error.message, error.help)));
    if let Some((position, message, help)) = refusal {
        return Err(invalid_file(shown, &text, position, message, help));
    }
    // The lists of a file of a few blobs would keep room for more until every file
    // of the catalog is loaded.
    catalog.shrink_to_fit();
    Ok(catalog)
}

/// About how many blobs a large file holds: each names its `schema` (a guess, not
/// a bound: keys match without regard to case, and values can hold the word), and
/// none is shorter than `{"schema":""}`. Small files are not counted (0).
fn expected_blobs(text: &str) -> usize {
    const LARGE: usize = 1 << 20;
    if text.len() < LARGE {
        return 0;
    }
    blob_estimate(text, text.len() as u64)
}

/// [`expected_blobs`] for a file of `size` bytes of which `sample` is the start:
/// an eighth more than the sample suggests when it is not the whole file (a list
/// that runs out of room doubles, copying every blob, while room never used costs
/// no memory).
fn blob_estimate(sample: &str, size: u64) -> usize {
    let keys = memchr::memmem::find_iter(sample.as_bytes(), b"schema").count() as u64;
    let sampled = sample.len() as u64;
    let estimate = if sampled >= size {
        keys
    } else {
        keys * size / sampled.max(1) * 9 / 8 + 64
    };
    let most = size / "{\"schema\":\"\"}".len() as u64;
    usize::try_from(estimate.min(most)).unwrap_or(usize::MAX)
}

fn invalid_file(
    path: &Path,
    text: &str,
    position: usize,
    message: String,
    help: Option<String>,
) -> LoadError {
    let position = position.min(text.len());
    let (line, column) = line_and_column(text, position);
    let help = help.or_else(|| yaml_line_note(&message, line));
    LoadError::InvalidFile {
        message,
        path: path.to_path_buf(),
        line,
        column,
        source_code: NamedSource::new(
            crate::text::shown::path(path, crate::text::shown::Form::Text),
            Arc::from(text),
        ),
        at: (position, 0).into(),
        help,
    }
}

/// opm's YAML errors carry yaml.v2's `line N`, counted from the start of the
/// document (a later document counts from the line after its `---`) and, for
/// parser errors, from 0: when it differs from the file line, say which is which.
fn yaml_line_note(message: &str, file_line: usize) -> Option<String> {
    // Only a catalog document's own error: a bundle object's counts lines of the
    // decoded manifest.
    const PREFIX: &str = "error converting YAML to JSON: yaml: line ";
    let rest = &message[message.find(PREFIX)? + PREFIX.len()..];
    let digits = rest.find(|c: char| !c.is_ascii_digit())?;
    let yaml_line: usize = rest[..digits].parse().ok()?;
    (rest[digits..].starts_with(':') && yaml_line != file_line).then(|| {
        format!(
            "\"line {yaml_line}\" is yaml.v2's count within this YAML document (opm's \
             message); the error is at line {file_line} of the file"
        )
    })
}

/// Skips blank, comment and `---` lines so that a blob's location points at its
/// first key rather than at the separator before it.
fn content_start(text: &str, start: usize) -> usize {
    let mut position = start;
    loop {
        // Most blobs start with their content: found without reading the rest of
        // the line, which may hold a whole JSON stream.
        let rest = &text[position..];
        let indent = rest
            .char_indices()
            .find(|(_, c)| *c == '\n' || !c.is_whitespace())
            .map_or(rest.len(), |(index, _)| index);
        if rest[indent..].starts_with(|c: char| !matches!(c, '\n' | '#' | '-')) {
            return position + indent;
        }
        let line = rest.split('\n').next().unwrap_or_default();
        let trimmed = line.trim();
        let separator = line.starts_with("---") && {
            let rest = line[3..].trim();
            rest.is_empty() || rest.starts_with('#')
        };
        let skippable = trimmed.is_empty() || trimmed.starts_with('#') || separator;
        if !skippable || position + line.len() >= text.len() {
            return position + (line.len() - line.trim_start().len());
        }
        position += line.len() + 1;
    }
}

/// Converts increasing byte offsets into 1-based lines and columns in one pass: the
/// characters of the current line are counted once, however many blobs share it
/// (a JSON stream on one line), so the cost stays linear in the text.
#[derive(Default)]
struct LineCursor {
    offset: usize,
    line: usize,
    /// Characters from the start of the current line to `offset`.
    column: usize,
}

impl LineCursor {
    fn advance(&mut self, text: &str, offset: usize) -> (usize, usize) {
        if offset < self.offset {
            *self = LineCursor::default();
        }
        let bytes = &text.as_bytes()[self.offset..offset];
        match memchr::memrchr(b'\n', bytes) {
            Some(last) => {
                self.line += memchr::memchr_iter(b'\n', bytes).count();
                self.column = text[self.offset + last + 1..offset].chars().count();
            }
            None => self.column += text[self.offset..offset].chars().count(),
        }
        self.offset = offset;
        (self.line + 1, self.column + 1)
    }

    /// Moves to `offset`, which becomes the start of the text from then on (the
    /// text before it is dropped).
    fn rebase(&mut self, text: &str, offset: usize) {
        self.advance(text, offset);
        self.offset = 0;
    }
}

fn line_and_column(text: &str, offset: usize) -> (usize, usize) {
    LineCursor::default().advance(text, offset)
}

/// The first document of a stream as opm's `YAMLOrJSONDecoder.Decode` returns it
/// (templates read only that one).
#[derive(Debug)]
pub(crate) enum FirstDocument {
    Value(Value),
    /// A YAML document with no content (only comments): no JSON at all.
    Empty,
    /// Nothing but white space and separators: Go's `EOF`.
    Eof,
    /// The decoder's error, with the byte offset it points at.
    Error {
        message: String,
        position: usize,
    },
}

pub(crate) fn first_document(text: &str) -> FirstDocument {
    let mut first = None;
    let error = decode::decode_file(text, &mut |document| {
        first = Some(match document.value {
            Some(value) => FirstDocument::Value(value),
            None => FirstDocument::Empty,
        });
        ControlFlow::Break(())
    });
    match (first, error) {
        (Some(first), _) => first,
        (None, Some(error)) => FirstDocument::Error {
            message: error.message,
            position: error.position,
        },
        (None, None) => FirstDocument::Eof,
    }
}

/// Whether opm takes a directory for a bundle: it has `manifests` and `metadata`
/// sub-directories (links to directories do not count).
pub(crate) fn is_bundle_directory(reference: &Path) -> bool {
    ["manifests", "metadata"].iter().all(|name| {
        reference
            .join(name)
            .symlink_metadata()
            .is_ok_and(|metadata| metadata.is_dir())
    })
}

/// Every catalog of the shared corpus, loaded; `None` (with a note) when the
/// corpus is missing outside CI, which needs it.
#[cfg(test)]
pub(crate) fn corpus_catalogs() -> Option<Vec<Catalog>> {
    let root = crate::testing::corpus("catalogs")?;
    let mut entries: Vec<_> = std::fs::read_dir(&root)
        .expect("the corpus's catalogs")
        .map(|entry| entry.expect("an entry").path())
        .collect();
    entries.sort();
    Some(
        entries
            .iter()
            .map(|path| load_directory(path).expect("a corpus catalog loads"))
            .collect(),
    )
}

#[cfg(test)]
mod tests;
