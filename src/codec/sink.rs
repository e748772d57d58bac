//! Where the JSON and YAML writers put their bytes: a buffer, a buffer that gives
//! up past a size, or a buffer that spills into the output as it fills. Indented
//! output grows with the square of the nesting depth (a 20 KB blob nested 10,000
//! deep prints 400 MB, as opm prints it), so a blob is never required to fit in
//! memory whole.

use std::cell::RefCell;
use std::io::Write;

/// A byte sink for the writers; `Vec<u8>` is the plain one.
pub(crate) trait Sink {
    fn push(&mut self, byte: u8);
    fn extend_from_slice(&mut self, bytes: &[u8]);
}

impl Sink for Vec<u8> {
    #[inline]
    fn push(&mut self, byte: u8) {
        Vec::push(self, byte);
    }

    #[inline]
    fn extend_from_slice(&mut self, bytes: &[u8]) {
        Vec::extend_from_slice(self, bytes);
    }
}

/// What `write` writes, as a string of exactly its length. It is written in a
/// buffer each thread keeps, so that a text kept for long (a catalog's property
/// values, most of its memory) is one allocation of its size: not grown by
/// doubling, then shrunk into place. `write` must write UTF-8, and must not call
/// `exact_text` itself.
pub(crate) fn exact_text(write: impl FnOnce(&mut Vec<u8>)) -> Box<str> {
    thread_local! {
        static BUFFER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    }
    BUFFER.with_borrow_mut(|buffer| {
        buffer.clear();
        write(buffer);
        take_exact(buffer)
    })
}

/// A buffer that grew past this becomes the text itself, and is not kept.
pub(crate) const KEEP: usize = 64 << 10;

/// The UTF-8 text a kept buffer holds, at its exact size: copied out, the buffer
/// left empty for the next text; or, once the buffer grew past [`KEEP`], the buffer
/// itself, shrunk in place (a large text is not copied).
pub(crate) fn take_exact(buffer: &mut Vec<u8>) -> Box<str> {
    if buffer.capacity() > KEEP {
        let text = String::from_utf8(std::mem::take(buffer)).expect("the writers write UTF-8");
        return text.into_boxed_str();
    }
    let text = Box::from(std::str::from_utf8(buffer).expect("the writers write UTF-8"));
    buffer.clear();
    text
}

/// A buffer that stops keeping bytes once it holds more than `cap`: the caller
/// then writes the same blobs again through a [`Spill`].
pub(crate) struct Capped {
    buffer: Vec<u8>,
    cap: usize,
    overflowed: bool,
}

impl Capped {
    /// A buffer with room for `expected` bytes (as far as the cap), so that a
    /// good guess of the output is written without reallocating.
    pub(crate) fn new(expected: usize, cap: usize) -> Capped {
        Capped {
            buffer: Vec::with_capacity(expected.min(cap)),
            cap,
            overflowed: false,
        }
    }

    /// The bytes, or `None` when they went past the cap.
    pub(crate) fn into_bytes(self) -> Option<Vec<u8>> {
        (!self.overflowed).then_some(self.buffer)
    }

    fn check(&mut self) {
        if self.buffer.len() > self.cap {
            self.overflowed = true;
            self.buffer = Vec::new();
        }
    }
}

impl Sink for Capped {
    #[inline]
    fn push(&mut self, byte: u8) {
        if !self.overflowed {
            self.buffer.push(byte);
            self.check();
        }
    }

    #[inline]
    fn extend_from_slice(&mut self, bytes: &[u8]) {
        if !self.overflowed {
            self.buffer.extend_from_slice(bytes);
            self.check();
        }
    }
}

/// A buffer written out to `out` whenever it holds `size` bytes; the first write
/// error is kept and reported by [`Spill::finish`].
pub(crate) struct Spill<'w, W: Write> {
    buffer: Vec<u8>,
    size: usize,
    out: &'w mut W,
    error: Option<std::io::Error>,
}

impl<'w, W: Write> Spill<'w, W> {
    pub(crate) fn new(out: &'w mut W, size: usize) -> Self {
        Spill {
            buffer: Vec::with_capacity(size),
            size,
            out,
            error: None,
        }
    }

    fn drain(&mut self) {
        if self.error.is_none()
            && let Err(error) = self.out.write_all(&self.buffer)
        {
            self.error = Some(error);
        }
        self.buffer.clear();
    }

    /// Writes what is left; the first error met, if any.
    pub(crate) fn finish(mut self) -> std::io::Result<()> {
        self.drain();
        self.error.map_or(Ok(()), Err)
    }
}

impl<W: Write> Sink for Spill<'_, W> {
    #[inline]
    fn push(&mut self, byte: u8) {
        self.buffer.push(byte);
        if self.buffer.len() >= self.size {
            self.drain();
        }
    }

    #[inline]
    fn extend_from_slice(&mut self, bytes: &[u8]) {
        self.buffer.extend_from_slice(bytes);
        if self.buffer.len() >= self.size {
            self.drain();
        }
    }
}

impl<W: Write> Write for Spill<'_, W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    /// Nothing: the buffer is written when full and by [`Spill::finish`].
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<W: Write> std::fmt::Write for Spill<'_, W> {
    fn write_str(&mut self, text: &str) -> std::fmt::Result {
        self.extend_from_slice(text.as_bytes());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capped_gives_up_past_its_cap() {
        let mut sink = Capped::new(0, 4);
        sink.extend_from_slice(b"abcd");
        sink.push(b'e');
        assert_eq!(sink.into_bytes(), None);
        let mut sink = Capped::new(0, 4);
        sink.extend_from_slice(b"ab");
        sink.push(b'c');
        assert_eq!(sink.into_bytes().as_deref(), Some(&b"abc"[..]));
    }

    #[test]
    fn spill_writes_everything_in_order() {
        let mut out = Vec::new();
        let mut sink = Spill::new(&mut out, 3);
        for byte in b"abcdefg" {
            sink.push(*byte);
        }
        sink.extend_from_slice(b"hijklmnop");
        sink.finish().expect("written");
        assert_eq!(out, b"abcdefghijklmnop");
    }

    #[test]
    fn spill_reports_the_first_write_error() {
        let Ok(mut full) = std::fs::File::create("/dev/full") else {
            return;
        };
        let mut sink = Spill::new(&mut full, 2);
        sink.extend_from_slice(b"abcdef");
        let error = sink.finish().expect_err("the disk is full");
        assert_eq!(error.raw_os_error(), Some(28));
    }
}
