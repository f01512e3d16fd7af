//! A layer file opened for reading: header checked against what the caller asked for and length
//! checked, then memory-mapped read-only. Opening reads the 64-byte header only; the data checksum
//! is checked by [`Layer::verify_checksum`] (`granary verify`, `--verify`), which reads every byte.

use std::fs::File;
use std::path::{Path, PathBuf};

use granary_index::LayerIndex;
use memmap2::Mmap;
use zerocopy::FromBytes;

use crate::error::TableError;
use crate::format::{FORMAT_VERSION, HEADER_LEN, Header, MAGIC, TableKind};

/// Bytes a read of [`Layer::resident`].
const CHUNK: usize = 64 << 20;

/// A checked, memory-mapped layer.
#[derive(Debug)]
pub struct Layer {
    path: PathBuf,
    header: Header,
    index: LayerIndex,
    map: Mmap,
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
    if header.version.get() != FORMAT_VERSION {
        return Err(TableError::Version {
            path: path.into(),
            found: header.version.get(),
            expected: FORMAT_VERSION,
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
/// the layer, the index's size.
///
/// # Errors
/// [`TableError::Mismatch`] with both descriptions, or [`TableError::Length`].
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
    if *header != expected {
        return Err(TableError::Mismatch {
            path: path.into(),
            expected: format!("{} layer {seeds}: {}", kind.name(), expected.describe()),
            found: header.describe(),
        });
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
    /// only and maps the rest; pages are read as lookups touch them.
    ///
    /// # Errors
    /// A [`TableError`] naming the file and what is wrong.
    pub fn open(path: &Path, kind: TableKind, seeds: u32) -> Result<Layer, TableError> {
        let (file, header, length) = open_file(path)?;
        let index = check_header(path, &header, length, kind, seeds)?;
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
            map,
        })
    }

    /// This layer copied into anonymous memory that asks the kernel for transparent huge pages:
    /// for a long search, which probes a layer at random. A file mapping has 4 KiB pages, so
    /// nearly every probe of a large layer misses the TLB; measured (one thread, side by side
    /// with mapped layers), a 54-seed Kalah(6,5) position over 28-seed tables searches in
    /// 0.74x-0.79x the time. The copy is the caller's choice: it costs the layer's
    /// size in memory and a read of every byte (about 0.8 GB/s on one core here, most of it the
    /// kernel clearing the new pages).
    ///
    /// # Errors
    /// If the memory cannot be mapped.
    pub fn resident(&self) -> std::io::Result<Layer> {
        use std::os::unix::fs::FileExt;
        let mut copy = huge_anon(self.map.len())?;
        // Read from the file rather than copy from the mapping: no page faults on the source.
        let file = File::open(&self.path)?;
        if file.metadata()?.len() != self.map.len() as u64 {
            return Err(std::io::Error::other(
                "the file changed since it was opened",
            ));
        }
        for (i, chunk) in copy.chunks_mut(CHUNK).enumerate() {
            file.read_exact_at(chunk, (i * CHUNK) as u64)?;
        }
        // Tables are replaced only whole (written under another name, then renamed), so a file
        // with this header is this table.
        if copy[..HEADER_LEN] != self.map[..HEADER_LEN] {
            return Err(std::io::Error::other(
                "the file changed since it was opened",
            ));
        }
        Ok(Layer {
            path: self.path.clone(),
            header: self.header,
            index: self.index.clone(),
            map: copy.make_read_only()?,
        })
    }

    /// Checks the data against the header's checksum: reads every byte.
    ///
    /// # Errors
    /// [`TableError::DataChecksum`] naming the file.
    pub fn verify_checksum(&self) -> Result<(), TableError> {
        if crc32fast::hash(self.data()) == self.header.data_crc32.get() {
            Ok(())
        } else {
            Err(TableError::DataChecksum {
                path: self.path.clone(),
            })
        }
    }

    /// The entries as raw bytes (each an `i8`).
    #[must_use]
    pub fn data(&self) -> &[u8] {
        &self.map[HEADER_LEN..]
    }

    /// The value of the position of rank `index`.
    #[inline]
    #[must_use]
    pub fn value(&self, index: u64) -> i8 {
        self.map[HEADER_LEN + index as usize] as i8
    }

    /// Starts loading the entry of rank `index` into the cache (a search asks for several at
    /// once, then reads them).
    #[inline]
    pub fn prefetch(&self, index: u64) {
        if let Some(entry) = self.map.get(HEADER_LEN + index as usize) {
            prefetch(entry);
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

/// `len` bytes (at least one) of zeroed anonymous memory with a request for transparent huge
/// pages: for memory probed at random (a table copy, a hash table, a layer being built), where
/// 4 KiB pages would cost a TLB miss a probe. The request is only a hint: without huge pages the
/// memory works the same, slower.
///
/// # Errors
/// If the memory cannot be mapped.
pub fn huge_anon(len: usize) -> std::io::Result<memmap2::MmapMut> {
    let map = memmap2::MmapMut::map_anon(len.max(1))?;
    let _ = map.advise(memmap2::Advice::HugePage);
    Ok(map)
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
