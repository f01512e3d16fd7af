//! A layer built in blocks of its index range, so that the builder's own memory stays within a
//! budget however large the layer.
//!
//! # What lives where
//! ```text
//!   values (1 byte a position)  the output file's map, touched one block at a time
//!                               (file-backed pages: the kernel writes them back and drops them)
//!   work bytes (1 byte)         the loaded block in anonymous memory (huge pages);
//!                               with several blocks, every block in a scratch file
//!   messages                    for parents in other blocks: a buffer in memory, spilled to a
//!                               scratch file per block when it outgrows its share
//! ```
//!
//! A position resolved in block `b` informs its parents (the retrograde analysis of
//! [`crate::phases`]): those in `b` at once, those in another block `c` by a *message* to `c`,
//! applied when `c` is next loaded. A message is one `u32`: the parent's offset in its block and,
//! in the top bit, whether the child was lost (the parent is then won). A phase visits every
//! block once to find the positions its exits resolve, then again each block that has messages,
//! until none has: the values a phase assigns do not depend on the order in which parents learn
//! of their children, so the bytes are the same for every budget (and thread count).
//!
//! With a single block (no budget, or a layer that fits) there are no files and no messages:
//! the work bytes stay in memory for the whole build.
//!
//! # Memory
//! A budget of `M` bytes gives blocks of `M / 2` work bytes, `M / 8` bytes of buffered messages
//! (up to twice that with the slack of growing buffers) and `M / 16` bytes of resolved positions
//! waiting on the threads' stacks; the rest, and the buffers of fixed size (a thread's
//! [`LOCAL_MESSAGES`] messages and un-move batches, 256 KiB to read or write a scratch file),
//! is a constant of about a megabyte.

use std::fs::File;
use std::io::{Read, Seek, Write};
use std::ops::Range;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU8, AtomicU64, AtomicUsize, Ordering::Relaxed};

use crate::PIECE;

/// The most positions a block holds: a message's offset is 31 bits.
const MAX_BLOCK: u64 = 1 << 31;
/// Messages a thread gathers before it hands them to the outbox.
pub const LOCAL_MESSAGES: usize = 1 << 14;
/// The top bit of a message: the child was lost, so the parent is won.
pub(crate) const LOST: u32 = 1 << 31;
/// Messages read from (and written to) a scratch file at once.
const READ_CHUNK: usize = 1 << 16;
/// Bytes a resolved position takes on a thread's stack.
const STACK_ENTRY: u64 = 32;

/// How a layer of `size` positions is cut for a memory budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockPlan {
    pub size: u64,
    /// Positions a block (the last may hold fewer); a multiple of [`PIECE`] unless it is the
    /// whole layer.
    pub block: u64,
    /// Messages buffered in memory before they are spilled to files.
    pub messages: usize,
    /// Resolved positions a thread keeps on its stack before it leaves them for a later scan.
    pub stack: usize,
    /// The ranks of a distributed build ([`crate::peers`]) among which the blocks are shared.
    pub ranks: usize,
}

/// The stack of a thread without a budget (`2^20` positions, 32 MiB).
const FREE_STACK: usize = 1 << 20;

impl BlockPlan {
    /// The plan for `size` positions within `budget` bytes (`None`: no limit, one block) on
    /// `threads` threads.
    #[must_use]
    pub fn new(size: u64, budget: Option<u64>, threads: usize) -> BlockPlan {
        let Some(budget) = budget else {
            return BlockPlan {
                size,
                block: size.max(1),
                messages: 0,
                stack: FREE_STACK,
                ranks: 1,
            };
        };
        let stack =
            (budget / 16 / threads.max(1) as u64 / STACK_ENTRY).clamp(64, FREE_STACK as u64);
        if size <= budget / 2 {
            return BlockPlan {
                size,
                block: size.max(1),
                messages: 0,
                stack: stack as usize,
                ranks: 1,
            };
        }
        let block = (budget / 2 / PIECE * PIECE).clamp(PIECE, MAX_BLOCK);
        BlockPlan {
            size,
            block,
            messages: ((budget / 8 / 4) as usize).max(LOCAL_MESSAGES),
            stack: stack as usize,
            ranks: 1,
        }
    }

    /// The plan of [`BlockPlan::new`] for each of `ranks` processes, each within `budget`:
    /// blocks no larger than a rank's share of the layer, so that every rank has some (unless
    /// the layer has fewer than `ranks` work pieces).
    #[must_use]
    pub fn distributed(size: u64, budget: Option<u64>, threads: usize, ranks: usize) -> BlockPlan {
        let ranks = ranks.max(1);
        let mut plan = BlockPlan::new(size, budget, threads);
        plan.ranks = ranks;
        if ranks > 1 {
            let share = size.div_ceil(ranks as u64).div_ceil(PIECE) * PIECE;
            if share < plan.block {
                plan.block = share.clamp(PIECE, MAX_BLOCK);
                // Messages to other ranks' blocks: within the budget's share, or kept in memory.
                plan.messages = budget.map_or(usize::MAX / 4, |b| {
                    ((b / 8 / 4) as usize).max(LOCAL_MESSAGES)
                });
            }
        }
        plan
    }

    /// The blocks of rank `rank`: a contiguous share of them.
    #[must_use]
    pub fn owned(&self, rank: usize) -> Range<usize> {
        let (count, ranks) = (self.count(), self.ranks);
        count * rank / ranks..count * (rank + 1) / ranks
    }

    /// The rank that owns block `b`.
    #[must_use]
    pub fn owner(&self, b: usize) -> usize {
        // The last rank whose share starts at or before `b`.
        (0..self.ranks)
            .rev()
            .find(|&r| self.owned(r).start <= b && !self.owned(r).is_empty())
            .unwrap_or(0)
    }

    /// The ranks (positions) of blocks `blocks`.
    #[must_use]
    pub fn span(&self, blocks: Range<usize>) -> Range<u64> {
        if blocks.is_empty() {
            return 0..0;
        }
        self.range(blocks.start).start..self.range(blocks.end - 1).end
    }

    /// How many blocks.
    #[must_use]
    pub fn count(&self) -> usize {
        self.size.div_ceil(self.block).max(1) as usize
    }

    /// The ranks of block `b`.
    #[must_use]
    pub fn range(&self, b: usize) -> Range<u64> {
        let start = b as u64 * self.block;
        start..(start + self.block).min(self.size)
    }

    /// The block of rank `rank` and the rank's offset in it.
    #[inline]
    #[must_use]
    pub fn locate(&self, rank: u64) -> (usize, u32) {
        ((rank / self.block) as usize, (rank % self.block) as u32)
    }
}

/// Files a blocked build keeps next to its layer (`<layer>.tbl.work/`), removed when dropped.
#[derive(Debug)]
pub(crate) struct Scratch {
    dir: PathBuf,
    made: bool,
}

impl Scratch {
    /// Scratch files under `dir`, made when first needed. Whatever `dir` holds is left from a
    /// build that was killed (the table set's write lock keeps other builds out): removed.
    pub(crate) fn new(dir: PathBuf) -> Scratch {
        let _ = std::fs::remove_dir_all(&dir);
        Scratch { dir, made: false }
    }

    fn file(&mut self, name: &str) -> std::io::Result<(File, PathBuf)> {
        if !self.made {
            std::fs::create_dir_all(&self.dir)?;
            self.made = true;
        }
        let path = self.dir.join(name);
        let file = File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&path)?;
        Ok((file, path))
    }
}

impl Scratch {
    /// A rank's values in a distributed build: `len` bytes in the scratch file `values`, its
    /// space reserved before it is mapped (file-backed pages: they leave the budget free).
    pub(crate) fn values(&mut self, len: u64) -> Result<RankValues, ScratchError> {
        if len == 0 {
            return Ok(RankValues { map: None });
        }
        let (file, path) = self.file("values").map_err(at(&self.dir))?;
        granary_tables::writer::reserve(&file, len).map_err(at(&path))?;
        let map = memmap2::MmapOptions::new()
            .len(len as usize)
            .map_raw(&file)
            .map_err(at(&path))?;
        Ok(RankValues { map: Some(map) })
    }
}

/// The values of one rank's share of a layer (see [`Scratch::values`]).
#[derive(Debug)]
pub(crate) struct RankValues {
    map: Option<memmap2::MmapRaw>,
}

impl RankValues {
    /// The values, for threads to fill.
    pub(crate) fn entries(&self) -> &[std::sync::atomic::AtomicI8] {
        let Some(map) = &self.map else {
            return &[];
        };
        // SAFETY: a shared, writable mapping of `len()` bytes of a file whose space is reserved
        // (no SIGBUS for want of disk) and that only this process writes; it lives as long as
        // `self`. `AtomicI8` has the size, alignment and bit validity of a byte.
        unsafe { std::slice::from_raw_parts(map.as_mut_ptr().cast(), map.len()) }
    }

    /// The values as bytes, once no thread writes them.
    pub(crate) fn bytes(&self) -> &[u8] {
        let Some(map) = &self.map else {
            return &[];
        };
        // SAFETY: as in `entries`; read after the threads that wrote them have finished.
        unsafe { std::slice::from_raw_parts(map.as_ptr(), map.len()) }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if self.made {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// An I/O error on a scratch file, with its path.
#[derive(Debug, thiserror::Error)]
#[error("{}: {source}", path.display())]
pub struct ScratchError {
    pub path: PathBuf,
    pub source: std::io::Error,
}

fn at(path: &Path) -> impl FnOnce(std::io::Error) -> ScratchError + '_ {
    move |source| ScratchError {
        path: path.to_owned(),
        source,
    }
}

/// The work bytes: the loaded block in memory, every block of this process in a file when it
/// has several.
#[derive(Debug)]
pub(crate) struct WorkBytes {
    map: memmap2::MmapRaw,
    len: usize,
    /// The file and the rank (position) of its first byte.
    file: Option<(File, PathBuf, u64)>,
}

impl WorkBytes {
    /// Memory for one block of `plan` (zeroed) and, for several blocks in `owned`, a scratch
    /// file for them.
    pub(crate) fn new(
        plan: &BlockPlan,
        owned: Range<usize>,
        scratch: &mut Scratch,
    ) -> Result<WorkBytes, WorkError> {
        let len = plan.block.min(plan.size) as usize;
        let map =
            memmap2::MmapRaw::from(granary_tables::huge_anon(len).map_err(WorkError::Memory)?);
        let file = if owned.len() > 1 {
            let span = plan.span(owned);
            let (file, path) = scratch
                .file("work")
                .map_err(|e| WorkError::Scratch(at(&scratch.dir)(e)))?;
            granary_tables::writer::reserve(&file, span.end - span.start)
                .map_err(|e| WorkError::Scratch(at(&path)(e)))?;
            Some((file, path, span.start))
        } else {
            None
        };
        Ok(WorkBytes { map, len, file })
    }

    /// The loaded block's work bytes (its first `len` are the block's).
    pub(crate) fn entries(&self) -> &[AtomicU8] {
        // SAFETY: the mapping is `len` bytes, zeroed by the kernel, writable (`as_mut_ptr` of a
        // raw mapping, made for shared mutable access) and lives as long as `self`. `AtomicU8`
        // has the size and alignment of a byte and any bit pattern is valid; the memory is only
        // accessed through these atomics while shared (`bytes_mut` needs `&mut self`).
        unsafe { std::slice::from_raw_parts(self.map.as_mut_ptr().cast::<AtomicU8>(), self.len) }
    }

    /// Loads block `b` from the file (nothing to do with a single block).
    pub(crate) fn load(&mut self, plan: &BlockPlan, b: usize) -> Result<(), ScratchError> {
        let range = plan.range(b);
        let n = (range.end - range.start) as usize;
        let Some((file, path, base)) = &self.file else {
            return Ok(());
        };
        // SAFETY: the first `n <= len` bytes of the mapping (as in `entries`); `&mut self` means
        // no view of them from `entries` is alive.
        let bytes = unsafe { std::slice::from_raw_parts_mut(self.map.as_mut_ptr(), n) };
        file.read_exact_at(bytes, range.start - base)
            .map_err(at(path))
    }

    /// Saves block `b` to the file (nothing to do with a single block).
    pub(crate) fn save(&self, plan: &BlockPlan, b: usize) -> Result<(), ScratchError> {
        let range = plan.range(b);
        let n = (range.end - range.start) as usize;
        let Some((file, path, base)) = &self.file else {
            return Ok(());
        };
        // SAFETY: the first `n <= len` bytes of the mapping, read while no thread writes them
        // (the passes over the block are finished when a block is saved).
        let bytes = unsafe { std::slice::from_raw_parts(self.map.as_ptr(), n) };
        file.write_all_at(bytes, range.start - base)
            .map_err(at(path))
    }
}

/// Why the work bytes cannot be set up.
#[derive(Debug)]
pub(crate) enum WorkError {
    Memory(std::io::Error),
    Scratch(ScratchError),
}

/// Messages to the blocks, in memory up to the plan's share, then in a file per block.
#[derive(Debug)]
pub(crate) struct Outbox {
    memory: Vec<Mutex<Vec<u32>>>,
    buffered: AtomicUsize,
    cap: usize,
    files: Mutex<Vec<Option<(File, PathBuf)>>>,
    spilled: Vec<AtomicU64>,
    scratch: Mutex<Scratch>,
    error: Mutex<Option<ScratchError>>,
}

impl Outbox {
    pub(crate) fn new(plan: &BlockPlan, scratch: Scratch) -> Outbox {
        let count = plan.count();
        Outbox {
            memory: (0..count).map(|_| Mutex::new(Vec::new())).collect(),
            buffered: AtomicUsize::new(0),
            cap: plan.messages,
            files: Mutex::new((0..count).map(|_| None).collect()),
            spilled: (0..count).map(|_| AtomicU64::new(0)).collect(),
            scratch: Mutex::new(scratch),
            error: Mutex::new(None),
        }
    }

    /// Hands over a thread's messages, `(block, message)`, and empties `local`. A failed spill
    /// is kept and returned by [`Outbox::check`].
    pub(crate) fn deliver(&self, local: &mut Vec<(u32, u32)>) {
        if local.is_empty() {
            return;
        }
        // Counted before they are buffered, so that a spill never takes more than is counted.
        let total = self.buffered.fetch_add(local.len(), Relaxed) + local.len();
        local.sort_unstable_by_key(|&(b, _)| b);
        for group in local.chunk_by(|x, y| x.0 == y.0) {
            let mut inbox = self.memory[group[0].0 as usize]
                .lock()
                .expect("outbox lock");
            inbox.extend(group.iter().map(|&(_, m)| m));
        }
        local.clear();
        if total > self.cap
            && let Err(e) = self.spill()
        {
            self.error.lock().expect("error lock").get_or_insert(e);
        }
    }

    /// Writes every buffered message to its block's file.
    fn spill(&self) -> Result<(), ScratchError> {
        let mut files = self.files.lock().expect("files lock");
        if self.buffered.load(Relaxed) <= self.cap {
            return Ok(()); // another thread spilled meanwhile
        }
        for (b, inbox) in self.memory.iter().enumerate() {
            let messages = std::mem::take(&mut *inbox.lock().expect("outbox lock"));
            if messages.is_empty() {
                continue;
            }
            self.buffered.fetch_sub(messages.len(), Relaxed);
            if files[b].is_none() {
                let mut scratch = self.scratch.lock().expect("scratch lock");
                let dir = scratch.dir.clone();
                files[b] = Some(scratch.file(&format!("messages-{b}")).map_err(at(&dir))?);
            }
            let (file, path) = files[b].as_mut().expect("just made");
            let mut bytes = Vec::with_capacity(4 * READ_CHUNK);
            for chunk in messages.chunks(READ_CHUNK) {
                bytes.clear();
                bytes.extend(chunk.iter().flat_map(|m| m.to_le_bytes()));
                file.write_all(&bytes).map_err(at(path))?;
            }
            self.spilled[b].fetch_add(messages.len() as u64, Relaxed);
        }
        Ok(())
    }

    /// The first error a spill met, if any.
    pub(crate) fn check(&self) -> Result<(), ScratchError> {
        match self.error.lock().expect("error lock").take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Whether block `b` has messages waiting.
    pub(crate) fn has(&self, b: usize) -> bool {
        self.spilled[b].load(Relaxed) > 0 || !self.memory[b].lock().expect("outbox lock").is_empty()
    }

    /// Takes block `b`'s messages, in chunks of at most the buffer's share, and calls `apply`
    /// on each. Messages to `b` must not be delivered meanwhile (a block never messages
    /// itself).
    pub(crate) fn drain(
        &self,
        b: usize,
        mut apply: impl FnMut(&[u32]),
    ) -> Result<(), ScratchError> {
        // The buffered messages first: a spill while the file is read (messages to other
        // blocks) must find none for `b`, or it would open `b`'s file anew.
        // They stay counted until applied, so that other blocks' buffers spill sooner meanwhile.
        let buffered = std::mem::take(&mut *self.memory[b].lock().expect("outbox lock"));
        if self.spilled[b].swap(0, Relaxed) > 0 {
            let taken = self.files.lock().expect("files lock")[b].take();
            if let Some((mut file, path)) = taken {
                file.flush().map_err(at(&path))?;
                file.rewind().map_err(at(&path))?;
                let mut bytes = vec![0u8; READ_CHUNK * 4];
                let mut messages = Vec::with_capacity(READ_CHUNK);
                loop {
                    let n = read_full(&mut &file, &mut bytes).map_err(at(&path))?;
                    if n == 0 {
                        break;
                    }
                    messages.clear();
                    messages.extend(
                        bytes[..n]
                            .chunks_exact(4)
                            .map(|c| u32::from_le_bytes(c.try_into().expect("four bytes"))),
                    );
                    apply(&messages);
                }
                file.set_len(0).map_err(at(&path))?;
                file.rewind().map_err(at(&path))?;
                self.files.lock().expect("files lock")[b] = Some((file, path));
            }
        }
        if !buffered.is_empty() {
            apply(&buffered);
        }
        self.buffered.fetch_sub(buffered.len(), Relaxed);
        Ok(())
    }
}

/// Reads until `buf` is full or the end; the bytes read (a multiple of 4 short of the end).
fn read_full(reader: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match reader.read(&mut buf[filled..])? {
            0 => break,
            n => filled += n,
        }
    }
    Ok(filled)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_cut_the_range_into_pieces_of_the_budget() {
        let free = BlockPlan::new(1000, None, 2);
        assert_eq!((free.count(), free.range(0)), (1, 0..1000));
        let fits = BlockPlan::new(1000, Some(1 << 20), 2);
        assert_eq!(fits.count(), 1);
        let size = 10 * PIECE + 5;
        let plan = BlockPlan::new(size, Some(4 * PIECE), 2);
        assert_eq!(plan.block, 2 * PIECE);
        assert_eq!(plan.count(), 6);
        assert_eq!(plan.range(5), 10 * PIECE..size);
        assert_eq!(plan.locate(2 * PIECE + 7), (1, 7));
        // Every rank lies in the block `locate` names, at its offset.
        for rank in [0, PIECE, 2 * PIECE - 1, size - 1] {
            let (b, off) = plan.locate(rank);
            assert_eq!(plan.range(b).start + u64::from(off), rank);
        }
    }

    #[test]
    fn messages_come_back_whole_from_memory_and_files() {
        let dir = tempfile::tempdir().unwrap();
        let plan = BlockPlan {
            size: 4 * PIECE,
            block: PIECE,
            messages: LOCAL_MESSAGES,
            stack: 64,
            ranks: 1,
        };
        let outbox = Outbox::new(&plan, Scratch::new(dir.path().join("s")));
        let mut sent = vec![Vec::new(); 4];
        for round in 0..5u32 {
            let mut local: Vec<(u32, u32)> = (0..LOCAL_MESSAGES as u32)
                .map(|i| ((i * 7 + round) % 3 + 1, i ^ (round << 20)))
                .collect();
            for &(b, m) in &local {
                sent[b as usize].push(m);
            }
            outbox.deliver(&mut local);
            assert!(local.is_empty());
        }
        outbox.check().unwrap();
        assert!(!outbox.has(0) && outbox.has(1));
        for (b, sent) in sent.iter_mut().enumerate() {
            let mut got = Vec::new();
            outbox.drain(b, |m| got.extend_from_slice(m)).unwrap();
            got.sort_unstable();
            sent.sort_unstable();
            assert_eq!(&got, sent, "block {b}");
        }
        assert!((0..4).all(|b| !outbox.has(b)));
    }

    #[test]
    fn a_spill_while_a_block_is_drained_loses_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let plan = BlockPlan {
            size: 3 * PIECE,
            block: PIECE,
            messages: LOCAL_MESSAGES,
            stack: 64,
            ranks: 1,
        };
        let outbox = Outbox::new(&plan, Scratch::new(dir.path().join("s")));
        // Block 1: some in its file, some buffered.
        let mut local: Vec<(u32, u32)> = (0..2 * LOCAL_MESSAGES as u32).map(|i| (1, i)).collect();
        outbox.deliver(&mut local);
        let mut local: Vec<(u32, u32)> = (0..100).map(|i| (1, 1 << 30 | i)).collect();
        outbox.deliver(&mut local);
        // Draining block 1 sends enough to block 2 to spill every buffer.
        let mut got = Vec::new();
        outbox
            .drain(1, |m| {
                got.extend_from_slice(m);
                let mut local: Vec<(u32, u32)> =
                    m.iter().map(|&x| (2, x)).chain([(0, 7)]).collect();
                outbox.deliver(&mut local);
            })
            .unwrap();
        outbox.check().unwrap();
        got.sort_unstable();
        let mut sent: Vec<u32> = (0..2 * LOCAL_MESSAGES as u32)
            .chain((0..100).map(|i| 1 << 30 | i))
            .collect();
        sent.sort_unstable();
        assert!(
            got == sent,
            "{} of {} messages came back",
            got.len(),
            sent.len()
        );
        assert!(!outbox.has(1));
        let mut again = Vec::new();
        outbox.drain(2, |m| again.extend_from_slice(m)).unwrap();
        again.sort_unstable();
        assert!(again == sent, "{} of {} came on", again.len(), sent.len());
    }
}
