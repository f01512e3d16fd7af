//! The solve journal: an append-only file of what a long solve has proved, so that the proof
//! outlives the process that made it.
//!
//! A solve with a journal appends a record for every node whose search cost at least a work
//! threshold ([`Solver::set_journal`](crate::Solver::set_journal)): the position's board and
//! the bounds the search proved for it. Run again, the solve loads those bounds back into its
//! transposition table as entries that are never evicted and continues; it loses at most the
//! work of subtrees that had not finished or were too small to record. When the solve ends it
//! records its result (value, whether every root move was solved, a principal variation), so a
//! finished journal answers without tables.
//!
//! The bytes of the file: [`format`]; what they hold, read back: [`Contents`] ([`read`]);
//! what is wrong with a journal: [`JournalError`].

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use granary_rules::Board;
use zerocopy::IntoBytes;

mod contents;
mod error;
pub mod format;

pub use contents::{Bound, Contents, Recorded, parse, read};
pub use error::JournalError;
pub use format::{HEADER_LEN, MAGIC, MAX_BINDING, RECORD_LEN, VERSION};

use error::io;
use format::{PV_CHUNK, Raw, RecordKind, header};

/// An open journal, appended to by a solve's threads.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    /// The file, locked against other processes while open; `None` once a write failed (the
    /// file is cut back to its last whole record and takes no more).
    file: Mutex<Option<File>>,
    bytes: AtomicU64,
    records: AtomicU64,
}

impl Journal {
    /// Opens the journal at `path` for a solve bound to `binding` (the game, its rules and the
    /// position, in words), creating it if it does not exist, and reads what it holds. A torn
    /// last record is cut off the file.
    ///
    /// # Errors
    /// As [`read`], or the file cannot be created or written.
    pub fn open(path: &Path, binding: &str) -> Result<(Journal, Contents), JournalError> {
        let fresh = header(binding).ok_or(JournalError::Binding { len: binding.len() })?;
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(io(path))?;
        // One solve a journal: a second process appending would interleave its records.
        file.try_lock().map_err(|_| JournalError::Busy {
            path: path.to_path_buf(),
        })?;
        let mut data = Vec::new();
        file.read_to_end(&mut data).map_err(io(path))?;
        let contents = if data.is_empty() {
            file.write_all(fresh.as_bytes()).map_err(io(path))?;
            file.sync_all().map_err(io(path))?;
            Contents {
                bytes: HEADER_LEN as u64,
                ..Contents::default()
            }
        } else {
            let c = parse(path, &data, binding)?;
            if c.torn > 0 {
                file.set_len(c.bytes).map_err(io(path))?;
            }
            c
        };
        let journal = Journal {
            path: path.to_path_buf(),
            file: Mutex::new(Some(file)),
            bytes: AtomicU64::new(contents.bytes),
            records: AtomicU64::new((contents.bytes - HEADER_LEN as u64) / RECORD_LEN as u64),
        };
        Ok((journal, contents))
    }

    /// The file's path.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Bytes written so far (header included).
    #[must_use]
    pub fn bytes(&self) -> u64 {
        self.bytes.load(Relaxed)
    }

    /// Records in the file.
    #[must_use]
    pub fn records(&self) -> u64 {
        self.records.load(Relaxed)
    }

    fn append(&self, raws: &[Raw]) -> Result<(), JournalError> {
        let mut guard = self
            .file
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let Some(file) = guard.as_mut() else {
            return Err(JournalError::Closed {
                path: self.path.clone(),
            });
        };
        if let Err(e) = file.write_all(raws.as_bytes()) {
            // A short write (a full disk) leaves part of a record: cut it off, so that the file
            // stays whole records, and write nothing more.
            let _ = file.set_len(self.bytes.load(Relaxed));
            *guard = None;
            return Err(io(&self.path)(e));
        }
        self.bytes
            .fetch_add((raws.len() * RECORD_LEN) as u64, Relaxed);
        self.records.fetch_add(raws.len() as u64, Relaxed);
        Ok(())
    }

    /// Records that `board` is worth `lower..=upper`, proved in `nodes` nodes.
    ///
    /// # Errors
    /// The write failed (a full disk).
    pub fn bound(
        &self,
        board: Board,
        lower: i8,
        upper: i8,
        best: Option<u8>,
        nodes: u64,
    ) -> Result<(), JournalError> {
        self.append(&[Raw::new(
            RecordKind::Bound,
            lower,
            upper,
            best.unwrap_or(0xff),
            nodes,
            board.0,
        )])
    }

    /// Records that a solve starts on this journal.
    ///
    /// # Errors
    /// The write failed.
    pub fn run(&self) -> Result<(), JournalError> {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        self.append(&[Raw::new(RecordKind::Run, 0, 0, 0, now, 0)])
    }

    /// Records the current run's nodes and seconds so far, and flushes the file to the disk.
    ///
    /// # Errors
    /// The write or the flush failed.
    pub fn progress(&self, nodes: u64, seconds: f64) -> Result<(), JournalError> {
        self.append(&[Raw::new(
            RecordKind::Progress,
            0,
            0,
            0,
            nodes,
            u128::from(seconds.to_bits()),
        )])?;
        self.sync()
    }

    /// Records a finished solve: its value, whether every root move is exact, a principal
    /// variation, the run's nodes and seconds; flushes the file.
    ///
    /// # Errors
    /// The write or the flush failed.
    pub fn result(
        &self,
        value: i32,
        all_moves: bool,
        pv: &[usize],
        nodes: u64,
        seconds: f64,
    ) -> Result<(), JournalError> {
        let mut raws: Vec<Raw> = pv
            .chunks(PV_CHUNK)
            .enumerate()
            .map(|(i, lanes)| {
                let mut bytes = [0xffu8; PV_CHUNK];
                for (b, &l) in bytes.iter_mut().zip(lanes) {
                    *b = l as u8;
                }
                let nodes = u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes"));
                let board = u128::from_le_bytes(bytes[8..].try_into().expect("16 bytes"));
                Raw::new(RecordKind::Pv, 0, 0, i as u8, nodes, board)
            })
            .collect();
        let v = value.clamp(-127, 127) as i8;
        raws.push(Raw::new(
            RecordKind::Result,
            v,
            v,
            u8::from(all_moves),
            nodes,
            (pv.len() as u128) << 64 | u128::from(seconds.to_bits()),
        ));
        self.append(&raws)?;
        self.sync()
    }

    /// Flushes what was written to the disk.
    ///
    /// # Errors
    /// The flush failed.
    pub fn sync(&self) -> Result<(), JournalError> {
        let guard = self
            .file
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        match guard.as_ref() {
            Some(file) => file.sync_data().map_err(io(&self.path)),
            None => Err(JournalError::Closed {
                path: self.path.clone(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BINDING: &str = "Kalah(6,4) capture=empty sweep=owner; 4,4,4,4,4,4/4,4,4,4,4,4 0-0 S";

    #[test]
    fn records_round_trip_and_a_torn_tail_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j");
        let (j, c) = Journal::open(&path, BINDING).unwrap();
        assert_eq!((c.bounds.len(), c.runs, c.bytes), (0, 0, HEADER_LEN as u64));
        j.run().unwrap();
        j.bound(Board(0x0102_0304), -3, 5, Some(2), 1 << 30)
            .unwrap();
        j.bound(Board(0x0102_0304), -1, 9, None, 7).unwrap();
        j.progress(1000, 2.5).unwrap();
        let pv: Vec<usize> = (0..30).map(|i| i % 6).collect();
        j.result(4, true, &pv, 2000, 3.5).unwrap();
        drop(j);
        let c = read(&path, BINDING).unwrap();
        assert_eq!(c.bounds.len(), 2);
        assert_eq!(c.merged()[&Board(0x0102_0304)], (-1, 5, Some(2)));
        assert_eq!((c.runs, c.nodes, c.seconds), (1, 2000, 3.5));
        let r = c.result.clone().unwrap();
        assert_eq!((r.value, r.all_moves, r.pv), (4, true, pv));
        // A second run adds to the totals; a torn record at the end is dropped and cut off.
        let (j, _) = Journal::open(&path, BINDING).unwrap();
        j.run().unwrap();
        j.progress(50, 1.0).unwrap();
        drop(j);
        let mut bytes = std::fs::read(&path).unwrap();
        let whole = bytes.len();
        bytes.extend_from_slice(&Raw::new(RecordKind::Bound, 0, 0, 0, 1, 1).as_bytes()[..20]);
        std::fs::write(&path, &bytes).unwrap();
        let (j, c) = Journal::open(&path, BINDING).unwrap();
        assert_eq!((c.runs, c.nodes, c.torn), (2, 2050, 20));
        assert_eq!(std::fs::metadata(&path).unwrap().len(), whole as u64);
        assert_eq!(j.records(), ((whole - HEADER_LEN) / RECORD_LEN) as u64);
        // A whole record whose check fails, last: torn too.
        drop(j);
        let mut bytes = std::fs::read(&path).unwrap();
        let n = bytes.len();
        bytes[n - 10] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(read(&path, BINDING).unwrap().torn, RECORD_LEN as u64);
    }

    #[test]
    fn foreign_other_and_damaged_files_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j");
        std::fs::write(&path, b"not a journal at all").unwrap();
        assert!(matches!(
            Journal::open(&path, BINDING),
            Err(JournalError::Foreign { .. })
        ));
        std::fs::remove_file(&path).unwrap();
        let (j, _) = Journal::open(&path, BINDING).unwrap();
        for i in 0..3 {
            j.bound(Board(i), 0, 2, None, 9).unwrap();
        }
        drop(j);
        let err = Journal::open(&path, "Kalah(6,4) capture=standard").unwrap_err();
        assert!(matches!(err, JournalError::Other { .. }), "{err}");
        assert!(err.to_string().contains("capture=standard"), "{err}");
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[HEADER_LEN + 5] ^= 0x40;
        std::fs::write(&path, &bytes).unwrap();
        let err = read(&path, BINDING).unwrap_err();
        assert!(
            matches!(err, JournalError::Damaged { offset, .. } if offset == HEADER_LEN as u64),
            "{err}"
        );
        assert!(header(&"x".repeat(MAX_BINDING + 1)).is_none());
    }
}
