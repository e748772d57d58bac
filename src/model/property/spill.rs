//! Large property values kept in an unnamed temporary file instead of memory.
//! `fbc serve` holds its catalog for as long as it runs, and a catalog of
//! embedded manifests is almost all `olm.bundle.object` text (69 of the 70 MB of
//! certified-v4.16), read only when a client asks for a bundle; opm's server reads
//! them from its cache on disk too. [`start`] turns spilling on for the process
//! (only `serve` does); values of [`LARGE`] bytes or more are then written to the
//! file as they are loaded and read back where they are used. Validation's check
//! of a value against its type's Go struct is made before it is written, so that
//! loading never reads the file back. The system removes the file when fbc ends,
//! however it ends.

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

/// The first error met reading a spilled value back, if any: the value read as
/// absent, and whoever relies on every value must stop.
pub(crate) fn failure() -> Option<String> {
    let spool = SPOOL.get()?;
    let failure = spool.failure.lock().ok()?;
    let error = failure.as_ref()?;
    Some(format!(
        "reading back a property value kept in a temporary file: {error}"
    ))
}

/// Where a spilled value's text is in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Spilled {
    at: u64,
    len: u32,
    /// The check's verdict on the text.
    fits: bool,
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
        SPOOL.get()?.read(self)
    }
}

/// Keeps `text` in the process's file when spilling is on and it is large; gives
/// it back otherwise (also when the file cannot be written: it stays in memory).
pub(super) fn keep(kind: &str, text: String) -> Result<Spilled, String> {
    match SPOOL.get() {
        Some(spool) if text.len() >= LARGE => spool.keep(kind, text),
        _ => Err(text),
    }
}

/// The file and the end of what was written to it.
struct Spool {
    file: File,
    end: AtomicU64,
    failure: Mutex<Option<io::Error>>,
    check: Check,
}

impl Spool {
    fn new(check: Check) -> io::Result<Spool> {
        Ok(Spool {
            file: tempfile::tempfile()?,
            end: AtomicU64::new(0),
            failure: Mutex::new(None),
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
            Ok(()) => Ok(Spilled { at, len, fits }),
            // A full disk: this value and later ones stay in memory.
            Err(_) => Err(text),
        }
    }

    fn read(&self, spilled: Spilled) -> Option<String> {
        let mut bytes = vec![0; spilled.len()];
        let read = self
            .file
            .read_exact_at(&mut bytes, spilled.at)
            .and_then(|()| {
                String::from_utf8(bytes)
                    .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8"))
            });
        read.map_err(|error| {
            if let Ok(mut failure) = self.failure.lock() {
                failure.get_or_insert(error);
            }
        })
        .ok()
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
            assert_eq!(spool.read(spilled).as_ref(), Some(text));
        }
        assert!(spool.failure.lock().expect("no poison").is_none());
    }

    #[test]
    fn a_failed_read_is_kept() {
        let spool = Spool::new(|_, _| true).expect("a temporary file");
        let beyond = Spilled {
            at: 0,
            len: 10,
            fits: true,
        };
        assert_eq!(spool.read(beyond), None);
        assert!(spool.failure.lock().expect("no poison").is_some());
    }
}
