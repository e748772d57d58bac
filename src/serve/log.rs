//! The server's log on stderr, in logrus's text form as `opm serve` writes it
//! (`time="…" level=info msg="serving registry" port=50051`), so that the log
//! collectors and alerts of a catalog pod read it as they read opm's. Fatal lines
//! also go to the termination log.

use std::fmt::Write as _;
use std::io::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

static DEBUG: AtomicBool = AtomicBool::new(false);
static TERMINATION_LOG: Mutex<Option<std::fs::File>> = Mutex::new(None);

pub(crate) fn set_debug(debug: bool) {
    DEBUG.store(debug, Ordering::Relaxed);
}

/// Fatal lines are appended to `path` as well (Kubernetes shows its content as
/// the container's termination message).
pub(crate) fn set_termination_log(path: &std::path::Path) -> std::io::Result<()> {
    let file = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)?;
    if let Ok(mut slot) = TERMINATION_LOG.lock() {
        *slot = Some(file);
    }
    Ok(())
}

pub(crate) fn info(message: &str, fields: &[(&str, &str)]) {
    write("info", message, fields);
}

pub(crate) fn warn(message: &str, fields: &[(&str, &str)]) {
    write("warning", message, fields);
}

pub(crate) fn fatal(message: &str) {
    let line = line("fatal", message, &[]);
    eprint!("{line}");
    if let Ok(mut slot) = TERMINATION_LOG.lock()
        && let Some(file) = slot.as_mut()
    {
        let _ = file.write_all(line.as_bytes());
    }
}

/// A line with `--debug` only.
pub(crate) fn debug(message: &str, fields: &[(&str, &str)]) {
    if DEBUG.load(Ordering::Relaxed) {
        write("debug", message, fields);
    }
}

/// One line per call with `--debug`.
pub(crate) fn request(method: &str, request: &impl std::fmt::Debug) {
    if DEBUG.load(Ordering::Relaxed) {
        debug(
            "request",
            &[("method", method), ("request", &format!("{request:?}"))],
        );
    }
}

fn write(level: &str, message: &str, fields: &[(&str, &str)]) {
    eprint!("{}", line(level, message, fields));
}

fn line(level: &str, message: &str, fields: &[(&str, &str)]) -> String {
    let mut out = format!(
        "time={} level={level} msg={}",
        quoted(&now()),
        quoted(message)
    );
    for (key, value) in fields {
        let _ = write!(out, " {key}={}", quoted(value));
    }
    out.push('\n');
    out
}

/// logrus quotes a value unless it is made of plain characters only.
fn quoted(value: &str) -> String {
    let plain = !value.is_empty()
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._/@^+".contains(&b));
    if plain {
        value.to_owned()
    } else {
        crate::go::fmt::quote(value)
    }
}

/// The current time as RFC 3339 in UTC, to the second.
fn now() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_secs());
    crate::text::time::rfc3339(seconds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_as_logrus_writes_them() {
        let line = line(
            "info",
            "serving registry",
            &[("port", "50051"), ("configs", "/a b")],
        );
        assert!(
            line.ends_with(" level=info msg=\"serving registry\" port=50051 configs=\"/a b\"\n")
        );
    }
}
