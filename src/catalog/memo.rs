//! Documents read once for two catalogs: `fbc diff` loads NEW remembering each
//! YAML document's blob by the document's exact text, then loads OLD taking the
//! blob of every document whose text NEW had, instead of reading it again. Both
//! sides of a catalog change share most of their documents, so OLD costs little
//! more than splitting it into documents. A document's blob depends on its text
//! alone (its place in the file only sets its location, which is computed from
//! the file as usual), so what OLD gets is what reading it would give.

use std::collections::HashMap;
use std::sync::Mutex;

use super::Implicit;
use super::meta::Blob;

/// How a load uses a [`Memo`].
#[derive(Clone, Copy, Default)]
pub(crate) enum Reuse<'m> {
    /// Read every document.
    #[default]
    Nothing,
    /// Read every document and remember its blob.
    Record(&'m Memo),
    /// Take the blob of every document the memo holds; read the rest.
    Recall(&'m Memo),
}

impl<'m> Reuse<'m> {
    /// The memo documents are taken from, when recalling.
    pub(super) fn recalling(self) -> Option<&'m Memo> {
        match self {
            Reuse::Recall(memo) => Some(memo),
            _ => None,
        }
    }

    /// The memo documents are remembered in, when recording.
    pub(super) fn recording(self) -> Option<&'m Memo> {
        match self {
            Reuse::Record(memo) => Some(memo),
            _ => None,
        }
    }
}

/// Blobs by their documents' text (a copy: the files' texts are gone once read).
#[derive(Default)]
pub(crate) struct Memo {
    blobs: Mutex<HashMap<Box<str>, Remembered, foldhash::fast::RandomState>>,
}

/// What a document gave: its blob, and its implicitly typed scalars (lines from
/// the document's start).
#[derive(Clone)]
pub(super) struct Remembered {
    pub(super) blob: Blob,
    pub(super) implicit: Vec<Implicit>,
}

impl Memo {
    pub(super) fn remember(&self, text: &str, remembered: Remembered) {
        self.lock().insert(text.into(), remembered);
    }

    pub(super) fn holds(&self, text: &str) -> bool {
        self.lock().contains_key(text)
    }

    pub(super) fn recall(&self, text: &str) -> Option<Remembered> {
        self.lock().get(text).cloned()
    }

    fn lock(
        &self,
    ) -> std::sync::MutexGuard<'_, HashMap<Box<str>, Remembered, foldhash::fast::RandomState>> {
        // A thread that panicked while holding it left whole entries: still usable.
        self.blobs
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}
