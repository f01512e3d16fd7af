//! The outbox: messages from the blocks to parents in other blocks, buffered in memory up to
//! the plan's share, then spilled to a scratch file per block (`messages-<b>`), and drained
//! when their block is next loaded.
//!
//! # Message layout
//! ```text
//!   bit   31     30..0
//!         LOST   the parent's offset in its block (blocks hold at most 2^31 positions)
//! ```
//! `LOST` set: the child was lost, so the parent is won; clear: the child was won, so one more
//! of the parent's moves is refuted (its counter drops). A spilled message is its four bytes,
//! little-endian, appended to its block's file.
//!
//! # Contract
//! Messages to a block are not delivered while it is drained (a block never messages itself);
//! messages to other blocks may be, from any thread. Drained messages come back whole, in no
//! particular order: the values a phase assigns do not depend on it.

use std::fs::File;
use std::io::{Read, Seek, Write};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};

use super::plan::BlockPlan;
use super::scratch::{Scratch, ScratchError, at};

/// The top bit of a message: the child was lost, so the parent is won.
pub(crate) const LOST: u32 = 1 << 31;
/// Messages read from (and written to) a scratch file at once.
const READ_CHUNK: usize = 1 << 16;

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
    use crate::PIECE;
    use crate::blocks::LOCAL_MESSAGES;

    #[test]
    fn messages_come_back_whole_from_memory_and_files() {
        let dir = tempfile::tempdir().unwrap();
        let plan = BlockPlan {
            size: 4 * PIECE,
            block: PIECE,
            messages: LOCAL_MESSAGES,
            stack: 64,
            ranks: 1,
            region: PIECE,
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
            region: PIECE,
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
