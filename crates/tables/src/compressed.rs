//! Format version 2: a finished layer stored as zstd-compressed blocks with an index of their
//! offsets, so that one entry is read by decompressing one block (`docs/table-format.md`).
//!
//! ```text
//!  offset          size          field
//!  0               64            header (crate::format), version 2, with
//!    28            4               data_crc32     CRC-32 of the *uncompressed* entries (as in version 1)
//!    32            1               codec          1 = zstd
//!    36            4               block_entries  entries a block: a power of two, 2^10..=2^24
//!    40            4               index_crc32    CRC-32 of the block index (bytes 64..D)
//!  64              8 (B + 1)     block index: B + 1 little-endian u64 file offsets, B = the
//!                                entries divided by block_entries, rounded up; block i is the
//!                                bytes offsets[i]..offsets[i + 1]; offsets[0] = D = 64 + 8 (B + 1),
//!                                offsets[B] = the file's length
//!  D               ...           the blocks: block i is one zstd frame (with its content size and
//!                                checksum) of the entries i * block_entries.. (the last block
//!                                may hold fewer)
//! ```
//!
//! Opening a version 2 file checks the header against the request (as for version 1), then the
//! index against the file's length and its checksum, before anything is read through the map:
//! a short, foreign or damaged file is a [`TableError`], never a fault. A block whose frame does
//! not decode to its entries (a damaged block) is found when it is read.
//!
//! Writing is [`crate::compress`]. Reading (`Blocks::value`): a small layer (at most
//! [`WHOLE_ENTRIES`] entries) is decompressed whole on its first lookup and then read like a
//! version 1 layer. A larger one keeps a cache of
//! decompressed blocks, direct-mapped by block number, each slot behind its own reader-writer
//! lock: lookups from many threads into cached blocks share the locks for reading, a miss
//! decompresses into its slot under the write lock.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{OnceLock, PoisonError, RwLock};

use memmap2::Mmap;
use rayon::prelude::*;
use zerocopy::FromBytes;
use zerocopy::little_endian::U64;

use crate::error::TableError;
use crate::format::{HEADER_LEN, Header};

/// The `codec` of a zstd-compressed layer.
pub const CODEC_ZSTD: u8 = 1;
/// The fewest entries a block may hold.
pub const MIN_BLOCK_ENTRIES: u32 = 1 << 10;
/// The most entries a block may hold (a cached block is this many bytes).
pub const MAX_BLOCK_ENTRIES: u32 = 1 << 24;
/// The block size `granary compress` uses by default (`docs/table-format.md` gives the figures).
pub const DEFAULT_BLOCK_ENTRIES: u32 = 1 << 16;
/// The zstd level `granary compress` uses by default.
pub const DEFAULT_LEVEL: i32 = 1;
/// Layers of at most this many entries are decompressed whole on their first lookup.
pub const WHOLE_ENTRIES: u64 = 4 << 20;
/// Bytes of decompressed blocks a large layer caches.
const CACHE_BYTES: usize = 16 << 20;

/// The number of blocks of a layer of `entries` entries.
#[must_use]
pub fn block_count(entries: u64, block_entries: u32) -> u64 {
    entries.div_ceil(u64::from(block_entries))
}

/// Whether `block_entries` is a block size version 2 allows.
#[must_use]
pub fn valid_block_entries(block_entries: u32) -> bool {
    block_entries.is_power_of_two()
        && (MIN_BLOCK_ENTRIES..=MAX_BLOCK_ENTRIES).contains(&block_entries)
}

/// A cached decompressed block.
#[derive(Debug)]
struct Slot {
    /// The block held, `u64::MAX` for none.
    block: u64,
    data: Vec<u8>,
}

/// The compressed blocks of an open version 2 layer, with their cache.
pub(crate) struct Blocks {
    path: PathBuf,
    /// The whole file.
    map: Mmap,
    entries: u64,
    /// log2 of the entries a block.
    shift: u32,
    blocks: u64,
    /// Layers of at most this many entries are decompressed whole ([`WHOLE_ENTRIES`]).
    whole_limit: u64,
    /// A small layer, decompressed whole on first use.
    whole: OnceLock<Box<[u8]>>,
    /// A large layer's cache; `slots.len()` is a power of two.
    slots: Box<[RwLock<Slot>]>,
}

impl std::fmt::Debug for Blocks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Blocks")
            .field("path", &self.path)
            .field("bytes", &self.map.len())
            .field("entries", &self.entries)
            .field("block_entries", &(1u64 << self.shift))
            .field("blocks", &self.blocks)
            .field("cache_slots", &self.slots.len())
            .finish_non_exhaustive()
    }
}

pub(crate) fn corrupt(path: &Path, what: impl Into<String>) -> TableError {
    TableError::Corrupt {
        path: path.into(),
        what: what.into(),
    }
}

/// Checks the version 2 fields of a header whose other fields were checked: codec and block
/// size. The file's length and index are checked by [`Blocks::open`].
pub(crate) fn check_fields(path: &Path, header: &Header) -> Result<(), TableError> {
    if header.codec != CODEC_ZSTD {
        return Err(corrupt(path, format!("unknown codec {}", header.codec)));
    }
    let block_entries = header.block_entries.get();
    if !valid_block_entries(block_entries) {
        return Err(corrupt(
            path,
            format!(
                "block size {block_entries} entries, not a power of two in {MIN_BLOCK_ENTRIES}..={MAX_BLOCK_ENTRIES}"
            ),
        ));
    }
    Ok(())
}

/// The end of the block index of a file of `entries` entries (where the first block starts).
pub(crate) fn index_end(entries: u64, block_entries: u32) -> u64 {
    HEADER_LEN as u64 + 8 * (block_count(entries, block_entries) + 1)
}

impl Blocks {
    /// Checks and maps the version 2 file `file` of `length` bytes, whose header (checked
    /// against the request, [`check_fields`] included) says it holds `entries` entries.
    pub(crate) fn open(
        path: &Path,
        file: &File,
        header: &Header,
        length: u64,
        entries: u64,
    ) -> Result<Blocks, TableError> {
        let block_entries = header.block_entries.get();
        let blocks = block_count(entries, block_entries);
        let start = index_end(entries, block_entries);
        // Each block holds at least one byte.
        if length < start + blocks {
            return Err(TableError::Length {
                path: path.into(),
                expected: start + blocks,
                found: length,
            });
        }
        // SAFETY: the file is mapped read-only, and granary never writes a finished table in
        // place: tables are written under a temporary name and renamed when complete, so the
        // length checked here is final (see `Layer::open`).
        let map = unsafe { Mmap::map(file) }.map_err(TableError::io(path))?;
        if map.len() as u64 != length {
            return Err(TableError::Length {
                path: path.into(),
                expected: length,
                found: map.len() as u64,
            });
        }
        let index = &map[HEADER_LEN..start as usize];
        if crc32fast::hash(index) != header.index_crc32.get() {
            return Err(corrupt(path, "block index checksum mismatch"));
        }
        let offsets = <[U64]>::ref_from_bytes(index).expect("8-byte entries, unaligned");
        if offsets[0].get() != start || offsets[blocks as usize].get() != length {
            return Err(corrupt(
                path,
                format!(
                    "block index runs from {} to {}, the blocks from {start} to {length}",
                    offsets[0].get(),
                    offsets[blocks as usize].get()
                ),
            ));
        }
        if let Some(i) = offsets.windows(2).position(|w| w[1].get() <= w[0].get()) {
            return Err(corrupt(path, format!("block {i} is empty or out of order")));
        }
        let block_bytes = block_entries as usize;
        let slots = (CACHE_BYTES / block_bytes)
            .clamp(4, 1024)
            .next_power_of_two();
        Ok(Blocks {
            path: path.into(),
            map,
            entries,
            shift: block_entries.trailing_zeros(),
            blocks,
            whole_limit: WHOLE_ENTRIES,
            whole: OnceLock::new(),
            slots: (0..slots)
                .map(|_| {
                    RwLock::new(Slot {
                        block: u64::MAX,
                        data: Vec::new(),
                    })
                })
                .collect(),
        })
    }

    /// The file offsets of block `block`'s frame.
    fn frame(&self, block: u64) -> &[u8] {
        let at = HEADER_LEN + 8 * block as usize;
        let read = |at: usize| {
            u64::from_le_bytes(self.map[at..at + 8].try_into().expect("8 bytes")) as usize
        };
        &self.map[read(at)..read(at + 8)]
    }

    /// The entries of block `block`.
    fn block_len(&self, block: u64) -> usize {
        let first = block << self.shift;
        (self.entries - first).min(1 << self.shift) as usize
    }

    /// Decompresses block `block` into `out`, resized to the block's entries.
    fn decompress(&self, block: u64, out: &mut Vec<u8>) -> Result<(), TableError> {
        out.resize(self.block_len(block), 0);
        self.decompress_into(block, out)
    }

    /// Decompresses block `block` into `out`, which must hold exactly the block's entries.
    fn decompress_into(&self, block: u64, out: &mut [u8]) -> Result<(), TableError> {
        thread_local! {
            static CONTEXT: std::cell::RefCell<Option<zstd::bulk::Decompressor<'static>>> =
                const { std::cell::RefCell::new(None) };
        }
        let len = self.block_len(block);
        debug_assert_eq!(out.len(), len, "block {block}'s entries");
        let frame = self.frame(block);
        let result = CONTEXT.with_borrow_mut(|context| {
            let context = match context {
                Some(c) => c,
                None => context.insert(zstd::bulk::Decompressor::new().map_err(|e| e.to_string())?),
            };
            context
                .decompress_to_buffer(frame, out)
                .map_err(|e| e.to_string())
        });
        match result {
            Ok(n) if n == len => Ok(()),
            Ok(n) => Err(corrupt(
                &self.path,
                format!("block {block} holds {n} entries, not {len}"),
            )),
            Err(e) => Err(corrupt(&self.path, format!("block {block}: {e}"))),
        }
    }

    /// Calls `each` with the first entry's rank and the entries of every block in order.
    pub(crate) fn for_each_block(
        &self,
        mut each: impl FnMut(u64, &[u8]),
    ) -> Result<(), TableError> {
        let mut buf = Vec::new();
        for block in 0..self.blocks {
            self.decompress(block, &mut buf)?;
            each(block << self.shift, &buf);
        }
        Ok(())
    }

    /// Every entry, decompressed into `out` (`entries` bytes), each block straight into its
    /// place: on this thread, or with `parallel` shared among rayon's threads (for a copy of a
    /// large layer; a caller holding a lock that a rayon task may take must not ask for it: the
    /// thread waiting here runs other tasks).
    pub(crate) fn decompress_all(&self, out: &mut [u8], parallel: bool) -> Result<(), TableError> {
        assert_eq!(
            out.len() as u64,
            self.entries,
            "a buffer of the layer's entries"
        );
        let size = 1 << self.shift;
        let block = |(b, chunk): (usize, &mut [u8])| self.decompress_into(b as u64, chunk);
        if parallel {
            out.par_chunks_mut(size).enumerate().try_for_each(block)
        } else {
            out.chunks_mut(size).enumerate().try_for_each(block)
        }
    }

    /// The entries `first..first + out.len()`, decompressed into `out` block by block (the
    /// range must lie within the layer).
    pub(crate) fn read_range(&self, first: u64, out: &mut [u8]) -> Result<(), TableError> {
        let end = first + out.len() as u64;
        assert!(
            end <= self.entries,
            "entries {first}..{end} out of range for a layer of {} entries",
            self.entries
        );
        let mut buf = Vec::new();
        let mut at = first;
        while at < end {
            let block = at >> self.shift;
            self.decompress(block, &mut buf)?;
            let start = block << self.shift;
            let from = (at - start) as usize;
            let to = ((end - start) as usize).min(buf.len());
            let dest = (at - first) as usize;
            out[dest..dest + to - from].copy_from_slice(&buf[from..to]);
            at = start + to as u64;
        }
        Ok(())
    }

    /// The whole layer decompressed, kept for the layer's life (small layers).
    pub(crate) fn whole(&self) -> Result<&[u8], TableError> {
        if let Some(whole) = self.whole.get() {
            return Ok(whole);
        }
        let mut data = vec![0u8; self.entries as usize].into_boxed_slice();
        self.decompress_all(&mut data, false)?;
        Ok(self.whole.get_or_init(|| data))
    }

    /// The entry of rank `index` (`index < entries`, else a panic as for a version 1 layer).
    pub(crate) fn value(&self, index: u64) -> Result<i8, TableError> {
        assert!(
            index < self.entries,
            "index {index} out of range for a layer of {} entries",
            self.entries
        );
        if self.entries <= self.whole_limit {
            return Ok(self.whole()?[index as usize] as i8);
        }
        let block = index >> self.shift;
        let at = (index & ((1 << self.shift) - 1)) as usize;
        let slot = &self.slots[block as usize & (self.slots.len() - 1)];
        {
            let cached = slot.read().unwrap_or_else(PoisonError::into_inner);
            if cached.block == block {
                return Ok(cached.data[at] as i8);
            }
        }
        let mut cached = slot.write().unwrap_or_else(PoisonError::into_inner);
        if cached.block != block {
            cached.block = u64::MAX;
            self.decompress(block, &mut cached.data)?;
            cached.block = block;
        }
        Ok(cached.data[at] as i8)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::compress::{CompressOptions, compress_layer};
    use crate::format::TableKind;
    use crate::layer::Layer;
    use crate::writer::SharedLayer;
    use crate::writer::temp_path;
    use granary_rules::{Capture, Game, Sweep};
    use zerocopy::IntoBytes;

    pub(crate) const KIND: TableKind = TableKind {
        game: Game::Kalah {
            capture: Capture::Standard,
            sweep: Sweep::Owner,
        },
        pits: 4,
    };
    /// Layer 10 of Kalah(4): 19448 entries, 19 blocks of 1K.
    pub(crate) const SEEDS: u32 = 10;

    /// A version 1 layer of made-up values in range, with runs (so it compresses) and noise.
    pub(crate) fn v1_layer(dir: &Path) -> (PathBuf, Vec<u8>) {
        let path = dir.join("v1.tbl");
        let entries = granary_index::LayerIndex::new(KIND.pits, SEEDS, false)
            .unwrap()
            .size();
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let values: Vec<u8> = (0..entries)
            .map(|i| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let v = if i % 64 < 40 {
                    (i / 64 % 5) as i64
                } else {
                    (x % 21) as i64 - 10
                };
                v as i8 as u8
            })
            .collect();
        let writer = SharedLayer::create(&path, KIND, SEEDS, entries).unwrap();
        writer
            .write_parts(0, entries, |from, part| {
                part.copy_from_slice(&values[from as usize..from as usize + part.len()]);
            })
            .unwrap();
        writer.finish().unwrap();
        (path, values)
    }

    fn compressed(dir: &Path, block_entries: u32) -> (PathBuf, Vec<u8>) {
        let (v1, values) = v1_layer(dir);
        let layer = Layer::open(&v1, KIND, SEEDS).unwrap();
        let dest = dir.join(format!("v2-{block_entries}.tbl"));
        let options = CompressOptions {
            codec: crate::compress::Codec::Zstd(3),
            block_entries,
            threads: 3,
        };
        let made = compress_layer(&layer, &dest, options).unwrap();
        assert_eq!(made.blocks, block_count(values.len() as u64, block_entries));
        assert_eq!(made.after, std::fs::metadata(&dest).unwrap().len());
        assert!(made.after < made.before, "{made:?}");
        assert!(!temp_path(&dest).exists(), "no temporary file left");
        (dest, values)
    }

    /// The open layer's blocks, made to read through the block cache even though it is small.
    fn through_blocks(layer: &mut Layer) -> &Blocks {
        let blocks = layer.blocks_mut().expect("a compressed layer");
        blocks.whole_limit = 0;
        blocks
    }

    #[test]
    fn every_value_the_same_for_both_paths_and_block_sizes() {
        let dir = tempfile::tempdir().unwrap();
        for block_entries in [MIN_BLOCK_ENTRIES, 4 << 10, 1 << 16] {
            let (path, values) = compressed(dir.path(), block_entries);
            let layer = Layer::open(&path, KIND, SEEDS).unwrap();
            assert!(layer.is_compressed() && layer.raw().is_none());
            assert_eq!(layer.len(), values.len() as u64);
            // Whole (a small layer decompressed on first use).
            for (i, &v) in values.iter().enumerate() {
                assert_eq!(layer.value(i as u64), v as i8, "entry {i}");
            }
            layer.verify_checksum().unwrap();
            let resident = layer.resident().unwrap();
            assert_eq!(resident.raw().unwrap(), &values[..]);
            let mut seen = Vec::new();
            layer
                .for_each_chunk(|first, entries| {
                    assert_eq!(first, seen.len() as u64);
                    seen.extend_from_slice(entries);
                })
                .unwrap();
            assert_eq!(seen, values);
            // Ranges across block boundaries, for both versions.
            let v1 = Layer::open(&dir.path().join("v1.tbl"), KIND, SEEDS).unwrap();
            let len = values.len();
            for (first, count) in [(0, len), (1, 1), (1000, 3000), (len - 5, 5), (7, 0)] {
                for reader in [&layer, &v1] {
                    let mut out = vec![0u8; count];
                    reader.read_range(first as u64, &mut out).unwrap();
                    assert_eq!(out, values[first..first + count], "{first}+{count}");
                }
            }
            // Block by block, backwards (every lookup of a new block a miss), then from four
            // threads at random.
            let mut layer = Layer::open(&path, KIND, SEEDS).unwrap();
            let blocks = through_blocks(&mut layer);
            for (i, &v) in values.iter().enumerate().rev() {
                assert_eq!(blocks.value(i as u64).unwrap(), v as i8, "entry {i}");
            }
            std::thread::scope(|s| {
                for t in 0..4u64 {
                    let values = &values;
                    s.spawn(move || {
                        let mut x = 0x9E37_79B9_7F4A_7C15u64 + t;
                        for _ in 0..20_000 {
                            x ^= x << 13;
                            x ^= x >> 7;
                            x ^= x << 17;
                            let i = x % values.len() as u64;
                            assert_eq!(blocks.value(i).unwrap(), values[i as usize] as i8);
                        }
                    });
                }
            });
        }
    }

    #[test]
    fn a_layer_compressed_over_itself_reads_the_same() {
        let dir = tempfile::tempdir().unwrap();
        let (path, values) = v1_layer(dir.path());
        let layer = Layer::open(&path, KIND, SEEDS).unwrap();
        compress_layer(&layer, &path, CompressOptions::zstd(1)).unwrap();
        // The open layer reads the old file; a new open reads the compressed one.
        assert_eq!(layer.raw().unwrap(), &values[..]);
        let again = Layer::open(&path, KIND, SEEDS).unwrap();
        assert!(again.is_compressed());
        assert_eq!(again.resident().unwrap().raw().unwrap(), &values[..]);
        // A compressed layer is not compressed again in its own format.
        assert!(matches!(
            compress_layer(&again, &path, CompressOptions::zstd(1)),
            Err(TableError::Mismatch { .. })
        ));
    }

    #[test]
    fn a_damaged_source_or_a_bad_block_size_is_refused_and_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let (path, _) = v1_layer(dir.path());
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[HEADER_LEN + 100] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        let layer = Layer::open(&path, KIND, SEEDS).unwrap();
        let dest = dir.path().join("v2.tbl");
        let err = compress_layer(&layer, &dest, CompressOptions::zstd(1)).unwrap_err();
        assert!(matches!(err, TableError::DataChecksum { .. }), "{err}");
        for block_entries in [0, 1000, MIN_BLOCK_ENTRIES / 2, MAX_BLOCK_ENTRIES * 2] {
            let options = CompressOptions {
                block_entries,
                ..CompressOptions::zstd(1)
            };
            let err = compress_layer(&layer, &dest, options).unwrap_err();
            assert!(err.to_string().contains("block size"), "{err}");
        }
        assert!(!dest.exists() && !temp_path(&dest).exists());
    }

    /// Rewrites the header's checksum after a change to it.
    fn reseal(bytes: &mut [u8]) {
        let (mut header, _) = Header::read_from_prefix(bytes).unwrap();
        header.header_crc32 = header.compute_crc().into();
        bytes[..HEADER_LEN].copy_from_slice(header.as_bytes());
    }

    #[test]
    fn truncated_damaged_or_foreign_files_are_errors() {
        let dir = tempfile::tempdir().unwrap();
        let (path, _) = compressed(dir.path(), MIN_BLOCK_ENTRIES);
        let good = std::fs::read(&path).unwrap();
        let bad = dir.path().join("bad.tbl");
        let open = |bytes: &[u8]| {
            std::fs::write(&bad, bytes).unwrap();
            Layer::open(&bad, KIND, SEEDS).map(|_| ())
        };
        open(&good).unwrap();
        // Every truncation: a named error, never a fault.
        let index_end = index_end(19448, MIN_BLOCK_ENTRIES) as usize;
        for cut in [
            0,
            10,
            HEADER_LEN,
            HEADER_LEN + 8,
            index_end - 1,
            index_end,
            index_end + 19,
        ]
        .into_iter()
        .chain((1..40).map(|k| good.len() * k / 40))
        .chain([good.len() - 1])
        {
            let err = open(&good[..cut]).unwrap_err();
            assert!(
                matches!(
                    err,
                    TableError::Truncated { .. }
                        | TableError::Length { .. }
                        | TableError::Corrupt { .. }
                ),
                "cut at {cut}: {err}"
            );
        }
        // One more byte.
        let mut long = good.clone();
        long.push(0);
        assert!(matches!(open(&long), Err(TableError::Corrupt { .. })));
        // A byte of the index changed: its checksum.
        for at in [HEADER_LEN, HEADER_LEN + 8 * 5 + 1, index_end - 1] {
            let mut bytes = good.clone();
            bytes[at] ^= 0x10;
            let err = open(&bytes).unwrap_err();
            assert!(
                err.to_string().contains("block index checksum mismatch"),
                "{err}"
            );
        }
        // An index that is sealed but wrong: offsets out of order, or off the file's ends.
        let sealed = |change: &dyn Fn(&mut [U64])| {
            let mut bytes = good.clone();
            let offsets = <[U64]>::mut_from_bytes(&mut bytes[HEADER_LEN..index_end]).unwrap();
            change(offsets);
            let crc = crc32fast::hash(&bytes[HEADER_LEN..index_end]);
            bytes[40..44].copy_from_slice(&crc.to_le_bytes());
            reseal(&mut bytes);
            open(&bytes).unwrap_err()
        };
        let err = sealed(&|o| o.swap(3, 4));
        assert!(
            err.to_string().contains("block 3 is empty or out of order"),
            "{err}"
        );
        let err = sealed(&|o| o[0] = U64::new(o[0].get() - 1));
        assert!(err.to_string().contains("block index runs from"), "{err}");
        let err = sealed(&|o| {
            let last = o.len() - 1;
            o[last] = U64::new(u64::MAX);
        });
        assert!(err.to_string().contains("block index runs from"), "{err}");
        // Version 2 fields: an unknown codec, a block size that is not allowed.
        for (at, value, says) in [
            (32, 7u8, "unknown codec 7"),
            (36, 1, "block size"),
            (37, 0x03, "block size"),
            (33, 1, "is for"),
        ] {
            let mut bytes = good.clone();
            bytes[at] = value;
            reseal(&mut bytes);
            let err = open(&bytes).unwrap_err();
            assert!(err.to_string().contains(says), "byte {at}: {err}");
        }
        // Another layer's file.
        std::fs::write(&bad, &good).unwrap();
        assert!(matches!(
            Layer::open(&bad, KIND, SEEDS - 1),
            Err(TableError::Mismatch { .. })
        ));
    }

    #[test]
    fn a_flipped_byte_in_a_block_fails_the_checksum_and_its_lookups() {
        let dir = tempfile::tempdir().unwrap();
        let (path, values) = compressed(dir.path(), MIN_BLOCK_ENTRIES);
        let mut bytes = std::fs::read(&path).unwrap();
        // A byte in the middle of block 3's frame.
        let offset = |i: usize| {
            let at = HEADER_LEN + 8 * i;
            u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize
        };
        let at = (offset(3) + offset(4)) / 2;
        bytes[at] ^= 0x04;
        std::fs::write(&path, &bytes).unwrap();
        let mut layer = Layer::open(&path, KIND, SEEDS).unwrap();
        let err = layer.verify_checksum().unwrap_err();
        assert!(
            matches!(
                err,
                TableError::Corrupt { .. } | TableError::DataChecksum { .. }
            ),
            "{err}"
        );
        assert!(layer.resident().is_err());
        let blocks = through_blocks(&mut layer);
        let block = u64::from(MIN_BLOCK_ENTRIES);
        let err = blocks.value(3 * block + 5).unwrap_err();
        assert!(err.to_string().contains("block 3"), "{err}");
        // The other blocks still read.
        assert_eq!(blocks.value(5).unwrap(), values[5] as i8);
        assert_eq!(
            blocks.value(4 * block).unwrap(),
            values[4 * block as usize] as i8
        );
    }
}
