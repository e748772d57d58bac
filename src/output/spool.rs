//! A part of a report written before the parts that come ahead of it are known (a
//! summary printed first, counted from everything after it): kept in an unnamed
//! temporary file, removed when dropped, rather than in memory.

use std::fs::File;
use std::io::{BufWriter, Seek as _, SeekFrom, Write};

pub(crate) struct Spool {
    file: BufWriter<File>,
    /// Whether anything was written (arrays need to know their first element).
    written: bool,
}

impl Spool {
    pub(crate) fn new() -> std::io::Result<Spool> {
        Ok(Spool {
            file: BufWriter::new(tempfile::tempfile()?),
            written: false,
        })
    }

    pub(crate) fn is_empty(&self) -> bool {
        !self.written
    }

    pub(crate) fn write(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.written |= !bytes.is_empty();
        self.file.write_all(bytes)
    }

    /// Copies what was written to `out`.
    pub(crate) fn copy_to(self, out: &mut dyn Write) -> std::io::Result<()> {
        let mut file = self
            .file
            .into_inner()
            .map_err(std::io::IntoInnerError::into_error)?;
        file.seek(SeekFrom::Start(0))?;
        std::io::copy(&mut file, out)?;
        Ok(())
    }
}

/// A spool is also somewhere to write a whole part at once (a catalog's section
/// of a report of several).
impl Write for Spool {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.written |= !bytes.is_empty();
        self.file.write(bytes)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_written_is_copied_back() {
        let mut spool = Spool::new().expect("a temporary file");
        assert!(spool.is_empty());
        spool.write(b"one, ").expect("written");
        spool.write(b"two").expect("written");
        assert!(!spool.is_empty());
        let mut out = Vec::new();
        spool.copy_to(&mut out).expect("copied");
        assert_eq!(out, b"one, two");
    }
}
