//! [`TextSpool`]: long text (opm's message for a catalog of many broken
//! packages) in memory up to a budget, the earlier pieces in an unnamed
//! temporary file beyond it.

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt as _;

use super::{BLOCK, Failure};

/// Text written in pieces, in memory up to a budget and the earlier pieces in an
/// unnamed temporary file beyond it (kept in memory when the file cannot be
/// written): opm's message for a catalog of many broken packages is longer than
/// the catalog.
pub(crate) struct TextSpool {
    file: Option<File>,
    written: u64,
    held: String,
    budget: usize,
    failure: Failure,
}

impl TextSpool {
    pub(crate) fn new(budget: usize) -> TextSpool {
        TextSpool {
            file: None,
            written: 0,
            held: String::new(),
            budget,
            failure: Failure::default(),
        }
    }

    pub(crate) fn push_str(&mut self, text: &str) {
        self.held.push_str(text);
        if self.held.len() > self.budget {
            self.spill();
        }
    }

    fn spill(&mut self) {
        if self.file.is_none() {
            self.file = tempfile::tempfile().ok();
        }
        let written = self
            .file
            .as_ref()
            .map(|file| file.write_all_at(self.held.as_bytes(), self.written));
        if let Some(Ok(())) = written {
            self.written += self.held.len() as u64;
            self.held.clear();
        } else {
            self.budget = usize::MAX;
        }
    }

    /// Hands the text to `visit` in pieces of whole characters, in order.
    pub(crate) fn chunks(&self, visit: &mut dyn FnMut(&str)) {
        if let Some(file) = &self.file
            && let Err(error) = read_text(file, self.written, visit)
        {
            self.failure.keep(error);
            return;
        }
        visit(&self.held);
    }

    /// The whole text.
    pub(crate) fn text(&self) -> String {
        let mut text = String::new();
        self.chunks(&mut |chunk| text.push_str(chunk));
        text
    }

    /// Why reading the text back failed, if it did.
    pub(crate) fn failure(&self) -> Option<String> {
        self.failure.message("opm's message")
    }
}

/// The first `length` bytes of `file`, handed over a block of whole characters
/// at a time.
fn read_text(file: &File, length: u64, visit: &mut dyn FnMut(&str)) -> io::Result<()> {
    let mut block = Vec::with_capacity(BLOCK + 4);
    let mut at = 0;
    while at < length {
        let carried = block.len();
        let more = usize::try_from(length - at)
            .unwrap_or(usize::MAX)
            .min(BLOCK);
        block.resize(carried + more, 0);
        file.read_exact_at(&mut block[carried..], at)?;
        at += more as u64;
        let valid = match std::str::from_utf8(&block) {
            Ok(text) => {
                visit(text);
                block.len()
            }
            // A character cut by the block's end waits for the next block.
            Err(error) if error.error_len().is_none() => {
                let valid = error.valid_up_to();
                visit(std::str::from_utf8(&block[..valid]).expect("checked"));
                valid
            }
            Err(_) => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "text that is not UTF-8",
                ));
            }
        };
        block.drain(..valid);
    }
    if block.is_empty() {
        Ok(())
    } else {
        Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "a character cut short",
        ))
    }
}

impl From<String> for TextSpool {
    fn from(text: String) -> TextSpool {
        let mut spool = TextSpool::new(usize::MAX);
        spool.held = text;
        spool
    }
}

impl crate::codec::node::TextSource for TextSpool {
    fn chunks(&self, visit: &mut dyn FnMut(&str)) {
        TextSpool::chunks(self, visit);
    }
}

impl std::fmt::Debug for TextSpool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("TextSpool").field(&self.text()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::TextSpool;

    /// Text spilled in pieces, characters cut by blocks' ends included, reads
    /// back whole.
    #[test]
    fn text_reads_back_in_whole_characters() {
        let piece = "└── invalid package \"é\":\n│   └── ✓ 😀\n";
        let mut expected = String::new();
        let mut spool = TextSpool::new(100);
        for number in 0..20_000 {
            let piece = format!("{number}{piece}");
            spool.push_str(&piece);
            expected.push_str(&piece);
        }
        assert!(spool.file.is_some());
        let mut chunks = 0;
        spool.chunks(&mut |_| chunks += 1);
        assert!(chunks > 10, "{chunks} chunks");
        assert_eq!(spool.text(), expected);
        assert_eq!(spool.failure(), None);
    }
}
