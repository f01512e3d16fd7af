//! The layer file format (`docs/table-format.md`): a 64-byte header, then one `i8` per position
//! in index order (`granary_index`).
//!
//! ```text
//!  offset size field        value
//!  0      8    magic        "GRANARY\x1a"
//!  8      2    version      FORMAT_VERSION (1)
//!  10     2    header_len   64
//!  12     1    game         1 = kalah, 2 = oware
//!  13     1    rules        kalah: 0 capture empty, 1 standard; oware: 0 abapa, 1 awari
//!  14     1    sweep        kalah: 0 owner, 1 emptied; oware: 0
//!  15     1    pits         pits a side, 1..8
//!  16     2    seeds        seeds on the board in this layer
//!  18     1    entry_bytes  1 (one signed byte a position)
//!  19     1    reduced      1 if the index leaves out opponent rows without an empty pit
//!  20     8    entries      positions in the layer = the index's size
//!  28     4    data_crc32   CRC-32 (IEEE) of the entries
//!  32     1    codec        version 1: zero; version 2: 1 = zstd
//!  33     3    pad          zero
//!  36     4    block_entries version 1: zero; version 2: entries a compressed block
//!  40     4    index_crc32  version 1: zero; version 2: CRC-32 of the block index
//!  44     16   reserved     zero
//!  60     4    header_crc32 CRC-32 of bytes 0..60
//! ```
//!
//! All integers are little-endian. Version 2 (a finished layer as compressed blocks with an index
//! of their offsets, read at random) is described in [`crate::compressed`]; its `data_crc32` is
//! the same as version 1's: the CRC-32 of the uncompressed entries.

use granary_rules::{Capture, Engine, Game, Kalah, Oware, OwareRules, PitsError, Sweep};
use zerocopy::little_endian::{U16, U32, U64};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// The file's first eight bytes.
pub const MAGIC: [u8; 8] = *b"GRANARY\x1a";
/// The format the builder writes: one byte a position, memory-mapped.
pub const FORMAT_VERSION: u16 = 1;
/// The zstd-compressed format ([`crate::compressed`]): blocks and an index of their offsets.
pub const COMPRESSED_VERSION: u16 = 2;
/// The coded format ([`crate::coded`]): small blocks of Huffman codes, a model and a two-level
/// index; what `granary compress` writes.
pub const CODED_VERSION: u16 = 3;
/// Header length in bytes; the entries follow.
pub const HEADER_LEN: usize = 64;

/// The fixed header of a layer file.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct Header {
    pub magic: [u8; 8],
    pub version: U16,
    pub header_len: U16,
    pub game: u8,
    pub rules: u8,
    pub sweep: u8,
    pub pits: u8,
    pub seeds: U16,
    pub entry_bytes: u8,
    pub reduced: u8,
    pub entries: U64,
    pub data_crc32: U32,
    pub codec: u8,
    pub pad: [u8; 3],
    pub block_entries: U32,
    pub index_crc32: U32,
    pub reserved: [u8; 16],
    pub header_crc32: U32,
}

const _: () = assert!(size_of::<Header>() == HEADER_LEN);

/// What a table is for: the game with its rule options and the pits a side. Seeds a pit at the
/// start do not matter to a table.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct TableKind {
    pub game: Game,
    pub pits: usize,
}

impl TableKind {
    /// The kind of `game`'s tables at `pits` a side, checked ([`granary_rules::checked_pits`]):
    /// the one way from sizes a user or a file gave to a kind.
    ///
    /// # Errors
    /// [`PitsError`] for pits a side outside `1..=8`.
    pub fn new(game: Game, pits: usize) -> Result<TableKind, PitsError> {
        Ok(TableKind {
            game,
            pits: granary_rules::checked_pits(pits)?,
        })
    }

    /// `(game, rules, sweep)` codes of the header.
    #[must_use]
    pub fn codes(self) -> (u8, u8, u8) {
        match self.game {
            Game::Kalah { capture, sweep } => (
                1,
                u8::from(capture == Capture::Standard),
                u8::from(sweep == Sweep::Emptied),
            ),
            Game::Oware { rules } => (2, u8::from(rules == OwareRules::Awari), 0),
        }
    }

    /// The rules as tables see them: Oware played to the last seed (no majority stop).
    #[must_use]
    pub fn engine(self) -> Engine {
        match self.game {
            Game::Kalah { capture, sweep } => Engine::Kalah(Kalah::new(self.pits, capture, sweep)),
            Game::Oware { rules } => Engine::Oware(Oware::new(self.pits, rules).played_out()),
        }
    }

    /// The kind named by a header's codes, if they name one.
    #[must_use]
    pub fn from_codes(game: u8, rules: u8, sweep: u8, pits: usize) -> Option<TableKind> {
        let game = match (game, rules, sweep) {
            (1, 0 | 1, 0 | 1) => Game::Kalah {
                capture: Capture::ALL[usize::from(rules)],
                sweep: Sweep::ALL[usize::from(sweep)],
            },
            (2, 0 | 1, 0) => Game::Oware {
                rules: OwareRules::ALL[usize::from(rules)],
            },
            _ => return None,
        };
        TableKind::new(game, pits).ok()
    }

    /// Whether this game's tables use Romein & Bal's reduced index.
    #[must_use]
    pub fn reduced(self) -> bool {
        matches!(self.game, Game::Oware { .. })
    }

    /// A name for directories and messages, e.g. `oware-6-awari`, `kalah-6-empty-owner`.
    #[must_use]
    pub fn name(self) -> String {
        match self.game {
            Game::Kalah { capture, sweep } => {
                format!("kalah-{}-{}-{}", self.pits, capture.name(), sweep.name())
            }
            Game::Oware { rules } => format!("oware-{}-{}", self.pits, rules.name()),
        }
    }

    /// The header of this kind's layer of `seeds` seeds with `entries` positions; checksums zero.
    #[must_use]
    pub fn header(self, seeds: u32, entries: u64) -> Header {
        let (game, rules, sweep) = self.codes();
        Header {
            magic: MAGIC,
            version: FORMAT_VERSION.into(),
            header_len: (HEADER_LEN as u16).into(),
            game,
            rules,
            sweep,
            pits: self.pits as u8,
            seeds: (seeds as u16).into(),
            entry_bytes: 1,
            reduced: u8::from(self.reduced()),
            entries: entries.into(),
            data_crc32: 0.into(),
            codec: 0,
            pad: [0; 3],
            block_entries: 0.into(),
            index_crc32: 0.into(),
            reserved: [0; 16],
            header_crc32: 0.into(),
        }
    }
}

impl Header {
    /// CRC-32 of the header's first 60 bytes.
    #[must_use]
    pub fn compute_crc(&self) -> u32 {
        crc32fast::hash(&self.as_bytes()[..HEADER_LEN - 4])
    }

    /// A short description of what the header says the table is for.
    #[must_use]
    pub fn describe(&self) -> String {
        format!(
            "game {} rules {} sweep {} pits {} seeds {} entries {} ({} byte a position, reduced {})",
            self.game,
            self.rules,
            self.sweep,
            self.pits,
            self.seeds.get(),
            self.entries.get(),
            self.entry_bytes,
            self.reduced
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kind_has_one_to_eight_pits_a_side() {
        let game = Game::Oware {
            rules: OwareRules::Awari,
        };
        for pits in 1..=8 {
            let kind = TableKind::new(game, pits).unwrap();
            let (g, r, s) = kind.codes();
            assert_eq!(TableKind::from_codes(g, r, s, pits), Some(kind));
        }
        for pits in [0, 9, usize::MAX] {
            let err = TableKind::new(game, pits).unwrap_err();
            assert_eq!(
                err.to_string(),
                format!("pits {pits} is out of range: a side has 1 to 8 pits")
            );
            assert_eq!(TableKind::from_codes(2, 1, 0, pits), None);
        }
    }
}
