//! What a request asks: its method, path, query and headers, read as Go's
//! `net/http` and catalogd read them.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Method {
    Get,
    Head,
    Other,
}

/// What a request asks, as the handlers read it.
pub(super) struct Request {
    pub(super) method: Method,
    /// The path as sent (percent-escapes kept).
    pub(super) path: String,
    pub(super) query: String,
    pub(super) headers: Vec<(String, String)>,
}

impl Request {
    pub(super) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// gzhttp's choice: never for HEAD; gzip when `Accept-Encoding` gives it a
    /// quality above zero.
    pub(super) fn accepts_gzip(&self) -> bool {
        self.method == Method::Get
            && self
                .header("accept-encoding")
                .is_some_and(|value| encoding_quality(value, "gzip") > 0.0)
    }
}

/// The quality `Accept-Encoding` gives `coding` (`*` counts for any).
pub(super) fn encoding_quality(header: &str, coding: &str) -> f32 {
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
pub(super) enum Endpoint {
    All,
    Metas,
}

/// `/catalogs/{catalog}/api/v1/all|metas` -> the catalog (unescaped) and the endpoint.
pub(super) fn route(path: &str) -> Option<(String, Endpoint)> {
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
pub(super) fn percent_decode(text: &str, plus_is_space: bool) -> String {
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

pub(super) fn hex_pair(bytes: &[u8]) -> Option<u8> {
    let digit = |byte: u8| char::from(byte).to_digit(16);
    let high = digit(*bytes.first()?)?;
    let low = digit(*bytes.get(1)?)?;
    u8::try_from(high * 16 + low).ok()
}

/// Go's `url.ParseQuery` as `URL.Query` uses it: pairs with `;` or a bad escape
/// are left out.
pub(super) fn parse_query(query: &str) -> Vec<(String, String)> {
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

pub(super) fn valid_escapes(text: &str) -> bool {
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
