//! Writing a finished version 1 layer as a version 2 file ([`crate::compressed`]): blocks
//! compressed on several threads, written in order to a temporary file, the index and header
//! last, synced and renamed.

use std::io::Write;
use std::path::Path;

use zerocopy::IntoBytes;
use zerocopy::little_endian::U64;

use crate::compressed::{
    CODEC_ZSTD, DEFAULT_BLOCK_ENTRIES, DEFAULT_LEVEL, MAX_BLOCK_ENTRIES, MIN_BLOCK_ENTRIES,
    block_count, corrupt, index_end, valid_block_entries,
};
use crate::error::TableError;
use crate::format::{COMPRESSED_VERSION, HEADER_LEN, Header};
use crate::layer::Layer;
use crate::writer::{TempFile, sync_parent, temp_path};

/// How to compress a layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompressOptions {
    /// Entries a block: a power of two in `MIN_BLOCK_ENTRIES..=MAX_BLOCK_ENTRIES`.
    pub block_entries: u32,
    /// The zstd level.
    pub level: i32,
    /// Threads compressing blocks (at least one).
    pub threads: usize,
}

impl Default for CompressOptions {
    fn default() -> Self {
        CompressOptions {
            block_entries: DEFAULT_BLOCK_ENTRIES,
            level: DEFAULT_LEVEL,
            threads: std::thread::available_parallelism().map_or(1, usize::from),
        }
    }
}

/// What compressing a layer made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Compressed {
    /// Bytes of the version 1 file.
    pub before: u64,
    /// Bytes of the version 2 file.
    pub after: u64,
    pub blocks: u64,
}

/// The entries of a layer to compress, `len` of them: `fill(first, block)` writes the entries
/// from `first` on into `block` (called from several threads at once, each for its own blocks).
pub struct Entries<'a> {
    pub len: u64,
    pub fill: &'a (dyn Fn(u64, &mut [u8]) + Sync),
}

impl std::fmt::Debug for Entries<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Entries").field("len", &self.len).finish()
    }
}

/// Compresses `entries` into one zstd frame a block, in order, `threads` blocks at a time;
/// `write` takes each frame. Returns the CRC-32 of the entries (each block's checksummed on its
/// thread, the checksums combined in order).
fn compress_blocks(
    entries: &Entries<'_>,
    options: CompressOptions,
    mut write: impl FnMut(&[u8]) -> std::io::Result<()>,
) -> std::io::Result<u32> {
    let block = u64::from(options.block_entries);
    let threads = options.threads.max(1);
    let batch = threads as u64 * 8;
    let new_compressor = || -> std::io::Result<zstd::bulk::Compressor<'static>> {
        let mut c = zstd::bulk::Compressor::new(options.level)?;
        c.include_checksum(true)?;
        c.include_contentsize(true)?;
        Ok(c)
    };
    let mut compressors = (0..threads)
        .map(|_| new_compressor())
        .collect::<std::io::Result<Vec<_>>>()?;
    let mut buffers = vec![vec![0u8; block as usize]; threads];
    let mut crc = crc32fast::Hasher::new();
    let blocks = entries.len.div_ceil(block);
    let fill = entries.fill;
    let len = entries.len;
    for first in (0..blocks).step_by(batch as usize) {
        let group = first..(first + batch).min(blocks);
        let per = (group.end - group.start).div_ceil(threads as u64);
        type Frames = std::io::Result<Vec<(Vec<u8>, crc32fast::Hasher)>>;
        let frames: Vec<Frames> = std::thread::scope(|s| {
            let handles: Vec<_> = compressors
                .iter_mut()
                .zip(buffers.iter_mut())
                .enumerate()
                .map(|(k, (c, buf))| {
                    let from = group.start + k as u64 * per;
                    let part = from.min(group.end)..(from + per).min(group.end);
                    s.spawn(move || {
                        part.map(|b| {
                            let start = b * block;
                            let n = (len - start).min(block) as usize;
                            let buf = &mut buf[..n];
                            fill(start, buf);
                            let mut h = crc32fast::Hasher::new();
                            h.update(buf);
                            Ok((c.compress(buf)?, h))
                        })
                        .collect()
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a compressing thread panicked"))
                .collect()
        });
        for part in frames {
            for (frame, h) in part? {
                write(&frame)?;
                crc.combine(&h);
            }
        }
    }
    Ok(crc.finalize())
}

/// Writes `layer` (a version 1 layer) as a version 2 file at `dest`: to `<dest>.tmp`, synced,
/// then renamed, so `dest` is left as it was or holds the whole compressed table. `dest` may be
/// the layer's own path (the open layer keeps reading the old file). The source's entries are
/// checked against its data checksum on the way (before the rename).
///
/// # Errors
/// [`TableError::DataChecksum`] if the source is damaged, [`TableError::Mismatch`] if it is
/// compressed already, [`TableError::Corrupt`] for a block size version 2 does not allow,
/// [`TableError::NoSpace`] if the disk is full, an I/O error naming the file.
pub fn compress_layer(
    layer: &Layer,
    dest: &Path,
    options: CompressOptions,
) -> Result<Compressed, TableError> {
    let Some(raw) = layer.raw() else {
        return Err(TableError::Mismatch {
            path: layer.path().into(),
            expected: "a version 1 (uncompressed) layer".into(),
            found: "a compressed layer".into(),
        });
    };
    let fill = |first: u64, block: &mut [u8]| {
        let first = first as usize;
        block.copy_from_slice(&raw[first..first + block.len()]);
    };
    let entries = Entries {
        len: raw.len() as u64,
        fill: &fill,
    };
    let header = *layer.header();
    write_v2(dest, header, &entries, options, |crc| {
        if crc == header.data_crc32.get() {
            Ok(())
        } else {
            Err(TableError::DataChecksum {
                path: layer.path().into(),
            })
        }
    })
}

/// Writes a layer that is not on disk yet straight as a version 2 file at `dest`, as
/// [`compress_layer`] would write it from its version 1 file (the same bytes): `header` is the
/// layer's version 1 header ([`crate::TableKind::header`]; its data checksum is computed here
/// from the entries), `entries` gives them, block by block. No uncompressed copy of the layer
/// touches the disk.
///
/// # Errors
/// [`TableError::Corrupt`] for a block size version 2 does not allow, a header whose entry
/// count is not `entries.len`, [`TableError::NoSpace`] if the disk is full, an I/O error naming
/// the file.
pub fn compress_entries(
    dest: &Path,
    header: Header,
    entries: &Entries<'_>,
    options: CompressOptions,
) -> Result<Compressed, TableError> {
    if header.entries.get() != entries.len {
        return Err(corrupt(
            dest,
            format!(
                "a header of {} entries for {} entries",
                header.entries.get(),
                entries.len
            ),
        ));
    }
    write_v2(dest, header, entries, options, |_| Ok(()))
}

/// The version 2 file at `dest` of the layer of version 1 header `header` and `entries`: to
/// `<dest>.tmp`, synced, then renamed once `check` accepts the entries' CRC-32 (the header then
/// holds it).
fn write_v2(
    dest: &Path,
    mut header: Header,
    entries: &Entries<'_>,
    options: CompressOptions,
    check: impl FnOnce(u32) -> Result<(), TableError>,
) -> Result<Compressed, TableError> {
    use std::os::unix::fs::FileExt;
    if !valid_block_entries(options.block_entries) {
        return Err(corrupt(
            dest,
            format!(
                "block size {} entries asked for, not a power of two in {MIN_BLOCK_ENTRIES}..={MAX_BLOCK_ENTRIES}",
                options.block_entries
            ),
        ));
    }
    let temp = temp_path(dest);
    if let Some(dir) = dest.parent() {
        std::fs::create_dir_all(dir).map_err(TableError::io(dir))?;
    }
    let io = |e: std::io::Error| {
        if e.kind() == std::io::ErrorKind::StorageFull {
            TableError::NoSpace {
                path: temp.clone(),
                needed: 0,
                source: e,
            }
        } else {
            TableError::io(&temp)(e)
        }
    };
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(&temp)
        .map_err(io)?;
    let mut guard = TempFile::new(temp.clone());
    let len = entries.len;
    let blocks = block_count(len, options.block_entries);
    let start = index_end(len, options.block_entries);
    let mut offsets = Vec::with_capacity(blocks as usize + 1);
    offsets.push(U64::new(start));
    let crc = {
        let mut out = std::io::BufWriter::with_capacity(1 << 20, &file);
        out.write_all(&vec![0u8; start as usize]).map_err(io)?;
        let mut at = start;
        let crc = compress_blocks(entries, options, |frame| {
            out.write_all(frame)?;
            at += frame.len() as u64;
            offsets.push(U64::new(at));
            Ok(())
        })
        .map_err(io)?;
        out.flush().map_err(io)?;
        crc
    };
    check(crc)?;
    let index = offsets.as_bytes();
    header.data_crc32 = crc.into();
    header.version = COMPRESSED_VERSION.into();
    header.codec = CODEC_ZSTD;
    header.block_entries = options.block_entries.into();
    header.index_crc32 = crc32fast::hash(index).into();
    header.header_crc32 = header.compute_crc().into();
    file.write_all_at(index, HEADER_LEN as u64).map_err(io)?;
    file.write_all_at(header.as_bytes(), 0).map_err(io)?;
    file.sync_all().map_err(io)?;
    let after = file.metadata().map_err(io)?.len();
    guard.rename(dest).map_err(TableError::io(dest))?;
    sync_parent(dest);
    Ok(Compressed {
        before: HEADER_LEN as u64 + len,
        after,
        blocks,
    })
}
