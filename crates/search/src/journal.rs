//! The solve journal: an append-only file of what a long solve has proved, so that the proof
//! outlives the process that made it.
//!
//! A solve with a journal appends a record for every node whose search cost at least a work
//! threshold ([`Solver::set_journal`](crate::Solver::set_journal)): the position's board and the bounds
//! the search proved for it. Run again, the solve loads those bounds back into its
//! transposition table as entries that are never evicted and continues; it loses at most the
//! work of subtrees that had not finished or were too small to record. When the solve ends it
//! records its result (value, whether every root move was solved, a principal variation), so a
//! finished journal answers without tables.
//!
//! ```text
//! header, 128 bytes:
//!     0  magic "GRANJRNL"                        8 bytes
//!     8  format version (1)                      u16
//!    10  record bytes (32)                       u16
//!    12  binding's length                        u16
//!    14  reserved, zero                          2 bytes
//!    16  binding: UTF-8, zero-padded             108 bytes  (the game, its rules, the position)
//!   124  CRC-32 of bytes 0..124                  u32
//! records, 32 bytes each, from byte 128:
//!     0  kind                                    u8   (see RecordKind)
//!     1  lower bound                             i8
//!     2  upper bound                             i8
//!     3  best move's lane, or 0xff               u8
//!     4  nodes                                   u64
//!    12  board (the packed board, 128 bits)      u128
//!    28  CRC-32 of bytes 0..28                   u32
//! ```
//!
//! All integers are little-endian. Values follow the tables' convention: the net score of the
//! seeds on the board for the player to move. A record checks itself: a write torn by a kill
//! leaves a short or failing last record, which reading drops (and opening for append cuts
//! off); a failing record before the last means the file is damaged, and is refused.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use granary_rules::Board;
use zerocopy::little_endian::{U16, U32, U64, U128};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// The file's first eight bytes.
pub const MAGIC: [u8; 8] = *b"GRANJRNL";
/// The format this code reads and writes.
pub const VERSION: u16 = 1;
/// Header bytes.
pub const HEADER_LEN: usize = 128;
/// Bytes a record.
pub const RECORD_LEN: usize = 32;
/// The longest binding a header holds, bytes.
pub const MAX_BINDING: usize = 108;

/// The header of a journal file.
#[derive(Clone, Copy, Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
struct Header {
    magic: [u8; 8],
    version: U16,
    record_len: U16,
    binding_len: U16,
    reserved: [u8; 2],
    binding: [u8; MAX_BINDING],
    crc32: U32,
}

const _: () = assert!(size_of::<Header>() == HEADER_LEN);

/// A record as stored.
#[derive(Clone, Copy, Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
struct Raw {
    kind: u8,
    lower: i8,
    upper: i8,
    best: u8,
    nodes: U64,
    board: U128,
    crc32: U32,
}

const _: () = assert!(size_of::<Raw>() == RECORD_LEN);

/// What a record says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
enum RecordKind {
    /// The position `board` is worth `lower..=upper`, proved in `nodes` nodes; `best` is the
    /// move the search found best (or cutting).
    Bound = 1,
    /// A solve (re)started: `nodes` is the Unix time in seconds.
    Run = 2,
    /// The current run has searched about `nodes` nodes in the seconds whose `f64` bits are
    /// the board's low 64 bits.
    Progress = 3,
    /// The solve ended: its value (`lower == upper`), `best` 1 if every root move is exact,
    /// `nodes` of the run, its seconds (`f64` bits) in the board's low 64 bits, and the
    /// principal variation's length in its high 64 bits (given by the `Pv` records before it).
    Result = 4,
    /// Lanes `24 * best ..` of the principal variation, 24 bytes in `nodes` and `board` (bytes
    /// 4..28 of the record), 0xff past its end.
    Pv = 5,
}

impl RecordKind {
    fn from_code(code: u8) -> Option<RecordKind> {
        Some(match code {
            1 => RecordKind::Bound,
            2 => RecordKind::Run,
            3 => RecordKind::Progress,
            4 => RecordKind::Result,
            5 => RecordKind::Pv,
            _ => return None,
        })
    }
}

/// Lanes a `Pv` record holds.
const PV_CHUNK: usize = 24;

impl Raw {
    fn new(kind: RecordKind, lower: i8, upper: i8, best: u8, nodes: u64, board: u128) -> Raw {
        let mut raw = Raw {
            kind: kind as u8,
            lower,
            upper,
            best,
            nodes: U64::new(nodes),
            board: U128::new(board),
            crc32: U32::new(0),
        };
        raw.crc32 = U32::new(crc32fast::hash(&raw.as_bytes()[..RECORD_LEN - 4]));
        raw
    }

    fn intact(&self) -> bool {
        crc32fast::hash(&self.as_bytes()[..RECORD_LEN - 4]) == self.crc32.get()
    }

    /// Bytes 4..28: the payload of a `Pv` record.
    fn payload(&self) -> [u8; PV_CHUNK] {
        let mut out = [0; PV_CHUNK];
        out.copy_from_slice(&self.as_bytes()[4..RECORD_LEN - 4]);
        out
    }
}

/// What is wrong with a journal.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: not a granary solve journal: give a journal file, or a new file name", path.display())]
    Foreign { path: PathBuf },
    #[error("{}: journal format {found}, this granary reads {VERSION}", path.display())]
    Version { path: PathBuf, found: u16 },
    #[error("{}: a journal of {found}, not of {expected}: give this solve a journal of its own", path.display())]
    Other {
        path: PathBuf,
        found: String,
        expected: String,
    },
    #[error("{}: damaged record at byte {offset} (not the last, so not a torn write): the journal cannot be trusted; move it aside", path.display())]
    Damaged { path: PathBuf, offset: u64 },
    #[error("{}: the record at byte {offset} takes the runs' nodes past 2^64: the journal cannot be trusted; move it aside", path.display())]
    Nodes { path: PathBuf, offset: u64 },
    #[error("the journal's binding is {len} bytes, at most {MAX_BINDING} fit")]
    Binding { len: usize },
    #[error("{}: another granary solve has this journal open: let it finish or stop it first", path.display())]
    Busy { path: PathBuf },
    #[error("{}: an earlier write failed; the journal keeps what it held before it", path.display())]
    Closed { path: PathBuf },
    /// Records that cannot be true of any position of this game: another game's, or damaged.
    #[error(
        "the journal holds impossible bounds ({0}): it is not this game's, or damaged; move it aside"
    )]
    Impossible(String),
}

/// A proven bound from the journal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound {
    pub board: Board,
    pub lower: i8,
    pub upper: i8,
    pub best: Option<u8>,
    /// Nodes its proof took.
    pub nodes: u64,
}

/// A finished solve's result, as recorded.
#[derive(Clone, Debug, PartialEq)]
pub struct Recorded {
    pub value: i32,
    /// Every root move's value was proved exactly.
    pub all_moves: bool,
    /// A principal variation, lanes.
    pub pv: Vec<usize>,
    pub nodes: u64,
    pub seconds: f64,
}

/// Everything a journal holds.
#[derive(Clone, Debug, Default)]
pub struct Contents {
    /// Every bound record, in the order written.
    pub bounds: Vec<Bound>,
    /// Solves run on the journal (restarts are this less one).
    pub runs: u32,
    /// Nodes and seconds of all runs: each run's last progress or result record.
    pub nodes: u64,
    pub seconds: f64,
    /// The last finished solve's result.
    pub result: Option<Recorded>,
    /// Bytes of the file that hold whole, intact records (and the header).
    pub bytes: u64,
    /// Bytes of a torn last record dropped.
    pub torn: u64,
}

impl Contents {
    /// The bounds of each board, every record of it combined (the tightest lower and upper;
    /// the best move of its last record).
    #[must_use]
    pub fn merged(&self) -> HashMap<Board, (i8, i8, Option<u8>)> {
        let mut map: HashMap<Board, (i8, i8, Option<u8>)> = HashMap::new();
        for b in &self.bounds {
            map.entry(b.board)
                .and_modify(|(lo, hi, best)| {
                    *lo = (*lo).max(b.lower);
                    *hi = (*hi).min(b.upper);
                    if b.best.is_some() {
                        *best = b.best;
                    }
                })
                .or_insert((b.lower, b.upper, b.best));
        }
        map
    }
}

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

fn io(path: &Path) -> impl Fn(std::io::Error) -> JournalError + '_ {
    move |source| JournalError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn header(binding: &str) -> Result<Header, JournalError> {
    let text = binding.as_bytes();
    if text.len() > MAX_BINDING {
        return Err(JournalError::Binding { len: text.len() });
    }
    let mut h = Header {
        magic: MAGIC,
        version: U16::new(VERSION),
        record_len: U16::new(RECORD_LEN as u16),
        binding_len: U16::new(text.len() as u16),
        reserved: [0; 2],
        binding: [0; MAX_BINDING],
        crc32: U32::new(0),
    };
    h.binding[..text.len()].copy_from_slice(text);
    h.crc32 = U32::new(crc32fast::hash(&h.as_bytes()[..HEADER_LEN - 4]));
    Ok(h)
}

/// Reads the journal at `path`, which must be bound to `binding`.
///
/// # Errors
/// The file cannot be read, is not a journal, is another solve's, is damaged before its last
/// record, or counts more nodes than any solve searches.
pub fn read(path: &Path, binding: &str) -> Result<Contents, JournalError> {
    let mut data = Vec::new();
    File::open(path)
        .and_then(|mut f| f.read_to_end(&mut data))
        .map_err(io(path))?;
    parse(path, &data, binding)
}

/// What the journal bytes `data` hold, read as from the file at `path` (which only names it in
/// errors) for a solve bound to `binding`: the parser of [`read`] and [`Journal::open`], public
/// for the fuzz targets. [`Contents::bytes`] and [`Contents::torn`] add up to `data`'s length.
///
/// # Errors
/// As [`read`], but for reading the file.
#[doc(hidden)]
pub fn parse(path: &Path, data: &[u8], binding: &str) -> Result<Contents, JournalError> {
    let foreign = || JournalError::Foreign {
        path: path.to_path_buf(),
    };
    let (h, _) = Header::read_from_prefix(data).map_err(|_| foreign())?;
    if h.magic != MAGIC || crc32fast::hash(&h.as_bytes()[..HEADER_LEN - 4]) != h.crc32.get() {
        return Err(foreign());
    }
    if h.version.get() != VERSION || usize::from(h.record_len.get()) != RECORD_LEN {
        return Err(JournalError::Version {
            path: path.to_path_buf(),
            found: h.version.get(),
        });
    }
    let len = usize::from(h.binding_len.get()).min(MAX_BINDING);
    let found = String::from_utf8_lossy(&h.binding[..len]);
    if found != binding {
        return Err(JournalError::Other {
            path: path.to_path_buf(),
            found: found.into_owned(),
            expected: binding.to_string(),
        });
    }
    let mut c = Contents {
        bytes: HEADER_LEN as u64,
        ..Contents::default()
    };
    // The current run's figures (and the offset of the record that gave them), added to the
    // totals when the next run starts or at the end.
    let (mut run_nodes, mut run_seconds, mut run_at) = (0u64, 0f64, 0u64);
    let add_nodes = |total: u64, run: u64, offset: u64| {
        total.checked_add(run).ok_or_else(|| JournalError::Nodes {
            path: path.to_path_buf(),
            offset,
        })
    };
    let mut pv: Vec<u8> = Vec::new();
    let body = &data[HEADER_LEN..];
    let whole = body.len() / RECORD_LEN * RECORD_LEN;
    for (i, chunk) in body[..whole].chunks_exact(RECORD_LEN).enumerate() {
        let offset = (HEADER_LEN + i * RECORD_LEN) as u64;
        let raw = Raw::read_from_bytes(chunk).map_err(|_| foreign())?;
        let kind = raw
            .intact()
            .then(|| RecordKind::from_code(raw.kind))
            .flatten();
        let Some(kind) = kind else {
            if (i + 1) * RECORD_LEN == whole {
                c.torn = (body.len() - i * RECORD_LEN) as u64;
                break;
            }
            return Err(JournalError::Damaged {
                path: path.to_path_buf(),
                offset,
            });
        };
        c.bytes = offset + RECORD_LEN as u64;
        let board = raw.board.get();
        match kind {
            RecordKind::Bound => c.bounds.push(Bound {
                board: Board(board),
                lower: raw.lower,
                upper: raw.upper,
                best: (raw.best != 0xff).then_some(raw.best),
                nodes: raw.nodes.get(),
            }),
            RecordKind::Run => {
                c.runs += 1;
                c.nodes = add_nodes(c.nodes, run_nodes, run_at)?;
                c.seconds += run_seconds;
                (run_nodes, run_seconds) = (0, 0.0);
                pv.clear();
            }
            RecordKind::Progress => {
                run_nodes = raw.nodes.get();
                run_seconds = f64::from_bits(board as u64);
                run_at = offset;
            }
            RecordKind::Pv => {
                let at = usize::from(raw.best) * PV_CHUNK;
                if pv.len() < at + PV_CHUNK {
                    pv.resize(at + PV_CHUNK, 0xff);
                }
                pv[at..at + PV_CHUNK].copy_from_slice(&raw.payload());
            }
            RecordKind::Result => {
                run_nodes = raw.nodes.get();
                run_seconds = f64::from_bits(board as u64);
                run_at = offset;
                let length = ((board >> 64) as usize).min(pv.len());
                c.result = Some(Recorded {
                    value: i32::from(raw.lower),
                    all_moves: raw.best == 1,
                    pv: pv[..length].iter().map(|&l| usize::from(l)).collect(),
                    nodes: run_nodes,
                    seconds: run_seconds,
                });
            }
        }
    }
    if whole < body.len() && c.torn == 0 {
        c.torn = (body.len() - whole) as u64;
    }
    c.nodes = add_nodes(c.nodes, run_nodes, run_at)?;
    c.seconds += run_seconds;
    Ok(c)
}

impl Journal {
    /// Opens the journal at `path` for a solve bound to `binding` (the game, its rules and the
    /// position, in words), creating it if it does not exist, and reads what it holds. A torn
    /// last record is cut off the file.
    ///
    /// # Errors
    /// As [`read`], or the file cannot be created or written.
    pub fn open(path: &Path, binding: &str) -> Result<(Journal, Contents), JournalError> {
        let fresh = header(binding)?;
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

    /// Found by fuzzing: a Kalah(4,3) journal whose two runs' nodes (intact progress and result
    /// records) overflowed their total.
    const NODES_PAST_2_64: [u8; 270] = [
        0x47, 0x52, 0x41, 0x4e, 0x4a, 0x52, 0x4e, 0x4c, 0x01, 0x00, 0x20, 0x00, 0x3b, 0x00, 0x00,
        0x00, 0x4b, 0x61, 0x6c, 0x61, 0x68, 0x28, 0x34, 0x2c, 0x33, 0x29, 0x20, 0x63, 0x61, 0x70,
        0x74, 0x75, 0x72, 0x65, 0x3d, 0x65, 0x6d, 0x70, 0x74, 0x79, 0x20, 0x73, 0x77, 0x65, 0x65,
        0x70, 0x3d, 0x6f, 0x77, 0x6e, 0x65, 0x72, 0x3b, 0x20, 0x33, 0x2c, 0x33, 0x2c, 0x33, 0x2c,
        0x33, 0x2f, 0x33, 0x2c, 0x33, 0x2c, 0x33, 0x2c, 0x33, 0x20, 0x30, 0x2d, 0x30, 0x20, 0x53,
        0x00, 0x8d, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x6b, 0x78, 0xe6, 0x49, 0x02, 0x00,
        0x00, 0x00, 0x2e, 0x95, 0x0b, 0x6b, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x04,
        0x04, 0x03, 0x03, 0xfa, 0xfe, 0x85, 0x20, 0x97, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x23, 0xa9, 0xf1, 0x48, 0x01, 0x07, 0x07, 0xff, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x03, 0x00, 0x04, 0x17, 0x1d, 0xd6, 0x9a, 0x03, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0xfb, 0x79, 0x7f, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x87, 0xe3, 0xdb, 0x59, 0x02, 0x00, 0x00,
        0x00, 0x2e, 0x95, 0x0b, 0x6b, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xd0, 0x8a, 0xca, 0x33, 0x04,
        0x03, 0x03, 0xfa, 0x2a, 0x08, 0x00, 0x03, 0xff, 0xff, 0xfc, 0xfd, 0x02, 0x03, 0x00, 0x01,
        0x03, 0x02, 0x00, 0x03, 0x00, 0x02, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x8c, 0x4f, 0x50,
        0xff, 0x1d, 0xbc, 0x04, 0x08, 0x08, 0x00, 0x01, 0xcf, 0xff, 0x00, 0x00, 0x00, 0x00, 0x00,
    ];

    #[test]
    fn nodes_past_any_count_are_refused() {
        let binding = "Kalah(4,3) capture=empty sweep=owner; 3,3,3,3/3,3,3,3 0-0 S";
        let err = parse(Path::new("j"), &NODES_PAST_2_64, binding).unwrap_err();
        assert!(
            matches!(err, JournalError::Nodes { offset, .. } if offset == 224),
            "{err}"
        );
        assert!(err.to_string().contains("past 2^64"), "{err}");
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
        assert!(header(&"x".repeat(MAX_BINDING + 1)).is_err());
    }
}
