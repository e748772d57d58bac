//! Go's `http.ServeContent` for the view's lines: conditional requests, byte
//! ranges (single and `multipart/byteranges`), and the reply they make.

use std::time::SystemTime;

use super::JSONL;
use super::request::Request;

/// What the conditional headers decide before the content is looked at.
pub(super) enum Preconditions {
    Proceed,
    /// 304 or 412, without a body.
    Answered(u16),
    /// catalogd's `/metas` answers an unreadable `If-Modified-Since` with 500.
    Failed(Reply),
}

/// RFC 7232 section 6 as Go's `checkPreconditions` follows it (fbc's resources
/// have no `ETag`). `strict` is catalogd's copy for `/metas`, where an unreadable
/// `If-Modified-Since` is an error rather than ignored.
pub(super) fn preconditions(
    request: &Request,
    modified: Option<SystemTime>,
    strict: bool,
) -> Preconditions {
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
pub(super) fn etag_list(value: &str) -> Vec<String> {
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
pub(super) fn scan_etag(text: &str) -> Option<(&str, &str)> {
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
pub(super) enum RangeError {
    Invalid,
    NoOverlap,
}

/// Go's `parseRange`: `(start, length)` of each range of a `bytes=` header.
pub(super) fn parse_ranges(header: &str, size: u64) -> Result<Vec<(u64, u64)>, RangeError> {
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

pub(super) fn content_range(start: u64, length: u64, size: u64) -> String {
    format!("bytes {start}-{}/{size}", start + length - 1)
}

/// A boundary as Go's `multipart.Writer` makes one: 30 random bytes in hex.
pub(super) fn boundary() -> String {
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
pub(super) fn multipart(boundary: &str, ranges: &[(u64, u64)], size: u64) -> Vec<Piece> {
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

pub(super) fn whole_seconds(time: SystemTime) -> SystemTime {
    let seconds = time
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_secs());
    SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(seconds)
}

/// One answer, before it is put on the wire.
pub(super) struct Reply {
    pub(super) status: u16,
    pub(super) headers: Vec<(&'static str, String)>,
    /// The body, in order.
    pub(super) pieces: Vec<Piece>,
    /// A HEAD request: the headers only.
    pub(super) head: bool,
    /// Compress the body if it reaches [`GZIP_FROM`] bytes.
    pub(super) gzip: bool,
}

/// Part of a body: text, or a stretch of the catalog's lines.
pub(super) enum Piece {
    Text(String),
    Lines(u64, u64),
}

impl Piece {
    pub(super) fn len(&self) -> u64 {
        match self {
            Piece::Text(text) => text.len() as u64,
            Piece::Lines(_, length) => *length,
        }
    }
}

impl Reply {
    /// Go's `http.Error`: the message as plain text, with a newline.
    pub(super) fn error(status: u16, message: &str) -> Reply {
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
    pub(super) fn bare(status: u16, mut headers: Vec<(&'static str, String)>) -> Reply {
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

    pub(super) fn with(mut self, name: &'static str, value: String) -> Reply {
        self.headers.push((name, value));
        self
    }

    pub(super) fn body_len(&self) -> u64 {
        let pieces = &self.pieces;
        pieces.iter().map(Piece::len).sum()
    }
}
