//! A registry that misbehaves on purpose, for what a real one never does: serve
//! content that does not match its digest, or stall in the middle of a blob. It
//! speaks just enough HTTP/1.1 for oci-client's anonymous pulls.

use std::io::{BufRead as _, BufReader, Write as _};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::time::Duration;

use sha2::Digest as _;

/// What the registry answers to one request path.
pub(crate) enum Answer {
    /// `200 OK` with this content type and body.
    Body(&'static str, Vec<u8>),
    /// `200 OK` announcing `total` bytes, of which only `sent` are sent before the
    /// connection goes silent (kept open until the test ends).
    Stall {
        sent: Vec<u8>,
        total: usize,
    },
    /// `200 OK` with this content type and body, sent a byte every `interval`.
    Drip(&'static str, Vec<u8>, Duration),
    /// `200 OK` with this content type, sending zeros without end.
    Endless(&'static str),
    NotFound,
}

pub(crate) struct FakeRegistry {
    pub(crate) address: String,
}

/// Starts a registry answering with `answer(path)`; it lives as long as the test
/// process (its thread is detached).
pub(crate) fn start(answer: impl Fn(&str) -> Answer + Send + Sync + 'static) -> FakeRegistry {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    let address = listener.local_addr().expect("an address").to_string();
    let answer = Arc::new(answer);
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let answer = Arc::clone(&answer);
            std::thread::spawn(move || serve(stream, answer.as_ref()));
        }
    });
    FakeRegistry { address }
}

fn serve(stream: TcpStream, answer: &dyn Fn(&str) -> Answer) {
    let mut reader = BufReader::new(stream.try_clone().expect("a stream"));
    let mut writer = stream;
    loop {
        let mut request = String::new();
        if reader.read_line(&mut request).unwrap_or(0) == 0 {
            return;
        }
        // Skip the headers; requests here have no body.
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header).unwrap_or(0) == 0 {
                return;
            }
            if header == "\r\n" || header == "\n" {
                break;
            }
        }
        let path = request.split_whitespace().nth(1).unwrap_or("/").to_owned();
        let reply = if path == "/v2/" {
            Answer::Body("application/json", b"{}".to_vec())
        } else {
            answer(&path)
        };
        let head = request.starts_with("HEAD");
        let written = match reply {
            // A HEAD answer has the headers of the GET answer and no body.
            Answer::Body(content_type, body) if head => {
                writer.write_all(ok(content_type, body.len()).as_bytes())
            }
            Answer::Body(content_type, body) => writer
                .write_all(ok(content_type, body.len()).as_bytes())
                .and_then(|()| writer.write_all(&body)),
            Answer::Stall { sent, total } => {
                let _ = writer.write_all(ok("application/octet-stream", total).as_bytes());
                let _ = writer.write_all(&sent);
                let _ = writer.flush();
                std::thread::sleep(Duration::from_secs(3600));
                return;
            }
            // A HEAD answer's body would be read as the next answer on the connection.
            Answer::Drip(content_type, body, _) if head => {
                writer.write_all(ok(content_type, body.len()).as_bytes())
            }
            Answer::Drip(content_type, body, interval) => {
                let _ = writer.write_all(ok(content_type, body.len()).as_bytes());
                for byte in body {
                    if writer
                        .write_all(&[byte])
                        .and_then(|()| writer.flush())
                        .is_err()
                    {
                        return;
                    }
                    std::thread::sleep(interval);
                }
                Ok(())
            }
            // A HEAD answer has no body (and no digest: the client must GET).
            Answer::Endless(content_type) if head => writer.write_all(
                format!("HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\n\r\n").as_bytes(),
            ),
            Answer::Endless(content_type) => {
                let _ = writer.write_all(ok(content_type, u64::MAX / 2).as_bytes());
                let zeros = vec![b'0'; 1 << 16];
                while writer.write_all(&zeros).is_ok() {}
                return;
            }
            Answer::NotFound => writer.write_all(NOT_FOUND),
        };
        if written.is_err() {
            return;
        }
    }
}

const NOT_FOUND: &[u8] =
    b"HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}";

/// The head of a `200 OK` answer.
fn ok(content_type: &str, length: impl std::fmt::Display) -> String {
    format!("HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nContent-Length: {length}\r\n\r\n")
}

/// The `sha256:<hex>` digest of `data`.
pub(crate) fn digest(data: &[u8]) -> String {
    sha2::Sha256::digest(data)
        .iter()
        .fold(String::from("sha256:"), |mut text, byte| {
            let _ = std::fmt::Write::write_fmt(&mut text, format_args!("{byte:02x}"));
            text
        })
}

/// An image manifest for one config and one gzip layer.
pub(crate) fn manifest(config: &[u8], layer: &[u8]) -> Vec<u8> {
    serde_json::to_vec(&serde_json::json!({
        "schemaVersion": 2,
        "mediaType": "application/vnd.oci.image.manifest.v1+json",
        "config": {
            "mediaType": "application/vnd.oci.image.config.v1+json",
            "digest": digest(config),
            "size": config.len(),
        },
        "layers": [{
            "mediaType": "application/vnd.oci.image.layer.v1.tar+gzip",
            "digest": digest(layer),
            "size": layer.len(),
        }],
    }))
    .expect("JSON")
}

pub(crate) const MANIFEST_TYPE: &str = "application/vnd.oci.image.manifest.v1+json";
