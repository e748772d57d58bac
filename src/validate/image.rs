//! Image pull specs as opm checks them: `ParseNormalizedNamed` of
//! `go.podman.io/image/v5/docker/reference` (with `opencontainers/go-digest`
//! v1.0.0 for digests), reporting the same error texts. Only validity matters
//! here, so nothing is kept of a valid reference.

use crate::go::fmt::quote;

const NAME_MAX_LENGTH: usize = 255;
const TAG_MAX_LENGTH: usize = 128;

/// Why a pull spec is not a valid normalized reference; `Display` is the library's text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ReferenceError {
    #[error("invalid repository name ({0}), cannot specify 64-byte hexadecimal strings")]
    Identifier(String),
    #[error("invalid reference format: repository name must be lowercase")]
    UppercaseRemote,
    #[error("repository name must be lowercase")]
    Uppercase,
    #[error("invalid reference format")]
    Format,
    #[error("repository name must not be more than {NAME_MAX_LENGTH} characters")]
    NameTooLong,
    #[error("invalid checksum digest format")]
    DigestFormat,
    #[error("invalid checksum digest length")]
    DigestLength,
    #[error("unsupported digest algorithm")]
    DigestUnsupported,
}

/// opm's `invalid image pull spec "<spec>": <error>` tail.
pub(crate) fn pull_spec_error(spec: &str) -> Option<String> {
    parse_normalized_named(spec)
        .err()
        .map(|error| format!("invalid image pull spec {}: {error}", quote(spec)))
}

/// `ParseNormalizedNamed`: reject bare image ids, add the default domain and
/// `library/`, insist on a lowercase repository, then parse the full reference.
pub(crate) fn parse_normalized_named(spec: &str) -> Result<(), ReferenceError> {
    if spec.len() == 64
        && spec
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    {
        return Err(ReferenceError::Identifier(spec.to_owned()));
    }
    let (domain, remainder) = split_docker_domain(spec);
    let remote = remainder.split(':').next().unwrap_or_default();
    if go_lowercase(remote) != remote {
        return Err(ReferenceError::UppercaseRemote);
    }
    parse(&format!("{domain}/{remainder}"))
}

/// `splitDockerDomain`: the first path element is a registry when it looks like
/// a host (a dot, a port, or `localhost`); Docker Hub names get `library/`.
fn split_docker_domain(name: &str) -> (&str, String) {
    let (mut domain, remainder) = match name.split_once('/') {
        Some((first, rest)) if first.contains(['.', ':']) || first == "localhost" => {
            (first, rest.to_owned())
        }
        _ => ("docker.io", name.to_owned()),
    };
    if domain == "index.docker.io" {
        domain = "docker.io";
    }
    if domain == "docker.io" && !remainder.contains('/') {
        return (domain, format!("library/{remainder}"));
    }
    (domain, remainder)
}

/// Go's `strings.ToLower`: per character simple case mapping.
fn go_lowercase(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            // The one character whose full lowercase mapping is longer than its simple one.
            '\u{130}' => 'i',
            c => c.to_lowercase().next().unwrap_or(c),
        })
        .collect()
}

/// `reference.Parse`: the grammar first, then the name length, then the digest.
fn parse(text: &str) -> Result<(), ReferenceError> {
    let Some(parts) = split_reference(text) else {
        if split_reference(&go_lowercase(text)).is_some() {
            return Err(ReferenceError::Uppercase);
        }
        return Err(ReferenceError::Format);
    };
    if parts.name.len() > NAME_MAX_LENGTH {
        return Err(ReferenceError::NameTooLong);
    }
    parts.digest.map_or(Ok(()), validate_digest)
}

struct Parts<'a> {
    name: &'a str,
    digest: Option<&'a str>,
}

/// Matches `name[:tag][@digest]` against the reference grammar. Names and tags
/// cannot contain `@`, and a tag cannot contain `:` or `/`, so the split is unique.
fn split_reference(text: &str) -> Option<Parts<'_>> {
    let (name_and_tag, digest) = match text.split_once('@') {
        Some((left, digest)) => (left, Some(digest)),
        None => (text, None),
    };
    if digest.is_some_and(|digest| !is_digest(digest)) {
        return None;
    }
    let last_slash = name_and_tag.rfind('/');
    let (name, tag) = match name_and_tag.rfind(':') {
        Some(colon) if last_slash.is_none_or(|slash| colon > slash) => {
            (&name_and_tag[..colon], Some(&name_and_tag[colon + 1..]))
        }
        _ => (name_and_tag, None),
    };
    if tag.is_some_and(|tag| !is_tag(tag)) || !is_name(name) {
        return None;
    }
    Some(Parts { name, digest })
}

/// `[domain/]component(/component)*`: the first element may be a registry host.
fn is_name(name: &str) -> bool {
    let mut elements = name.split('/');
    let first = elements.next().unwrap_or_default();
    let rest: Vec<&str> = elements.collect();
    let first_ok = is_component(first) || (!rest.is_empty() && is_domain(first));
    first_ok && rest.iter().all(|element| is_component(element))
}

/// `[a-z0-9]+(?:(?:[._]|__|[-]*)[a-z0-9]+)*`
fn is_component(text: &str) -> bool {
    let bytes = text.as_bytes();
    let alphanumeric = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    let mut index = 0;
    loop {
        let start = index;
        while index < bytes.len() && alphanumeric(bytes[index]) {
            index += 1;
        }
        if index == start {
            return false;
        }
        if index == bytes.len() {
            return true;
        }
        let separator_start = index;
        while index < bytes.len() && !alphanumeric(bytes[index]) {
            index += 1;
        }
        let separator = &text[separator_start..index];
        let dashes = separator.bytes().all(|b| b == b'-');
        if !(dashes || matches!(separator, "." | "_" | "__")) {
            return false;
        }
    }
}

/// `host(.host)*(:port)?` where a host part is letters, digits and inner dashes.
fn is_domain(text: &str) -> bool {
    let (host, port) = match text.split_once(':') {
        Some((host, port)) => (host, Some(port)),
        None => (text, None),
    };
    let port_ok =
        port.is_none_or(|port| !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()));
    port_ok
        && host.split('.').all(|part| {
            let bytes = part.as_bytes();
            !bytes.is_empty()
                && bytes[0].is_ascii_alphanumeric()
                && bytes[bytes.len() - 1].is_ascii_alphanumeric()
                && bytes
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || *b == b'-')
        })
}

/// `[\w][\w.-]{0,127}`
fn is_tag(tag: &str) -> bool {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let bytes = tag.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= TAG_MAX_LENGTH
        && word(bytes[0])
        && bytes.iter().all(|b| word(*b) || *b == b'.' || *b == b'-')
}

/// `[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][[:xdigit:]]{32,}`
fn is_digest(digest: &str) -> bool {
    let Some((algorithm, hex)) = digest.split_once(':') else {
        return false;
    };
    let algorithm_ok = algorithm.split(['-', '_', '+', '.']).all(|part| {
        let bytes = part.as_bytes();
        !bytes.is_empty()
            && bytes[0].is_ascii_alphabetic()
            && bytes.iter().all(u8::is_ascii_alphanumeric)
    });
    algorithm_ok && hex.len() >= 32 && hex.bytes().all(|b| b.is_ascii_hexdigit())
}

/// go-digest v1.0.0 `Digest.Validate` on a digest the grammar accepted.
fn validate_digest(digest: &str) -> Result<(), ReferenceError> {
    let (algorithm, encoded) = digest
        .split_once(':')
        .expect("the grammar requires a colon");
    let size = match algorithm {
        "sha256" => 32,
        "sha384" => 48,
        "sha512" => 64,
        _ => {
            // Unknown algorithms must still fit go-digest's own, lowercase grammar.
            let lowercase_parts = algorithm.split(['.', '+', '_', '-']).all(|part| {
                !part.is_empty()
                    && part
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
            });
            return Err(if lowercase_parts {
                ReferenceError::DigestUnsupported
            } else {
                ReferenceError::DigestFormat
            });
        }
    };
    if encoded.len() != size * 2 {
        return Err(ReferenceError::DigestLength);
    }
    if encoded
        .bytes()
        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    {
        Ok(())
    } else {
        Err(ReferenceError::DigestFormat)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEX64: &str = "7cc4b5aefd1d0cadf8d97d4350462ba51c694ebca145b08d7d41b41acc8db5aa";

    fn check(spec: &str) -> Result<(), String> {
        parse_normalized_named(spec).map_err(|error| error.to_string())
    }

    #[test]
    fn valid_references() {
        for spec in [
            "busybox",
            "quay.io/foo/bar:v1.0.0",
            "localhost:5000/foo",
            "localhost/foo:latest",
            "registry.example.com:443/a/b/c",
            "foo__bar/x-y.z--w:TAG_1.0",
            "Quay.IO/foo/bar",
            &format!("quay.io/foo/bar@sha256:{HEX64}"),
            &format!("quay.io/foo/bar:v1@sha256:{HEX64}"),
            "busybox:5000",
        ] {
            assert_eq!(check(spec), Ok(()), "{spec}");
        }
    }

    #[test]
    fn messages_match_the_library() {
        let cases = [
            (
                HEX64.to_owned(),
                format!(
                    "invalid repository name ({HEX64}), cannot specify 64-byte hexadecimal strings"
                ),
            ),
            (
                "quay.io/Foo/bar".to_owned(),
                "invalid reference format: repository name must be lowercase".to_owned(),
            ),
            (
                "quay.io/foo/bar:".to_owned(),
                "invalid reference format".to_owned(),
            ),
            (
                "quay.io/foo/bar:a:b".to_owned(),
                "invalid reference format".to_owned(),
            ),
            (
                "quay.io/foo//bar".to_owned(),
                "invalid reference format".to_owned(),
            ),
            ("foo:-tag".to_owned(), "invalid reference format".to_owned()),
            (
                format!("quay.io/foo@ssha256:{HEX64}"),
                "unsupported digest algorithm".to_owned(),
            ),
            (
                format!("quay.io/foo@md5:{}", &HEX64[..32]),
                "unsupported digest algorithm".to_owned(),
            ),
            (
                "quay.io/foo@md5:abc".to_owned(),
                "invalid reference format".to_owned(),
            ),
            (
                format!("quay.io/foo@sha256:{}", &HEX64[..40]),
                "invalid checksum digest length".to_owned(),
            ),
            (
                format!("quay.io/foo@sha256:{}", HEX64.to_uppercase()),
                "invalid checksum digest format".to_owned(),
            ),
            (
                format!("quay.io/foo:v1@SHA256:{HEX64}"),
                "invalid checksum digest format".to_owned(),
            ),
            (
                format!("quay.io/foo@SHA256:{HEX64}"),
                "invalid reference format: repository name must be lowercase".to_owned(),
            ),
            (
                format!("quay.io/{}", "a".repeat(250)),
                "repository name must not be more than 255 characters".to_owned(),
            ),
            (
                "foo:\u{130}".to_owned(),
                "repository name must be lowercase".to_owned(),
            ),
        ];
        for (spec, expected) in cases {
            assert_eq!(check(&spec), Err(expected), "{spec}");
        }
    }

    #[test]
    fn the_default_domain_counts_towards_the_name_length() {
        // `docker.io/library/` makes a 240-character name too long.
        assert_eq!(
            check(&"a".repeat(240)),
            Err("repository name must not be more than 255 characters".to_owned())
        );
        assert_eq!(check(&"a".repeat(237)), Ok(()));
    }

    #[test]
    fn pull_spec_errors_quote_the_spec() {
        assert_eq!(pull_spec_error("quay.io/foo"), None);
        assert_eq!(
            pull_spec_error("quay.io/Foo").as_deref(),
            Some(
                "invalid image pull spec \"quay.io/Foo\": invalid reference format: repository name must be lowercase"
            )
        );
    }
}
