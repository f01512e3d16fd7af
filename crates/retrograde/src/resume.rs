//! Resuming a layer within the layer: checkpoints between the phases of [`crate::phases`].
//!
//! A layer of awari 36 is hours of work; a build stopped in its middle (a kill, the end of a
//! working period) continues from its last checkpoint, not from the start of the layer.
//!
//! # What a checkpoint holds
//! Between two phases no message is pending and no thread runs, so the state of the build is
//! the layer's values (the file being written, `<layer>.tbl.tmp`) and its work bytes. A
//! checkpoint syncs the values to disk, then writes the work bytes to `<layer>.tbl.resume`:
//!
//! ```text
//!   offset  size  field
//!   0       8     magic "GRANRSM1"
//!   8       4     seeds of the layer (u32, little-endian)
//!   12      4     next: the phase to run next (n after the first pass, 0 when only the last
//!                 step, endless play worth 0, is left)
//!   16      8     entries of the layer (u64)
//!   24      4     CRC-32 of the work bytes
//!   28      4     zero
//!   32      ...   the work bytes, one a position
//! ```
//! written to `<layer>.tbl.resume.tmp`, synced and renamed, so the name always holds a whole
//! checkpoint.
//!
//! # Why the values need no copy
//! After a checkpoint the build goes on writing values into the same file, and the kernel may
//! write some of them back before a kill. Those are positions resolved in the phase after the
//! checkpoint, `+t` or `-t`, and only those: their work bytes in the checkpoint say unresolved.
//! Run again, that phase resolves each of them to the same value (a position worth `t` whose
//! best-exit byte now reads `t` is resolved by the scan; one worth `-t` whose byte reads `-t`
//! meets the same test, a best exit of at most `-t`, as before), and no later phase reads their
//! best exit. So the resumed build writes the same bytes as one never stopped.
//!
//! # A distributed build
//! Each rank checkpoints its own share: its values (its scratch file
//! `<layer>.tbl.work/r<rank>/values`) and its work bytes, to `<layer>.tbl.work/r<rank>-<first>.resume`
//! (`first` the rank of its share's first position, so that a checkpoint of another plan of
//! blocks is never taken for this one). Rank 0's clock decides when, every rank saves, and a
//! barrier closes the checkpoint. A rerun resumes only if every rank finds a checkpoint of its
//! share at the same phase (a kill between two ranks' saves leaves them at different phases:
//! the layer then starts over).

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};
use std::time::{Duration, Instant};

const MAGIC: &[u8; 8] = b"GRANRSM1";
const HEADER: usize = 32;
/// Bytes read or written at a time.
const CHUNK: usize = 1 << 20;

/// The checkpoint file of the layer at `path`: `<path>.resume`.
#[must_use]
pub fn resume_path(path: &Path) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(".resume");
    PathBuf::from(p)
}

/// Where a build of one layer saves its checkpoints, and how often.
#[derive(Debug)]
pub(crate) struct Checkpoints {
    path: PathBuf,
    /// The layer's temporary file, whose values a checkpoint syncs.
    values: PathBuf,
    seeds: u32,
    entries: u64,
    every: Duration,
    last: Instant,
    /// Checkpoints written.
    pub(crate) written: u32,
}

impl Checkpoints {
    /// Checkpoints of layer `seeds` (`entries` positions, values in the file `values`) at
    /// `path`, at most one every `every`.
    pub(crate) fn new(
        path: PathBuf,
        values: PathBuf,
        seeds: u32,
        entries: u64,
        every: Duration,
    ) -> Checkpoints {
        Checkpoints {
            path,
            values,
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
            && file.metadata().ok()?.len() == HEADER as u64 + entries;
        ok.then(|| u32_at(12))
    }

    /// Fills `work` with the checkpoint's work bytes, checking their CRC.
    pub(crate) fn restore(&self, work: &[AtomicU8]) -> std::io::Result<()> {
        let path = &self.path;
        let mut file = File::open(path)?;
        let mut header = [0u8; HEADER];
        file.read_exact(&mut header)?;
        let expected = u32::from_le_bytes(header[24..28].try_into().expect("4 bytes"));
        let mut crc = crc32fast::Hasher::new();
        let mut buf = vec![0u8; CHUNK];
        for cells in work[..self.entries as usize].chunks(CHUNK) {
            let buf = &mut buf[..cells.len()];
            file.read_exact(buf)?;
            crc.update(buf);
            for (cell, &b) in cells.iter().zip(buf.iter()) {
                cell.store(b, Relaxed);
            }
        }
        if crc.finalize() != expected {
            return Err(std::io::Error::other(format!(
                "{}: the checkpoint's work bytes do not match their checksum",
                path.display()
            )));
        }
        Ok(())
    }

    /// Whether the last checkpoint is at least `every` old.
    pub(crate) fn due(&self) -> bool {
        self.last.elapsed() >= self.every
    }

    /// Saves a checkpoint before phase `next`: the values synced, then the work bytes `work`
    /// (every block's, no pass running) written.
    pub(crate) fn save(&mut self, work: &[AtomicU8], next: u32) -> std::io::Result<()> {
        if self.entries > 0 {
            File::open(&self.values)?.sync_data()?;
        }
        let mut temp = self.path.as_os_str().to_owned();
        temp.push(".tmp");
        let temp = PathBuf::from(temp);
        let mut file = File::create(&temp)?;
        let mut crc = crc32fast::Hasher::new();
        let mut header = [0u8; HEADER];
        header[..8].copy_from_slice(MAGIC);
        header[8..12].copy_from_slice(&self.seeds.to_le_bytes());
        header[12..16].copy_from_slice(&next.to_le_bytes());
        header[16..24].copy_from_slice(&self.entries.to_le_bytes());
        file.write_all(&header)?;
        let mut buf = Vec::with_capacity(CHUNK);
        for cells in work[..self.entries as usize].chunks(CHUNK) {
            buf.clear();
            buf.extend(cells.iter().map(|c| c.load(Relaxed)));
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
