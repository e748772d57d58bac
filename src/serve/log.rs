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
    let (days, rest) = (seconds / 86_400, seconds % 86_400);
    let (year, month, day) = civil(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// The calendar date `days` after 1970-01-01 (proleptic Gregorian).
fn civil(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let day_of_era = z % 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_gregorian() {
        assert_eq!(civil(0), (1970, 1, 1));
        assert_eq!(civil(11_016), (2000, 2, 29));
        assert_eq!(civil(20_785), (2026, 11, 28));
    }

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
