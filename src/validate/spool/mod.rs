//! Findings beyond a memory budget kept in an unnamed temporary file (removed by
//! the system when fbc ends, however it ends): a catalog with a problem in nearly
//! every blob has more findings than it has blobs, and a report must not hold
//! them all. [`Spool`] keeps findings in the order they come; [`Sorter`] sorts
//! them in runs merged as they are read back.

use std::borrow::Cow;
use std::collections::{BinaryHeap, HashMap};
use std::fs::File;
use std::io;
use std::ops::Range;
use std::os::unix::fs::FileExt as _;
use std::sync::{Arc, Mutex};

use super::Finding;
use crate::catalog::SharedPath;

#[cfg(test)]
mod tests;
mod text;

pub(crate) use text::TextSpool;

/// Bytes read from or written to the file at a time.
const BLOCK: usize = 64 * 1024;

/// The memory findings may take before they go to a file (`FBC_FINDINGS_IN_MEMORY`).
pub(crate) fn budget() -> usize {
    usize::try_from(crate::files::limits::get().findings_in_memory).unwrap_or(usize::MAX)
}

/// The first error met reading a temporary file back (what was read stops there).
#[derive(Default)]
struct Failure(Mutex<Option<io::Error>>);

impl Failure {
    fn keep(&self, error: io::Error) {
        if let Ok(mut failure) = self.0.lock() {
            failure.get_or_insert(error);
        }
    }

    /// The error, saying what was being read back.
    fn message(&self, what: &str) -> Option<String> {
        let failure = self.0.lock().ok()?;
        let error = failure.as_ref()?;
        Some(format!(
            "reading back {what} kept in a temporary file: {error}"
        ))
    }
}

/// Encoded findings in an unnamed temporary file, each a little-endian length
/// and [`Finding::encode`]'s bytes; files are numbered in a table kept here.
struct Store {
    file: File,
    written: u64,
    files: Vec<SharedPath>,
    numbers: HashMap<usize, u32>,
    failure: Failure,
}

impl Store {
    fn new() -> io::Result<Store> {
        Ok(Store {
            file: tempfile::tempfile()?,
            written: 0,
            files: Vec::new(),
            numbers: HashMap::new(),
            failure: Failure::default(),
        })
    }

    /// Writes `findings` after what the file holds; returns where they are. On an
    /// error nothing counts as written.
    fn append<'a>(
        &mut self,
        findings: impl IntoIterator<Item = &'a Finding>,
    ) -> io::Result<Range<u64>> {
        let (files, numbers) = (&mut self.files, &mut self.numbers);
        let number = |file: &SharedPath| {
            *numbers
                .entry(Arc::as_ptr(file) as usize)
                .or_insert_with(|| {
                    files.push(Arc::clone(file));
                    u32::try_from(files.len() - 1).unwrap_or(u32::MAX)
                })
        };
        append_to(&self.file, &mut self.written, findings, number)
    }

    /// Merges `runs` (in this file, in their order) into one run written after
    /// what the file holds.
    fn merge(&mut self, runs: &[Range<u64>]) -> io::Result<Range<u64>> {
        let Store {
            file,
            written,
            files,
            numbers,
            failure,
        } = self;
        let sources = runs
            .iter()
            .map(|run| Source::Run(Reader::new(file, files, failure, run.clone())))
            .collect();
        // Every file of a finding read back is numbered already.
        let number = |file: &SharedPath| numbers[&(Arc::as_ptr(file) as usize)];
        append_to(file, written, Merge::new(sources), number)
    }

    /// Forgets what the file holds (and gives its room back).
    fn clear(&mut self) {
        self.written = 0;
        let _ = self.file.set_len(0);
    }

    /// The findings written at `range`, read a block at a time.
    fn read(&self, range: Range<u64>) -> Reader<'_> {
        Reader::new(&self.file, &self.files, &self.failure, range)
    }

    /// Why reading back failed, if it did.
    fn failure(&self) -> Option<String> {
        self.failure.message("findings")
    }
}

/// Writes `findings` to `file` at `written`, numbering their files with
/// `number`; returns where they are and moves `written` past them (not on an
/// error).
fn append_to<F: std::borrow::Borrow<Finding>>(
    file: &File,
    written: &mut u64,
    findings: impl IntoIterator<Item = F>,
    mut number: impl FnMut(&SharedPath) -> u32,
) -> io::Result<Range<u64>> {
    let start = *written;
    let mut at = start;
    let mut block = Vec::with_capacity(BLOCK + 1024);
    let mut record = Vec::new();
    for finding in findings {
        record.clear();
        finding.borrow().encode(&mut record, &mut number);
        let length = u32::try_from(record.len())
            .map_err(|_| io::Error::other("a finding of more than 4 GiB"))?;
        block.extend_from_slice(&length.to_le_bytes());
        block.extend_from_slice(&record);
        if block.len() >= BLOCK {
            file.write_all_at(&block, at)?;
            at += block.len() as u64;
            block.clear();
        }
    }
    file.write_all_at(&block, at)?;
    *written = at + block.len() as u64;
    Ok(start..*written)
}

/// Findings read back from a [`Store`], in the order they were written; a failure
/// ends them and is kept in the store.
struct Reader<'s> {
    file: &'s File,
    files: &'s [SharedPath],
    failure: &'s Failure,
    at: u64,
    end: u64,
    block: Vec<u8>,
    used: usize,
}

impl<'s> Reader<'s> {
    fn new(
        file: &'s File,
        files: &'s [SharedPath],
        failure: &'s Failure,
        range: Range<u64>,
    ) -> Reader<'s> {
        Reader {
            file,
            files,
            failure,
            at: range.start,
            end: range.end,
            block: Vec::new(),
            used: 0,
        }
    }

    /// At least `count` unread bytes in the block, unless the range ends first.
    fn fill(&mut self, count: usize) -> io::Result<bool> {
        let unread = self.block.len() - self.used;
        if unread >= count {
            return Ok(true);
        }
        let left = self.end - self.at;
        if (unread as u64) + left < count as u64 {
            return Ok(false);
        }
        self.block.drain(..self.used);
        self.used = 0;
        let more = (count.max(BLOCK) - unread).min(usize::try_from(left).unwrap_or(usize::MAX));
        let start = self.block.len();
        self.block.resize(start + more, 0);
        self.file.read_exact_at(&mut self.block[start..], self.at)?;
        self.at += more as u64;
        Ok(true)
    }

    fn next_finding(&mut self) -> io::Result<Option<Finding>> {
        let cut = || io::Error::new(io::ErrorKind::UnexpectedEof, "a finding cut short");
        if !self.fill(4)? {
            return if self.block.len() == self.used {
                Ok(None)
            } else {
                Err(cut())
            };
        }
        let length = &self.block[self.used..self.used + 4];
        let length = u32::from_le_bytes(length.try_into().expect("four bytes")) as usize;
        self.used += 4;
        if !self.fill(length)? {
            return Err(cut());
        }
        let bytes = &self.block[self.used..self.used + length];
        self.used += length;
        Finding::decode(bytes, self.files).map(Some).ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                "a finding that does not read back",
            )
        })
    }
}

impl Iterator for Reader<'_> {
    type Item = Finding;

    fn next(&mut self) -> Option<Finding> {
        match self.next_finding() {
            Ok(finding) => finding,
            Err(error) => {
                self.failure.keep(error);
                self.at = self.end;
                self.used = self.block.len();
                None
            }
        }
    }
}

/// Findings in memory up to a budget, and the store that takes them beyond it.
struct Buffer {
    store: Option<Store>,
    held: Vec<Finding>,
    held_size: usize,
    budget: usize,
}

impl Buffer {
    fn new(budget: usize) -> Buffer {
        Buffer {
            store: None,
            held: Vec::new(),
            held_size: 0,
            budget,
        }
    }

    /// Adds a finding; true when the ones in memory are over the budget.
    fn push(&mut self, finding: Finding) -> bool {
        self.held_size += finding.size();
        self.held.push(finding);
        self.held_size > self.budget
    }

    /// Writes the findings in memory after what the store holds and forgets them;
    /// `None` when the file cannot be made or written (they stay in memory, and
    /// the budget is lifted).
    fn write_held(&mut self) -> Option<Range<u64>> {
        if self.store.is_none() {
            self.store = Store::new().ok();
        }
        let written = self.store.as_mut().map(|store| store.append(&self.held));
        if let Some(Ok(range)) = written {
            self.held.clear();
            self.held_size = 0;
            Some(range)
        } else {
            self.budget = usize::MAX;
            None
        }
    }

    fn failure(&self) -> Option<String> {
        self.store.as_ref().and_then(Store::failure)
    }
}

/// Findings in the order they come, in memory up to a budget, the earlier ones
/// in a [`Store`] beyond it (kept in memory when the file cannot be written).
pub(crate) struct Spool {
    buffer: Buffer,
    len: usize,
    errors: usize,
}

impl Spool {
    pub(crate) fn new(budget: usize) -> Spool {
        Spool {
            buffer: Buffer::new(budget),
            len: 0,
            errors: 0,
        }
    }

    pub(crate) fn push(&mut self, finding: Finding) {
        self.len += 1;
        self.errors += usize::from(finding.severity == super::Severity::Error);
        if self.buffer.push(finding) {
            self.buffer.write_held();
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    pub(crate) fn errors(&self) -> usize {
        self.errors
    }

    /// Every finding, in order (those in the file read back).
    pub(crate) fn iter(&self) -> impl Iterator<Item = Cow<'_, Finding>> {
        let store = self.buffer.store.iter();
        let written = store.flat_map(|store| store.read(0..store.written));
        let held = self.buffer.held.iter();
        written.map(Cow::Owned).chain(held.map(Cow::Borrowed))
    }

    /// Why reading findings back failed, if it did: what was handed over is
    /// then incomplete.
    pub(crate) fn failure(&self) -> Option<String> {
        self.buffer.failure()
    }
}

impl From<Vec<Finding>> for Spool {
    fn from(findings: Vec<Finding>) -> Spool {
        let mut spool = Spool::new(usize::MAX);
        for finding in findings {
            spool.push(finding);
        }
        spool
    }
}

impl std::fmt::Debug for Spool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Spool")
            .field("len", &self.len)
            .field("spilled", &self.buffer.store.is_some())
            .finish_non_exhaustive()
    }
}

/// Findings sorted by [`Finding::sort_key`] (stably, equal neighbours dropped)
/// however many come: beyond the budget the ones in memory are sorted and
/// written as a run, and the runs are merged as they are read back. Runs are
/// merged early, [`FAN_IN`] of a size at a time, so that a small budget never
/// reads from more than a few dozen at once.
pub(crate) struct Sorter {
    buffer: Buffer,
    /// Each run and how many merges made it.
    runs: Vec<(Range<u64>, u32)>,
    over: bool,
}

/// How many runs of one size are merged into one.
const FAN_IN: usize = 16;

impl Sorter {
    pub(crate) fn new(budget: usize) -> Sorter {
        Sorter {
            buffer: Buffer::new(budget),
            runs: Vec::new(),
            over: false,
        }
    }

    /// The findings in memory (every finding of the part when none were written).
    pub(crate) fn held(&self) -> &[Finding] {
        &self.buffer.held
    }

    pub(crate) fn reserve(&mut self, count: usize) {
        let room = self.buffer.budget / std::mem::size_of::<Finding>();
        self.buffer.held.reserve(count.min(room));
    }

    /// Adds a finding (the caller spills when [`Sorter::over_budget`], after
    /// keeping what it needs of the findings in memory).
    pub(crate) fn push(&mut self, finding: Finding) {
        self.over = self.buffer.push(finding);
    }

    /// Whether the findings in memory should go to a run.
    pub(crate) fn over_budget(&self) -> bool {
        self.over
    }

    /// Writes the findings in memory as a sorted run (kept in memory, and the
    /// budget lifted, when the file cannot be written).
    pub(crate) fn spill(&mut self) {
        self.over = false;
        sort(&mut self.buffer.held);
        self.buffer.held.dedup();
        if self.runs.is_empty()
            && let Some(store) = &mut self.buffer.store
        {
            store.clear();
        }
        let Some(run) = self.buffer.write_held() else {
            return;
        };
        self.runs.push((run, 0));
        // The last runs, when FAN_IN of them have been merged as often, become one.
        while let Some(&(_, merges)) = self.runs.last()
            && self.runs.len() >= FAN_IN
            && self.runs[self.runs.len() - FAN_IN..]
                .iter()
                .all(|(_, other)| *other == merges)
        {
            let tail: Vec<Range<u64>> = self
                .runs
                .drain(self.runs.len() - FAN_IN..)
                .map(|(run, _)| run)
                .collect();
            let store = self.buffer.store.as_mut().expect("runs are in a store");
            if let Ok(run) = store.merge(&tail) {
                self.runs.push((run, merges + 1));
            } else {
                // Left as they are: still correct, only read more at once.
                self.runs
                    .extend(tail.into_iter().map(|run| (run, u32::MAX)));
                break;
            }
        }
    }

    /// Every finding added since the last part, sorted; the sorter is empty
    /// after it.
    pub(crate) fn part(&mut self) -> Merge<'_> {
        let mut held = std::mem::take(&mut self.buffer.held);
        self.buffer.held_size = 0;
        self.over = false;
        sort(&mut held);
        held.dedup();
        let runs = std::mem::take(&mut self.runs);
        let mut sources: Vec<Source<'_>> = match &self.buffer.store {
            Some(store) => runs
                .into_iter()
                .map(|(run, _)| Source::Run(store.read(run)))
                .collect(),
            None => Vec::new(),
        };
        sources.push(Source::Held(held.into_iter()));
        Merge::new(sources)
    }

    /// Why reading findings back failed, if it did.
    pub(crate) fn failure(&self) -> Option<String> {
        self.buffer.failure()
    }
}

/// Sorts findings stably by [`Finding::sort_key`] without a scratch copy of them
/// (a part can have tens of thousands): their indices are sorted, then each
/// cycle of the permutation is swapped into place.
fn sort(findings: &mut [Finding]) {
    // Four bytes an index (2^32 findings would take 240 GB; past that, the
    // standard library's stable sort).
    let Ok(count) = u32::try_from(findings.len()) else {
        findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        return;
    };
    let mut order: Vec<u32> = (0..count).collect();
    order.sort_by(|&a, &b| {
        let key = |index: u32| findings[index as usize].sort_key();
        key(a).cmp(&key(b))
    });
    // Position `i` takes the finding at `order[i]`; a placed position points at itself.
    for start in 0..order.len() {
        let mut at = start;
        loop {
            let from = order[at] as usize;
            order[at] = u32::try_from(at).expect("positions are below the count");
            if from == start {
                break;
            }
            findings.swap(at, from);
            at = from;
        }
    }
}

enum Source<'s> {
    Run(Reader<'s>),
    Held(std::vec::IntoIter<Finding>),
}

impl Iterator for Source<'_> {
    type Item = Finding;

    fn next(&mut self) -> Option<Finding> {
        match self {
            Source::Run(reader) => reader.next(),
            Source::Held(held) => held.next(),
        }
    }
}

/// The next finding of one source; the heap's top is the least by key, then by
/// source (earlier runs hold earlier findings: the merge stays stable).
struct Head {
    finding: Finding,
    source: usize,
}

impl Ord for Head {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        let order = self.finding.sort_key().cmp(&other.finding.sort_key());
        order.then(self.source.cmp(&other.source)).reverse()
    }
}

impl PartialOrd for Head {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Head {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}

impl Eq for Head {}

/// The sorted runs and the findings in memory merged into one order, equal
/// neighbours dropped.
pub(crate) struct Merge<'s> {
    heap: BinaryHeap<Head>,
    sources: Vec<Source<'s>>,
    /// The next finding to hand over, held until the one after it is known to differ.
    pending: Option<Finding>,
}

impl<'s> Merge<'s> {
    /// The findings of `sources`, each sorted, earlier sources holding earlier
    /// findings.
    fn new(sources: Vec<Source<'s>>) -> Merge<'s> {
        let mut merge = Merge {
            heap: BinaryHeap::with_capacity(sources.len()),
            sources,
            pending: None,
        };
        for source in 0..merge.sources.len() {
            merge.advance(source);
        }
        merge.pending = merge.pop();
        merge
    }

    fn advance(&mut self, source: usize) {
        if let Some(finding) = self.sources[source].next() {
            self.heap.push(Head { finding, source });
        }
    }

    fn pop(&mut self) -> Option<Finding> {
        let Head { finding, source } = self.heap.pop()?;
        self.advance(source);
        Some(finding)
    }
}

impl Iterator for Merge<'_> {
    type Item = Finding;

    fn next(&mut self) -> Option<Finding> {
        let current = self.pending.take()?;
        loop {
            match self.pop() {
                Some(next) if next == current => {}
                next => {
                    self.pending = next;
                    return Some(current);
                }
            }
        }
    }
}
