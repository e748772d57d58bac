//! `fbc init` (spec §10.7): an `olm.package` blob with an optional description and
//! icon, whose media type is detected as opm detects it (h2non/filetype's matchers
//! in their order, with go-is-svg's SVG test first).

use crate::model::Package;
use crate::model::package::{Details, Icon};

/// Builds the package blob.
pub(crate) fn package(
    name: &str,
    default_channel: &str,
    description: Option<String>,
    icon: Option<(Vec<u8>, String)>,
) -> Package {
    let mut package = Package {
        name: name.into(),
        default_channel: default_channel.into(),
        details: None,
    };
    package.set_details(Details {
        icon: icon.map(|(data, media_type)| Icon {
            data: Some(data),
            media_type,
        }),
        description: description.unwrap_or_default().into(),
        properties: Box::default(),
    });
    package
}

/// The icon's media type, or opm's error (`detect icon mediatype: Empty buffer`,
/// `detected invalid type "<mime>": not an image`).
pub(crate) fn icon_media_type(data: &[u8]) -> Result<&'static str, String> {
    if data.is_empty() {
        return Err("detect icon mediatype: Empty buffer".to_owned());
    }
    let detected = if is_svg(data) {
        "image/svg+xml"
    } else {
        application_type(data)
            .or_else(|| image_type(data))
            .or_else(|| other_type(data))
            .unwrap_or("")
    };
    if detected.starts_with("image/") {
        Ok(detected)
    } else {
        Err(format!(
            "detected invalid type {}: not an image",
            crate::go::fmt::quote(detected)
        ))
    }
}

/// The application matchers filetype tries before the image ones.
fn application_type(data: &[u8]) -> Option<&'static str> {
    if data.starts_with(b"\0asm\x01\0\0\0") {
        return Some("application/wasm");
    }
    if data.len() > 35 && data.starts_with(b"dex\n") && data[7] == 0 {
        return Some("application/vnd.android.dex");
    }
    if data.len() > 100 && data.starts_with(b"dey\n036\0") {
        return Some("application/vnd.android.dey");
    }
    None
}

fn image_type(data: &[u8]) -> Option<&'static str> {
    let len = data.len();
    let at = |offset: usize, bytes: &[u8]| data.get(offset..offset + bytes.len()) == Some(bytes);
    let tiff = len > 10 && (at(0, b"II*\0") || at(0, b"MM\0*"));
    let cr2 = tiff && at(8, b"CR\x02");
    let matches: [(bool, &'static str); 13] = [
        (len > 2 && at(0, b"\xFF\xD8\xFF"), "image/jpeg"),
        (
            len > 12 && at(0, b"\0\0\0\x0CjP  \r\n\x87\n\0"),
            "image/jp2",
        ),
        (len > 3 && at(0, b"\x89PNG"), "image/png"),
        (len > 2 && at(0, b"GIF"), "image/gif"),
        (len > 11 && at(8, b"WEBP"), "image/webp"),
        (len > 10 && cr2, "image/x-canon-cr2"),
        (tiff && !cr2, "image/tiff"),
        (len > 1 && at(0, b"BM"), "image/bmp"),
        (len > 2 && at(0, b"II\xBC"), "image/vnd.ms-photo"),
        (len > 3 && at(0, b"8BPS"), "image/vnd.adobe.photoshop"),
        (len > 3 && at(0, b"\0\0\x01\0"), "image/vnd.microsoft.icon"),
        (is_heif(data), "image/heif"),
        (len > 3 && at(0, b"AC10"), "image/vnd.dwg"),
    ];
    matches
        .iter()
        .find(|(matched, _)| *matched)
        .map(|(_, media_type)| *media_type)
}

/// An ISO-BMFF `ftyp` box naming HEIC as its major brand, or MIF1/MSF1 with HEIC
/// among its compatible brands.
fn is_heif(data: &[u8]) -> bool {
    if data.len() < 17 || &data[4..8] != b"ftyp" {
        return false;
    }
    let length = u32::from_be_bytes([data[0], data[1], data[2], data[3]]) as usize;
    if data.len() < length {
        return false;
    }
    let major = &data[8..12];
    if major == b"heic" {
        return true;
    }
    (major == b"mif1" || major == b"msf1")
        && (16..length)
            .step_by(4)
            .filter_map(|start| data.get(start..start + 4))
            .any(|brand| brand == b"heic")
}

/// A few common non-image types, so that the refusal names what the file is.
fn other_type(data: &[u8]) -> Option<&'static str> {
    let known: [(&[u8], &'static str); 4] = [
        (b"%PDF", "application/pdf"),
        (b"PK\x03\x04", "application/zip"),
        (b"\x1F\x8B\x08", "application/gzip"),
        (b"\x7FELF", "application/x-executable"),
    ];
    known
        .iter()
        .find(|(magic, _)| data.starts_with(magic))
        .map(|(_, media_type)| *media_type)
}

/// go-is-svg: not binary (no byte below TAB among the first 24 of a file that has
/// 24), and, with `<!-- -->` comments removed, the whole text matches
/// `(?i)^\s*(?:<\?xml[^>]*>\s*)?(?:<!doctype svg[^>]*>\s*)?<svg[^>]*>[^*]*<\/svg>\s*$`.
fn is_svg(data: &[u8]) -> bool {
    if data.len() >= 24 && data[..24].iter().any(|&byte| byte < 0x09) {
        return false;
    }
    let text = without_comments(data);
    let space = |byte: &u8| matches!(byte, b'\t' | b'\n' | 0x0C | b'\r' | b' ');
    let mut rest: &[u8] = &text;
    let skip_space = |rest: &mut &[u8]| {
        while rest.first().is_some_and(space) {
            *rest = &rest[1..];
        }
    };
    // `<prefix[^>]*>`, case-insensitively; the rest after it.
    let tag = |rest: &[u8], prefix: &[u8]| -> Option<usize> {
        if rest.len() < prefix.len() || !rest[..prefix.len()].eq_ignore_ascii_case(prefix) {
            return None;
        }
        let close = rest[prefix.len()..].iter().position(|&byte| byte == b'>')?;
        Some(prefix.len() + close + 1)
    };
    skip_space(&mut rest);
    if let Some(end) = tag(rest, b"<?xml") {
        rest = &rest[end..];
        skip_space(&mut rest);
    }
    if let Some(end) = tag(rest, b"<!doctype svg") {
        rest = &rest[end..];
        skip_space(&mut rest);
    }
    let Some(end) = tag(rest, b"<svg") else {
        return false;
    };
    let mut body = &rest[end..];
    while body.last().is_some_and(space) {
        body = &body[..body.len() - 1];
    }
    let closing = b"</svg>";
    body.len() >= closing.len()
        && body[body.len() - closing.len()..].eq_ignore_ascii_case(closing)
        && !body[..body.len() - closing.len()].contains(&b'*')
}

/// The text without `<!-- ... -->` comments (the shortest match each time).
fn without_comments(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len());
    let mut index = 0;
    while index < data.len() {
        if data[index..].starts_with(b"<!--")
            && let Some(end) = find(&data[index + 4..], b"-->")
        {
            index += 4 + end + 3;
            continue;
        }
        out.push(data[index]);
        index += 1;
    }
    out
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn svgs_are_recognised_as_go_is_svg_does() {
        let svg = |text: &str| icon_media_type(text.as_bytes());
        assert_eq!(
            svg("<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>\n"),
            Ok("image/svg+xml")
        );
        assert_eq!(
            svg(
                "  <?xml version=\"1.0\"?>\n<!-- a * comment -->\n<!DOCTYPE svg x>\n<SVG>é</SVG>  \n"
            ),
            Ok("image/svg+xml")
        );
        for refused in [
            "<svg><style>* {}</style></svg>",
            "\u{feff}<svg></svg>",
            "<svg></svg> x",
        ] {
            assert_eq!(
                svg(refused),
                Err("detected invalid type \"\": not an image".to_owned()),
                "{refused:?}"
            );
        }
    }

    #[test]
    fn magic_numbers_decide_other_images() {
        assert_eq!(icon_media_type(b"GIF is not an image"), Ok("image/gif"));
        assert_eq!(icon_media_type(b"BM"), Ok("image/bmp"));
        assert_eq!(icon_media_type(b"\x89PNG\r\n\x1a\n...."), Ok("image/png"));
        assert_eq!(
            icon_media_type(b"II*\0\0\0\0\0CR\x02"),
            Ok("image/x-canon-cr2")
        );
        assert_eq!(icon_media_type(b"II*\0\0\0\0\0\0\0\0"), Ok("image/tiff"));
        let mut heif = b"\0\0\0\x18ftypmif1\0\0\0\0mif1heic".to_vec();
        heif.push(0);
        assert_eq!(icon_media_type(&heif), Ok("image/heif"));
        assert_eq!(
            icon_media_type(b"%PDF-1.4"),
            Err("detected invalid type \"application/pdf\": not an image".to_owned())
        );
        assert_eq!(
            icon_media_type(b""),
            Err("detect icon mediatype: Empty buffer".to_owned())
        );
    }
}
