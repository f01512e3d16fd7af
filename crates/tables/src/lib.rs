//! Endgame table files: one file per layer (seeds on the board), one signed byte per position.
//!
//! - [`format`]: the fixed 64-byte little-endian header and what each field means;
//! - [`layer`]: a layer file opened read-only, memory-mapped, checked against what was asked for;
//! - [`compressed`]: format version 2, a finished layer as zstd-compressed blocks;
//! - [`coded`]: format version 3, a finished layer as small blocks of Huffman codes;
//! - [`filled`]: version 3 with don't-cares filled, each value rebuilt from the layers below;
//! - [`huffman`]: version 3's codes, each entry coded in the context of the one before;
//! - [`compress`]: a layer rewritten as a version 3 (or 2) file;
//! - [`writer`]: a layer written to a temporary name, checksummed and renamed when complete;
//! - [`set`]: the layers of one variant in a directory, opened lazily, and value lookups;
//! - [`probe`]: values of positions and moves with stores, as `query` and the solver read them;
//! - [`verify`]: re-checking a file: values in range, a sample against its children;
//! - [`error`]: what can be wrong with a table, each error naming the file;
//! - [`anon`]: anonymous memory shared by threads as atomics (layers being built, hash tables).
//!
//! An entry is the best net score of the seeds still on the board for the player to move, in
//! `-n..=n` for a layer of `n` seeds; endless play is worth 0 (`docs/table-format.md`).

pub mod anon;
pub mod coded;
pub mod compress;
pub mod compressed;
pub mod error;
pub mod filled;
pub mod format;
pub mod huffman;
pub mod layer;
pub mod probe;
pub mod set;
pub mod verify;
pub mod writer;

pub use anon::{AnonAtomics, AtomicCells, huge_anon};
pub use compress::{
    Codec, CompressOptions, Compressed, Entries, compress_entries, compress_filled, compress_layer,
};
pub use error::TableError;
pub use format::{Header, TableKind};
pub use layer::{Layer, prefetch};
pub use set::{TableSet, WriteLock};
pub use writer::SharedLayer;
