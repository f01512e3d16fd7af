//! Resuming a layer within the layer: checkpoints between the phases of [`crate::phases`].
//!
//! A layer of awari 36 is hours of work; a build stopped in its middle (a kill, the end of a
//! working period) continues from its last checkpoint, not from the start of the layer.
//!
//! # What a checkpoint holds
//! Between two phases no message is pending and no thread runs, so the state of the build is
//! each rank's work bytes (a resolved position's value among them) and values (best exits)
//! (one process alone is rank 0 of 1). A checkpoint writes both to
//! `<layer>.tbl.work/r<rank>-<first>.resume` (`first`: the rank of the share's first position,
//! so that a checkpoint of another plan of blocks is never taken for this one): a 32-byte
//! header (its layout: [`header`]; the layer, the phase to run next, the share's positions, a
//! CRC-32 over every byte), the work bytes, then the values, one byte a position each, written
//! to `<name>.tmp`, synced and renamed, so the name always holds a whole checkpoint.
//! A rerun checks every header field and the CRC over every byte before it resumes
//! ([`Checkpoints::find`]); a file that fails (damaged, torn, another layer's or version's) is
//! refused with a line saying why, and the layer starts over.
//! The layer's file is written only once the layer is solved: nothing else need be kept.
//!
//! # Several ranks
//! Rank 0's clock decides when ([`crate::peers::Peers::broadcast`]), every rank saves its
//! share, and a barrier closes the checkpoint. A rerun resumes only if every rank finds a
//! checkpoint of its share at the same phase (a kill between two ranks' saves leaves them at
//! different phases: the layer then starts over).

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI8, AtomicU8, Ordering::Relaxed};
use std::time::{Duration, Instant};

pub mod header;

pub use header::{HEADER_LEN, Header, MAGIC};

/// Bytes read or written at a time.
const CHUNK: usize = 1 << 20;

/// What a rerun finds where a layer's checkpoint would be ([`Checkpoints::find`]).
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Found {
    /// No checkpoint: the layer starts with its first pass.
    Nothing,
    /// A whole checkpoint of this share: resume at this phase.
    At(u32),
    /// A file that is not a whole checkpoint of this share (damaged, torn, of another layer or
    /// version): why, in a sentence naming the file. The layer starts over.
    Refused(String),
}

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

    /// What a rerun finds at `path` for a share of `entries` positions of layer `seeds`:
    /// nothing, a whole checkpoint of this share (its header checked field by field and its
    /// CRC over every byte), or a file refused, with why (the layer then starts over).
    pub(crate) fn find(path: &Path, seeds: u32, entries: u64) -> Found {
        match Checkpoints::check(path, seeds, entries) {
            Ok(next) => Found::At(next),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Found::Nothing,
            Err(e) => Found::Refused(format!("{}: {e}", path.display())),
        }
    }

    /// The phase the checkpoint at `path` resumes at, or why it is not one of this share.
    fn check(path: &Path, seeds: u32, entries: u64) -> std::io::Result<u32> {
        let mut file = File::open(path)?;
        let len = file.metadata()?.len();
        Checkpoints::check_from(&mut file, len, seeds, entries)
    }

    /// [`Checkpoints::check`] of the `len` bytes `file` reads.
    fn check_from(
        file: &mut impl Read,
        len: u64,
        seeds: u32,
        entries: u64,
    ) -> std::io::Result<u32> {
        let refuse = |why: String| Err(std::io::Error::new(std::io::ErrorKind::InvalidData, why));
        if len < HEADER_LEN as u64 {
            return refuse(format!("{len} bytes, shorter than a checkpoint's header"));
        }
        let header = Header::read_from(file)?;
        let next = header.check(seeds, entries).or_else(refuse)?;
        if len != Checkpoints::bytes(entries) {
            return refuse(format!(
                "{len} bytes, not {} (torn or truncated)",
                Checkpoints::bytes(entries)
            ));
        }
        let mut crc = header.hasher();
        let mut buf = vec![0u8; CHUNK];
        let mut left = len - HEADER_LEN as u64;
        while left > 0 {
            let buf = &mut buf[..CHUNK.min(left as usize)];
            file.read_exact(buf)?;
            crc.update(buf);
            left -= buf.len() as u64;
        }
        if crc.finalize() != header.crc32.get() {
            return refuse("its bytes do not match its checksum (damaged)".into());
        }
        Ok(next)
    }

    /// Fills `work` and `values` with the checkpoint's, checking the CRC.
    pub(crate) fn restore(&self, work: &[AtomicU8], values: &[AtomicI8]) -> std::io::Result<()> {
        let mut file = File::open(&self.path)?;
        Checkpoints::restore_from(&self.path, &mut file, self.entries, work, values)
    }

    /// [`Checkpoints::restore`] from what `file` reads, a checkpoint of `entries` positions
    /// (`path` names it in errors).
    fn restore_from(
        path: &Path,
        file: &mut impl Read,
        entries: u64,
        work: &[AtomicU8],
        values: &[AtomicI8],
    ) -> std::io::Result<()> {
        let header = Header::read_from(file)?;
        let mut crc = header.hasher();
        let mut buf = vec![0u8; CHUNK];
        let entries = entries as usize;
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
        if crc.finalize() != header.crc32.get() {
            return Err(std::io::Error::other(format!(
                "{}: the checkpoint does not match its checksum",
                path.display()
            )));
        }
        Ok(())
    }

    /// The bytes of a checkpoint of a share of `entries` positions (`u64::MAX` for a share too
    /// large for any file).
    pub(crate) fn bytes(entries: u64) -> u64 {
        entries.saturating_mul(2).saturating_add(HEADER_LEN as u64)
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
        Checkpoints::write_to(&mut file, self.seeds, self.entries, work, values, next)?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&temp, &self.path)?;
        granary_tables::writer::sync_parent(&self.path);
        self.last = Instant::now();
        self.written += 1;
        Ok(())
    }

    /// Writes a checkpoint of layer `seeds` before phase `next` to `out`: the first `entries`
    /// work bytes of `work` and values of `values`; the header is written again last, with the
    /// CRC.
    fn write_to(
        out: &mut (impl Write + Seek),
        seeds: u32,
        entries: u64,
        work: &[AtomicU8],
        values: &[AtomicI8],
        next: u32,
    ) -> std::io::Result<()> {
        let mut header = Header::new(seeds, next, entries);
        let mut crc = header.hasher();
        header.write_to(out)?;
        let entries = entries as usize;
        let mut buf = Vec::with_capacity(CHUNK);
        for cells in work[..entries].chunks(CHUNK) {
            buf.clear();
            buf.extend(cells.iter().map(|c| c.load(Relaxed)));
            crc.update(&buf);
            out.write_all(&buf)?;
        }
        for cells in values[..entries].chunks(CHUNK) {
            buf.clear();
            buf.extend(cells.iter().map(|c| c.load(Relaxed) as u8));
            crc.update(&buf);
            out.write_all(&buf)?;
        }
        header.crc32.set(crc.finalize());
        out.seek(SeekFrom::Start(0))?;
        header.write_to(out)
    }
}

/// What a checkpoint's bytes `bytes` hold for a share of `entries` positions of layer `seeds`,
/// read as a rerun reads a checkpoint file: the phase to resume at, the work bytes and the
/// values; or why the bytes are refused. Public for the fuzz targets.
///
/// # Errors
/// Why the bytes are not a whole checkpoint of this share.
#[doc(hidden)]
pub fn parse_checkpoint(
    bytes: &[u8],
    seeds: u32,
    entries: u64,
) -> std::io::Result<(u32, Vec<u8>, Vec<i8>)> {
    let next = Checkpoints::check_from(&mut &bytes[..], bytes.len() as u64, seeds, entries)?;
    let work: Vec<AtomicU8> = (0..entries).map(|_| AtomicU8::new(0)).collect();
    let values: Vec<AtomicI8> = (0..entries).map(|_| AtomicI8::new(0)).collect();
    Checkpoints::restore_from(Path::new("bytes"), &mut &bytes[..], entries, &work, &values)?;
    Ok((
        next,
        work.into_iter().map(AtomicU8::into_inner).collect(),
        values.into_iter().map(AtomicI8::into_inner).collect(),
    ))
}

/// The bytes of a checkpoint of layer `seeds` before phase `next` holding `work` and `values`
/// (of one length), as [`Checkpoints`] writes them. Public for the fuzz targets.
///
/// # Panics
/// If `work` and `values` differ in length.
#[doc(hidden)]
#[must_use]
pub fn encode_checkpoint(seeds: u32, next: u32, work: &[u8], values: &[i8]) -> Vec<u8> {
    assert_eq!(
        work.len(),
        values.len(),
        "a work byte and a value a position"
    );
    let work: Vec<AtomicU8> = work.iter().map(|&w| AtomicU8::new(w)).collect();
    let values: Vec<AtomicI8> = values.iter().map(|&v| AtomicI8::new(v)).collect();
    let mut out = std::io::Cursor::new(Vec::new());
    Checkpoints::write_to(&mut out, seeds, work.len() as u64, &work, &values, next)
        .expect("writing to memory succeeds");
    out.into_inner()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A checkpoint of 100 positions of layer 9 before phase 5, saved in `dir`; its path.
    fn saved(dir: &Path) -> PathBuf {
        let path = dir.join("r0-0.resume");
        let work: Vec<AtomicU8> = (0..100).map(AtomicU8::new).collect();
        let values: Vec<AtomicI8> = (0..100).map(|i| AtomicI8::new(i as i8 - 50)).collect();
        let mut c = Checkpoints::new(path.clone(), 9, 100, Duration::ZERO);
        c.save(&work, &values, 5).unwrap();
        path
    }

    /// `path` with the byte at `at` changed by `f`.
    fn damaged(path: &Path, at: usize, f: impl Fn(u8) -> u8) {
        let mut bytes = std::fs::read(path).unwrap();
        bytes[at] = f(bytes[at]);
        std::fs::write(path, bytes).unwrap();
    }

    fn refused(found: Found, why: &str) {
        match found {
            Found::Refused(line) => assert!(line.contains(why), "{line}: not {why:?}"),
            other => panic!("{other:?} where a refusal ({why}) was expected"),
        }
    }

    #[test]
    fn a_whole_checkpoint_is_found_and_restored() {
        let dir = tempfile::tempdir().unwrap();
        let path = saved(dir.path());
        assert_eq!(Checkpoints::find(&path, 9, 100), Found::At(5));
        let work: Vec<AtomicU8> = (0..100).map(|_| AtomicU8::new(0)).collect();
        let values: Vec<AtomicI8> = (0..100).map(|_| AtomicI8::new(0)).collect();
        let c = Checkpoints::new(path, 9, 100, Duration::ZERO);
        c.restore(&work, &values).unwrap();
        assert!(
            work.iter()
                .enumerate()
                .all(|(i, w)| w.load(Relaxed) == i as u8)
        );
        assert!(
            values
                .iter()
                .enumerate()
                .all(|(i, v)| v.load(Relaxed) == i as i8 - 50)
        );
    }

    #[test]
    fn the_bytes_entry_points_read_and_write_what_the_files_hold() {
        let dir = tempfile::tempdir().unwrap();
        let path = saved(dir.path());
        let bytes = std::fs::read(&path).unwrap();
        let (next, work, values) = parse_checkpoint(&bytes, 9, 100).unwrap();
        assert_eq!(next, 5);
        assert_eq!(work, (0..100).collect::<Vec<u8>>());
        assert_eq!(values, (0..100).map(|i| i as i8 - 50).collect::<Vec<i8>>());
        assert_eq!(encode_checkpoint(9, next, &work, &values), bytes);
        let err = parse_checkpoint(&bytes, 9, 99).unwrap_err();
        assert!(err.to_string().contains("100 positions"), "{err}");
    }

    /// The bytes of a checkpoint as the format lays them out (the module documentation), CRC
    /// included: checkpoints written by earlier builds stay readable, and are written the same.
    const GOLDEN: [u8; 40] = [
        71, 82, 65, 78, 82, 83, 77, 52, 9, 0, 0, 0, 5, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 216, 77,
        228, 186, 0, 0, 0, 0, 0, 1, 2, 255, 255, 0, 1, 127,
    ];

    #[test]
    fn the_bytes_are_the_formats() {
        let (work, values) = ([0, 1, 2, 255], [-1, 0, 1, 127]);
        assert_eq!(encode_checkpoint(9, 5, &work, &values), GOLDEN);
        let (next, read_work, read_values) = parse_checkpoint(&GOLDEN, 9, 4).unwrap();
        assert_eq!(
            (next, &read_work[..], &read_values[..]),
            (5, &work[..], &values[..])
        );
    }

    #[test]
    fn a_share_too_large_for_any_file_is_refused() {
        // Found by fuzzing: a header of 0xcd4f_0000_0000_000a positions, read for that share,
        // overflowed the checkpoint's length (its header and two bytes a position).
        let bytes: [u8; 52] = [
            71, 82, 65, 78, 82, 83, 77, 52, 3, 0, 0, 0, 3, 0, 0, 0, 10, 0, 0, 0, 0, 0, 79, 205,
            236, 0, 0, 137, 0, 0, 0, 0, 0, 7, 14, 21, 28, 35, 42, 49, 56, 63, 247, 248, 11, 5, 3,
            4, 2, 1, 0, 255,
        ];
        let err = parse_checkpoint(&bytes, 3, 0xcd4f_0000_0000_000a).unwrap_err();
        assert!(err.to_string().contains("torn or truncated"), "{err}");
    }

    #[test]
    fn nothing_there_is_not_a_refusal() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r0-0.resume");
        assert_eq!(Checkpoints::find(&path, 9, 100), Found::Nothing);
    }

    #[test]
    fn every_header_field_and_every_byte_is_checked() {
        let dir = tempfile::tempdir().unwrap();
        let path = saved(dir.path());
        refused(Checkpoints::find(&path, 10, 100), "of layer 9, not 10");
        refused(Checkpoints::find(&path, 9, 99), "100 positions");
        let cases: [(usize, &str); 6] = [
            (0, "magic"),
            (12, "checksum"), // the phase, still within the layer: the CRC covers it
            (24, "checksum"), // the CRC itself
            (29, "reserved"),
            (32, "checksum"),  // a work byte
            (231, "checksum"), // the last value
        ];
        for (at, why) in cases {
            let path = saved(dir.path());
            damaged(&path, at, |b| b ^ 1);
            refused(Checkpoints::find(&path, 9, 100), why);
        }
        let path = saved(dir.path());
        damaged(&path, 12, |_| 10);
        refused(Checkpoints::find(&path, 9, 100), "phase 10 beyond");
        let path = saved(dir.path());
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
        refused(Checkpoints::find(&path, 9, 100), "torn or truncated");
        std::fs::write(&path, &bytes[..10]).unwrap();
        refused(Checkpoints::find(&path, 9, 100), "shorter than");
    }
}
