//! The journal's bytes: its header and its records, as stored.
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
pub(super) struct Header {
    pub(super) magic: [u8; 8],
    pub(super) version: U16,
    pub(super) record_len: U16,
    pub(super) binding_len: U16,
    pub(super) reserved: [u8; 2],
    pub(super) binding: [u8; MAX_BINDING],
    pub(super) crc32: U32,
}

const _: () = assert!(size_of::<Header>() == HEADER_LEN);

/// A record as stored.
#[derive(Clone, Copy, Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub(super) struct Raw {
    pub(super) kind: u8,
    pub(super) lower: i8,
    pub(super) upper: i8,
    pub(super) best: u8,
    pub(super) nodes: U64,
    pub(super) board: U128,
    pub(super) crc32: U32,
}

const _: () = assert!(size_of::<Raw>() == RECORD_LEN);

/// What a record says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(super) enum RecordKind {
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
    pub(super) fn from_code(code: u8) -> Option<RecordKind> {
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
pub(super) const PV_CHUNK: usize = 24;

impl Raw {
    pub(super) fn new(
        kind: RecordKind,
        lower: i8,
        upper: i8,
        best: u8,
        nodes: u64,
        board: u128,
    ) -> Raw {
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

    pub(super) fn intact(&self) -> bool {
        crc32fast::hash(&self.as_bytes()[..RECORD_LEN - 4]) == self.crc32.get()
    }

    /// Bytes 4..28: the payload of a `Pv` record.
    pub(super) fn payload(&self) -> [u8; PV_CHUNK] {
        let mut out = [0; PV_CHUNK];
        out.copy_from_slice(&self.as_bytes()[4..RECORD_LEN - 4]);
        out
    }
}

/// The header of a journal bound to `binding`; `None` for a binding longer than
/// [`MAX_BINDING`] bytes.
pub(super) fn header(binding: &str) -> Option<Header> {
    let text = binding.as_bytes();
    if text.len() > MAX_BINDING {
        return None;
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
    Some(h)
}
