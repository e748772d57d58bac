//! Resource limits for hostile input, with defaults that fit the largest public
//! catalogs and images, each raised (or lowered) by an environment variable.

use std::path::Path;
use std::sync::OnceLock;
use std::time::Duration;

/// The limits in force for this process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Limits {
    /// Largest catalog file or bundle file read (`FBC_MAX_FILE_SIZE`).
    pub(crate) max_file_size: u64,
    /// Most bytes an image may download and unpack (`FBC_MAX_IMAGE_SIZE`), counted
    /// once for the compressed layers and once for their unpacked contents.
    pub(crate) max_image_size: u64,
    /// How long a registry may send nothing before the pull is abandoned
    /// (`FBC_PULL_TIMEOUT`, seconds).
    pub(crate) pull_timeout: Duration,
    /// Most bytes the aliases of one YAML document may copy
    /// (`FBC_MAX_ALIAS_EXPANSION`); a document may always copy 16 times its size.
    pub(crate) max_alias_expansion: u64,
    /// Most bytes of findings `validate` keeps in memory before writing the rest
    /// to an unnamed temporary file (`FBC_FINDINGS_IN_MEMORY`).
    pub(crate) findings_in_memory: u64,
    /// Most steps one dependency resolution may take before it gives up
    /// (`FBC_RESOLVE_STEPS`); OLM's own search has no bound.
    pub(crate) resolve_steps: u64,
}

const DEFAULT: Limits = Limits {
    max_file_size: 512 << 20,
    max_image_size: 8 << 30,
    pull_timeout: Duration::from_secs(60),
    max_alias_expansion: 64 << 20,
    findings_in_memory: 4 << 20,
    resolve_steps: 20_000_000,
};

/// A limit variable with a value that cannot be read.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("{variable}={value:?}: {expected}")]
#[diagnostic(code(fbc::limits))]
pub(crate) struct LimitError {
    variable: &'static str,
    value: String,
    expected: &'static str,
}

static LIMITS: OnceLock<Limits> = OnceLock::new();

/// Reads the limit variables; called once before a command runs.
pub(crate) fn init() -> Result<(), LimitError> {
    let limits = from_env(|name| std::env::var(name).ok())?;
    // A second call (tests run commands in one process) keeps the first reading.
    let _ = LIMITS.set(limits);
    Ok(())
}

/// The limits read by [`init`], or the defaults when it has not run (unit tests).
pub(crate) fn get() -> Limits {
    LIMITS.get().copied().unwrap_or(DEFAULT)
}

fn from_env(lookup: impl Fn(&str) -> Option<String>) -> Result<Limits, LimitError> {
    let mut limits = DEFAULT;
    // A variable set to nothing (`FBC_MAX_FILE_SIZE=`) is unset, as in a shell.
    let lookup = |variable: &str| lookup(variable).filter(|value| !value.trim().is_empty());
    let size = |variable: &'static str, default: u64| match lookup(variable) {
        None => Ok(default),
        Some(value) => parse_size(&value).ok_or(LimitError {
            variable,
            value,
            expected: "expected a size in bytes, optionally with a unit: 300MiB, 2GiB, 500MB",
        }),
    };
    limits.max_file_size = size("FBC_MAX_FILE_SIZE", limits.max_file_size)?;
    limits.max_image_size = size("FBC_MAX_IMAGE_SIZE", limits.max_image_size)?;
    limits.max_alias_expansion = size("FBC_MAX_ALIAS_EXPANSION", limits.max_alias_expansion)?;
    limits.findings_in_memory = size("FBC_FINDINGS_IN_MEMORY", limits.findings_in_memory)?;
    let count =
        |variable: &'static str, default: u64, expected: &'static str| match lookup(variable) {
            None => Ok(default),
            Some(value) => value
                .trim()
                .parse::<u64>()
                .ok()
                .filter(|&count| count > 0)
                .ok_or(LimitError {
                    variable,
                    value,
                    expected,
                }),
        };
    limits.pull_timeout = Duration::from_secs(count(
        "FBC_PULL_TIMEOUT",
        limits.pull_timeout.as_secs(),
        "expected a whole number of seconds, at least 1",
    )?);
    limits.resolve_steps = count(
        "FBC_RESOLVE_STEPS",
        limits.resolve_steps,
        "expected a whole number of steps, at least 1",
    )?;
    Ok(limits)
}

/// `1234`, `300KiB`, `2GiB`, `500MB`, `1G`: binary and decimal units, any case.
fn parse_size(text: &str) -> Option<u64> {
    let text = text.trim();
    let digits = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let number: u64 = text[..digits].parse().ok()?;
    let factor: u64 = match text[digits..].trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kib" => 1 << 10,
        "m" | "mib" => 1 << 20,
        "g" | "gib" => 1 << 30,
        "t" | "tib" => 1 << 40,
        "kb" => 1_000,
        "mb" => 1_000_000,
        "gb" => 1_000_000_000,
        "tb" => 1_000_000_000_000,
        _ => return None,
    };
    number.checked_mul(factor)
}

/// Why [`read_file`] or [`read_stdin`] read nothing.
#[derive(Debug)]
pub(crate) enum ReadError {
    Io(std::io::Error),
    /// More than `FBC_MAX_FILE_SIZE` bytes came out of the file (whatever size
    /// it reports: files of procfs report 0).
    TooLarge {
        limit: u64,
    },
    /// A file of procfs or sysfs: it may never end, or block.
    Pseudo,
    /// A FIFO, a device, a socket or a directory: it may never end, or block.
    NotRegular {
        kind: &'static str,
    },
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Io(error) => f.write_str(&crate::go::fmt::os_error(error)),
            ReadError::TooLarge { limit } => write!(
                f,
                "larger than {} (FBC_MAX_FILE_SIZE raises the limit)",
                show_size(*limit)
            ),
            ReadError::Pseudo => f.write_str("a file of /proc or /sys, which fbc does not read"),
            ReadError::NotRegular { kind } => {
                write!(
                    f,
                    "{kind}, not a regular file: fbc reads regular files only"
                )
            }
        }
    }
}

/// Opens a regular file for reading. Files of `/proc` and `/sys` (also through
/// links) are refused unread; the file is opened without blocking, so that a FIFO
/// with no writer is refused instead of waited on, and anything but a regular
/// file or `/dev/null` (FIFO, device, socket, directory) is refused.
pub(crate) fn open_regular(path: &Path) -> Result<std::fs::File, ReadError> {
    use std::os::unix::fs::{FileTypeExt as _, OpenOptionsExt as _};
    if is_pseudo(path) {
        return Err(ReadError::Pseudo);
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
        .map_err(ReadError::Io)?;
    let kind = file.metadata().map_err(ReadError::Io)?.file_type();
    // `/dev/null` is the usual way to say "no file" (`CONTAINERS_REGISTRIES_CONF=
    // /dev/null`): it reads as empty, at once.
    let null = || std::fs::canonicalize(path).is_ok_and(|real| real == Path::new("/dev/null"));
    let refused = if kind.is_file() || (kind.is_char_device() && null()) {
        return Ok(file);
    } else if kind.is_dir() {
        "a directory"
    } else if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_char_device() || kind.is_block_device() {
        "a device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "a special file"
    };
    Err(ReadError::NotRegular { kind: refused })
}

/// Reads a whole regular file (see [`open_regular`]), counting bytes as they come
/// and stopping past `FBC_MAX_FILE_SIZE`.
pub(crate) fn read_file(path: &Path) -> Result<Vec<u8>, ReadError> {
    let file = open_regular(path)?;
    let expected = file.metadata().map_or(0, |metadata| metadata.len());
    read_limited(file, expected, get().max_file_size)
}

/// Reads standard input to its end, stopping past `FBC_MAX_FILE_SIZE`: an endless
/// stream ends with an error, not with all memory.
pub(crate) fn read_stdin() -> Result<Vec<u8>, ReadError> {
    read_limited(std::io::stdin().lock(), 0, get().max_file_size)
}

/// Reads `reader` to its end within `limit` bytes; `expected` sizes the buffer
/// (at most the limit).
pub(crate) fn read_limited(
    reader: impl std::io::Read,
    expected: u64,
    limit: u64,
) -> Result<Vec<u8>, ReadError> {
    use std::io::Read as _;
    let mut bytes = Vec::new();
    bytes
        .try_reserve_exact(usize::try_from(expected.min(limit)).unwrap_or(0) + 1)
        .map_err(|_| ReadError::Io(std::io::ErrorKind::OutOfMemory.into()))?;
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge { limit });
    }
    Ok(bytes)
}

/// What a value that cannot get its memory says, where the large values of a
/// document grow (long lists and strings): a message and exit status 2 rather
/// than Rust's abort on a failed allocation.
pub(crate) const OUT_OF_MEMORY: &str = "out of memory: this value needs more memory than fbc may \
                                        use here (see `ulimit -v` or the container's memory limit)";

/// How many times its size decoding a large file may take at its peak: a JSON
/// document of a million small properties on one line takes 32 (each small value
/// is a node of the decoded tree); a catalog of large bundles far less.
const DECODING: u64 = 32;

/// Files smaller than this are decoded without asking.
const PROBED: u64 = 16 << 20;

/// Under an address-space limit (`ulimit -v`), whether decoding a file of `size`
/// bytes can have the memory it may need: a reservation of that much, given back
/// at once (the allocator keeps the space for what comes next). A large file that
/// will not fit is refused with a message before decoding starts, instead of
/// ending the process where an allocation fails. `Err` holds what it may need and
/// the limit.
pub(crate) fn room_to_decode(size: u64) -> Result<(), (u64, u64)> {
    if size < PROBED {
        return Ok(());
    }
    let Some(limit) = crate::process::stack::address_space_limit() else {
        return Ok(());
    };
    let needed = size.saturating_mul(DECODING);
    let mut probe: Vec<u8> = Vec::new();
    match usize::try_from(needed).map(|bytes| probe.try_reserve_exact(bytes)) {
        Ok(Ok(())) => Ok(()),
        _ => Err((needed, limit)),
    }
}

/// Makes room in `items` for one more, growing it as `Vec::push` would; `Err` when
/// the memory cannot be had.
pub(crate) fn room_for_one<T>(items: &mut Vec<T>) -> Result<(), std::collections::TryReserveError> {
    if items.len() == items.capacity() {
        items.try_reserve(items.len().max(4))?;
    }
    Ok(())
}

/// Makes room in `text` for `more` bytes, as `String::push_str` would.
pub(crate) fn room_for(
    text: &mut String,
    more: usize,
) -> Result<(), std::collections::TryReserveError> {
    if text.capacity() - text.len() < more {
        text.try_reserve(more.max(text.len()))?;
    }
    Ok(())
}

/// Whether `path` leads into procfs or sysfs, whose files are refused unread.
pub(crate) fn is_pseudo(path: &std::path::Path) -> bool {
    std::fs::canonicalize(path)
        .is_ok_and(|real| real.starts_with("/proc") || real.starts_with("/sys"))
}

/// The binary units of sizes in messages, largest first, with their powers of two.
const UNITS: [(&str, u32); 4] = [("TiB", 40), ("GiB", 30), ("MiB", 20), ("KiB", 10)];

/// A size for messages: `512 MiB`, `8 GiB`, `1000 bytes`.
pub(crate) fn show_size(bytes: u64) -> String {
    for (unit, shift) in UNITS {
        if bytes >= 1 << shift && bytes.is_multiple_of(1 << shift) {
            return format!("{} {unit}", bytes >> shift);
        }
    }
    format!("{bytes} bytes")
}

/// A size rounded for messages: `20.6 MiB`, `1.5 GiB`, `512 bytes`.
pub(crate) fn rounded_size(bytes: u64) -> String {
    for (unit, shift) in UNITS {
        if bytes >= 1 << shift {
            // Tenths of the unit, rounded: exact enough for any size a message shows.
            let tenths = (u128::from(bytes) * 10 + (1 << (shift - 1))) >> shift;
            return format!("{}.{} {unit}", tenths / 10, tenths % 10);
        }
    }
    format!("{bytes} bytes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounded_sizes_have_a_tenth() {
        assert_eq!(rounded_size(21_588_966), "20.6 MiB");
        assert_eq!(rounded_size(1 << 30), "1.0 GiB");
        assert_eq!(rounded_size(409_600_000), "390.6 MiB");
        assert_eq!(rounded_size(512), "512 bytes");
    }

    #[test]
    fn room_grows_as_push_would_and_reports_what_cannot_be_had() {
        let mut items: Vec<u8> = Vec::new();
        for item in 0..100 {
            room_for_one(&mut items).expect("a little memory");
            let capacity = items.capacity();
            items.push(item);
            assert_eq!(items.capacity(), capacity, "push found room");
        }
        let mut text = String::from("ab");
        room_for(&mut text, 1000).expect("a little memory");
        assert!(text.capacity() >= 1002);
        assert!(room_for(&mut text, usize::MAX / 2).is_err());
    }

    #[test]
    fn sizes_read_with_units() {
        assert_eq!(parse_size("1234"), Some(1234));
        assert_eq!(parse_size("300KiB"), Some(300 << 10));
        assert_eq!(parse_size(" 2 GiB "), Some(2 << 30));
        assert_eq!(parse_size("500MB"), Some(500_000_000));
        assert_eq!(parse_size("1g"), Some(1 << 30));
        assert_eq!(parse_size("lots"), None);
        assert_eq!(parse_size("-1"), None);
        assert_eq!(parse_size("12 parsecs"), None);
        assert_eq!(parse_size("99999999999999TiB"), None);
    }

    #[test]
    fn variables_override_the_defaults_and_bad_values_are_named() {
        assert_eq!(from_env(|_| None).expect("defaults"), DEFAULT);
        let limits = from_env(|name| match name {
            "FBC_MAX_FILE_SIZE" => Some("1MiB".into()),
            "FBC_PULL_TIMEOUT" => Some("5".into()),
            _ => None,
        })
        .expect("valid");
        assert_eq!(limits.max_file_size, 1 << 20);
        assert_eq!(limits.pull_timeout, Duration::from_secs(5));
        assert_eq!(limits.max_image_size, DEFAULT.max_image_size);
        assert_eq!(from_env(|_| Some(String::new())).expect("unset"), DEFAULT);
        let error = from_env(|name| (name == "FBC_PULL_TIMEOUT").then(|| "0".into()));
        assert_eq!(
            error.expect_err("refused").to_string(),
            "FBC_PULL_TIMEOUT=\"0\": expected a whole number of seconds, at least 1"
        );
    }

    #[test]
    fn pseudo_files_are_refused_unread() {
        assert!(matches!(
            read_file(std::path::Path::new("/proc/self/status")),
            Err(ReadError::Pseudo)
        ));
        let dir = tempfile::tempdir().expect("a directory");
        let link = dir.path().join("kmsg");
        std::os::unix::fs::symlink("/proc/kmsg", &link).expect("a link");
        assert!(matches!(read_file(&link), Err(ReadError::Pseudo)));
    }

    #[test]
    fn only_regular_files_are_read_and_fifos_are_never_waited_on() {
        let dir = tempfile::tempdir().expect("a directory");
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo runs");
        assert!(made.success());
        // Nobody writes to the FIFO: a blocking open would never return.
        let refused = |path: &std::path::Path| match read_file(path) {
            Err(ReadError::NotRegular { kind }) => kind,
            other => panic!("{}: {other:?}", path.display()),
        };
        assert_eq!(refused(&fifo), "a FIFO");
        assert_eq!(refused(std::path::Path::new("/dev/zero")), "a device");
        assert_eq!(refused(dir.path()), "a directory");
        let link = dir.path().join("zero");
        std::os::unix::fs::symlink("/dev/zero", &link).expect("a link");
        assert_eq!(refused(&link), "a device");
        assert_eq!(
            ReadError::NotRegular { kind: "a FIFO" }.to_string(),
            "a FIFO, not a regular file: fbc reads regular files only"
        );
        let file = dir.path().join("file");
        std::fs::write(&file, "bytes").expect("a file");
        assert_eq!(read_file(&file).expect("read"), b"bytes");
        // The usual "no file": read as empty.
        assert_eq!(read_file(Path::new("/dev/null")).expect("read"), b"");
    }

    #[test]
    fn an_endless_stream_stops_past_the_limit() {
        let endless = std::io::repeat(b'x');
        assert!(matches!(
            read_limited(endless, u64::MAX, 1 << 20),
            Err(ReadError::TooLarge { limit: 1_048_576 })
        ));
    }

    #[test]
    fn sizes_show_in_their_largest_whole_unit() {
        assert_eq!(show_size(512 << 20), "512 MiB");
        assert_eq!(show_size(8 << 30), "8 GiB");
        assert_eq!(show_size(1000), "1000 bytes");
    }
}
