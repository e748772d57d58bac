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

mod content;
mod request;
#[cfg(test)]
mod tests;

use content::{
    Piece, Preconditions, RangeError, Reply, boundary, content_range, multipart, parse_ranges,
    preconditions, scan_etag, whole_seconds,
};
pub(crate) use request::dns1123_subdomain;
use request::{Endpoint, Method, Request, parse_query, route};

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
    /// (`files`, in order, their markers standing for the large values of the
    /// adopted values file); `directory`'s files give the time it last changed.
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
                let line =
                    crate::model::property::spill::expand(&line).map_err(|error| failed(&error))?;
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
