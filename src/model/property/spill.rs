//! Large property values kept in a file instead of memory. `fbc serve` holds its
//! catalog for as long as it runs, and a catalog of embedded manifests is almost
//! all `olm.bundle.object` text (69 of the 70 MB of certified-v4.16), read only
//! when a client asks for a bundle; opm's server reads them from its cache on
//! disk too. [`start`] turns spilling on for the process (only `serve` does);
//! values of [`LARGE`] bytes or more are then written to an unnamed temporary
//! file as they are loaded and read back where they are used. Validation's check
//! of a value against its type's Go struct is made before it is written, so that
//! loading never reads the file back. The system removes the file when fbc ends,
//! however it ends.
//!
//! A server's cache keeps such values in a file of its own, written once by
//! `--cache-only`; its snapshot holds a [`marker`] in their place. [`adopt`]
//! makes that file the home of the values its markers name, so that a server
//! started from the cache neither reads nor writes them.

use std::borrow::Cow;
use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

/// The size from which a value is spilled: catalog values above it are embedded
/// manifests (CRDs, CSVs) and the largest CSV metadata, a few hundred to a few
/// thousand per catalog, so the file is written and read in large pieces.
pub(crate) const LARGE: usize = 16 * 1024;

static SPOOL: OnceLock<Spool> = OnceLock::new();

static ADOPTED: OnceLock<Adopted> = OnceLock::new();

/// The first error met reading a value back.
static FAILURE: Mutex<Option<io::Error>> = Mutex::new(None);

/// What starts a marker's text: the cache's nonce follows, so that no value of a
/// catalog can pass for one.
const MARKER: &str = "fbc-spilled ";

/// Whether a value's text (of the property type named first) certainly decodes
/// into its type's Go struct: validation's check, handed over by the caller.
pub(crate) type Check = fn(&str, &str) -> bool;

/// Spills the large values of every catalog loaded from now on (`$TMPDIR`),
/// each checked with `check` first.
pub(crate) fn start(check: Check) -> io::Result<()> {
    let spool = Spool::new(check)?;
    let _ = SPOOL.set(spool);
    Ok(())
}

/// Takes `file` as the home of the values that markers made with `nonce` name:
/// a catalog loaded from now on holds such a marker as the value it stands for.
pub(crate) fn adopt(file: File, nonce: String) {
    let _ = ADOPTED.set(Adopted { file, nonce });
}

/// The text standing for a value of `len` bytes at `at` in a file that [`adopt`]
/// takes with `nonce`, with `fits`, the check's verdict on the value (a JSON
/// string, quotes included).
pub(crate) fn marker(nonce: &str, at: u64, len: u32, fits: bool) -> String {
    format!("\"{MARKER}{nonce} {at} {len} {}\"", u8::from(fits))
}

/// `line` with every marker of the adopted file replaced by the value it stands
/// for (the line as it was before the markers were put in).
pub(crate) fn expand(line: &str) -> Result<Cow<'_, str>, String> {
    let Some(adopted) = ADOPTED.get() else {
        return Ok(Cow::Borrowed(line));
    };
    let start = format!("\"{MARKER}{} ", adopted.nonce);
    if !line.contains(&start) {
        return Ok(Cow::Borrowed(line));
    }
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(found) = rest.find(&start) {
        out.push_str(&rest[..found]);
        let after = &rest[found + start.len()..];
        let end = after
            .find('"')
            .ok_or_else(|| "a marker without its end".to_owned())?;
        let spilled = Spilled::parse(&after[..end], true)
            .ok_or_else(|| format!("a marker that names no value: {}", &after[..end]))?;
        let text = spilled.read().ok_or_else(|| {
            failure().unwrap_or_else(|| "a value could not be read back".to_owned())
        })?;
        out.push_str(&text);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(Cow::Owned(out))
}

/// The first error met reading a spilled value back, if any: the value read as
/// absent, and whoever relies on every value must stop.
pub(crate) fn failure() -> Option<String> {
    let failure = FAILURE.lock().ok()?;
    let error = failure.as_ref()?;
    Some(format!(
        "reading back a property value kept in a file: {error}"
    ))
}

/// Where a spilled value's text is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Spilled {
    at: u64,
    len: u32,
    /// The check's verdict on the text.
    fits: bool,
    /// In the adopted file (else in the process's temporary file).
    adopted: bool,
}

impl Spilled {
    pub(super) fn len(self) -> usize {
        self.len as usize
    }

    pub(super) fn fits(self) -> bool {
        self.fits
    }

    /// The value's text (`None` after a read error, which [`failure`] reports).
    pub(super) fn read(self) -> Option<String> {
        let file = if self.adopted {
            &ADOPTED.get()?.file
        } else {
            &SPOOL.get()?.file
        };
        self.read_from(file)
    }

    fn read_from(self, file: &File) -> Option<String> {
        let mut bytes = vec![0; self.len()];
        let read = file.read_exact_at(&mut bytes, self.at).and_then(|()| {
            String::from_utf8(bytes)
                .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8"))
        });
        read.map_err(|error| {
            if let Ok(mut failure) = FAILURE.lock() {
                failure.get_or_insert(error);
            }
        })
        .ok()
    }

    /// A marker's fields after its nonce: `AT LEN FITS`.
    fn parse(fields: &str, adopted: bool) -> Option<Spilled> {
        let mut fields = fields.split(' ');
        let at = fields.next()?.parse().ok()?;
        let len = fields.next()?.parse().ok()?;
        let fits = match fields.next()? {
            "0" => false,
            "1" => true,
            _ => return None,
        };
        fields.next().is_none().then_some(Spilled {
            at,
            len,
            fits,
            adopted,
        })
    }
}

/// The value a marker of the adopted file stands for, when `value` is one.
pub(super) fn adopted(value: &serde_json::Value) -> Option<Spilled> {
    let text = value.as_str()?.strip_prefix(MARKER)?;
    let fields = text
        .strip_prefix(ADOPTED.get()?.nonce.as_str())?
        .strip_prefix(' ')?;
    Spilled::parse(fields, true)
}

/// Whether a value's compact text may be a marker ([`adopted`] tells).
pub(super) fn may_be_marker(text: &str) -> bool {
    text.strip_prefix('"')
        .is_some_and(|text| text.starts_with(MARKER))
}

/// Keeps `text` in the process's file when spilling is on and it is large; gives
/// it back otherwise (also when the file cannot be written: it stays in memory).
pub(super) fn keep(kind: &str, text: String) -> Result<Spilled, String> {
    match SPOOL.get() {
        Some(spool) if text.len() >= LARGE => spool.keep(kind, text),
        _ => Err(text),
    }
}

/// The file the cache's values are read from, and its markers' nonce.
struct Adopted {
    file: File,
    nonce: String,
}

/// The temporary file and the end of what was written to it.
struct Spool {
    file: File,
    end: AtomicU64,
    check: Check,
}

impl Spool {
    fn new(check: Check) -> io::Result<Spool> {
        Ok(Spool {
            file: tempfile::tempfile()?,
            end: AtomicU64::new(0),
            check,
        })
    }

    /// Writes `text` at a range of its own (loading threads write side by side).
    fn keep(&self, kind: &str, text: String) -> Result<Spilled, String> {
        let Ok(len) = u32::try_from(text.len()) else {
            return Err(text);
        };
        let fits = (self.check)(kind, &text);
        let at = self.end.fetch_add(u64::from(len), Ordering::Relaxed);
        match self.file.write_all_at(text.as_bytes(), at) {
            Ok(()) => Ok(Spilled {
                at,
                len,
                fits,
                adopted: false,
            }),
            // A full disk: this value and later ones stay in memory.
            Err(_) => Err(text),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_read_back_as_written_side_by_side() {
        let spool =
            Spool::new(|kind, text| kind.len() == text.len() % 2).expect("a temporary file");
        let texts: Vec<String> = (0..64)
            .map(|index| format!("{{\"data\":\"{}\"}}", "é".repeat(index * 97)))
            .collect();
        let spilled: Vec<Spilled> = std::thread::scope(|scope| {
            let handles: Vec<_> = texts
                .iter()
                .map(|text| scope.spawn(|| spool.keep("k", text.clone()).expect("written")))
                .collect();
            handles
                .into_iter()
                .map(|handle| handle.join().expect("no panic"))
                .collect()
        });
        for (text, spilled) in texts.iter().zip(spilled) {
            assert_eq!(spilled.len(), text.len());
            assert_eq!(
                spilled.fits(),
                text.len() % 2 == 1,
                "the check's verdict is kept"
            );
            assert_eq!(spilled.read_from(&spool.file).as_ref(), Some(text));
        }
    }

    #[test]
    fn a_failed_read_is_kept() {
        let spool = Spool::new(|_, _| true).expect("a temporary file");
        let beyond = Spilled {
            at: 0,
            len: 10,
            fits: true,
            adopted: false,
        };
        assert_eq!(beyond.read_from(&spool.file), None);
        assert!(failure().is_some_and(|text| text.contains("fill whole buffer")));
    }

    /// The only test that adopts a file (once per process).
    #[test]
    fn markers_of_the_adopted_file_stand_for_its_values() {
        let file = tempfile::tempfile().expect("a temporary file");
        file.write_all_at(b"{\"a\":1}[\"b\"]", 0).expect("written");
        adopt(file, "n0nce".to_owned());
        let first = marker("n0nce", 0, 7, true);
        let second = marker("n0nce", 7, 5, false);
        let value = |marker: &str| serde_json::from_str(marker).expect("a JSON string");
        let spilled = adopted(&value(&first)).expect("a marker");
        assert_eq!((spilled.len(), spilled.fits()), (7, true));
        assert_eq!(spilled.read().as_deref(), Some("{\"a\":1}"));
        // Another cache's marker, or a value that only looks like one, is a value.
        assert_eq!(adopted(&value(&marker("other", 0, 7, true))), None);
        assert_eq!(adopted(&value("\"fbc-spilled n0nce 0 7\"")), None);
        let line = format!("{{\"properties\":[{first},{second}],\"x\":\"fbc-spilled n0\"}}");
        assert_eq!(
            expand(&line).expect("expanded"),
            "{\"properties\":[{\"a\":1},[\"b\"]],\"x\":\"fbc-spilled n0\"}"
        );
        assert_eq!(expand("{}").expect("unchanged"), "{}");
        assert!(expand(&marker("n0nce", 100, 5, true)).is_err());
    }
}
