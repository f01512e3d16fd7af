//! A layer file opened for reading: header checked against what the caller asked for and length
//! checked, then memory-mapped read-only. Opening reads the 64-byte header only (and a compressed
//! layer's block index); the data checksum is checked by [`Layer::verify_checksum`]
//! (`granary verify`, `--verify`), which reads every byte.
//!
//! Every format version opens here: version 1 (one byte a position, read through the map),
//! version 2 ([`crate::compressed`]: zstd blocks decompressed on demand) and version 3
//! ([`crate::coded`]: Huffman-coded blocks decoded on demand; with codec 3, [`crate::filled`],
//! each value rebuilt from the layers below). [`Layer::value`] reads each; [`Layer::raw`] gives a
//! version 1 layer's bytes.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use granary_index::LayerIndex;
use granary_rules::Board;
use memmap2::Mmap;
use zerocopy::FromBytes;

use crate::anon::huge_anon;
use crate::coded::{self, CODEC_FILLED_HUFFMAN, Coded};
use crate::compressed::{self, Blocks};
use crate::error::TableError;
use crate::filled::Filled;
use crate::format::{
    CODED_VERSION, COMPRESSED_VERSION, FORMAT_VERSION, HEADER_LEN, Header, MAGIC, TableKind,
};
use crate::probe::{UNBOUNDED, Values};

/// Bytes a read of [`Layer::resident`].
const CHUNK: usize = 64 << 20;

/// A checked layer: memory-mapped (version 1, or a copy in memory), or compressed blocks.
#[derive(Debug)]
pub struct Layer {
    path: PathBuf,
    header: Header,
    index: LayerIndex,
    storage: Storage,
}

/// Where a layer's entries are.
#[derive(Debug)]
enum Storage {
    /// A header's worth of bytes, then one byte an entry (a version 1 file, or a copy).
    Flat(Mmap),
    /// A version 2 file.
    Blocks(Box<Blocks>),
    /// A version 3 file.
    Coded(Box<Coded>),
    /// A version 3 file with don't-cares filled, and the layers below it.
    Filled(Box<Filled>),
}

/// The layers below a layer with filled don't-cares, as its reads see them.
struct Below {
    pits: usize,
    /// Layers `0..n`.
    layers: Vec<Arc<Layer>>,
}

impl Values for Below {
    fn probe(&self, board: Board) -> Result<Option<i8>, TableError> {
        self.probe_within(board, -UNBOUNDED, UNBOUNDED)
    }

    fn probe_within(&self, board: Board, alpha: i32, beta: i32) -> Result<Option<i8>, TableError> {
        let seeds = board.seeds(self.pits);
        self.layers
            .get(seeds as usize)
            .ok_or(TableError::Index(granary_index::IndexError::Seeds(seeds)))?
            .probe_within(board, alpha, beta)
    }
}

/// Checks a header's bytes on their own: length, magic, version, header checksum. `length` is
/// the file's length; `path` only names the file in errors.
///
/// # Errors
/// A [`TableError`] naming the file and what is wrong.
pub fn parse_header(path: &Path, bytes: &[u8], length: u64) -> Result<Header, TableError> {
    let Ok((header, _)) = Header::read_from_prefix(bytes) else {
        return Err(TableError::Truncated {
            path: path.into(),
            found: length,
        });
    };
    if header.magic != MAGIC {
        return Err(TableError::NotATable { path: path.into() });
    }
    if !matches!(
        header.version.get(),
        FORMAT_VERSION | COMPRESSED_VERSION | CODED_VERSION
    ) {
        return Err(TableError::Version {
            path: path.into(),
            found: header.version.get(),
            expected: CODED_VERSION,
        });
    }
    if header.compute_crc() != header.header_crc32.get() {
        return Err(TableError::HeaderChecksum { path: path.into() });
    }
    Ok(header)
}

/// Opens a table file and checks its header on its own; the open file, the header and the
/// file's length.
fn open_file(path: &Path) -> Result<(File, Header, u64), TableError> {
    use std::io::Read;
    let file = File::open(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => TableError::Missing { path: path.into() },
        _ => TableError::Io {
            path: path.into(),
            source: e,
        },
    })?;
    let meta = file.metadata().map_err(TableError::io(path))?;
    if !meta.is_file() {
        return Err(TableError::NotAFile { path: path.into() });
    }
    let mut bytes = Vec::with_capacity(HEADER_LEN);
    (&file)
        .take(HEADER_LEN as u64)
        .read_to_end(&mut bytes)
        .map_err(TableError::io(path))?;
    let header = parse_header(path, &bytes, meta.len())?;
    Ok((file, header, meta.len()))
}

/// Reads and checks the header of a table file on its own: magic, version, header checksum.
///
/// # Errors
/// A [`TableError`] naming the file and what is wrong.
pub fn read_header(path: &Path) -> Result<(Header, u64), TableError> {
    open_file(path).map(|(_, header, length)| (header, length))
}

/// Checks a parsed header and the file's length against what the caller asked for: the kind,
/// the layer, the index's size. For a version 2 header, also its codec and block size, and that
/// the file is long enough for a block index (the index itself is checked when the file is
/// opened, [`Layer::open`]).
///
/// # Errors
/// [`TableError::Mismatch`] with both descriptions, [`TableError::Length`], or
/// [`TableError::Corrupt`].
pub fn check_header(
    path: &Path,
    header: &Header,
    length: u64,
    kind: TableKind,
    seeds: u32,
) -> Result<LayerIndex, TableError> {
    let index = LayerIndex::new(kind.pits, seeds, kind.reduced())?;
    let mut expected = kind.header(seeds, index.size());
    expected.data_crc32 = header.data_crc32;
    expected.header_crc32 = header.header_crc32;
    let version = header.version.get();
    let compressed = version != FORMAT_VERSION;
    if compressed {
        expected.version = header.version;
        expected.codec = header.codec;
        expected.block_entries = header.block_entries;
        expected.index_crc32 = header.index_crc32;
    }
    if *header != expected {
        return Err(TableError::Mismatch {
            path: path.into(),
            expected: format!("{} layer {seeds}: {}", kind.name(), expected.describe()),
            found: header.describe(),
        });
    }
    if compressed {
        // The model (version 3) and the block index, then at least a byte a block.
        let wanted = if version == CODED_VERSION {
            coded::check_fields(path, header)?;
            let shape = coded::Shape::new(index.size(), seeds, header.block_entries.get());
            shape.data_at + shape.blocks
        } else {
            compressed::check_fields(path, header)?;
            let blocks = compressed::block_count(index.size(), header.block_entries.get());
            HEADER_LEN as u64 + 9 * blocks + 8
        };
        if length < wanted {
            return Err(TableError::Length {
                path: path.into(),
                expected: wanted,
                found: length,
            });
        }
        return Ok(index);
    }
    let wanted = HEADER_LEN as u64 + index.size();
    if length != wanted {
        return Err(TableError::Length {
            path: path.into(),
            expected: wanted,
            found: length,
        });
    }
    Ok(index)
}

impl Layer {
    /// Opens the layer of `seeds` seeds of `kind` at `path`, refusing any file that is not exactly
    /// that table: header (magic, version, checksum, every field) and length. Reads the header
    /// only and maps the rest; pages are read as lookups touch them. A compressed file's block
    /// index (and a version 3 file's model) is read and checked too.
    ///
    /// A layer with filled don't-cares ([`crate::filled`]) needs the layers below it: open it
    /// with [`Layer::open_over`] (as [`crate::TableSet`] does).
    ///
    /// # Errors
    /// A [`TableError`] naming the file and what is wrong; [`TableError::NeedsLower`] for a
    /// layer with filled don't-cares.
    pub fn open(path: &Path, kind: TableKind, seeds: u32) -> Result<Layer, TableError> {
        Layer::open_over(path, kind, seeds, 0, &|_| {
            Err(TableError::NeedsLower { path: path.into() })
        })
    }

    /// [`Layer::open`], with `lower` giving the layers below this one, which a layer with
    /// filled don't-cares reads (it asks for each of `0..seeds` when it is opened; other layers
    /// ask for none). Such a layer of at most `whole_entries` entries is rebuilt whole on its
    /// first read ([`crate::filled::WHOLE_ENTRIES`] is what a [`crate::TableSet`] uses).
    ///
    /// # Errors
    /// As [`Layer::open`], and what `lower` returns.
    pub fn open_over(
        path: &Path,
        kind: TableKind,
        seeds: u32,
        whole_entries: u64,
        lower: &dyn Fn(u32) -> Result<Arc<Layer>, TableError>,
    ) -> Result<Layer, TableError> {
        let (file, header, length) = open_file(path)?;
        let index = check_header(path, &header, length, kind, seeds)?;
        if header.version.get() == CODED_VERSION {
            let coded = Coded::open(path, &file, &header, length, index.size(), seeds)?;
            let storage = if header.codec == CODEC_FILLED_HUFFMAN {
                let layers = (0..seeds).map(lower).collect::<Result<Vec<_>, _>>()?;
                let below = Below {
                    pits: kind.pits,
                    layers,
                };
                Storage::Filled(Box::new(Filled::new(
                    coded,
                    kind.engine(),
                    seeds,
                    Box::new(below),
                    header.data_crc32.get(),
                    whole_entries,
                )))
            } else {
                Storage::Coded(Box::new(coded))
            };
            return Ok(Layer {
                path: path.into(),
                header,
                index,
                storage,
            });
        }
        if header.version.get() == COMPRESSED_VERSION {
            let blocks = Blocks::open(path, &file, &header, length, index.size())?;
            return Ok(Layer {
                path: path.into(),
                header,
                index,
                storage: Storage::Blocks(Box::new(blocks)),
            });
        }
        let wanted = HEADER_LEN as u64 + index.size();
        // SAFETY: the file (the one whose header was just checked) is mapped read-only, and
        // granary never writes a finished table in place: tables are written under a temporary
        // name and renamed when complete, so the length checked above is final. Another process truncating the file while it is mapped
        // would make a later lookup fault (SIGBUS), as with any memory-mapped reader
        // (docs/table-format.md); nothing in granary does that.
        let map = unsafe { Mmap::map(&file) }.map_err(TableError::io(path))?;
        if map.len() as u64 != wanted {
            return Err(TableError::Length {
                path: path.into(),
                expected: wanted,
                found: map.len() as u64,
            });
        }
        Ok(Layer {
            path: path.into(),
            header,
            index,
            storage: Storage::Flat(map),
        })
    }

    /// What a reader at random uses instead of this layer: `None` for a version 1 layer (read
    /// it as it is, mapped), a copy decompressed into memory ([`Layer::resident`]) for a
    /// compressed one. A search or a build probes its lower layers at random, where a compressed
    /// layer would decode a block for each probe that misses its cache; decompressed once, a
    /// damaged block is an error here, never a panic in [`Layer::value`].
    ///
    /// # Errors
    /// [`TableError::Corrupt`] for a block that does not decode, [`TableError::Io`] for memory
    /// that cannot be had, each naming the file.
    pub fn random_reads_copy(&self) -> Result<Option<Layer>, TableError> {
        if self.raw().is_some() {
            return Ok(None);
        }
        self.resident().map(Some).map_err(|source| {
            if source.get_ref().is_none() {
                return TableError::Io {
                    path: self.path.clone(),
                    source,
                };
            }
            let kind = source.kind();
            match source
                .into_inner()
                .map(|inner| inner.downcast::<TableError>())
            {
                Some(Ok(table)) => *table,
                Some(Err(other)) => TableError::Io {
                    path: self.path.clone(),
                    source: std::io::Error::new(kind, other),
                },
                None => TableError::Io {
                    path: self.path.clone(),
                    source: kind.into(),
                },
            }
        })
    }

    /// This layer copied into anonymous memory that asks the kernel for transparent huge pages:
    /// for a long search, which probes a layer at random. A file mapping has 4 KiB pages, so
    /// nearly every probe of a large layer misses the TLB, and a search over the copy takes less
    /// time (measured: docs/benchmarks.md). The copy is the caller's choice: it costs the
    /// layer's size in memory and a read of every byte (most of it the kernel clearing the new
    /// pages).
    ///
    /// A compressed layer is decoded whole into the copy, its blocks shared among rayon's
    /// threads, and then reads like a version 1 layer (a version 3 copy is checked against the
    /// data checksum).
    ///
    /// # Errors
    /// If the memory cannot be mapped, or a compressed layer's block is damaged.
    pub fn resident(&self) -> std::io::Result<Layer> {
        use std::os::unix::fs::FileExt;
        let map = match &self.storage {
            Storage::Flat(map) => map,
            Storage::Blocks(_) | Storage::Coded(_) | Storage::Filled(_) => {
                let mut copy = huge_anon(HEADER_LEN + self.index.size() as usize)?;
                copy[..HEADER_LEN].copy_from_slice(zerocopy::IntoBytes::as_bytes(&self.header));
                let entries = &mut copy[HEADER_LEN..];
                match &self.storage {
                    Storage::Blocks(blocks) => blocks.decompress_all(entries, true),
                    Storage::Coded(coded) => coded.decode_all(entries, true),
                    Storage::Filled(filled) => filled.decode_all(&self.index, entries, true),
                    Storage::Flat(_) => unreachable!("a compressed layer"),
                }
                .map_err(std::io::Error::other)?;
                return Ok(Layer {
                    path: self.path.clone(),
                    header: self.header,
                    index: self.index.clone(),
                    storage: Storage::Flat(copy.make_read_only()?),
                });
            }
        };
        let mut copy = huge_anon(map.len())?;
        // Read from the file rather than copy from the mapping: no page faults on the source.
        let file = File::open(&self.path)?;
        if file.metadata()?.len() != map.len() as u64 {
            return Err(std::io::Error::other(
                "the file changed since it was opened",
            ));
        }
        for (i, chunk) in copy.chunks_mut(CHUNK).enumerate() {
            file.read_exact_at(chunk, (i * CHUNK) as u64)?;
        }
        // Tables are replaced only whole (written under another name, then renamed), so a file
        // with this header is this table.
        if copy[..HEADER_LEN] != map[..HEADER_LEN] {
            return Err(std::io::Error::other(
                "the file changed since it was opened",
            ));
        }
        Ok(Layer {
            path: self.path.clone(),
            header: self.header,
            index: self.index.clone(),
            storage: Storage::Flat(copy.make_read_only()?),
        })
    }

    /// Checks the data against the header's checksum (of the uncompressed entries, for both
    /// versions): reads every byte, decompressing a compressed layer block by block.
    ///
    /// # Errors
    /// [`TableError::DataChecksum`] naming the file, or [`TableError::Corrupt`] for a compressed
    /// block that does not decode.
    pub fn verify_checksum(&self) -> Result<(), TableError> {
        let mut crc = crc32fast::Hasher::new();
        self.for_each_chunk(|_, entries| crc.update(entries))?;
        if crc.finalize() == self.header.data_crc32.get() {
            Ok(())
        } else {
            Err(TableError::DataChecksum {
                path: self.path.clone(),
            })
        }
    }

    /// Calls `each` with the rank of the first entry and the entries (each an `i8`) of
    /// consecutive pieces of the layer, in order, until every entry was seen: the mapped bytes
    /// of a version 1 layer, block after block of a compressed one (one block in memory at a
    /// time).
    ///
    /// # Errors
    /// [`TableError::Corrupt`] for a compressed block that does not decode.
    pub fn for_each_chunk(&self, mut each: impl FnMut(u64, &[u8])) -> Result<(), TableError> {
        match &self.storage {
            Storage::Flat(map) => {
                for (i, chunk) in map[HEADER_LEN..].chunks(CHUNK).enumerate() {
                    each((i * CHUNK) as u64, chunk);
                }
                Ok(())
            }
            Storage::Blocks(blocks) => blocks.for_each_block(each),
            Storage::Coded(coded) => coded.for_each_block(each),
            Storage::Filled(_) => {
                let mut buf = vec![0u8; CHUNK.min(self.index.size() as usize)];
                let mut first = 0;
                while first < self.index.size() {
                    let len = (CHUNK as u64).min(self.index.size() - first) as usize;
                    self.read_range(first, &mut buf[..len])?;
                    each(first, &buf[..len]);
                    first += len as u64;
                }
                Ok(())
            }
        }
    }

    /// Copies the entries `first..first + out.len()` (each an `i8`) into `out`: from the map of
    /// a version 1 layer, by decompressing the blocks that hold them for a compressed one. A
    /// reader that goes through a large layer range by range (the builder's sweep of its lower
    /// layers) reads each byte once, in order.
    ///
    /// # Errors
    /// [`TableError::Corrupt`] for a compressed block that does not decode.
    ///
    /// # Panics
    /// If the range does not lie within the layer.
    pub fn read_range(&self, first: u64, out: &mut [u8]) -> Result<(), TableError> {
        match &self.storage {
            Storage::Flat(map) => {
                let at = HEADER_LEN + first as usize;
                out.copy_from_slice(&map[at..at + out.len()]);
                Ok(())
            }
            Storage::Blocks(blocks) => blocks.read_range(first, out),
            Storage::Coded(coded) => coded.read_range(first, out),
            Storage::Filled(filled) => filled.read_range(&self.index, first, out),
        }
    }

    /// The entries as raw bytes (each an `i8`) where the layer holds them so: a version 1 file
    /// or a copy in memory ([`Layer::resident`]); `None` for a compressed layer (read it with
    /// [`Layer::value`] or [`Layer::for_each_chunk`]).
    #[must_use]
    pub fn raw(&self) -> Option<&[u8]> {
        match &self.storage {
            Storage::Flat(map) => Some(&map[HEADER_LEN..]),
            Storage::Blocks(_) | Storage::Coded(_) | Storage::Filled(_) => None,
        }
    }

    /// Whether each value is rebuilt from the layers below at every read (version 3 with
    /// filled don't-cares, [`crate::filled`]): a read costs about a microsecond, and a copy in
    /// memory rebuilds every value.
    #[must_use]
    pub fn rebuilds_values(&self) -> bool {
        matches!(self.storage, Storage::Filled(_))
    }

    /// For a layer with filled don't-cares: rebuilds every value on rayon's threads, checks
    /// them against the data checksum and keeps them in memory (a byte a position) for as long
    /// as the layer is open, so that its reads, and the reads of the layers above that settle
    /// values from it, read them directly. Other layers' values are read as they are stored:
    /// nothing is done. Reads meanwhile settle values as before.
    ///
    /// # Errors
    /// A block that does not decode, values that do not match the data checksum, a layer below
    /// that cannot be read.
    pub fn hold_values(&self) -> Result<(), TableError> {
        match &self.storage {
            Storage::Filled(filled) => filled.hold(&self.index),
            Storage::Flat(_) | Storage::Blocks(_) | Storage::Coded(_) => Ok(()),
        }
    }

    /// Whether a layer with filled don't-cares holds its values in memory (small layers do
    /// from their first read; larger ones after [`Layer::hold_values`]).
    #[must_use]
    pub fn holds_values(&self) -> bool {
        match &self.storage {
            Storage::Filled(filled) => filled.holds(),
            Storage::Flat(_) | Storage::Blocks(_) | Storage::Coded(_) => false,
        }
    }

    /// Whether the layer is stored compressed (format version 2 or 3).
    #[must_use]
    pub fn is_compressed(&self) -> bool {
        !matches!(self.storage, Storage::Flat(_))
    }

    /// The number of entries (positions) of the layer.
    #[must_use]
    pub fn len(&self) -> u64 {
        self.index.size()
    }

    /// Whether the layer has no entries.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value of the position of rank `index`.
    ///
    /// # Panics
    /// If `index` is out of range, or a compressed block is damaged, here or (for filled
    /// don't-cares) in a layer below (the message names the file and the block;
    /// [`Layer::try_value`] returns the error instead).
    #[inline]
    #[must_use]
    pub fn value(&self, index: u64) -> i8 {
        match &self.storage {
            Storage::Flat(map) => map[HEADER_LEN + index as usize] as i8,
            Storage::Blocks(blocks) => compressed_value(blocks.value(index)),
            Storage::Coded(coded) => compressed_value(coded.value(index)),
            Storage::Filled(filled) => {
                compressed_value(filled.value_within(&self.index, index, -UNBOUNDED, UNBOUNDED))
            }
        }
    }

    /// The value of the position of rank `index`, or what is wrong with the compressed block
    /// that holds it.
    ///
    /// # Errors
    /// [`TableError::Corrupt`] naming the file and the block.
    ///
    /// # Panics
    /// If `index` is out of range.
    #[inline]
    pub fn try_value(&self, index: u64) -> Result<i8, TableError> {
        match &self.storage {
            Storage::Flat(map) => Ok(map[HEADER_LEN + index as usize] as i8),
            Storage::Blocks(blocks) => blocks.value(index),
            Storage::Coded(coded) => coded.value(index),
            Storage::Filled(filled) => {
                filled.value_within(&self.index, index, -UNBOUNDED, UNBOUNDED)
            }
        }
    }

    /// [`Layer::try_value`], or a bound on the value outside the window `(alpha, beta)`
    /// ([`crate::probe::Values::probe_within`]): a layer with filled don't-cares then reads
    /// fewer entries below it; any other layer gives the value.
    ///
    /// # Errors
    /// [`TableError::Corrupt`] naming the file and the block.
    ///
    /// # Panics
    /// If `index` is out of range.
    #[inline]
    pub fn try_value_within(&self, index: u64, alpha: i32, beta: i32) -> Result<i8, TableError> {
        match &self.storage {
            Storage::Filled(filled) => filled.value_within(&self.index, index, alpha, beta),
            _ => self.try_value(index),
        }
    }

    /// [`Layer::try_value_within`] of a layout of this layer, or `None` if the index leaves it
    /// out.
    ///
    /// # Errors
    /// [`TableError::Corrupt`] naming the file and the block.
    pub(crate) fn probe_within(
        &self,
        board: Board,
        alpha: i32,
        beta: i32,
    ) -> Result<Option<i8>, TableError> {
        if !self.index.contains(board) {
            return Ok(None);
        }
        self.try_value_within(self.index.rank(board), alpha, beta)
            .map(Some)
    }

    /// Starts loading the entry of rank `index` into the cache (a search asks for several at
    /// once, then reads them). Nothing for a compressed layer.
    #[inline]
    pub fn prefetch(&self, index: u64) {
        if let Storage::Flat(map) = &self.storage
            && let Some(entry) = map.get(HEADER_LEN + index as usize)
        {
            prefetch(entry);
        }
    }

    /// A compressed layer's blocks, for tests that reach past the small-layer shortcut.
    #[cfg(test)]
    pub(crate) fn blocks_mut(&mut self) -> Option<&mut Blocks> {
        match &mut self.storage {
            Storage::Blocks(blocks) => Some(blocks),
            Storage::Flat(_) | Storage::Coded(_) | Storage::Filled(_) => None,
        }
    }

    /// A version 3 layer's blocks, for tests that reach past the small-layer shortcut.
    #[cfg(test)]
    pub(crate) fn coded_mut(&mut self) -> Option<&mut Coded> {
        match &mut self.storage {
            Storage::Coded(coded) => Some(coded),
            Storage::Flat(_) | Storage::Blocks(_) | Storage::Filled(_) => None,
        }
    }

    #[must_use]
    pub fn index(&self) -> &LayerIndex {
        &self.index
    }

    #[must_use]
    pub fn header(&self) -> &Header {
        &self.header
    }

    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// [`Layer::value`] of a compressed layer: out of the inlined hot path of version 1.
#[cold]
#[inline(never)]
fn compressed_value(value: Result<i8, TableError>) -> i8 {
    value.unwrap_or_else(|err| panic!("{err}"))
}

/// Asks the processor to start loading the cache line of `value` (a hint: no effect on results).
#[inline]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` needs SSE, which every x86_64 processor has; it reads nothing the
    // program sees and never faults, and the pointer comes from a live reference anyway.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            std::ptr::from_ref(value).cast::<i8>(),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
