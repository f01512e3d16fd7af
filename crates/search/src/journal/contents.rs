//! What a journal holds, and its parser: the bounds, the runs and the result its records tell.

use std::collections::HashMap;
use std::fs::File;
use std::io::Read;
use std::path::Path;

use granary_rules::Board;
use zerocopy::{FromBytes, IntoBytes};

use super::error::{JournalError, io};
use super::format::{
    HEADER_LEN, Header, MAGIC, MAX_BINDING, PV_CHUNK, RECORD_LEN, Raw, RecordKind, VERSION,
};

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
