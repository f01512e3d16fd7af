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
use crate::format::{COMPRESSED_VERSION, HEADER_LEN};
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

/// Compresses `entries`, a layer's entries, into one zstd frame a block, in order, `threads`
/// blocks at a time; `write` takes each frame.
fn compress_blocks(
    entries: &[u8],
    options: CompressOptions,
    mut write: impl FnMut(&[u8]) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let block = options.block_entries as usize;
    let threads = options.threads.max(1);
    let batch = threads * 8;
    let new_compressor = || -> std::io::Result<zstd::bulk::Compressor<'static>> {
        let mut c = zstd::bulk::Compressor::new(options.level)?;
        c.include_checksum(true)?;
        c.include_contentsize(true)?;
        Ok(c)
    };
    let mut compressors = (0..threads)
        .map(|_| new_compressor())
        .collect::<std::io::Result<Vec<_>>>()?;
    let chunks: Vec<&[u8]> = entries.chunks(block).collect();
    for group in chunks.chunks(batch) {
        let per = group.len().div_ceil(threads);
        let frames: Vec<std::io::Result<Vec<Vec<u8>>>> = std::thread::scope(|s| {
            let handles: Vec<_> = group
                .chunks(per)
                .zip(compressors.iter_mut())
                .map(|(part, c)| s.spawn(move || part.iter().map(|b| c.compress(b)).collect()))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a compressing thread panicked"))
                .collect()
        });
        for part in frames {
            for frame in part? {
                write(&frame)?;
            }
        }
    }
    Ok(())
}

/// Writes `layer` (a version 1 layer) as a version 2 file at `dest`: to `<dest>.tmp`, synced,
/// then renamed, so `dest` is left as it was or holds the whole compressed table. `dest` may be
/// the layer's own path (the open layer keeps reading the old file). The source's entries are
/// checked against its data checksum on the way.
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
    use std::os::unix::fs::FileExt;
    let Some(entries) = layer.raw() else {
        return Err(TableError::Mismatch {
            path: layer.path().into(),
            expected: "a version 1 (uncompressed) layer".into(),
            found: "a compressed layer".into(),
        });
    };
    if !valid_block_entries(options.block_entries) {
        return Err(corrupt(
            dest,
            format!(
                "block size {} entries asked for, not a power of two in {MIN_BLOCK_ENTRIES}..={MAX_BLOCK_ENTRIES}",
                options.block_entries
            ),
        ));
    }
    if crc32fast::hash(entries) != layer.header().data_crc32.get() {
        return Err(TableError::DataChecksum {
            path: layer.path().into(),
        });
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
    let len = entries.len() as u64;
    let blocks = block_count(len, options.block_entries);
    let start = index_end(len, options.block_entries);
    let mut offsets = Vec::with_capacity(blocks as usize + 1);
    offsets.push(U64::new(start));
    {
        let mut out = std::io::BufWriter::with_capacity(1 << 20, &file);
        out.write_all(&vec![0u8; start as usize]).map_err(io)?;
        let mut at = start;
        compress_blocks(entries, options, |frame| {
            out.write_all(frame)?;
            at += frame.len() as u64;
            offsets.push(U64::new(at));
            Ok(())
        })
        .map_err(io)?;
        out.flush().map_err(io)?;
    }
    let index = offsets.as_bytes();
    let mut header = *layer.header();
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
