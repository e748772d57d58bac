//! One YAML document to the JSON value opm gets from it: sigs.k8s.io/yaml's
//! `YAMLToJSON` over yaml.v2 (YAML 1.1 scalars, merge keys, stringified keys), then
//! Go's JSON decoding (every number a `float64`).
//!
//! The block style catalogs are written in is read directly (`block`); anything else
//! is parsed by saphyr, whose error texts are translated to yaml.v2's.

mod binary;
mod block;
mod builder;
mod compat;
mod keys;
mod long_scalars;
mod messages;
mod resolve;
mod tabs;
#[cfg(test)]
mod tests;

use std::borrow::Cow;

use saphyr_parser::{Parser, ScalarStyle};
use serde_json::Value;

pub(crate) use builder::Implicit;
use builder::{Builder, Stop};
use messages::Translated;

/// The prefix sigs.k8s.io/yaml's `Unmarshal` puts before every conversion error.
pub(crate) const PREFIX: &str = "error converting YAML to JSON: ";

/// Converts a YAML text to JSON as opm's `yaml.YAMLToJSON` does (used for manifests
/// embedded in bundles, so integers stay exact); the error reads as `Unmarshal`'s,
/// with [`PREFIX`].
pub(crate) fn to_json(text: &str) -> Result<Value, String> {
    manifest_to_json(text)
        .map(|value| value.unwrap_or(Value::Null))
        .map_err(|error| error.to_string())
}

/// Why a YAML document has no JSON value.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub(crate) enum YamlError {
    /// What opm reports: `detail` is the error of sigs.k8s.io/yaml's `YAMLToJSON`
    /// (`yaml: line 3: ...`, `json: unsupported value: NaN`, `unsupported map key ...`).
    #[error("{PREFIX}{detail}")]
    #[diagnostic(code(fbc::catalog::yaml))]
    Invalid {
        detail: String,
        /// 1-based line and column (in characters) within the document, where known.
        line: Option<usize>,
        column: Option<usize>,
    },
    /// Content after the document's first node, which yaml.v2 silently drops.
    #[error(
        "content after the first YAML node at line {line}, column {column}: opm would keep only the first node"
    )]
    #[diagnostic(
        code(fbc::catalog::yaml_trailing_content),
        help("put each object in its own document, separated by a `---` line")
    )]
    TrailingContent { line: usize, column: usize },
    /// Nesting deeper than fbc supports (yaml.v2 allows 10,000 levels).
    #[error("{PREFIX}yaml: line {line}: nesting deeper than {limit} levels is not supported")]
    #[diagnostic(
        code(fbc::catalog::yaml_too_deep),
        help("opm accepts up to 10000 levels; fbc stops at {limit} to keep its stack safe")
    )]
    TooDeep {
        line: usize,
        column: usize,
        limit: usize,
    },
}

impl YamlError {
    /// The 1-based line and column of the problem within the document, where known.
    pub(crate) fn position(&self) -> Option<(usize, usize)> {
        match self {
            YamlError::Invalid { line, column, .. } => line.zip(*column),
            YamlError::TrailingContent { line, column }
            | YamlError::TooDeep { line, column, .. } => Some((*line, *column)),
        }
    }

    fn invalid(detail: String, line: usize, column: usize) -> Self {
        YamlError::Invalid {
            detail,
            line: Some(line),
            column: Some(column),
        }
    }
}

/// Converts one catalog YAML document to the JSON value opm gets from it (`None` for
/// an empty document: only whitespace, comments or `---`, which opm treats as a null
/// document), with the plain booleans and numbers found under string fields (for
/// the `yaml-implicit-type` lint).
pub(crate) fn catalog_document(
    text: &str,
) -> Result<(Option<Value>, Vec<builder::Implicit>), YamlError> {
    convert(text, false, false).map(|(converted, _)| converted)
}

/// [`catalog_document`], but where the direct reader reads the document, the value
/// of each item of its `properties` list (a mapping's `properties` key, exactly so
/// spelled, holding a list of mappings with a `value` key) is a string holding the
/// value's compact JSON text, as `write_compact_value` writes it; `true` when any
/// is. The loader keeps property values as that text anyway.
pub(crate) fn catalog_document_capturing(text: &str) -> Result<(Converted, bool), YamlError> {
    convert(text, false, true)
}

/// [`catalog_document`]'s value with integers kept exact, as for Kubernetes manifests.
pub(crate) fn manifest_to_json(text: &str) -> Result<Option<Value>, YamlError> {
    convert(text, true, false).map(|((value, _), _)| value)
}

pub(crate) type Converted = (Option<Value>, Vec<builder::Implicit>);

fn convert(text: &str, integers: bool, capture: bool) -> Result<(Converted, bool), YamlError> {
    if let Some(offset) = first_control_character(text) {
        let (line, column) = messages::line_and_column(text, offset);
        return Err(YamlError::invalid(
            "yaml: control characters are not allowed".to_owned(),
            line,
            column,
        ));
    }
    if let Some(error) = compat::leading_document_end(text) {
        return Err(error);
    }
    match block::read(text, integers, capture) {
        Some(converted) => Ok(converted),
        None => read_fully(text, integers).map(|converted| (converted, false)),
    }
}

/// Whether the direct reader reads a document (for the benchmark).
pub(crate) fn read_directly(text: &str) -> bool {
    block::read(text, false, false).is_some()
}

/// Whether the direct reader reads a document, capturing property values (for the
/// benchmark).
pub(crate) fn read_capturing(text: &str) -> bool {
    block::read(text, false, true).is_some()
}

/// Whether saphyr reads a document (for the benchmark).
pub(crate) fn read_with_saphyr(text: &str) -> bool {
    read_fully(text, false).is_ok()
}

/// Reads a document with saphyr: all of YAML, and every error text.
fn read_fully(text: &str, integers: bool) -> Result<Converted, YamlError> {
    // The long runs are base64: the checks below need only read the rest.
    let shortened = long_scalars::shorten(text);
    let mut text = match compat::unicode_breaks_as_newlines(&shortened.text) {
        Some(with_breaks) => Cow::Owned(with_breaks),
        None => Cow::Borrowed(&*shortened.text),
    };
    let mut rewrites = 0;
    loop {
        let parsed = parse(&text, &shortened.runs, integers);
        let patched = match &parsed {
            Err(Parsed::Rewritable {
                rewrite, offset, ..
            }) => rewrite(&text, *offset),
            _ => None,
        };
        // Every rewrite means another parse: a document that needs very many is
        // refused with saphyr's error rather than parsed for ever.
        match patched {
            Some(patched) if rewrites < MAX_REWRITES => {
                text = Cow::Owned(patched);
                rewrites += 1;
            }
            _ => return parsed.map_err(Parsed::into_error),
        }
    }
}

/// How many times one document may be rewritten and parsed again.
const MAX_REWRITES: usize = 64;

/// Why a parse stopped: an error, or one that a rewrite of the text gets past (see
/// [`compat::rewrite_for`]), at a byte offset.
enum Parsed {
    Failed(YamlError),
    Rewritable {
        rewrite: compat::Rewrite,
        offset: usize,
        error: YamlError,
    },
}

impl Parsed {
    fn into_error(self) -> YamlError {
        match self {
            Parsed::Failed(error) | Parsed::Rewritable { error, .. } => error,
        }
    }
}

fn parse(text: &str, runs: &[&str], integers: bool) -> Result<Converted, Parsed> {
    let mut parser = Parser::new_from_str(text);
    let mut builder = Builder::new(text, runs);
    builder.integers = integers;
    let escaped_slash = memchr::memmem::find(text.as_bytes(), b"\\/").is_some();
    let mut layout = memchr::memchr(b'\t', text.as_bytes()).map(|_| tabs::Layout::new(text));
    while let Some(next) = parser.next_event() {
        match next {
            Ok((event, span)) => {
                if let Some(layout) = &mut layout {
                    note_layout(layout, text, &event, span);
                }
                if escaped_slash
                    && let saphyr_parser::Event::Scalar(_, ScalarStyle::DoubleQuoted, ..) = &event
                    && let Some(error) = compat::escaped_slash_error(text, span)
                {
                    return Err(Parsed::Failed(error));
                }
                match builder.event(event, span) {
                    Ok(()) => {}
                    Err(Stop::Trailing { line, column }) => {
                        return trailing(builder, line, column).map_err(Parsed::Failed);
                    }
                    Err(Stop::TooDeep { line, column }) => {
                        return Err(Parsed::Failed(too_deep(line, column)));
                    }
                }
            }
            Err(error) => {
                let failed = syntax_error(&builder, &error, text);
                return Err(match compat::rewrite_for(error.info()) {
                    Some(rewrite) if !builder.root_done() => Parsed::Rewritable {
                        rewrite,
                        offset: messages::byte_offset(text, error.marker().index()),
                        error: failed,
                    },
                    _ => Parsed::Failed(failed),
                });
            }
        }
    }
    if let Some((line, column, message)) = layout
        .as_ref()
        .and_then(|layout| tabs::refused_tab(text, layout))
    {
        return Err(Parsed::Failed(compat::scanner_error(line, column, message)));
    }
    finish(builder).map_err(Parsed::Failed)
}

fn note_layout(
    layout: &mut tabs::Layout,
    text: &str,
    event: &saphyr_parser::Event<'_>,
    span: saphyr_parser::Span,
) {
    use saphyr_parser::Event;
    match event {
        Event::Scalar(_, style, ..) => layout.scalar(
            text,
            *style,
            (span.start.index(), span.start.line(), span.start.col()),
            (span.end.index(), span.end.line()),
        ),
        Event::SequenceStart(..) | Event::MappingStart(..) => {
            layout.open(
                text,
                (span.start.index(), span.end.index()),
                span.start.line(),
            );
        }
        Event::SequenceEnd | Event::MappingEnd => layout.close(span.start.line()),
        _ => {}
    }
}

/// Content after the first node: yaml.v2 never reads it, so a decode error in the
/// first node is what opm reports; otherwise the content is refused.
fn trailing(builder: Builder<'_>, line: usize, column: usize) -> Result<Converted, YamlError> {
    finish(builder)?;
    Err(YamlError::TrailingContent { line, column })
}

fn too_deep(line: usize, column: usize) -> YamlError {
    YamlError::TooDeep {
        line,
        column,
        limit: builder::MAX_DEPTH,
    }
}

/// A parse error, or trailing content when the first node was already complete.
fn syntax_error(builder: &Builder<'_>, error: &saphyr_parser::ScanError, text: &str) -> YamlError {
    if builder.root_done() {
        let marker = error.marker();
        if let Some(failure) = &builder.decode_error {
            return decode_error(failure);
        }
        return YamlError::TrailingContent {
            line: marker.line(),
            column: marker.col() + 1,
        };
    }
    let context = if error.info() == "misplaced bracket" && builder.only_flow_root() {
        // The bracket comes after the end of the root collection.
        messages::Context::Root
    } else {
        builder.context()
    };
    match messages::translate(error, text, context) {
        Translated::Error { text, line, column } => {
            YamlError::invalid(format!("yaml: {text}"), line, column)
        }
        Translated::Trailing { line, column } => YamlError::TrailingContent { line, column },
        Translated::TooDeep { line, column } => too_deep(line, column),
    }
}

/// A yaml.v2 decoding error (`failf`), printed without a line.
fn decode_error(failure: &builder::Failure) -> YamlError {
    YamlError::invalid(
        format!("yaml: {}", failure.detail),
        failure.line,
        failure.column,
    )
}

/// The errors in the order opm meets them: yaml.v2's decoding, sigs.k8s.io/yaml's key
/// conversion, then `json.Marshal`.
fn finish(mut builder: Builder<'_>) -> Result<Converted, YamlError> {
    if let Some(failure) = &builder.decode_error {
        return Err(decode_error(failure));
    }
    if let Some(failure) = &builder.convert_error {
        return Err(YamlError::invalid(
            failure.detail.clone(),
            failure.line,
            failure.column,
        ));
    }
    let non_finite = builder.non_finite;
    let implicit = std::mem::take(&mut builder.implicit);
    let root = builder.into_root();
    if let Some(name) = root
        .as_ref()
        .filter(|_| non_finite)
        .and_then(builder::first_non_finite)
    {
        return Err(YamlError::Invalid {
            detail: format!("json: unsupported value: {name}"),
            line: None,
            column: None,
        });
    }
    Ok((root, implicit))
}

/// The byte offset of the first character libyaml's reader refuses: C0 controls other
/// than tab, line feed and carriage return, DEL, C1 controls other than NEL, and
/// U+FFFE/U+FFFF. Scans 32 bytes at a time without branches (the compiler makes it
/// vector code); only blocks holding a suspect byte get a closer look.
fn first_control_character(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    // 1 for a byte to look at closely; bytes, not booleans, keep it free of branches.
    let suspect = |b: u8| {
        let control =
            u8::from(b < 0x20) & u8::from(b != b'\t') & u8::from(b != b'\n') & u8::from(b != b'\r');
        control | u8::from(b == 0x7f) | u8::from(b == 0xc2) | u8::from(b == 0xef)
    };
    let refused = |at: usize| match bytes[at] {
        0x00..0x20 | 0x7f => suspect(bytes[at]) == 1,
        // U+0080..U+009F, except NEL (U+0085).
        0xc2 => matches!(bytes.get(at + 1), Some(0x80..=0x9f)) && bytes.get(at + 1) != Some(&0x85),
        // U+FFFE and U+FFFF.
        0xef => bytes.get(at + 1) == Some(&0xbf) && matches!(bytes.get(at + 2), Some(0xbe | 0xbf)),
        _ => false,
    };
    let mut start = 0;
    for block in bytes.chunks_exact(32) {
        if block.iter().fold(0, |any, &b| any | suspect(b)) != 0
            && let Some(found) = (start..start + 32).find(|&at| refused(at))
        {
            return Some(found);
        }
        start += 32;
    }
    (start..bytes.len()).find(|&at| refused(at))
}
