//! OLM v1's view of the catalog over HTTP (`fbc serve --http-port`), answered as
//! catalogd answers it (operator-controller's `internal/catalogd/server`):
//! `GET|HEAD /catalogs/<name>/api/v1/all` is every document of the catalog as Go
//! re-encodes it, one per line in the directory walk's order, served as Go's
//! `http.ServeContent` serves a file (`Last-Modified`, conditional requests,
//! `Range`); `/catalogs/<name>/api/v1/metas?schema=&package=&name=` is the
//! documents matching every parameter given. Responses of 1 KiB or more are
//! gzipped for clients that accept it, as catalogd's `gzhttp` wrapper does.
//!
//! The lines are written once, at start-up, to an unlinked temporary file (the
//! page cache holds them, not the server's heap) and streamed from it in chunks.

use std::io::Write;
use std::sync::Arc;
use std::time::SystemTime;

use bytes::Bytes;

use crate::catalog;

/// The served view: the catalog's lines and where each document's line is.
pub(crate) struct View {
    name: String,
    lines: Store,
    size: u64,
    sections: Vec<Section>,
    /// The newest change of a catalog file, to the second (`Last-Modified`).
    modified: Option<SystemTime>,
}

/// Where a document's line is, and what `/metas` selects it by.
struct Section {
    start: u64,
    length: u64,
    schema: Box<str>,
    package: Box<str>,
    name: Box<str>,
}

/// The catalog's lines: a temporary file, or memory where none can be made.
enum Store {
    File(std::fs::File),
    Memory(Vec<u8>),
}

impl Store {
    fn read_at(&self, offset: u64, buffer: &mut [u8]) -> std::io::Result<()> {
        match self {
            Store::File(file) => std::os::unix::fs::FileExt::read_exact_at(file, buffer, offset),
            Store::Memory(bytes) => {
                let start = usize::try_from(offset).unwrap_or(usize::MAX);
                let part = bytes
                    .get(start..start.saturating_add(buffer.len()))
                    .ok_or(std::io::ErrorKind::UnexpectedEof)?;
                buffer.copy_from_slice(part);
                Ok(())
            }
        }
    }
}

/// The view's lines as they are written: to an unlinked temporary file, or to
/// memory where none can be made.
struct Lines {
    file: Option<std::io::BufWriter<std::fs::File>>,
    spilled: Option<std::io::Error>,
    memory: Vec<u8>,
    sections: Vec<Section>,
    size: u64,
}

impl Lines {
    fn new() -> Lines {
        let (file, spilled) = match tempfile::tempfile() {
            Ok(file) => (Some(std::io::BufWriter::new(file)), None),
            Err(error) => (None, Some(error)),
        };
        Lines {
            file,
            spilled,
            memory: Vec::new(),
            sections: Vec::new(),
            size: 0,
        }
    }

    /// Adds one document's line (with its newline) and what `/metas` selects it by.
    fn push(
        &mut self,
        line: &str,
        schema: String,
        package: String,
        name: String,
    ) -> Result<(), String> {
        match &mut self.file {
            Some(file) => file
                .write_all(line.as_bytes())
                .map_err(|error| format!("write the HTTP view: {error}"))?,
            None => self.memory.extend_from_slice(line.as_bytes()),
        }
        let length = line.len() as u64;
        self.sections.push(Section {
            start: self.size,
            length,
            schema: schema.into(),
            package: package.into(),
            name: name.into(),
        });
        self.size += length;
        Ok(())
    }

    fn finish(self, name: String, modified: Option<SystemTime>) -> Result<View, String> {
        let lines = if let Some(file) = self.file {
            let file = file
                .into_inner()
                .map_err(|error| format!("write the HTTP view: {}", error.error()))?;
            Store::File(file)
        } else {
            if let Some(error) = self.spilled {
                super::log::warn(
                    "no temporary file for the HTTP view: it is held in memory",
                    &[("error", &error.to_string())],
                );
            }
            Store::Memory(self.memory)
        };
        Ok(View {
            name,
            lines,
            size: self.size,
            sections: self.sections,
            modified: modified.map(whole_seconds),
        })
    }
}

impl View {
    /// Reads the catalog below `directory` as catalogd stores it, served as `name`.
    pub(crate) fn build(directory: &std::path::Path, name: String) -> Result<View, String> {
        let mut lines = Lines::new();
        let mut modified: Option<SystemTime> = None;
        catalog::walk_metas(directory, |file| {
            modified = modified.max(file.modified);
            for meta in file.metas {
                lines.push(&meta.blob, meta.schema, meta.package, meta.name)?;
            }
            Ok(())
        })?;
        lines.finish(name, modified)
    }

    /// The view of a catalog whose cache snapshot holds its lines already
    /// (`files`, in order); `directory`'s files give the time it last changed.
    pub(crate) fn from_snapshot(
        files: &[std::path::PathBuf],
        directory: &std::path::Path,
        name: String,
    ) -> Result<View, String> {
        use std::io::BufRead;
        let mut lines = Lines::new();
        let mut line = String::new();
        for path in files {
            let failed = |error: &dyn std::fmt::Display| format!("{}: {error}", path.display());
            let file = std::fs::File::open(path).map_err(|error| failed(&error))?;
            let mut reader = std::io::BufReader::new(file);
            loop {
                line.clear();
                if reader
                    .read_line(&mut line)
                    .map_err(|error| failed(&error))?
                    == 0
                {
                    break;
                }
                // Only the top-level strings matter: nested values are skipped, not built.
                let fields: std::collections::BTreeMap<String, &serde_json::value::RawValue> =
                    serde_json::from_str(&line).map_err(|error| failed(&error))?;
                let strings = fields
                    .into_iter()
                    .filter_map(|(key, raw)| {
                        let text: String = serde_json::from_str(raw.get()).ok()?;
                        Some((key, serde_json::Value::String(text)))
                    })
                    .collect();
                let (schema, package, name) =
                    catalog::meta_fields(strings).map_err(|error| failed(&error))?;
                lines.push(&line, schema, package, name)?;
            }
        }
        lines.finish(name, catalog::newest_change(directory))
    }

    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// The answer to one request.
    fn answer(&self, request: &Request) -> Reply {
        let mut reply = self.route(request);
        reply.headers.push(("vary", "Accept-Encoding".to_owned()));
        reply
    }

    fn route(&self, request: &Request) -> Reply {
        let Some((catalog, endpoint)) = route(&request.path) else {
            return Reply::error(404, "404 page not found");
        };
        if request.method != Method::Get && request.method != Method::Head {
            return Reply::error(405, "Method Not Allowed");
        }
        if let Err(problems) = dns1123_subdomain(&catalog) {
            return Reply::error(400, &format!("invalid catalog name: {problems}"));
        }
        if catalog != self.name {
            return Reply::error(404, "404 Not Found");
        }
        match endpoint {
            Endpoint::All => self.all(request),
            Endpoint::Metas => self.metas(request),
        }
    }

    /// `/api/v1/all`: Go's `http.ServeContent` of the whole catalog.
    fn all(&self, request: &Request) -> Reply {
        let mut headers = vec![("content-type", JSONL.to_owned())];
        if let Some(modified) = self.modified.filter(|&time| time != SystemTime::UNIX_EPOCH) {
            headers.push(("last-modified", httpdate::fmt_http_date(modified)));
        }
        let range = match preconditions(request, self.modified, false) {
            Preconditions::Answered(status) => return Reply::bare(status, headers),
            Preconditions::Proceed => request.header("range").filter(|_| self.if_range(request)),
            Preconditions::Failed(reply) => return reply,
        };
        let mut pieces = vec![Piece::Lines(0, self.size)];
        let mut status = 200;
        match parse_ranges(range.unwrap_or(""), self.size) {
            Ok(ranges) if ranges.is_empty() => {}
            Ok(ranges) if ranges.iter().map(|&(_, length)| length).sum::<u64>() > self.size => {}
            Ok(ranges) if ranges.len() == 1 => {
                let (start, length) = ranges[0];
                status = 206;
                headers.push(("content-range", content_range(start, length, self.size)));
                pieces = vec![Piece::Lines(start, length)];
            }
            Ok(ranges) => {
                status = 206;
                let boundary = boundary();
                headers[0].1 = format!("multipart/byteranges; boundary={boundary}");
                pieces = multipart(&boundary, &ranges, self.size);
            }
            Err(RangeError::NoOverlap) => {
                return Reply::error(416, "invalid range: failed to overlap")
                    .with("content-range", format!("bytes */{}", self.size));
            }
            Err(RangeError::Invalid) => return Reply::error(416, "invalid range"),
        }
        headers.push(("accept-ranges", "bytes".to_owned()));
        Reply {
            status,
            headers,
            pieces,
            head: request.method == Method::Head,
            gzip: status == 200 && request.accepts_gzip(),
        }
    }

    /// Go's `checkIfRange`: a `Range` counts only if `If-Range` (when given)
    /// names the catalog's modification time (fbc gives no `ETag`).
    fn if_range(&self, request: &Request) -> bool {
        let Some(value) = request.header("if-range") else {
            return true;
        };
        if scan_etag(value).is_some() {
            return false;
        }
        match (self.modified, httpdate::parse_http_date(value)) {
            (Some(modified), Ok(time)) => time == modified,
            _ => false,
        }
    }

    /// `/api/v1/metas`: the documents matching every parameter given.
    fn metas(&self, request: &Request) -> Reply {
        let query = parse_query(&request.query);
        if query
            .iter()
            .any(|(key, _)| !matches!(key.as_str(), "schema" | "package" | "name"))
        {
            return Reply::error(400, "400 Bad Request");
        }
        let modified = self.modified.unwrap_or(SystemTime::UNIX_EPOCH);
        let last_modified = ("last-modified", httpdate::fmt_http_date(modified));
        let headers = vec![last_modified.clone(), ("content-type", JSONL.to_owned())];
        match preconditions(request, self.modified, true) {
            Preconditions::Answered(status) => {
                return Reply::bare(status, vec![last_modified]);
            }
            Preconditions::Failed(reply) => return reply,
            Preconditions::Proceed => {}
        }
        let wanted = |key: &str| {
            query
                .iter()
                .find(|(name, _)| name == key)
                .map(|(_, value)| value.as_str())
                .filter(|value| !value.is_empty())
        };
        let (schema, package, name) = (wanted("schema"), wanted("package"), wanted("name"));
        let pieces = if schema.is_none() && package.is_none() && name.is_none() {
            vec![Piece::Lines(0, self.size)]
        } else {
            // catalogd indexes only non-empty fields: a document without a
            // package is never found by a package.
            let matches = |want: Option<&str>, have: &str| {
                want.is_none_or(|want| !have.is_empty() && want == have)
            };
            self.sections
                .iter()
                .filter(|section| {
                    matches(schema, &section.schema)
                        && matches(package, &section.package)
                        && matches(name, &section.name)
                })
                .map(|section| Piece::Lines(section.start, section.length))
                .collect()
        };
        Reply {
            status: 200,
            headers,
            pieces,
            head: request.method == Method::Head,
            gzip: request.accepts_gzip(),
        }
    }
}

const JSONL: &str = "application/jsonl";

/// Responses smaller than this are not compressed (gzhttp's `DefaultMinSize`).
const GZIP_FROM: u64 = 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Method {
    Get,
    Head,
    Other,
}

/// What a request asks, as the handlers read it.
struct Request {
    method: Method,
    /// The path as sent (percent-escapes kept).
    path: String,
    query: String,
    headers: Vec<(String, String)>,
}

impl Request {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// gzhttp's choice: never for HEAD; gzip when `Accept-Encoding` gives it a
    /// quality above zero.
    fn accepts_gzip(&self) -> bool {
        self.method == Method::Get
            && self
                .header("accept-encoding")
                .is_some_and(|value| encoding_quality(value, "gzip") > 0.0)
    }
}

/// The quality `Accept-Encoding` gives `coding` (`*` counts for any).
fn encoding_quality(header: &str, coding: &str) -> f32 {
    let mut wildcard = 0.0;
    for item in header.split(',') {
        let mut parts = item.split(';');
        let name = parts.next().unwrap_or("").trim();
        let quality = parts
            .find_map(|parameter| {
                let (key, value) = parameter.split_once('=')?;
                (key.trim() == "q").then(|| value.trim().parse::<f32>().unwrap_or(0.0))
            })
            .unwrap_or(1.0);
        if name.eq_ignore_ascii_case(coding) {
            return quality;
        }
        if name == "*" {
            wildcard = quality;
        }
    }
    wildcard
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Endpoint {
    All,
    Metas,
}

/// `/catalogs/{catalog}/api/v1/all|metas` -> the catalog (unescaped) and the endpoint.
fn route(path: &str) -> Option<(String, Endpoint)> {
    let rest = path.strip_prefix("/catalogs/")?;
    let (catalog, endpoint) = rest.split_once('/')?;
    let endpoint = match endpoint {
        "api/v1/all" => Endpoint::All,
        "api/v1/metas" => Endpoint::Metas,
        _ => return None,
    };
    (!catalog.is_empty()).then(|| (percent_decode(catalog, false), endpoint))
}

/// `%XX` escapes (and, in a query, `+` for a space) decoded; an invalid escape
/// is kept as written.
fn percent_decode(text: &str, plus_is_space: bool) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        let escaped = (bytes[index] == b'%')
            .then(|| hex_pair(&bytes[index + 1..]))
            .flatten();
        match (escaped, bytes[index]) {
            (Some(byte), _) => {
                out.push(byte);
                index += 3;
                continue;
            }
            (None, b'+') if plus_is_space => out.push(b' '),
            (None, byte) => out.push(byte),
        }
        index += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex_pair(bytes: &[u8]) -> Option<u8> {
    let digit = |byte: u8| char::from(byte).to_digit(16);
    let high = digit(*bytes.first()?)?;
    let low = digit(*bytes.get(1)?)?;
    u8::try_from(high * 16 + low).ok()
}

/// Go's `url.ParseQuery` as `URL.Query` uses it: pairs with `;` or a bad escape
/// are left out.
fn parse_query(query: &str) -> Vec<(String, String)> {
    query
        .split('&')
        .filter(|pair| !pair.is_empty() && !pair.contains(';'))
        .filter(|pair| valid_escapes(pair))
        .map(|pair| {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            (percent_decode(key, true), percent_decode(value, true))
        })
        .collect()
}

fn valid_escapes(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes
        .iter()
        .enumerate()
        .filter(|&(_, &byte)| byte == b'%')
        .all(|(index, _)| hex_pair(&bytes[index + 1..]).is_some())
}

/// Kubernetes' `IsDNS1123Subdomain`, with its messages joined as catalogd joins them.
pub(crate) fn dns1123_subdomain(name: &str) -> Result<(), String> {
    const PATTERN: &str = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
    let mut problems = Vec::new();
    if name.len() > 253 {
        problems.push("must be no more than 253 characters".to_owned());
    }
    let alphanumeric = |byte: u8| byte.is_ascii_lowercase() || byte.is_ascii_digit();
    let label_ok = |label: &str| {
        let bytes = label.as_bytes();
        !bytes.is_empty()
            && alphanumeric(bytes[0])
            && alphanumeric(bytes[bytes.len() - 1])
            && bytes.iter().all(|&byte| alphanumeric(byte) || byte == b'-')
    };
    if !name.split('.').all(label_ok) {
        problems.push(format!(
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric \
             characters, '-' or '.', and must start and end with an alphanumeric character \
             (e.g. 'example.com', regex used for validation is '{PATTERN}')"
        ));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}

/// What the conditional headers decide before the content is looked at.
enum Preconditions {
    Proceed,
    /// 304 or 412, without a body.
    Answered(u16),
    /// catalogd's `/metas` answers an unreadable `If-Modified-Since` with 500.
    Failed(Reply),
}

/// RFC 7232 section 6 as Go's `checkPreconditions` follows it (fbc's resources
/// have no `ETag`). `strict` is catalogd's copy for `/metas`, where an unreadable
/// `If-Modified-Since` is an error rather than ignored.
fn preconditions(request: &Request, modified: Option<SystemTime>, strict: bool) -> Preconditions {
    let modified = modified.filter(|&time| time != SystemTime::UNIX_EPOCH);
    let if_match = request.header("if-match").map(|value| {
        // Only `*` matches a resource without an ETag.
        etag_list(value).iter().any(|tag| tag == "*")
    });
    let unmodified = if_match.or_else(|| {
        let since = httpdate::parse_http_date(request.header("if-unmodified-since")?).ok()?;
        Some(modified? <= since)
    });
    if unmodified == Some(false) {
        return Preconditions::Answered(412);
    }
    if let Some(value) = request.header("if-none-match") {
        return if etag_list(value).iter().any(|tag| tag == "*") {
            Preconditions::Answered(304)
        } else {
            Preconditions::Proceed
        };
    }
    let (Some(value), Some(modified)) = (request.header("if-modified-since"), modified) else {
        return Preconditions::Proceed;
    };
    match httpdate::parse_http_date(value) {
        Ok(since) if modified <= since => Preconditions::Answered(304),
        Err(_) if strict => Preconditions::Failed(Reply::error(500, "500 Internal Server Error")),
        Ok(_) | Err(_) => Preconditions::Proceed,
    }
}

/// The entity tags of an `If-Match` or `If-None-Match` list (`*` as itself), up
/// to the first malformed one.
fn etag_list(value: &str) -> Vec<String> {
    let mut tags = Vec::new();
    let mut rest = value;
    loop {
        rest = rest.trim_matches([' ', '\t']);
        if let Some(after) = rest.strip_prefix(',') {
            rest = after;
            continue;
        }
        if rest.is_empty() {
            return tags;
        }
        if rest.starts_with('*') {
            tags.push("*".to_owned());
            return tags;
        }
        let Some((tag, after)) = scan_etag(rest) else {
            return tags;
        };
        tags.push(tag.to_owned());
        rest = after;
    }
}

/// Go's `scanETag`: a `"…"` or `W/"…"` tag at the start of `text`, and the rest.
fn scan_etag(text: &str) -> Option<(&str, &str)> {
    let text = text.trim_matches([' ', '\t']);
    let start = if text.starts_with("W/") { 2 } else { 0 };
    let bytes = text.as_bytes();
    if bytes.len() < start + 2 || bytes[start] != b'"' {
        return None;
    }
    for (index, &byte) in bytes.iter().enumerate().skip(start + 1) {
        match byte {
            b'"' => return Some((&text[..=index], &text[index + 1..])),
            0x21 | 0x23..=0x7e | 0x80..=0xff => {}
            _ => return None,
        }
    }
    None
}

#[derive(Debug, PartialEq)]
enum RangeError {
    Invalid,
    NoOverlap,
}

/// Go's `parseRange`: `(start, length)` of each range of a `bytes=` header.
fn parse_ranges(header: &str, size: u64) -> Result<Vec<(u64, u64)>, RangeError> {
    if header.is_empty() {
        return Ok(Vec::new());
    }
    let spec = header.strip_prefix("bytes=").ok_or(RangeError::Invalid)?;
    let number = |text: &str| text.parse::<i64>().ok().and_then(|n| u64::try_from(n).ok());
    let mut ranges = Vec::new();
    let mut no_overlap = false;
    for range in spec.split(',') {
        let range = range.trim_matches([' ', '\t']);
        if range.is_empty() {
            continue;
        }
        let (start, end) = range.split_once('-').ok_or(RangeError::Invalid)?;
        let (start, end) = (
            start.trim_matches([' ', '\t']),
            end.trim_matches([' ', '\t']),
        );
        if start.is_empty() {
            if end.is_empty() || end.starts_with('-') {
                return Err(RangeError::Invalid);
            }
            let suffix = number(end).ok_or(RangeError::Invalid)?.min(size);
            ranges.push((size - suffix, suffix));
            continue;
        }
        let start = number(start).ok_or(RangeError::Invalid)?;
        if start >= size {
            no_overlap = true;
            continue;
        }
        let length = if end.is_empty() {
            size - start
        } else {
            let end = end
                .parse::<i64>()
                .ok()
                .and_then(|n| u64::try_from(n).ok())
                .filter(|&end| end >= start)
                .ok_or(RangeError::Invalid)?;
            end.min(size - 1) - start + 1
        };
        ranges.push((start, length));
    }
    if no_overlap && ranges.is_empty() {
        return Err(RangeError::NoOverlap);
    }
    Ok(ranges)
}

fn content_range(start: u64, length: u64, size: u64) -> String {
    format!("bytes {start}-{}/{size}", start + length - 1)
}

/// A boundary as Go's `multipart.Writer` makes one: 30 random bytes in hex.
fn boundary() -> String {
    use std::fmt::Write as _;
    use std::hash::{BuildHasher, Hasher};
    let mut text = String::with_capacity(60);
    while text.len() < 60 {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_usize(text.len());
        let _ = write!(text, "{:016x}", hasher.finish());
    }
    text.truncate(60);
    text
}

/// A `multipart/byteranges` body as Go's `ServeContent` writes it.
fn multipart(boundary: &str, ranges: &[(u64, u64)], size: u64) -> Vec<Piece> {
    let mut pieces = Vec::new();
    for (index, &(start, length)) in ranges.iter().enumerate() {
        let lead = if index == 0 { "" } else { "\r\n" };
        pieces.push(Piece::Text(format!(
            "{lead}--{boundary}\r\nContent-Range: {}\r\nContent-Type: {JSONL}\r\n\r\n",
            content_range(start, length, size)
        )));
        pieces.push(Piece::Lines(start, length));
    }
    pieces.push(Piece::Text(format!("\r\n--{boundary}--\r\n")));
    pieces
}

fn whole_seconds(time: SystemTime) -> SystemTime {
    let seconds = time
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_secs());
    SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(seconds)
}

/// One answer, before it is put on the wire.
struct Reply {
    status: u16,
    headers: Vec<(&'static str, String)>,
    /// The body, in order.
    pieces: Vec<Piece>,
    /// A HEAD request: the headers only.
    head: bool,
    /// Compress the body if it reaches [`GZIP_FROM`] bytes.
    gzip: bool,
}

/// Part of a body: text, or a stretch of the catalog's lines.
enum Piece {
    Text(String),
    Lines(u64, u64),
}

impl Piece {
    fn len(&self) -> u64 {
        match self {
            Piece::Text(text) => text.len() as u64,
            Piece::Lines(_, length) => *length,
        }
    }
}

impl Reply {
    /// Go's `http.Error`: the message as plain text, with a newline.
    fn error(status: u16, message: &str) -> Reply {
        Reply {
            status,
            headers: vec![
                ("content-type", "text/plain; charset=utf-8".to_owned()),
                ("x-content-type-options", "nosniff".to_owned()),
            ],
            pieces: vec![Piece::Text(format!("{message}\n"))],
            head: false,
            gzip: false,
        }
    }

    /// A status without a body (304, 412).
    fn bare(status: u16, mut headers: Vec<(&'static str, String)>) -> Reply {
        if status == 304 {
            headers.retain(|(name, _)| *name != "content-type");
        }
        Reply {
            status,
            headers,
            pieces: Vec::new(),
            head: true,
            gzip: false,
        }
    }

    fn with(mut self, name: &'static str, value: String) -> Reply {
        self.headers.push((name, value));
        self
    }

    fn body_len(&self) -> u64 {
        let pieces = &self.pieces;
        pieces.iter().map(Piece::len).sum()
    }
}

/// How long a client may take to send a request's headers.
const HEADER_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// Bytes read from the lines per chunk sent.
const CHUNK: usize = 64 * 1024;

type Streamed = http_body_util::channel::Channel<Bytes, std::io::Error>;

/// Answers HTTP/1.1 on `listener` until the runtime stops; each connection is
/// served on a task of its own, and a stalled one holds a chunk at most.
pub(crate) async fn serve(listener: tokio::net::TcpListener, view: Arc<View>) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            // Out of file descriptors, say: a moment for connections to close.
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            continue;
        };
        // Small answers are not held back for the client's delayed acknowledgement.
        let _ = stream.set_nodelay(true);
        let view = Arc::clone(&view);
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |request| {
                let view = Arc::clone(&view);
                async move { Ok::<_, std::convert::Infallible>(respond(&view, &request)) }
            });
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                .await;
        });
    }
}

fn respond<B>(view: &Arc<View>, request: &hyper::Request<B>) -> hyper::Response<Streamed> {
    let method = match *request.method() {
        hyper::Method::GET => Method::Get,
        hyper::Method::HEAD => Method::Head,
        _ => Method::Other,
    };
    let ours = Request {
        method,
        path: request.uri().path().to_owned(),
        query: request.uri().query().unwrap_or("").to_owned(),
        headers: request
            .headers()
            .iter()
            .map(|(name, value)| {
                (
                    name.as_str().to_owned(),
                    String::from_utf8_lossy(value.as_bytes()).into_owned(),
                )
            })
            .collect(),
    };
    let reply = view.answer(&ours);
    super::log::debug(
        "http request",
        &[
            ("method", request.method().as_str()),
            ("uri", &request.uri().to_string()),
            ("status", &reply.status.to_string()),
        ],
    );
    let length = reply.body_len();
    let gzip = reply.gzip && length >= GZIP_FROM;
    let mut response = hyper::Response::builder().status(reply.status);
    for (name, value) in &reply.headers {
        // gzhttp drops `Accept-Ranges` from what it compresses.
        if !(gzip && *name == "accept-ranges") {
            response = response.header(*name, value);
        }
    }
    if gzip {
        response = response.header("content-encoding", "gzip");
    } else if reply.status != 304 {
        response = response.header("content-length", length);
    }
    let (sender, body) = Streamed::new(2);
    if !reply.head {
        let pieces = reply.pieces;
        tokio::spawn(send(Arc::clone(view), pieces, gzip, sender));
    }
    response.body(body).unwrap_or_else(|_| {
        // Every header above is valid: this is never reached.
        hyper::Response::new(Streamed::new(1).1)
    })
}

/// Sends `pieces` in chunks, compressed with `gzip`; a catalog file that cannot
/// be read cuts the response. The reads are from the page cache and short, so
/// they are done on the task.
async fn send(
    view: Arc<View>,
    pieces: Vec<Piece>,
    gzip: bool,
    mut sender: http_body_util::channel::Sender<Bytes, std::io::Error>,
) {
    let mut encoder =
        gzip.then(|| flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default()));
    let mut buffer = vec![0; CHUNK];
    for piece in pieces {
        let (mut offset, end) = match piece {
            Piece::Text(text) => {
                if emit(&mut encoder, &mut sender, text.as_bytes())
                    .await
                    .is_err()
                {
                    return;
                }
                continue;
            }
            Piece::Lines(start, length) => (start, start + length),
        };
        while offset < end {
            let take = usize::try_from(end - offset).map_or(CHUNK, |left| left.min(CHUNK));
            if let Err(error) = view.lines.read_at(offset, &mut buffer[..take]) {
                sender.abort(error);
                return;
            }
            if emit(&mut encoder, &mut sender, &buffer[..take])
                .await
                .is_err()
            {
                return;
            }
            offset += take as u64;
        }
    }
    if let Some(encoder) = encoder
        && let Ok(rest) = encoder.finish()
    {
        let _ = sender.send_data(Bytes::from(rest)).await;
    }
}

/// Sends `bytes`, or what compressing them gave so far.
async fn emit(
    encoder: &mut Option<flate2::write::GzEncoder<Vec<u8>>>,
    sender: &mut http_body_util::channel::Sender<Bytes, std::io::Error>,
    bytes: &[u8],
) -> Result<(), ()> {
    let chunk = match encoder {
        None => Bytes::copy_from_slice(bytes),
        Some(encoder) => {
            encoder.write_all(bytes).map_err(|_| ())?;
            if encoder.get_ref().len() < CHUNK / 4 {
                return Ok(());
            }
            Bytes::from(std::mem::take(encoder.get_mut()))
        }
    };
    sender.send_data(chunk).await.map_err(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A view of three documents, last changed at 1,000,000,000 s.
    fn view() -> View {
        let documents = [
            (
                "olm.package",
                "",
                "etcd",
                "{\"name\":\"etcd\",\"schema\":\"olm.package\"}\n",
            ),
            (
                "olm.channel",
                "etcd",
                "stable",
                "{\"name\":\"stable\",\"package\":\"etcd\",\"schema\":\"olm.channel\"}\n",
            ),
            (
                "olm.package",
                "",
                "other",
                "{\"name\":\"other\",\"schema\":\"olm.package\"}\n",
            ),
        ];
        let mut lines = Vec::new();
        let mut sections = Vec::new();
        for (schema, package, name, blob) in documents {
            sections.push(Section {
                start: lines.len() as u64,
                length: blob.len() as u64,
                schema: schema.into(),
                package: package.into(),
                name: name.into(),
            });
            lines.extend_from_slice(blob.as_bytes());
        }
        View {
            name: "operatorhubio".to_owned(),
            size: lines.len() as u64,
            lines: Store::Memory(lines),
            sections,
            modified: Some(SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000_000)),
        }
    }

    const MODIFIED: &str = "Sun, 09 Sep 2001 01:46:40 GMT";

    fn get(path: &str, headers: &[(&str, &str)]) -> Request {
        let (path, query) = path.split_once('?').unwrap_or((path, ""));
        Request {
            method: Method::Get,
            path: path.to_owned(),
            query: query.to_owned(),
            headers: headers
                .iter()
                .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
                .collect(),
        }
    }

    fn header<'r>(reply: &'r Reply, name: &str) -> Option<&'r str> {
        reply
            .headers
            .iter()
            .find(|(key, _)| *key == name)
            .map(|(_, value)| value.as_str())
    }

    /// The body, with the view's lines filled in.
    fn body(view: &View, reply: &Reply) -> String {
        let pieces = &reply.pieces;
        let mut text = Vec::new();
        for piece in pieces {
            match piece {
                Piece::Text(part) => text.extend_from_slice(part.as_bytes()),
                Piece::Lines(start, length) => {
                    let mut buffer = vec![0; *length as usize];
                    view.lines.read_at(*start, &mut buffer).expect("read");
                    text.extend_from_slice(&buffer);
                }
            }
        }
        String::from_utf8(text).expect("UTF-8")
    }

    #[test]
    fn all_is_every_line_with_the_headers_of_serve_content() {
        let view = view();
        let reply = view.answer(&get("/catalogs/operatorhubio/api/v1/all", &[]));
        assert_eq!(reply.status, 200);
        assert_eq!(header(&reply, "content-type"), Some("application/jsonl"));
        assert_eq!(header(&reply, "last-modified"), Some(MODIFIED));
        assert_eq!(header(&reply, "accept-ranges"), Some("bytes"));
        assert_eq!(header(&reply, "vary"), Some("Accept-Encoding"));
        assert_eq!(body(&view, &reply).lines().count(), 3);
        assert!(!reply.gzip);
        let gzipped = view.answer(&get(
            "/catalogs/operatorhubio/api/v1/all",
            &[("Accept-Encoding", "deflate, gzip;q=0.5")],
        ));
        assert!(gzipped.gzip);
        let refused = view.answer(&get(
            "/catalogs/operatorhubio/api/v1/all",
            &[("Accept-Encoding", "gzip;q=0")],
        ));
        assert!(!refused.gzip);
    }

    #[test]
    fn conditional_requests_answer_304_and_412() {
        let view = view();
        let path = "/catalogs/operatorhubio/api/v1/all";
        for (name, value, status) in [
            ("If-Modified-Since", MODIFIED, 304),
            ("If-Modified-Since", "Sun, 09 Sep 2001 01:46:39 GMT", 200),
            ("If-Modified-Since", "not a date", 200),
            ("If-None-Match", "*", 304),
            ("If-None-Match", "\"abc\"", 200),
            ("If-Match", "\"abc\"", 412),
            ("If-Match", "*", 200),
            ("If-Unmodified-Since", "Sun, 09 Sep 2001 01:46:39 GMT", 412),
            ("If-Unmodified-Since", MODIFIED, 200),
        ] {
            let reply = view.answer(&get(path, &[(name, value)]));
            assert_eq!(reply.status, status, "{name}: {value}");
            if status == 304 {
                assert_eq!(header(&reply, "content-type"), None);
                assert_eq!(header(&reply, "last-modified"), Some(MODIFIED));
            }
        }
        // catalogd's own copy for /metas fails on a date it cannot read.
        let reply = view.answer(&get(
            "/catalogs/operatorhubio/api/v1/metas",
            &[("If-Modified-Since", "not a date")],
        ));
        assert_eq!(reply.status, 500);
    }

    #[test]
    fn ranges_are_served_as_serve_content_serves_them() {
        let view = view();
        let path = "/catalogs/operatorhubio/api/v1/all";
        let size = view.size;
        let reply = view.answer(&get(path, &[("Range", "bytes=0-9")]));
        assert_eq!(reply.status, 206);
        assert_eq!(
            header(&reply, "content-range"),
            Some(format!("bytes 0-9/{size}").as_str())
        );
        assert_eq!(body(&view, &reply), "{\"name\":\"e");
        // A part is never compressed (gzhttp leaves responses with a Content-Range).
        let reply = view.answer(&get(
            path,
            &[("Range", "bytes=0-9"), ("Accept-Encoding", "gzip")],
        ));
        assert!(!reply.gzip);

        let reply = view.answer(&get(path, &[("Range", "bytes=-4")]));
        assert_eq!(body(&view, &reply), "e\"}\n");

        let reply = view.answer(&get(path, &[("Range", "bytes=0-1,-2")]));
        assert_eq!(reply.status, 206);
        let content_type = header(&reply, "content-type").expect("a type");
        let boundary = content_type
            .strip_prefix("multipart/byteranges; boundary=")
            .expect("multipart");
        assert_eq!(boundary.len(), 60);
        assert_eq!(
            body(&view, &reply),
            format!(
                "--{boundary}\r\nContent-Range: bytes 0-1/{size}\r\nContent-Type: application/jsonl\r\n\r\n{{\"\
                 \r\n--{boundary}\r\nContent-Range: bytes {}-{}/{size}\r\nContent-Type: application/jsonl\r\n\r\n}}\n\
                 \r\n--{boundary}--\r\n",
                size - 2,
                size - 1
            )
        );

        let reply = view.answer(&get(path, &[("Range", format!("bytes={size}-").as_str())]));
        assert_eq!(reply.status, 416);
        assert_eq!(
            header(&reply, "content-range"),
            Some(format!("bytes */{size}").as_str())
        );
        assert_eq!(body(&view, &reply), "invalid range: failed to overlap\n");
        let reply = view.answer(&get(path, &[("Range", "items=0-1")]));
        assert_eq!(
            (reply.status, body(&view, &reply).as_str()),
            (416, "invalid range\n")
        );
        // Ranges adding up to more than the content are ignored.
        let reply = view.answer(&get(path, &[("Range", "bytes=0-,0-")]));
        assert_eq!(reply.status, 200);
        // If-Range: the modification time keeps the range, anything else drops it.
        let reply = view.answer(&get(
            path,
            &[("Range", "bytes=0-1"), ("If-Range", MODIFIED)],
        ));
        assert_eq!(reply.status, 206);
        let reply = view.answer(&get(path, &[("Range", "bytes=0-1"), ("If-Range", "\"x\"")]));
        assert_eq!(reply.status, 200);
    }

    /// Files in fs.WalkDir's order (`a/` before `a-c`, unlike a sort of whole
    /// paths), every document as Go re-encodes it, unknown fields kept.
    #[test]
    fn the_view_is_built_in_walk_order_as_go_writes_it() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        std::fs::create_dir(dir.path().join("a")).expect("mkdir");
        std::fs::write(
            dir.path().join("a-c.json"),
            "{\"schema\":\"olm.package\",\"name\":\"second\",\"extra\":1.0}",
        )
        .expect("written");
        std::fs::write(
            dir.path().join("a/b.yaml"),
            "schema: my.schema\npackage: p\nname: first\nz: '<&>'\nb: [2, 1e3]\n---\nschema: olm.channel\npackage: p\nname: c\n",
        )
        .expect("written");
        let view = View::build(dir.path(), "test".to_owned()).expect("built");
        let reply = view.answer(&get("/catalogs/test/api/v1/all", &[]));
        assert_eq!(
            body(&view, &reply),
            "{\"b\":[2,1000],\"name\":\"first\",\"package\":\"p\",\"schema\":\"my.schema\",\"z\":\"<&>\"}\n\
             {\"name\":\"c\",\"package\":\"p\",\"schema\":\"olm.channel\"}\n\
             {\"extra\":1,\"name\":\"second\",\"schema\":\"olm.package\"}\n"
        );
        let reply = view.answer(&get("/catalogs/test/api/v1/metas?package=p&name=c", &[]));
        assert_eq!(
            body(&view, &reply),
            "{\"name\":\"c\",\"package\":\"p\",\"schema\":\"olm.channel\"}\n"
        );
        assert!(matches!(view.lines, Store::File(_)));
    }

    #[test]
    fn go_range_parsing() {
        assert_eq!(parse_ranges("", 10), Ok(vec![]));
        assert_eq!(parse_ranges("bytes=2-4", 10), Ok(vec![(2, 3)]));
        assert_eq!(parse_ranges("bytes=2-40", 10), Ok(vec![(2, 8)]));
        assert_eq!(
            parse_ranges("bytes= 2 - , ,-3", 10),
            Ok(vec![(2, 8), (7, 3)])
        );
        assert_eq!(parse_ranges("bytes=-30", 10), Ok(vec![(0, 10)]));
        assert_eq!(parse_ranges("bytes=10-", 10), Err(RangeError::NoOverlap));
        assert_eq!(parse_ranges("bytes=10-,1-2", 10), Ok(vec![(1, 2)]));
        for invalid in [
            "bytes=4-2",
            "bytes=-",
            "bytes=--1",
            "bytes=a-",
            "bytes=1",
            "bytes=-1-2",
        ] {
            assert_eq!(
                parse_ranges(invalid, 10),
                Err(RangeError::Invalid),
                "{invalid}"
            );
        }
    }

    #[test]
    fn metas_select_by_every_parameter_given() {
        let view = view();
        let names = |query: &str| {
            let reply = view.answer(&get(
                &format!("/catalogs/operatorhubio/api/v1/metas{query}"),
                &[],
            ));
            assert_eq!(reply.status, 200, "{query}");
            assert_eq!(header(&reply, "last-modified"), Some(MODIFIED));
            body(&view, &reply)
                .lines()
                .map(|line| {
                    let value: serde_json::Value = serde_json::from_str(line).expect("JSON");
                    value["name"].as_str().unwrap_or("").to_owned()
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(names(""), ["etcd", "stable", "other"]);
        assert_eq!(names("?schema=olm.package"), ["etcd", "other"]);
        assert_eq!(names("?schema=olm.package&name=other"), ["other"]);
        assert_eq!(names("?package=etcd"), ["stable"]);
        assert_eq!(names("?schema=&package="), ["etcd", "stable", "other"]);
        assert_eq!(names("?name=%65tcd"), ["etcd"]);
        assert_eq!(names("?package=nothing"), Vec::<String>::new());
        let reply = view.answer(&get(
            "/catalogs/operatorhubio/api/v1/metas?schema=x&limit=1",
            &[],
        ));
        assert_eq!(
            (reply.status, body(&view, &reply).as_str()),
            (400, "400 Bad Request\n")
        );
    }

    #[test]
    fn routes_methods_and_names_as_catalogd() {
        let view = view();
        let status = |method: Method, path: &str| {
            let mut request = get(path, &[]);
            request.method = method;
            let reply = view.answer(&request);
            (reply.status, body(&view, &reply))
        };
        assert_eq!(
            status(Method::Get, "/catalogs/operatorhubio/api/v1/graphql").0,
            404
        );
        assert_eq!(
            status(Method::Get, "/other"),
            (404, "404 page not found\n".to_owned())
        );
        assert_eq!(
            status(Method::Other, "/catalogs/operatorhubio/api/v1/all"),
            (405, "Method Not Allowed\n".to_owned())
        );
        assert_eq!(
            status(Method::Get, "/catalogs/elsewhere/api/v1/all"),
            (404, "404 Not Found\n".to_owned())
        );
        let (code, text) = status(Method::Get, "/catalogs/Upper_Case/api/v1/all");
        assert_eq!(code, 400);
        assert!(
            text.starts_with("invalid catalog name: a lowercase RFC 1123 subdomain must consist"),
            "{text}"
        );
        let (code, text) = status(
            Method::Get,
            &format!("/catalogs/{}/api/v1/all", "a".repeat(254)),
        );
        assert_eq!(code, 400);
        assert!(
            text.starts_with("invalid catalog name: must be no more than 253 characters\n"),
            "{text}"
        );
        let head = status(Method::Head, "/catalogs/operatorhubio/api/v1/all");
        assert_eq!(head.0, 200);
        assert!(
            view.answer(&{
                let mut request = get("/catalogs/operatorhubio/api/v1/all", &[]);
                request.method = Method::Head;
                request
            })
            .head
        );
    }

    #[test]
    fn names_and_queries_are_read_as_go_reads_them() {
        assert!(dns1123_subdomain("operatorhubio").is_ok());
        assert!(dns1123_subdomain("a.b-c.d9").is_ok());
        for bad in ["", "-a", "a-", "a..b", "A", "a_b", ".a"] {
            assert!(dns1123_subdomain(bad).is_err(), "{bad}");
        }
        assert_eq!(
            parse_query("a=1&b&c=%zz&d=x;y&e=a+b%2B"),
            [
                ("a".to_owned(), "1".to_owned()),
                ("b".to_owned(), String::new()),
                ("e".to_owned(), "a b+".to_owned())
            ]
        );
        assert_eq!(
            route("/catalogs/a%2Fb/api/v1/all"),
            Some(("a/b".to_owned(), Endpoint::All))
        );
        assert_eq!(route("/catalogs//api/v1/all"), None);
        assert_eq!(route("/catalogs/x/api/v1/all/"), None);
        assert!((encoding_quality("br, *;q=0.3", "gzip") - 0.3).abs() < 1e-6);
        assert!((encoding_quality("GZIP", "gzip") - 1.0).abs() < 1e-6);
        assert!(encoding_quality("br", "gzip") <= 0.0);
    }
}
