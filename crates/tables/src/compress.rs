//! Writing a finished layer as a compressed file: version 3 ([`crate::coded`], a model fitted to
//! the entries in a first pass, then Huffman codes) or version 2 ([`crate::compressed`], zstd).
//! Blocks are coded on several threads, written in order to a temporary file, the index and
//! header last, synced and renamed.

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use granary_rules::Position;
use zerocopy::IntoBytes;
use zerocopy::little_endian::U64;

use crate::anon::AnonAtomics;
use crate::coded::{
    CODEC_CONTEXT_HUFFMAN, CODEC_FILLED_HUFFMAN, DEFAULT_CODED_BLOCK_ENTRIES,
    MAX_CODED_BLOCK_ENTRIES, MIN_CODED_BLOCK_ENTRIES, Shape, valid_coded_block_entries,
};
use crate::compressed::{
    CODEC_ZSTD, DEFAULT_BLOCK_ENTRIES, MAX_BLOCK_ENTRIES, MIN_BLOCK_ENTRIES, corrupt, index_end,
    valid_block_entries,
};
use crate::error::TableError;
use crate::filled::{self, Slack};
use crate::format::{CODED_VERSION, COMPRESSED_VERSION, FORMAT_VERSION, HEADER_LEN, Header};
use crate::huffman::{Encoder, Lengths};
use crate::layer::Layer;
use crate::set::TableSet;
use crate::writer::{TempFile, sync_parent, temp_path};

/// Which format a compressed layer is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Codec {
    /// Version 3: Huffman codes in the previous entry's context ([`crate::coded`]).
    Coded,
    /// Version 3 with don't-cares filled ([`crate::filled`]): written from a finished layer and
    /// the layers below it ([`compress_filled`]), read through its [`crate::TableSet`].
    Filled,
    /// Version 2: zstd frames ([`crate::compressed`]), at this level.
    Zstd(i32),
}

/// How to compress a layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompressOptions {
    pub codec: Codec,
    /// Entries a block: a power of two the codec allows (version 3:
    /// `MIN_CODED_BLOCK_ENTRIES..=MAX_CODED_BLOCK_ENTRIES`; version 2:
    /// `MIN_BLOCK_ENTRIES..=MAX_BLOCK_ENTRIES`).
    pub block_entries: u32,
    /// Threads compressing blocks (at least one).
    pub threads: usize,
}

impl Default for CompressOptions {
    /// Version 3 with its default block size, on every core.
    fn default() -> Self {
        CompressOptions {
            codec: Codec::Coded,
            block_entries: DEFAULT_CODED_BLOCK_ENTRIES,
            threads: std::thread::available_parallelism().map_or(1, usize::from),
        }
    }
}

impl CompressOptions {
    /// Version 2 (zstd at `level`) with its default block size, on every core.
    #[must_use]
    pub fn zstd(level: i32) -> CompressOptions {
        CompressOptions {
            codec: Codec::Zstd(level),
            block_entries: DEFAULT_BLOCK_ENTRIES,
            ..CompressOptions::default()
        }
    }

    /// The format version these options write.
    #[must_use]
    pub fn version(&self) -> u16 {
        match self.codec {
            Codec::Coded | Codec::Filled => CODED_VERSION,
            Codec::Zstd(_) => COMPRESSED_VERSION,
        }
    }

    /// The header's `codec` these options write.
    #[must_use]
    pub fn codec_byte(&self) -> u8 {
        match self.codec {
            Codec::Coded => CODEC_CONTEXT_HUFFMAN,
            Codec::Filled => CODEC_FILLED_HUFFMAN,
            Codec::Zstd(_) => CODEC_ZSTD,
        }
    }

    /// Whether a layer with this header is in the format these options write.
    #[must_use]
    pub fn writes(&self, header: &Header) -> bool {
        header.version.get() == self.version() && header.codec == self.codec_byte()
    }

    /// Whether the block size is one the codec allows.
    fn valid_block(&self) -> Result<(), String> {
        let (ok, min, max) = match self.codec {
            Codec::Coded | Codec::Filled => (
                valid_coded_block_entries(self.block_entries),
                MIN_CODED_BLOCK_ENTRIES,
                MAX_CODED_BLOCK_ENTRIES,
            ),
            Codec::Zstd(_) => (
                valid_block_entries(self.block_entries),
                MIN_BLOCK_ENTRIES,
                MAX_BLOCK_ENTRIES,
            ),
        };
        if ok {
            Ok(())
        } else {
            Err(format!(
                "block size {} entries asked for, not a power of two in {min}..={max}",
                self.block_entries
            ))
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

/// Blocks in flight at once: at least eight a thread, and about 4 Mi entries a thread.
fn batch_blocks(options: CompressOptions) -> u64 {
    let threads = options.threads.max(1) as u64;
    (threads * 8).max((threads << 22) / u64::from(options.block_entries))
}

/// Codes `entries` block by block, in order, `threads` runs of blocks at a time: `code(block,
/// out)` appends one block's code to `out` (each thread its own coder, made by `coder`), and
/// `write` takes each block's code in order. Returns the CRC-32 of the entries (each run's
/// checksummed on its thread, the checksums combined in order).
fn code_blocks<C: FnMut(&[u8], &mut Vec<u8>) -> std::io::Result<()> + Send>(
    entries: &Entries<'_>,
    options: CompressOptions,
    coder: impl Fn() -> std::io::Result<C>,
    mut write: impl FnMut(&[u8]) -> std::io::Result<()>,
) -> std::io::Result<u32> {
    let block = u64::from(options.block_entries);
    let threads = options.threads.max(1);
    let batch = batch_blocks(options);
    let mut coders = (0..threads)
        .map(|_| coder())
        .collect::<std::io::Result<Vec<_>>>()?;
    let mut buffers = vec![vec![0u8; block as usize]; threads];
    let mut crc = crc32fast::Hasher::new();
    let blocks = entries.len.div_ceil(block);
    let fill = entries.fill;
    let len = entries.len;
    for first in (0..blocks).step_by(batch as usize) {
        let group = first..(first + batch).min(blocks);
        let per = (group.end - group.start).div_ceil(threads as u64);
        // Each thread's codes, the end of each block's code in them, the run's checksum.
        type Run = std::io::Result<(Vec<u8>, Vec<usize>, crc32fast::Hasher)>;
        let runs: Vec<Run> = std::thread::scope(|s| {
            let handles: Vec<_> = coders
                .iter_mut()
                .zip(buffers.iter_mut())
                .enumerate()
                .map(|(k, (code, buf))| {
                    let from = group.start + k as u64 * per;
                    let part = from.min(group.end)..(from + per).min(group.end);
                    s.spawn(move || {
                        let (mut out, mut ends) = (Vec::new(), Vec::new());
                        let mut h = crc32fast::Hasher::new();
                        for b in part {
                            let start = b * block;
                            let n = (len - start).min(block) as usize;
                            let buf = &mut buf[..n];
                            fill(start, buf);
                            h.update(buf);
                            code(buf, &mut out)?;
                            ends.push(out.len());
                        }
                        Ok((out, ends, h))
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a compressing thread panicked"))
                .collect()
        });
        for run in runs {
            let (out, ends, h) = run?;
            let mut at = 0;
            for end in ends {
                write(&out[at..end])?;
                at = end;
            }
            crc.combine(&h);
        }
    }
    Ok(crc.finalize())
}

/// The counts of a version 3 model over `entries` of layer `seeds` (symbol after context, the
/// first entry of each block in the start context), and the entries' CRC-32: one pass, the
/// blocks shared among `threads` threads in runs.
fn count_symbols(
    entries: &Entries<'_>,
    seeds: u32,
    options: CompressOptions,
) -> std::io::Result<(Vec<u64>, u32)> {
    let symbols = 2 * seeds as usize + 1;
    let block = u64::from(options.block_entries);
    let threads = options.threads.max(1) as u64;
    let blocks = entries.len.div_ceil(block);
    let per = blocks.div_ceil(threads);
    let fill = entries.fill;
    let len = entries.len;
    let parts: Vec<std::io::Result<(Vec<u64>, crc32fast::Hasher)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|k| {
                let part = (k * per).min(blocks)..((k + 1) * per).min(blocks);
                s.spawn(move || {
                    let mut counts = vec![0u64; (symbols + 1) * symbols];
                    let mut h = crc32fast::Hasher::new();
                    let mut buf = vec![0u8; block as usize];
                    for b in part {
                        let start = b * block;
                        let n = (len - start).min(block) as usize;
                        let buf = &mut buf[..n];
                        fill(start, buf);
                        h.update(buf);
                        let mut context = symbols;
                        for &e in buf.iter() {
                            let s = i32::from(e as i8) + seeds as i32;
                            let s = usize::try_from(s)
                                .ok()
                                .filter(|&s| s < symbols)
                                .ok_or_else(|| {
                                    std::io::Error::other(format!(
                                        "an entry {} outside -{seeds}..={seeds}",
                                        e as i8
                                    ))
                                })?;
                            counts[context * symbols + s] += 1;
                            context = s;
                        }
                    }
                    Ok((counts, h))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a counting thread panicked"))
            .collect()
    });
    let mut counts = vec![0u64; (symbols + 1) * symbols];
    let mut crc = crc32fast::Hasher::new();
    for part in parts {
        let (c, h) = part?;
        for (a, b) in counts.iter_mut().zip(c) {
            *a += b;
        }
        crc.combine(&h);
    }
    Ok((counts, crc.finalize()))
}

/// Writes `layer` as a compressed file at `dest` in the format `options` ask for: to
/// `<dest>.tmp`, synced, then renamed, so `dest` is left as it was or holds the whole compressed
/// table. `dest` may be the layer's own path (the open layer keeps reading the old file). The
/// layer may be of any version but the one asked for (a version 2 layer is rewritten as version
/// 3); its entries are checked against its data checksum on the way (before the rename).
///
/// # Errors
/// [`TableError::DataChecksum`] if the source is damaged, [`TableError::Corrupt`] if a block of
/// a compressed source does not decode or the block size is not one the format allows,
/// [`TableError::Mismatch`] if it is in that format already, [`TableError::NoSpace`] if the disk
/// is full, an I/O error naming the file.
pub fn compress_layer(
    layer: &Layer,
    dest: &Path,
    options: CompressOptions,
) -> Result<Compressed, TableError> {
    refuse_same_format(layer, options)?;
    if options.codec == Codec::Filled {
        return Err(corrupt(
            dest,
            "don't-cares are filled from the layers below: compress_filled writes them",
        ));
    }
    rewrite(
        layer,
        dest,
        options,
        |_, _| Ok(()),
        |crc| {
            if crc == layer.header().data_crc32.get() {
                Ok(crc)
            } else {
                Err(TableError::DataChecksum {
                    path: layer.path().into(),
                })
            }
        },
    )
}

/// Writes `layer` (a layer of `set`'s kind, in any format but this one) at `dest` as a
/// version 3 file with don't-cares filled ([`crate::filled`]), each chosen from the values of
/// the layers below, which `set` opens: to `<dest>.tmp`, synced, then renamed. The layer's
/// values are checked against its data checksum first, and the file keeps that checksum.
///
/// # Errors
/// As [`compress_layer`]; and what is wrong with a lower layer of `set`.
pub fn compress_filled(
    set: &TableSet,
    layer: &Layer,
    dest: &Path,
    options: CompressOptions,
) -> Result<Compressed, TableError> {
    let options = CompressOptions {
        codec: Codec::Filled,
        ..options
    };
    refuse_same_format(layer, options)?;
    let seeds = u32::from(layer.header().seeds.get());
    let theirs = set.kind().header(seeds, layer.len());
    let mine = layer.header();
    if (mine.game, mine.rules, mine.sweep, mine.pits)
        != (theirs.game, theirs.rules, theirs.sweep, theirs.pits)
    {
        return Err(TableError::Mismatch {
            path: layer.path().into(),
            expected: format!("a layer of {}", set.kind().name()),
            found: mine.describe(),
        });
    }
    layer.verify_checksum()?;
    let rules = set.kind().engine();
    let index = layer.index();
    // Without the memory for the slacks, each guarantee is computed in both reads.
    let slacks = SlackMap::new(layer.len());
    let fill = |first: u64, block: &mut [u8]| -> Result<(), TableError> {
        let mut prev = None;
        let mut put = |entry: &mut u8, slack: Slack| {
            let stored = slack.fill(prev, *entry as i8, seeds);
            *entry = stored as u8;
            prev = Some(stored);
        };
        if let Some(recorded) = slacks.as_ref().and_then(|m| m.recorded(first, block.len())) {
            block.iter_mut().zip(recorded).for_each(|(e, s)| put(e, s));
            return Ok(());
        }
        let mut computed = Vec::with_capacity(block.len());
        for (entry, board) in block.iter_mut().zip(index.iter_from(first)) {
            let pos = Position::of_board(board);
            let slack = filled::guarantee(&rules, &pos, seeds, set)?.slack(*entry as i8);
            put(entry, slack);
            computed.push(slack);
        }
        if let Some(map) = &slacks {
            map.record(first, &computed);
        }
        Ok(())
    };
    rewrite(layer, dest, options, fill, |_| {
        Ok(layer.header().data_crc32.get())
    })
}

/// Each position's [`Slack`], two bits, kept by a filled layer's writer between its two reads
/// of the entries: the first (which fits the model) records a block's slacks as it computes
/// them, the second (which codes) reads them back instead of computing each guarantee again,
/// the bulk of the first read's time.
///
/// ```text
///  word w: positions 32w .. 32w + 31, two bits each, position 32w in bits 1..0
///  code    0 not recorded   1 Slack::Value   2 Slack::AtMostValue   3 Slack::Any
/// ```
///
/// A block starts at a multiple of its size, at least 64 entries, so it owns whole words, and it
/// is recorded whole, once all its slacks are known, by the one thread that reads it in the
/// first pass (a block whose guarantees failed is not recorded, and is computed again). The
/// second pass begins after the first has joined its threads, which orders every `Relaxed`
/// store before it; a block whose first code is not 0 is recorded.
struct SlackMap(AnonAtomics<AtomicU64>);

impl SlackMap {
    /// A map of `len` positions, all unrecorded; `None` if the memory is not there.
    fn new(len: u64) -> Option<SlackMap> {
        let words = usize::try_from(len.div_ceil(32)).ok()?;
        AnonAtomics::new(words).ok().map(SlackMap)
    }

    /// Records the slacks of the block of positions `first..first + slacks.len()`.
    fn record(&self, first: u64, slacks: &[Slack]) {
        debug_assert_eq!(first % 32, 0, "a block owns whole words");
        let words = &self.0.cells()[(first / 32) as usize..];
        for (word, chunk) in words.iter().zip(slacks.chunks(32)) {
            let bits = chunk.iter().enumerate().fold(0u64, |bits, (i, &slack)| {
                let code = match slack {
                    Slack::Value => 1u64,
                    Slack::AtMostValue => 2,
                    Slack::Any => 3,
                };
                bits | code << (2 * i)
            });
            word.store(bits, Ordering::Relaxed);
        }
    }

    /// The slacks of the block of `len` positions from `first`, if it is recorded.
    fn recorded(&self, first: u64, len: usize) -> Option<impl Iterator<Item = Slack> + '_> {
        let words = &self.0.cells()[(first / 32) as usize..];
        if words[0].load(Ordering::Relaxed) & 3 == 0 {
            return None;
        }
        let codes = words
            .iter()
            .flat_map(|word| {
                let bits = word.load(Ordering::Relaxed);
                (0..32).map(move |i| bits >> (2 * i) & 3)
            })
            .take(len);
        Some(codes.map(|code| match code {
            1 => Slack::Value,
            2 => Slack::AtMostValue,
            _ => Slack::Any,
        }))
    }
}

/// Refuses to rewrite `layer` in the format it is in.
fn refuse_same_format(layer: &Layer, options: CompressOptions) -> Result<(), TableError> {
    let header = layer.header();
    if options.writes(header) {
        let (version, codec) = (header.version.get(), header.codec);
        return Err(TableError::Mismatch {
            path: layer.path().into(),
            expected: format!("a layer of another format than version {version}, codec {codec}"),
            found: format!("a version {version} layer of codec {codec}"),
        });
    }
    Ok(())
}

/// Writes the entries of `layer`, each block passed through `transform(first, block)`, at
/// `dest` in the format `options` ask for; `data_crc(crc)` is given the written entries'
/// CRC-32 and returns the header's data checksum (or refuses the file).
fn rewrite(
    layer: &Layer,
    dest: &Path,
    options: CompressOptions,
    transform: impl Fn(u64, &mut [u8]) -> Result<(), TableError> + Sync,
    data_crc: impl FnOnce(u32) -> Result<u32, TableError>,
) -> Result<Compressed, TableError> {
    // The first block that could not be read or transformed, kept to be returned (its entries
    // read as 0).
    let failed = std::sync::Mutex::new(None);
    let fill = |first: u64, block: &mut [u8]| {
        let read = if let Some(raw) = layer.raw() {
            let first = first as usize;
            block.copy_from_slice(&raw[first..first + block.len()]);
            Ok(())
        } else {
            layer.read_range(first, block)
        };
        if let Err(e) = read.and_then(|()| transform(first, block)) {
            block.fill(0);
            failed
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .get_or_insert(e);
        }
    };
    let entries = Entries {
        len: layer.len(),
        fill: &fill,
    };
    let mut header = *layer.header();
    header.version = FORMAT_VERSION.into();
    header.codec = 0;
    header.block_entries = 0.into();
    header.index_crc32 = 0.into();
    write_layer(dest, header, &entries, options, |crc| {
        if let Some(e) = failed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
        {
            return Err(e);
        }
        data_crc(crc)
    })
}

/// Writes a layer that is not on disk yet straight as a compressed file at `dest`, as
/// [`compress_layer`] would write it from its version 1 file (the same bytes): `header` is the
/// layer's version 1 header ([`crate::TableKind::header`]; its data checksum is computed here
/// from the entries), `entries` gives them, block by block (a version 3 file reads them twice:
/// once to fit its model, once to code them). No uncompressed copy of the layer touches the disk.
///
/// # Errors
/// [`TableError::Corrupt`] for a block size the format does not allow, a header whose entry
/// count is not `entries.len`, entries that differ between the two reads, [`TableError::NoSpace`]
/// if the disk is full, an I/O error naming the file.
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
    if options.codec == Codec::Filled {
        return Err(corrupt(
            dest,
            "don't-cares are filled from a finished layer and the layers below it: compress it",
        ));
    }
    write_layer(dest, header, entries, options, Ok)
}

/// The compressed file at `dest` of the layer of version 1 header `header` and `entries`: to
/// `<dest>.tmp`, synced, then renamed once `check` accepts the entries' CRC-32 (returning the
/// header's data checksum: that CRC, or for filled entries the values').
fn write_layer(
    dest: &Path,
    mut header: Header,
    entries: &Entries<'_>,
    options: CompressOptions,
    check: impl FnOnce(u32) -> Result<u32, TableError>,
) -> Result<Compressed, TableError> {
    use std::os::unix::fs::FileExt;
    options.valid_block().map_err(|what| corrupt(dest, what))?;
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
    let len = entries.len;
    let seeds = u32::from(header.seeds.get());
    // Version 3's model, fitted to the entries first.
    let model = match options.codec {
        Codec::Coded | Codec::Filled => {
            let (counts, crc) = count_symbols(entries, seeds, options).map_err(|e| {
                if e.kind() == std::io::ErrorKind::Other {
                    corrupt(dest, e.to_string())
                } else {
                    io(e)
                }
            })?;
            Some((Lengths::fit(2 * seeds as usize + 1, &counts), crc))
        }
        Codec::Zstd(_) => None,
    };
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(&temp)
        .map_err(io)?;
    let mut guard = TempFile::new(temp.clone());
    let blocks = len.div_ceil(u64::from(options.block_entries));
    let start = match options.codec {
        Codec::Coded | Codec::Filled => Shape::new(len, seeds, options.block_entries).data_at,
        Codec::Zstd(_) => index_end(len, options.block_entries),
    };
    let mut offsets = Vec::with_capacity(blocks as usize + 1);
    offsets.push(start);
    let crc = {
        let mut out = std::io::BufWriter::with_capacity(1 << 20, &file);
        out.write_all(&vec![0u8; start as usize]).map_err(io)?;
        let mut at = start;
        let write = |code: &[u8]| {
            out.write_all(code)?;
            at += code.len() as u64;
            offsets.push(at);
            Ok(())
        };
        let crc = match (options.codec, &model) {
            (Codec::Zstd(level), _) => code_blocks(
                entries,
                options,
                || {
                    let mut c = zstd::bulk::Compressor::new(level)?;
                    c.include_checksum(true)?;
                    c.include_contentsize(true)?;
                    Ok(move |block: &[u8], out: &mut Vec<u8>| {
                        out.extend_from_slice(&c.compress(block)?);
                        Ok(())
                    })
                },
                write,
            ),
            (Codec::Coded | Codec::Filled, Some((lengths, _))) => {
                let encoder = Encoder::new(lengths);
                let encoder = &encoder;
                code_blocks(
                    entries,
                    options,
                    || {
                        Ok(move |block: &[u8], out: &mut Vec<u8>| {
                            let symbols = block
                                .iter()
                                .map(|&e| (i32::from(e as i8) + seeds as i32) as usize);
                            encoder.encode(symbols, out);
                            Ok(())
                        })
                    },
                    write,
                )
            }
            (Codec::Coded | Codec::Filled, None) => unreachable!("a model for version 3"),
        }
        .map_err(io)?;
        out.flush().map_err(io)?;
        crc
    };
    if let Some((_, counted)) = &model
        && *counted != crc
    {
        return Err(corrupt(
            dest,
            "the entries changed between the two reads of version 3's writer",
        ));
    }
    let data_crc32 = check(crc)?;
    let described = match &model {
        Some((lengths, _)) => coded_index(dest, lengths, &offsets, len, seeds, options)?,
        None => offsets
            .iter()
            .map(|&o| U64::new(o))
            .collect::<Vec<_>>()
            .as_bytes()
            .to_vec(),
    };
    header.data_crc32 = data_crc32.into();
    header.version = options.version().into();
    header.codec = options.codec_byte();
    header.block_entries = options.block_entries.into();
    header.index_crc32 = crc32fast::hash(&described).into();
    header.header_crc32 = header.compute_crc().into();
    file.write_all_at(&described, HEADER_LEN as u64)
        .map_err(io)?;
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

/// Version 3's bytes between the header and the blocks: the model, the group offsets and the
/// block offsets within their groups, from every block's start (`offsets`, then the end).
fn coded_index(
    dest: &Path,
    lengths: &Lengths,
    offsets: &[u64],
    entries: u64,
    seeds: u32,
    options: CompressOptions,
) -> Result<Vec<u8>, TableError> {
    let shape = Shape::new(entries, seeds, options.block_entries);
    let mut bytes = lengths.lengths.clone();
    let per = 1usize << shape.group_shift;
    let blocks = shape.blocks as usize;
    for g in 0..shape.groups as usize {
        bytes.extend_from_slice(&offsets[g * per].to_le_bytes());
    }
    bytes.extend_from_slice(&offsets[blocks].to_le_bytes());
    for b in 0..blocks {
        let base = offsets[b / per * per];
        let within = u16::try_from(offsets[b] - base)
            .map_err(|_| corrupt(dest, format!("block {b} lies past its group's 64 KiB")))?;
        bytes.extend_from_slice(&within.to_le_bytes());
    }
    debug_assert_eq!(
        bytes.len() as u64,
        shape.data_at - HEADER_LEN as u64,
        "the model and index fill the space before the blocks"
    );
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::{Slack, SlackMap};

    /// A block's slacks read back as recorded, every kind in every place of a word, and a block
    /// not recorded reads as not recorded, whatever its neighbours hold.
    #[test]
    fn slacks_read_back_as_recorded_block_by_block() {
        let kinds = [Slack::Value, Slack::AtMostValue, Slack::Any];
        let block = |b: usize, len: usize| -> Vec<Slack> {
            (0..len).map(|i| kinds[(i * 7 + b) % 3]).collect()
        };
        let map = SlackMap::new(64 * 3 + 10).expect("a few words of memory");
        assert!(map.recorded(0, 64).is_none());
        map.record(64, &block(1, 64));
        map.record(192, &block(2, 10));
        assert!(map.recorded(0, 64).is_none());
        assert!(map.recorded(128, 64).is_none());
        let read = |first, len| map.recorded(first, len).map(Iterator::collect::<Vec<_>>);
        assert_eq!(read(64, 64), Some(block(1, 64)));
        assert_eq!(read(192, 10), Some(block(2, 10)));
    }
}
