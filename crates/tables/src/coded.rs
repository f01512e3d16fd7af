//! Format version 3: a finished layer stored as small blocks of Huffman codes, each entry coded
//! in the context of the entry before it ([`crate::huffman`]), with a two-level index of the
//! blocks, so that one entry is read by decoding a few hundred bits (`docs/table-format.md`).
//!
//! ```text
//!  offset          size          field
//!  0               64            header (crate::format), version 3, with
//!    28            4               data_crc32     CRC-32 of the decoded entries (as in version 1)
//!    32            1               codec          2 = Huffman codes in the previous entry's context
//!    36            4               block_entries  E, entries a block: a power of two, 2^6..=2^16
//!    40            4               index_crc32    CRC-32 of bytes 64..D (the model and the index)
//!  64              (S + 1) S     the model: code lengths, S = 2n + 1 symbols (crate::huffman)
//!  M               8 (G + 1)     group offsets: G + 1 little-endian u64 file offsets; group g's
//!                                blocks start at offsets[g]; offsets[0] = D, offsets[G] = the
//!                                file's length
//!  M + 8 (G + 1)   2 B           block offsets: B little-endian u16, block b's start relative to
//!                                its group's; 0 for a group's first block, increasing within
//!                                a group
//!  D               ...           the blocks: block b codes the entries b E .. (the last block
//!                                may hold fewer), the first in the start context, padded with
//!                                zero bits to a whole byte
//! ```
//!
//! `B` is the entries divided by `E`, rounded up. A group holds `K` blocks (the last may hold
//! fewer), `K` the largest power of two such that `K` blocks of the longest codes
//! (`E * MAX_CODE_LEN` bits each) span less than 2^16 bytes, at least 1: a block's offset in its
//! group then fits 16 bits. `G` is `B` divided by `K`, rounded up.
//!
//! Opening a version 3 file checks the header against the request (as for other versions), then
//! the length, the model and index checksum, the model's codes (each a prefix code of at most
//! [`MAX_CODE_LEN`] bits), the group offsets (from `D` to the length, increasing) and every
//! block offset (increasing within its group, inside it), before any block is read: a short,
//! foreign or damaged file is a [`TableError`], never a fault. A damaged block (bits that start
//! no code, more bits than the block has, a block longer than its entries) is found when it is
//! read, and named. Blocks carry no checksum of their own: a damaged block that still decodes is
//! found where the layer is decoded whole (every such read checks the data checksum) and by
//! `granary verify`, not by a single lookup (as with syzygy tables).
//!
//! Writing is [`crate::compress`]. Reading: a small layer (at most [`WHOLE_ENTRIES`] entries) is
//! decoded whole on its first lookup and then read like a version 1 layer; in a larger one a
//! lookup decodes its block up to the entry, with no cache and no lock.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use memmap2::Mmap;
use rayon::prelude::*;

use crate::compressed::{WHOLE_ENTRIES, corrupt};
use crate::error::TableError;
use crate::format::{HEADER_LEN, Header};
use crate::huffman::{Decoder, Lengths, MAX_CODE_LEN};

/// Blocks decoded at once in a read of whole blocks.
const LANES: usize = 4;

/// The `codec` of a version 3 layer whose entries are its values.
pub const CODEC_CONTEXT_HUFFMAN: u8 = 2;
/// The `codec` of a version 3 layer whose don't-cares are filled ([`crate::filled`]): coded as
/// codec 2, its entries rebuilt into values from the layers below.
pub const CODEC_FILLED_HUFFMAN: u8 = 3;
/// The fewest entries a version 3 block may hold.
pub const MIN_CODED_BLOCK_ENTRIES: u32 = 1 << 6;
/// The most entries a version 3 block may hold.
pub const MAX_CODED_BLOCK_ENTRIES: u32 = 1 << 16;
/// The block size `granary compress` uses by default (`docs/table-format.md` gives the figures).
pub const DEFAULT_CODED_BLOCK_ENTRIES: u32 = 1 << 8;

/// Whether `block_entries` is a block size version 3 allows.
#[must_use]
pub fn valid_coded_block_entries(block_entries: u32) -> bool {
    block_entries.is_power_of_two()
        && (MIN_CODED_BLOCK_ENTRIES..=MAX_CODED_BLOCK_ENTRIES).contains(&block_entries)
}

/// Where the parts of a version 3 file of `entries` entries, `seeds` seeds and blocks of
/// `block_entries` entries lie.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Symbols: `2 * seeds + 1`.
    pub symbols: usize,
    pub blocks: u64,
    /// log2 of the blocks a group.
    pub group_shift: u32,
    pub groups: u64,
    /// Where the group offsets start (the model ends).
    pub groups_at: u64,
    /// Where the block offsets start.
    pub blocks_at: u64,
    /// Where the first block starts.
    pub data_at: u64,
}

impl Shape {
    #[must_use]
    pub fn new(entries: u64, seeds: u32, block_entries: u32) -> Shape {
        let symbols = 2 * seeds as usize + 1;
        let blocks = entries.div_ceil(u64::from(block_entries));
        let longest = (u64::from(block_entries) * u64::from(MAX_CODE_LEN)).div_ceil(8);
        let per_group = (0xFFFF / longest).max(1);
        let group_shift = 63 - per_group.leading_zeros();
        let groups = blocks.div_ceil(1 << group_shift);
        let groups_at = HEADER_LEN as u64 + ((symbols + 1) * symbols) as u64;
        let blocks_at = groups_at + 8 * (groups + 1);
        let data_at = blocks_at + 2 * blocks;
        Shape {
            symbols,
            blocks,
            group_shift,
            groups,
            groups_at,
            blocks_at,
            data_at,
        }
    }
}

/// Checks the version 3 fields of a header whose other fields were checked: codec and block size.
pub(crate) fn check_fields(path: &Path, header: &Header) -> Result<(), TableError> {
    if !matches!(header.codec, CODEC_CONTEXT_HUFFMAN | CODEC_FILLED_HUFFMAN) {
        return Err(corrupt(path, format!("unknown codec {}", header.codec)));
    }
    let block_entries = header.block_entries.get();
    if !valid_coded_block_entries(block_entries) {
        return Err(corrupt(
            path,
            format!(
                "block size {block_entries} entries, not a power of two in {MIN_CODED_BLOCK_ENTRIES}..={MAX_CODED_BLOCK_ENTRIES}"
            ),
        ));
    }
    Ok(())
}

/// The coded blocks of an open version 3 layer.
pub(crate) struct Coded {
    path: PathBuf,
    /// The whole file.
    map: Mmap,
    entries: u64,
    /// Entry `v` is symbol `v + seeds`.
    seeds: u8,
    /// The CRC-32 of the entries, checked whenever the layer is decoded whole.
    data_crc32: u32,
    /// log2 of the entries a block.
    shift: u32,
    shape: Shape,
    decoder: Decoder,
    /// Layers of at most this many entries are decoded whole ([`WHOLE_ENTRIES`]).
    whole_limit: u64,
    whole: OnceLock<Box<[u8]>>,
}

impl std::fmt::Debug for Coded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Coded")
            .field("path", &self.path)
            .field("bytes", &self.map.len())
            .field("entries", &self.entries)
            .field("block_entries", &(1u64 << self.shift))
            .field("shape", &self.shape)
            .finish_non_exhaustive()
    }
}

fn u64_at(bytes: &[u8], at: u64) -> u64 {
    let at = at as usize;
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"))
}

fn u16_at(bytes: &[u8], at: u64) -> u64 {
    let at = at as usize;
    u64::from(u16::from_le_bytes(
        bytes[at..at + 2].try_into().expect("2 bytes"),
    ))
}

impl Coded {
    /// Checks and maps the version 3 file `file` of `length` bytes, whose header (checked
    /// against the request, [`check_fields`] included) says it holds `entries` entries of
    /// layer `seeds`.
    pub(crate) fn open(
        path: &Path,
        file: &File,
        header: &Header,
        length: u64,
        entries: u64,
        seeds: u32,
    ) -> Result<Coded, TableError> {
        let block_entries = header.block_entries.get();
        let shape = Shape::new(entries, seeds, block_entries);
        if length < shape.data_at + shape.blocks {
            return Err(TableError::Length {
                path: path.into(),
                expected: shape.data_at + shape.blocks,
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
        let described = &map[HEADER_LEN..shape.data_at as usize];
        if crc32fast::hash(described) != header.index_crc32.get() {
            return Err(corrupt(path, "model and block index checksum mismatch"));
        }
        let lengths = Lengths {
            symbols: shape.symbols,
            lengths: map[HEADER_LEN..shape.groups_at as usize].to_vec(),
        };
        lengths
            .check()
            .map_err(|what| corrupt(path, format!("model: {what}")))?;
        let group = |g: u64| u64_at(&map, shape.groups_at + 8 * g);
        if group(0) != shape.data_at || group(shape.groups) != length {
            return Err(corrupt(
                path,
                format!(
                    "block index runs from {} to {}, the blocks from {} to {length}",
                    group(0),
                    group(shape.groups),
                    shape.data_at
                ),
            ));
        }
        for g in 0..shape.groups {
            let (start, end) = (group(g), group(g + 1));
            if end <= start {
                return Err(corrupt(
                    path,
                    format!("block group {g} is empty or out of order"),
                ));
            }
            let first = g << shape.group_shift;
            let last = ((g + 1) << shape.group_shift).min(shape.blocks);
            let mut previous = None;
            for b in first..last {
                let at = u16_at(&map, shape.blocks_at + 2 * b);
                let fine = match previous {
                    None => at == 0,
                    Some(p) => at > p && start + at < end,
                };
                if !fine {
                    return Err(corrupt(path, format!("block {b} is empty or out of order")));
                }
                previous = Some(at);
            }
        }
        Ok(Coded {
            path: path.into(),
            map,
            entries,
            seeds: seeds as u8,
            data_crc32: header.data_crc32.get(),
            shift: block_entries.trailing_zeros(),
            shape,
            decoder: Decoder::new(&lengths),
            // A filled layer's entries are not its values: `crate::filled` keeps the values.
            whole_limit: if header.codec == CODEC_FILLED_HUFFMAN {
                0
            } else {
                WHOLE_ENTRIES
            },
            whole: OnceLock::new(),
        })
    }

    /// The file this layer was opened from.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// The file offsets of block `block`'s bytes.
    fn span(&self, block: u64) -> (usize, usize) {
        let s = &self.shape;
        let g = block >> s.group_shift;
        let base = u64_at(&self.map, s.groups_at + 8 * g);
        let start = base + u16_at(&self.map, s.blocks_at + 2 * block);
        let next = block + 1;
        let end = if next < s.blocks && next >> s.group_shift == g {
            base + u16_at(&self.map, s.blocks_at + 2 * next)
        } else {
            u64_at(&self.map, s.groups_at + 8 * (g + 1))
        };
        (start as usize, end as usize)
    }

    /// The entries of block `block`.
    fn block_len(&self, block: u64) -> usize {
        let first = block << self.shift;
        (self.entries - first).min(1 << self.shift) as usize
    }

    fn damaged(&self, block: u64, what: &str) -> TableError {
        corrupt(&self.path, format!("block {block}: {what}"))
    }

    /// Decodes block `block` into `out`, which must hold exactly the block's entries.
    fn decode_into(&self, block: u64, out: &mut [u8]) -> Result<(), TableError> {
        debug_assert_eq!(out.len(), self.block_len(block), "block {block}'s entries");
        let (start, end) = self.span(block);
        // The bits run on into the next blocks: the fast path reads 8 bytes at a time.
        match self.decoder.decode(&self.map[start..], out, self.seeds) {
            Ok(bits) if bits.div_ceil(8) == end - start => Ok(()),
            Ok(bits) => Err(self.damaged(
                block,
                &format!(
                    "{} bytes of codes in a block of {} bytes",
                    bits.div_ceil(8),
                    end - start
                ),
            )),
            Err(k) => Err(self.damaged(block, &format!("entry {k} is no code"))),
        }
    }

    /// Decodes the blocks from `block` on into `out`, which must start and end where blocks
    /// do (or end at the layer's end): four whole blocks at a time, the rest one by one.
    fn decode_blocks(&self, block: u64, out: &mut [u8]) -> Result<(), TableError> {
        let size = 1usize << self.shift;
        let quads = out.len() / (LANES * size);
        let (four_at_a_time, rest) = out.split_at_mut(quads * LANES * size);
        for (q, chunk) in four_at_a_time.chunks_mut(LANES * size).enumerate() {
            let b = block + (LANES * q) as u64;
            let mut parts = chunk.chunks_mut(size);
            let outs: [&mut [u8]; LANES] =
                std::array::from_fn(|_| parts.next().expect("a lane's block"));
            let spans: [(usize, usize); LANES] = std::array::from_fn(|j| self.span(b + j as u64));
            let bits = spans.map(|(start, _)| &self.map[start..]);
            let read = self
                .decoder
                .decode_n(bits, outs, self.seeds)
                .map_err(|(j, k)| self.damaged(b + j as u64, &format!("entry {k} is no code")))?;
            for (j, (start, end)) in spans.into_iter().enumerate() {
                if read[j].div_ceil(8) != end - start {
                    return Err(self.damaged(
                        b + j as u64,
                        &format!(
                            "{} bytes of codes in a block of {} bytes",
                            read[j].div_ceil(8),
                            end - start
                        ),
                    ));
                }
            }
        }
        let first = block + (LANES * quads) as u64;
        for (i, chunk) in rest.chunks_mut(size).enumerate() {
            self.decode_into(first + i as u64, chunk)?;
        }
        Ok(())
    }

    /// Calls `each` with the first entry's rank and the entries of consecutive runs of blocks
    /// in order.
    pub(crate) fn for_each_block(
        &self,
        mut each: impl FnMut(u64, &[u8]),
    ) -> Result<(), TableError> {
        const RUN: u64 = 1 << 22;
        let mut buf = vec![0u8; RUN.min(self.entries) as usize];
        let mut first = 0;
        while first < self.entries {
            let len = RUN.min(self.entries - first) as usize;
            self.read_range(first, &mut buf[..len])?;
            each(first, &buf[..len]);
            first += len as u64;
        }
        Ok(())
    }

    /// Every entry, decoded into `out` (`entries` bytes) and checked against the data checksum:
    /// on this thread, or with `parallel` shared among rayon's threads (see
    /// [`crate::compressed`]'s `decompress_all`). A block's codes carry no checksum of their own,
    /// so a damaged block that still decodes is found here (and by `verify`), not by a lookup
    /// of one entry.
    pub(crate) fn decode_all(&self, out: &mut [u8], parallel: bool) -> Result<(), TableError> {
        assert_eq!(
            out.len() as u64,
            self.entries,
            "a buffer of the layer's entries"
        );
        if parallel {
            // Runs of 256 blocks a task, so that a task is worth its scheduling.
            out.par_chunks_mut(256 << self.shift)
                .enumerate()
                .try_for_each(|(run, chunk)| self.decode_blocks((run as u64) << 8, chunk))?;
        } else {
            self.decode_blocks(0, out)?;
        }
        if crc32fast::hash(out) != self.data_crc32 {
            return Err(corrupt(
                &self.path,
                "its decoded entries do not match the data checksum",
            ));
        }
        Ok(())
    }

    /// The entries `first..first + out.len()`, decoded into `out` (the range must lie within the
    /// layer).
    pub(crate) fn read_range(&self, first: u64, out: &mut [u8]) -> Result<(), TableError> {
        let end = first + out.len() as u64;
        assert!(
            end <= self.entries,
            "entries {first}..{end} out of range for a layer of {} entries",
            self.entries
        );
        let mut buf = vec![0u8; 1 << self.shift];
        let mut at = first;
        while at < end {
            let block = at >> self.shift;
            let start = block << self.shift;
            let len = self.block_len(block);
            let dest = (at - first) as usize;
            if at == start && end - at >= len as u64 {
                // Every whole block from here on at once.
                let whole = if end == self.entries {
                    end - at
                } else {
                    (end - at) >> self.shift << self.shift
                };
                self.decode_blocks(block, &mut out[dest..dest + whole as usize])?;
                at += whole;
                continue;
            }
            self.decode_into(block, &mut buf[..len])?;
            let from = (at - start) as usize;
            let to = ((end - start) as usize).min(len);
            out[dest..dest + to - from].copy_from_slice(&buf[from..to]);
            at = start + to as u64;
        }
        Ok(())
    }

    /// The whole layer decoded, kept for the layer's life (small layers).
    fn whole(&self) -> Result<&[u8], TableError> {
        if let Some(whole) = self.whole.get() {
            return Ok(whole);
        }
        let mut data = vec![0u8; self.entries as usize].into_boxed_slice();
        self.decode_all(&mut data, false)?;
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
        let (start, end) = self.span(block);
        let k = (index & ((1 << self.shift) - 1)) as usize;
        match self.decoder.nth(&self.map[start..], k) {
            Ok((symbol, bits)) if bits <= 8 * (end - start) => {
                Ok((symbol as u8).wrapping_sub(self.seeds) as i8)
            }
            Ok(_) => Err(self.damaged(block, "its codes run past its end")),
            Err(k) => Err(self.damaged(block, &format!("entry {k} is no code"))),
        }
    }

    /// Makes lookups read through the blocks even though the layer is small (tests).
    #[cfg(test)]
    pub(crate) fn read_by_block(&mut self) {
        self.whole_limit = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compress::{CompressOptions, compress_layer};
    // The same made-up layer as version 2's tests: Kalah(4) layer 10, 19448 entries in -10..=10.
    use crate::compressed::tests::{KIND, SEEDS, v1_layer};
    use crate::layer::Layer;
    use crate::writer::temp_path;
    use zerocopy::{FromBytes, IntoBytes};

    fn coded(dir: &Path, block_entries: u32) -> (PathBuf, Vec<u8>) {
        let (v1, values) = v1_layer(dir);
        let layer = Layer::open(&v1, KIND, SEEDS).unwrap();
        let dest = dir.join(format!("v3-{block_entries}.tbl"));
        let options = CompressOptions {
            block_entries,
            threads: 3,
            ..CompressOptions::default()
        };
        let made = compress_layer(&layer, &dest, options).unwrap();
        assert_eq!(made.after, std::fs::metadata(&dest).unwrap().len());
        assert!(made.after < made.before, "{made:?}");
        assert!(!temp_path(&dest).exists(), "no temporary file left");
        (dest, values)
    }

    #[test]
    fn every_way_of_reading_gives_the_entries_for_every_block_size() {
        let dir = tempfile::tempdir().unwrap();
        for block_entries in [MIN_CODED_BLOCK_ENTRIES, 256, 4096, MAX_CODED_BLOCK_ENTRIES] {
            let (path, values) = coded(dir.path(), block_entries);
            let layer = Layer::open(&path, KIND, SEEDS).unwrap();
            assert!(layer.is_compressed() && layer.raw().is_none());
            assert_eq!(layer.header().version.get(), crate::format::CODED_VERSION);
            for (i, &v) in values.iter().enumerate() {
                assert_eq!(layer.value(i as u64), v as i8, "entry {i}");
            }
            layer.verify_checksum().unwrap();
            assert_eq!(layer.resident().unwrap().raw().unwrap(), &values[..]);
            let mut seen = Vec::new();
            layer
                .for_each_chunk(|first, entries| {
                    assert_eq!(first, seen.len() as u64);
                    seen.extend_from_slice(entries);
                })
                .unwrap();
            assert_eq!(seen, values);
            let len = values.len();
            for (first, count) in [
                (0, len),
                (1, 1),
                (63, 1000),
                (256, 4096),
                (len - 5, 5),
                (7, 0),
            ] {
                let mut out = vec![0u8; count];
                layer.read_range(first as u64, &mut out).unwrap();
                assert_eq!(out, values[first..first + count], "{first}+{count}");
            }
            // Block by block, backwards, then from four threads at random.
            let mut layer = Layer::open(&path, KIND, SEEDS).unwrap();
            let coded = layer.coded_mut().unwrap();
            coded.read_by_block();
            let coded = &*coded;
            for (i, &v) in values.iter().enumerate().rev() {
                assert_eq!(coded.value(i as u64).unwrap(), v as i8, "entry {i}");
            }
            std::thread::scope(|s| {
                for t in 0..4u64 {
                    let values = &values;
                    s.spawn(move || {
                        let mut x = 0x9E37_79B9_7F4A_7C15u64 + t;
                        for _ in 0..5_000 {
                            x ^= x << 13;
                            x ^= x >> 7;
                            x ^= x << 17;
                            let i = x % values.len() as u64;
                            assert_eq!(coded.value(i).unwrap(), values[i as usize] as i8);
                        }
                    });
                }
            });
        }
    }

    #[test]
    fn a_version_2_layer_is_rewritten_as_version_3_and_version_3_not_again() {
        let dir = tempfile::tempdir().unwrap();
        let (path, values) = v1_layer(dir.path());
        let v1 = Layer::open(&path, KIND, SEEDS).unwrap();
        compress_layer(&v1, &path, CompressOptions::zstd(1)).unwrap();
        let v2 = Layer::open(&path, KIND, SEEDS).unwrap();
        assert_eq!(v2.header().version.get(), crate::format::COMPRESSED_VERSION);
        compress_layer(&v2, &path, CompressOptions::default()).unwrap();
        let v3 = Layer::open(&path, KIND, SEEDS).unwrap();
        assert_eq!(v3.header().version.get(), crate::format::CODED_VERSION);
        assert_eq!(v3.header().data_crc32, v1.header().data_crc32);
        assert_eq!(v3.resident().unwrap().raw().unwrap(), &values[..]);
        assert!(matches!(
            compress_layer(&v3, &path, CompressOptions::default()),
            Err(TableError::Mismatch { .. })
        ));
        // Block sizes version 3 does not take.
        for block_entries in [0, 100, 32, 1 << 17] {
            let options = CompressOptions {
                block_entries,
                ..CompressOptions::default()
            };
            let err = compress_layer(&v1, &dir.path().join("x.tbl"), options).unwrap_err();
            assert!(err.to_string().contains("block size"), "{err}");
        }
    }

    /// Rewrites the model and index checksum, then the header's.
    fn reseal(bytes: &mut [u8], data_at: usize) {
        let (mut header, _) = Header::read_from_prefix(bytes).unwrap();
        header.index_crc32 = crc32fast::hash(&bytes[HEADER_LEN..data_at]).into();
        header.header_crc32 = header.compute_crc().into();
        bytes[..HEADER_LEN].copy_from_slice(header.as_bytes());
    }

    #[test]
    fn truncated_damaged_or_foreign_files_are_errors() {
        let dir = tempfile::tempdir().unwrap();
        let (path, values) = coded(dir.path(), MIN_CODED_BLOCK_ENTRIES);
        let good = std::fs::read(&path).unwrap();
        let shape = Shape::new(values.len() as u64, SEEDS, MIN_CODED_BLOCK_ENTRIES);
        let data_at = shape.data_at as usize;
        let bad = dir.path().join("bad.tbl");
        let open = |bytes: &[u8]| {
            std::fs::write(&bad, bytes).unwrap();
            Layer::open(&bad, KIND, SEEDS).map(|_| ())
        };
        open(&good).unwrap();
        for cut in [
            0,
            10,
            HEADER_LEN,
            HEADER_LEN + 8,
            data_at - 1,
            data_at,
            data_at + 19,
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
        let mut long = good.clone();
        long.push(0);
        assert!(matches!(open(&long), Err(TableError::Corrupt { .. })));
        // A byte of the model or the index changed: their checksum.
        for at in [HEADER_LEN, shape.groups_at as usize + 3, data_at - 1] {
            let mut bytes = good.clone();
            bytes[at] ^= 0x10;
            let err = open(&bytes).unwrap_err();
            assert!(err.to_string().contains("checksum mismatch"), "{err}");
        }
        // Sealed but wrong.
        let sealed = |change: &dyn Fn(&mut [u8])| {
            let mut bytes = good.clone();
            change(&mut bytes);
            reseal(&mut bytes, data_at);
            open(&bytes).unwrap_err().to_string()
        };
        let symbols = shape.symbols;
        // Every code of the start context one bit long: no prefix code.
        let err = sealed(&|b| b[HEADER_LEN + symbols * symbols..][..symbols].fill(1));
        assert!(err.contains("model: context"), "{err}");
        let err = sealed(&|b| b[HEADER_LEN] = 12);
        assert!(err.contains("12 bits"), "{err}");
        let groups_at = shape.groups_at as usize;
        let err = sealed(&|b| b[groups_at] ^= 1);
        assert!(err.contains("block index runs from"), "{err}");
        let last = groups_at + 8 * shape.groups as usize;
        let err = sealed(&|b| b[last..last + 8].copy_from_slice(&u64::MAX.to_le_bytes()));
        assert!(err.contains("block index runs from"), "{err}");
        let blocks_at = shape.blocks_at as usize;
        // Block 1's offset equal to block 2's (block 2 then starts where block 1 does); block
        // 0's not 0.
        let err = sealed(&|b| {
            let two = [b[blocks_at + 4], b[blocks_at + 5]];
            b[blocks_at + 2..blocks_at + 4].copy_from_slice(&two);
        });
        assert!(err.contains("block 2 is empty or out of order"), "{err}");
        let err = sealed(&|b| b[blocks_at] = 1);
        assert!(err.contains("block 0 is empty or out of order"), "{err}");
        // An unknown codec, a block size version 3 does not take, another layer.
        for (at, value, says) in [(32, 7u8, "unknown codec 7"), (36, 32, "block size")] {
            let mut bytes = good.clone();
            bytes[at] = value;
            let (mut header, _) = Header::read_from_prefix(&bytes[..]).unwrap();
            header.header_crc32 = header.compute_crc().into();
            bytes[..HEADER_LEN].copy_from_slice(header.as_bytes());
            let err = open(&bytes).unwrap_err();
            assert!(err.to_string().contains(says), "byte {at}: {err}");
        }
        std::fs::write(&bad, &good).unwrap();
        assert!(matches!(
            Layer::open(&bad, KIND, SEEDS - 1),
            Err(TableError::Mismatch { .. })
        ));
    }

    #[test]
    fn a_flipped_byte_in_a_block_fails_the_checksum_or_its_lookups() {
        let dir = tempfile::tempdir().unwrap();
        let (path, values) = coded(dir.path(), MIN_CODED_BLOCK_ENTRIES);
        let layer = Layer::open(&path, KIND, SEEDS).unwrap();
        let (start, end) = span_of(&layer, 3);
        drop(layer);
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[(start + end) / 2] ^= 0x24;
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
        let coded = layer.coded_mut().unwrap();
        coded.read_by_block();
        let block = u64::from(MIN_CODED_BLOCK_ENTRIES);
        // Block 3 decodes to other entries or fails, naming the block.
        let damaged = (3 * block..4 * block).any(|i| match coded.value(i) {
            Ok(v) => v != values[i as usize] as i8,
            Err(e) => e.to_string().contains("block 3"),
        });
        assert!(damaged);
        // The other blocks still read.
        assert_eq!(coded.value(5).unwrap(), values[5] as i8);
        assert_eq!(
            coded.value(4 * block).unwrap(),
            values[4 * block as usize] as i8
        );
    }

    /// The file offsets of a block's bytes.
    fn span_of(layer: &Layer, block: u64) -> (usize, usize) {
        let mut layer = Layer::open(layer.path(), KIND, SEEDS).unwrap();
        layer.coded_mut().unwrap().span(block)
    }
}
