//! A property value written straight to compact JSON as its events arrive: the text
//! the builder's value would be written as (`write_compact_value`: keys sorted, the
//! last of equal keys kept, every number a `float64`), without building the value.
//! A catalog's property values are most of its bytes, and are only ever written back
//! out, so their trees were built only to be walked once and dropped.
//!
//! Entries are written in the order they come; a mapping whose keys did not come
//! sorted is put in order when it ends. A catalog written by opm has them sorted.

use std::borrow::Cow;
use std::cell::Cell;

use crate::codec::json_write::write_string;
use crate::codec::sink::{KEEP, take_exact};
use crate::codec::yaml::keys::{self, Key};
use crate::codec::yaml::resolve::Scalar;
use crate::go::number;

/// What cannot be written as it comes: the full builder must decide (a key that is
/// not a string or a number, a NaN or infinite number, a value whose text cannot
/// get its memory).
#[derive(Debug)]
pub(super) struct Uncapturable;

#[derive(Default)]
pub(super) struct Capture<'a> {
    out: Vec<u8>,
    frames: Vec<Frame>,
    /// The entries of the open mappings, innermost last.
    entries: Vec<Entry<'a>>,
}

enum Frame {
    Sequence {
        empty: bool,
    },
    Mapping {
        /// Where its entries start in `entries`, and its text (after `{`) in `out`.
        first: usize,
        start: usize,
        /// The last key came, and its value has not.
        awaiting_value: bool,
        sorted: bool,
    },
}

/// One key of an open mapping and the text of `"key":value` in `out`.
struct Entry<'a> {
    key: Cow<'a, str>,
    start: usize,
    end: usize,
}

thread_local! {
    /// The last document's buffer, kept for the next one.
    static SPARE: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
}

impl Drop for Capture<'_> {
    fn drop(&mut self) {
        if self.out.capacity() <= KEEP {
            self.out.clear();
            SPARE.set(std::mem::take(&mut self.out));
        }
    }
}

impl<'a> Capture<'a> {
    /// Whether a value is being captured: it has begun and not ended.
    pub(super) fn active(&self) -> bool {
        !self.out.is_empty()
    }

    /// The next event is a mapping key.
    pub(super) fn expects_key(&self) -> bool {
        matches!(
            self.frames.last(),
            Some(Frame::Mapping {
                awaiting_value: false,
                ..
            })
        )
    }

    /// The key whose value comes next, directly or as an item of a list under it
    /// (`None` at the value itself, whose key is `value`).
    pub(super) fn field(&self) -> Option<&str> {
        let owner = match self.frames.split_last()? {
            (Frame::Sequence { .. }, [.., parent]) => parent,
            (Frame::Sequence { .. }, []) => return None,
            (mapping, _) => mapping,
        };
        match owner {
            Frame::Mapping {
                awaiting_value: true,
                ..
            } => self.entries.last().map(|entry| entry.key.as_ref()),
            _ => None,
        }
    }

    /// Whether the value is complete.
    pub(super) fn done(&self) -> bool {
        self.frames.is_empty() && !self.out.is_empty()
    }

    /// The compact text, once [`Capture::done`], at its exact size; then the
    /// capture is ready for the next value (see `sink::take_exact`).
    pub(super) fn finish(&mut self) -> String {
        String::from(take_exact(&mut self.out))
    }

    pub(super) fn key(&mut self, scalar: Scalar<'a>) -> Result<(), Uncapturable> {
        let key = match scalar {
            Scalar::Str(text) => text,
            other => match keys::scalar_key(other) {
                Key::Text(text) => Cow::Owned(text),
                Key::Unsupported { .. } => return Err(Uncapturable),
            },
        };
        let Some(Frame::Mapping {
            first,
            awaiting_value,
            sorted,
            ..
        }) = self.frames.last_mut()
        else {
            return Err(Uncapturable);
        };
        if self.entries.len() > *first {
            *sorted &= self.entries.last().is_some_and(|last| last.key < key);
            self.out.push(b',');
        }
        *awaiting_value = true;
        let start = self.out.len();
        write_string(&key, &mut self.out);
        self.out.push(b':');
        self.entries.push(Entry {
            key,
            start,
            end: start,
        });
        Ok(())
    }

    #[allow(clippy::cast_precision_loss)] // Go's float64(int) rounds too
    pub(super) fn scalar(&mut self, scalar: &Scalar<'_>) -> Result<(), Uncapturable> {
        self.item();
        self.room(match scalar {
            Scalar::Str(text) => text.len() + 3,
            _ => 32,
        })?;
        match *scalar {
            Scalar::Null => self.out.extend_from_slice(b"null"),
            Scalar::Bool(true) => self.out.extend_from_slice(b"true"),
            Scalar::Bool(false) => self.out.extend_from_slice(b"false"),
            Scalar::Str(ref text) => write_string(text, &mut self.out),
            Scalar::Int(value) => self.number(value as f64)?,
            Scalar::Uint(value) => self.number(value as f64)?,
            Scalar::Float(value) => self.number(value)?,
        }
        self.ended();
        Ok(())
    }

    /// Room for `more` bytes, grown as a `Vec` grows. `Err` when the memory cannot
    /// be had: the builder then reads the value, and says so where it runs out.
    fn room(&mut self, more: usize) -> Result<(), Uncapturable> {
        if self.out.capacity() - self.out.len() < more {
            self.out
                .try_reserve(more.max(self.out.len()))
                .map_err(|_| Uncapturable)?;
        }
        Ok(())
    }

    /// A number as Go writes a `float64`; JSON has no NaN or infinities.
    fn number(&mut self, value: f64) -> Result<(), Uncapturable> {
        if !value.is_finite() {
            return Err(Uncapturable);
        }
        self.out.extend_from_slice(number::json(value).as_bytes());
        Ok(())
    }

    pub(super) fn open(&mut self, mapping: bool) {
        self.item();
        self.out.push(if mapping { b'{' } else { b'[' });
        self.frames.push(if mapping {
            Frame::Mapping {
                first: self.entries.len(),
                start: self.out.len(),
                awaiting_value: false,
                sorted: true,
            }
        } else {
            Frame::Sequence { empty: true }
        });
    }

    /// Ends the innermost collection (`Err` when none is open: events out of
    /// balance are the builder's to judge).
    pub(super) fn close(&mut self) -> Result<(), Uncapturable> {
        match self.frames.pop() {
            Some(Frame::Sequence { .. }) => self.out.push(b']'),
            Some(Frame::Mapping {
                first,
                start,
                sorted,
                ..
            }) => {
                if !sorted {
                    self.sort(first, start);
                }
                self.entries.truncate(first);
                self.out.push(b'}');
            }
            None => return Err(Uncapturable),
        }
        self.ended();
        Ok(())
    }

    /// Before a value: the buffer, when the capture begins, and the comma before
    /// an item of a sequence.
    fn item(&mut self) {
        if self.out.capacity() == 0 {
            self.out = SPARE.take();
        }
        if let Some(Frame::Sequence { empty }) = self.frames.last_mut() {
            if !*empty {
                self.out.push(b',');
            }
            *empty = false;
        }
    }

    /// A value ended: a mapping's entry is complete.
    fn ended(&mut self) {
        if let Some(Frame::Mapping { awaiting_value, .. }) = self.frames.last_mut() {
            *awaiting_value = false;
            let end = self.out.len();
            if let Some(entry) = self.entries.last_mut() {
                entry.end = end;
            }
        }
    }

    /// Puts the entries of the mapping whose text starts at `start` in key order,
    /// keeping the last of equal keys.
    fn sort(&mut self, first: usize, start: usize) {
        let entries = &mut self.entries[first..];
        // Stable: of equal keys, the last one written stays last.
        entries.sort_by(|a, b| a.key.cmp(&b.key));
        let mut text = Vec::with_capacity(self.out.len() - start);
        for (index, entry) in entries.iter().enumerate() {
            if entries
                .get(index + 1)
                .is_some_and(|next| next.key == entry.key)
            {
                continue;
            }
            if !text.is_empty() {
                text.push(b',');
            }
            text.extend_from_slice(&self.out[entry.start..entry.end]);
        }
        self.out.truncate(start);
        self.out.extend_from_slice(&text);
    }
}
