//! Resuming a layer within the layer: checkpoints between the phases of [`crate::phases`].
//!
//! A layer of awari 36 is hours of work; a build stopped in its middle (a kill, the end of a
//! working period) continues from its last checkpoint, not from the start of the layer.
//!
//! # What a checkpoint holds
//! Between two phases no message is pending and no thread runs, so the state of the build is
//! each rank's work bytes and values (one process alone is rank 0 of 1). A checkpoint writes
//! both to `<layer>.tbl.work/r<rank>-<first>.resume` (`first`: the rank of the share's first
//! position, so that a checkpoint of another plan of blocks is never taken for this one):
//!
//! ```text
//!   offset        size     field
//!   0             8        magic "GRANRSM2"
//!   8             4        seeds of the layer (u32, little-endian)
//!   12            4        next: the phase to run next (n after the first pass, 0 when only
//!                          the last step, endless play worth 0, is left)
//!   16            8        entries of the share (u64)
//!   24            4        CRC-32 of bytes 0..24, the work bytes and the values
//!   28            4        zero
//!   32            entries  the work bytes, one a position
//!   32 + entries  entries  the values, one a position
//! ```
//! written to `<name>.tmp`, synced and renamed, so the name always holds a whole checkpoint.
//! The layer's file is written only once the layer is solved: nothing else need be kept.
//!
//! # Several ranks
//! Rank 0's clock decides when ([`crate::peers::Peers::broadcast`]), every rank saves its
//! share, and a barrier closes the checkpoint. A rerun resumes only if every rank finds a
//! checkpoint of its share at the same phase (a kill between two ranks' saves leaves them at
//! different phases: the layer then starts over).

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI8, AtomicU8, Ordering::Relaxed};
use std::time::{Duration, Instant};

const MAGIC: &[u8; 8] = b"GRANRSM2";
const HEADER: usize = 32;
/// Bytes read or written at a time.
const CHUNK: usize = 1 << 20;

/// Where a build of one layer saves its checkpoints, and how often.
#[derive(Debug)]
pub(crate) struct Checkpoints {
    path: PathBuf,
    seeds: u32,
    entries: u64,
    every: Duration,
    last: Instant,
    /// Checkpoints written.
    pub(crate) written: u32,
}

impl Checkpoints {
    /// Checkpoints of a share of `entries` positions of layer `seeds` at `path`, at most one
    /// every `every`.
    pub(crate) fn new(path: PathBuf, seeds: u32, entries: u64, every: Duration) -> Checkpoints {
        Checkpoints {
            path,
            seeds,
            entries,
            every,
            last: Instant::now(),
            written: 0,
        }
    }

    /// The phase a checkpoint at `path` resumes at, if it is one of this layer (`None` for a
    /// missing, torn or foreign file: the layer is then built from the start).
    pub(crate) fn next_phase(path: &Path, seeds: u32, entries: u64) -> Option<u32> {
        let mut file = File::open(path).ok()?;
        let mut header = [0u8; HEADER];
        file.read_exact(&mut header).ok()?;
        let field = |at: usize, len: usize| &header[at..at + len];
        let u32_at = |at| u32::from_le_bytes(field(at, 4).try_into().expect("4 bytes"));
        let ok = &header[..8] == MAGIC
            && u32_at(8) == seeds
            && u64::from_le_bytes(field(16, 8).try_into().expect("8 bytes")) == entries
            && file.metadata().ok()?.len() == HEADER as u64 + 2 * entries;
        ok.then(|| u32_at(12))
    }

    /// Fills `work` and `values` with the checkpoint's, checking the CRC.
    pub(crate) fn restore(&self, work: &[AtomicU8], values: &[AtomicI8]) -> std::io::Result<()> {
        let path = &self.path;
        let mut file = File::open(path)?;
        let mut header = [0u8; HEADER];
        file.read_exact(&mut header)?;
        let expected = u32::from_le_bytes(header[24..28].try_into().expect("4 bytes"));
        let mut crc = crc32fast::Hasher::new();
        crc.update(&header[..24]);
        let mut buf = vec![0u8; CHUNK];
        let entries = self.entries as usize;
        let mut read = |store: &mut dyn FnMut(usize, &[u8])| -> std::io::Result<()> {
            for from in (0..entries).step_by(CHUNK) {
                let buf = &mut buf[..CHUNK.min(entries - from)];
                file.read_exact(buf)?;
                crc.update(buf);
                store(from, buf);
            }
            Ok(())
        };
        read(&mut |from, buf| {
            for (cell, &b) in work[from..from + buf.len()].iter().zip(buf) {
                cell.store(b, Relaxed);
            }
        })?;
        read(&mut |from, buf| {
            for (cell, &b) in values[from..from + buf.len()].iter().zip(buf) {
                cell.store(b as i8, Relaxed);
            }
        })?;
        if crc.finalize() != expected {
            return Err(std::io::Error::other(format!(
                "{}: the checkpoint does not match its checksum",
                path.display()
            )));
        }
        Ok(())
    }

    /// The bytes of a checkpoint of a share of `entries` positions.
    pub(crate) fn bytes(entries: u64) -> u64 {
        HEADER as u64 + 2 * entries
    }

    /// Whether the last checkpoint is at least `every` old.
    pub(crate) fn due(&self) -> bool {
        self.last.elapsed() >= self.every
    }

    /// Saves a checkpoint before phase `next`: the work bytes `work` and the values `values`
    /// (every block's, no pass running).
    pub(crate) fn save(
        &mut self,
        work: &[AtomicU8],
        values: &[AtomicI8],
        next: u32,
    ) -> std::io::Result<()> {
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let mut temp = self.path.as_os_str().to_owned();
        temp.push(".tmp");
        let temp = PathBuf::from(temp);
        let mut file = File::create(&temp)?;
        let mut header = [0u8; HEADER];
        header[..8].copy_from_slice(MAGIC);
        header[8..12].copy_from_slice(&self.seeds.to_le_bytes());
        header[12..16].copy_from_slice(&next.to_le_bytes());
        header[16..24].copy_from_slice(&self.entries.to_le_bytes());
        let mut crc = crc32fast::Hasher::new();
        crc.update(&header[..24]);
        file.write_all(&header)?;
        let entries = self.entries as usize;
        let mut buf = Vec::with_capacity(CHUNK);
        for cells in work[..entries].chunks(CHUNK) {
            buf.clear();
            buf.extend(cells.iter().map(|c| c.load(Relaxed)));
            crc.update(&buf);
            file.write_all(&buf)?;
        }
        for cells in values[..entries].chunks(CHUNK) {
            buf.clear();
            buf.extend(cells.iter().map(|c| c.load(Relaxed) as u8));
            crc.update(&buf);
            file.write_all(&buf)?;
        }
        use std::os::unix::fs::FileExt;
        file.write_all_at(&crc.finalize().to_le_bytes(), 24)?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&temp, &self.path)?;
        granary_tables::writer::sync_parent(&self.path);
        self.last = Instant::now();
        self.written += 1;
        Ok(())
    }
}
