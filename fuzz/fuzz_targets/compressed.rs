//! Compressed layer files, versions 2 (zstd blocks) and 3 (Huffman-coded blocks), opened as a
//! table directory opens them: any bytes are a layer or a named error, never a panic or a fault,
//! and so is every read of an opened layer. Where the blocks decode, every way of reading gives
//! the same entries (block by block, whole, a copy for random reads, by ranges, one by one), the
//! data checksum holds exactly when it matches them, and the entries (whatever the checksum)
//! compressed again by the writer in the layer's version open to the same entries (for version
//! 3, with the same model, to the same model, index and length, and header where the checksum
//! held).
//!
//! A layer with filled don't-cares (version 3, codec 3) of a small board (at most 3 pits, 12
//! seeds) is opened over real layers below it, built once, as a table directory opens it: every
//! read settles or fails with a named error, never a panic; rebuilt whole, its values hold the
//! data checksum or the read is refused; and where they hold it, every settled read (in a window
//! or not, by ranges) gives them.
//!
//! The first byte is flags, the file's bytes follow: bit 0 reseals the checksum of what lies
//! between the header and the blocks (version 2: the block index; version 3: the model and the
//! block index) and then the header's, so that changed code lengths and offsets reach the
//! checks past them. The layer asked for is the one the header names.
#![no_main]

use std::collections::HashMap;
use std::io::{Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, Mutex};

use granary_tables::coded::{CODEC_FILLED_HUFFMAN, Shape, valid_coded_block_entries};
use granary_tables::compressed::{DEFAULT_LEVEL, WHOLE_ENTRIES, block_count, valid_block_entries};
use granary_tables::format::{CODED_VERSION, COMPRESSED_VERSION, HEADER_LEN};
use granary_tables::layer::parse_header;
use granary_tables::{Codec, CompressOptions, Entries, Layer, TableKind, compress_entries};
use libfuzzer_sys::fuzz_target;
use zerocopy::{FromBytes, IntoBytes};

/// The file the bytes are written to: unlinked, reopened by its `/proc/self/fd` name, so that
/// nothing is left behind.
static FILE: LazyLock<Mutex<(std::fs::File, PathBuf)>> = LazyLock::new(|| {
    use std::os::fd::AsRawFd;
    let file = tempfile::tempfile().expect("a temporary file");
    let path = PathBuf::from(format!("/proc/self/fd/{}", file.as_raw_fd()));
    Mutex::new((file, path))
});

/// Where the blocks of a compressed file with this header start (version 2: past its block
/// index; version 3: past its model and block index), if its block size is one its version
/// allows.
fn data_at(header: &granary_tables::Header) -> Option<u64> {
    let block_entries = header.block_entries.get();
    match header.version.get() {
        COMPRESSED_VERSION if valid_block_entries(block_entries) => {
            block_count(header.entries.get(), block_entries)
                .checked_add(1)
                .and_then(|b| b.checked_mul(8))
                .and_then(|b| b.checked_add(HEADER_LEN as u64))
        }
        CODED_VERSION if valid_coded_block_entries(block_entries) => Some(
            Shape::new(
                header.entries.get(),
                u32::from(header.seeds.get()),
                block_entries,
            )
            .data_at,
        ),
        _ => None,
    }
}

/// Reseals what lies between the header and the blocks (bytes 64.. to where the blocks start,
/// as the header's version, entries, seeds and block size place it) and then the header.
fn reseal(bytes: &mut [u8]) {
    let Ok((mut header, _)) = granary_tables::Header::read_from_prefix(bytes) else {
        return;
    };
    let end = data_at(&header)
        .and_then(|end| usize::try_from(end).ok())
        .filter(|&end| end >= HEADER_LEN && end <= bytes.len());
    if let Some(end) = end {
        header.index_crc32 = crc32fast::hash(&bytes[HEADER_LEN..end]).into();
    }
    header.header_crc32 = header.compute_crc().into();
    bytes[..HEADER_LEN].copy_from_slice(header.as_bytes());
}

/// Every entry of `layer` read block by block, or `None` if a block does not decode.
fn chunks(layer: &Layer) -> Option<Vec<u8>> {
    let mut all = Vec::new();
    layer
        .for_each_chunk(|first, entries| {
            assert_eq!(first, all.len() as u64, "chunks in order");
            all.extend_from_slice(entries);
        })
        .ok()?;
    assert_eq!(all.len() as u64, layer.len());
    Some(all)
}

/// Ranges `(first, count)` of a layer of `n` entries in blocks of `block` entries: the whole,
/// single entries and pairs across the first block boundaries, and a few drawn from `seed`.
fn ranges(n: usize, block: usize, mut seed: u64) -> Vec<(usize, usize)> {
    let mut out = vec![(0, n), (n / 3, n / 2), (n - n.min(5), n.min(5)), (n, 0)];
    for edge in [block, 2 * block, 4 * block] {
        if edge < n {
            out.extend([(edge - 1, 2), (edge - 1, 1), (edge, 1), (edge, n - edge)]);
        }
    }
    seed |= 1;
    let mut next = |bound: usize| {
        // xorshift64: the ranges depend on the input only, so that a failure reproduces.
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % (bound as u64 + 1)) as usize
    };
    for _ in 0..8 {
        let first = next(n);
        let count = next(n - first);
        out.push((first, count));
    }
    out
}

/// Checks every way of reading the opened `layer` (whose file is `bytes`) against the others.
fn read_every_way(layer: &Layer, kind: TableKind, seeds: u32, bytes: &[u8]) {
    let len = layer.len();
    assert_eq!(layer.is_compressed(), layer.raw().is_none());
    if len > WHOLE_ENTRIES {
        // Large layers: block by block and a few lookups, no copies.
        let whole = layer.for_each_chunk(|_, _| ()).is_ok();
        for i in [0, len / 2, len - 1] {
            if whole {
                layer
                    .try_value(i)
                    .expect("a block that decoded decodes again");
            } else {
                let _ = layer.try_value(i);
            }
        }
        return;
    }
    let Some(entries) = chunks(layer) else {
        assert!(
            layer.resident().is_err(),
            "a block that fails fails the copy"
        );
        assert!(layer.random_reads_copy().is_err());
        assert!(layer.verify_checksum().is_err());
        // Lookups fail or give a value; they never panic.
        for i in [0, len / 2, len.saturating_sub(1)] {
            if i < len {
                let _ = layer.try_value(i);
            }
        }
        return;
    };
    let crc = crc32fast::hash(&entries);
    let sound = crc == layer.header().data_crc32.get();
    assert_eq!(layer.verify_checksum().is_ok(), sound);
    // A version 3 layer checks the entries against the data checksum where it decodes them
    // whole (a copy, a small layer's first lookup): blocks that decode to entries that fail it
    // are an error there, never other entries. Anything else that decoded decodes again.
    let checked = layer.header().version.get() == CODED_VERSION;
    let refused = |what: &str, e: &dyn std::fmt::Display| {
        assert!(
            checked && !sound,
            "{what}: blocks that decoded decode again: {e}"
        );
    };
    match layer.resident() {
        Ok(resident) => {
            assert!(
                sound || !checked,
                "a copy of entries that fail the checksum"
            );
            assert_eq!(resident.raw(), Some(&entries[..]));
            assert!(!resident.is_compressed());
        }
        Err(e) => refused("resident", &e),
    }
    match layer.random_reads_copy() {
        Ok(Some(copy)) => {
            assert!(
                sound || !checked,
                "a copy of entries that fail the checksum"
            );
            assert_eq!(copy.raw(), Some(&entries[..]));
        }
        Ok(None) => assert_eq!(layer.raw(), Some(&entries[..])),
        Err(e) => refused("random_reads_copy", &e),
    }
    let n = entries.len();
    let step = if n <= 1 << 16 { 1 } else { 97 };
    for (i, &e) in entries.iter().enumerate().step_by(step) {
        match layer.try_value(i as u64) {
            Ok(v) => assert_eq!(v, e as i8, "entry {i}"),
            Err(err) => refused("try_value", &err),
        }
    }
    let block = layer.header().block_entries.get().max(1) as usize;
    for (first, count) in ranges(n, block, u64::from(crc32fast::hash(bytes))) {
        let mut out = vec![0u8; count];
        layer
            .read_range(first as u64, &mut out)
            .expect("decoded blocks");
        assert_eq!(
            out,
            entries[first..first + count],
            "entries {first}+{count}"
        );
    }
    if layer.is_compressed() {
        compressed_again(layer, kind, seeds, &entries, bytes);
    }
}

/// Writes `entries` again with the layer's version and block size and opens the result: the
/// same entries, under their checksum (the layer's, where it held). For version 3, where the
/// model written is the file's, so are the index and the length (the blocks differ at most in
/// padding bits), and the header where the layer's checksum held.
/// Written in memory (`/dev/shm`) where there is one: the writer syncs what it writes.
fn compressed_again(layer: &Layer, kind: TableKind, seeds: u32, entries: &[u8], bytes: &[u8]) {
    let shm = Path::new("/dev/shm");
    let base = if shm.is_dir() {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    };
    let dir = base.join(format!("granary-fuzz-compressed-{}", std::process::id()));
    let dest = dir.join("again.tbl");
    let fill = |first: u64, block: &mut [u8]| {
        let first = first as usize;
        block.copy_from_slice(&entries[first..first + block.len()]);
    };
    let coded = layer.header().version.get() == CODED_VERSION;
    let options = CompressOptions {
        codec: if coded {
            Codec::Coded
        } else {
            Codec::Zstd(DEFAULT_LEVEL)
        },
        block_entries: layer.header().block_entries.get(),
        threads: 1,
    };
    let given = Entries {
        len: entries.len() as u64,
        fill: &fill,
    };
    compress_entries(&dest, kind.header(seeds, given.len), &given, options)
        .expect("entries compress");
    let again = Layer::open(&dest, kind, seeds).expect("what compress wrote opens");
    again.verify_checksum().expect("what compress wrote checks");
    assert_eq!(again.header().version, layer.header().version);
    let crc = crc32fast::hash(entries);
    assert_eq!(again.header().data_crc32.get(), crc);
    assert_eq!(chunks(&again).as_deref(), Some(entries));
    if coded {
        let written = std::fs::read(&dest).expect("what compress wrote");
        let shape = Shape::new(
            entries.len() as u64,
            seeds,
            layer.header().block_entries.get(),
        );
        let (model, data) = (shape.groups_at as usize, shape.data_at as usize);
        if written[HEADER_LEN..model] == bytes[HEADER_LEN..model] {
            assert!(
                written[HEADER_LEN..data] == bytes[HEADER_LEN..data],
                "the same model, another index"
            );
            assert_eq!(written.len(), bytes.len(), "the same model, another length");
            if crc == layer.header().data_crc32.get() {
                assert_eq!(written[..HEADER_LEN], bytes[..HEADER_LEN], "another header");
            }
        }
    }
    drop(again);
    std::fs::remove_dir_all(&dir).expect("the directory made for the copy");
}

/// The real layers `0..=max` of `kind` (built once, in memory where `/dev/shm` is), for a filled
/// layer of `max + 1` seeds to open over.
fn lower_layers(kind: TableKind, max: u32) -> Vec<Arc<Layer>> {
    static BUILT: LazyLock<Mutex<HashMap<(String, u32), Vec<Arc<Layer>>>>> =
        LazyLock::new(|| Mutex::new(HashMap::new()));
    let mut built = BUILT
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    built
        .entry((kind.name(), max))
        .or_insert_with(|| {
            let shm = Path::new("/dev/shm");
            let dir = if shm.is_dir() {
                tempfile::tempdir_in(shm)
            } else {
                tempfile::tempdir()
            }
            .expect("a directory for the layers below");
            let options = granary_retrograde::BuildOptions {
                threads: Some(1),
                ..Default::default()
            };
            granary_retrograde::build_layers(dir.path(), kind, max, options, &())
                .expect("the layers below build");
            let set = granary_tables::TableSet::new(dir.path(), kind);
            let layers = (0..=max)
                .map(|n| Arc::new(Layer::open(&set.layer_path(n), kind, n).expect("a built layer")))
                .collect();
            // The maps stay valid with the files unlinked.
            drop(dir);
            layers
        })
        .clone()
}

/// A layer with filled don't-cares, opened over the real layers below it twice (every read
/// settled from them, and rebuilt whole): reads never panic, the whole rebuild holds the data
/// checksum or is refused, and where it holds, every read gives its values.
fn filled_every_way(path: &Path, kind: TableKind, seeds: u32) {
    let below = lower_layers(kind, seeds - 1);
    let lower = |n: u32| Ok(Arc::clone(&below[n as usize]));
    let Ok(settled) = Layer::open_over(path, kind, seeds, 0, &lower) else {
        return;
    };
    let whole = Layer::open_over(path, kind, seeds, u64::MAX, &lower).expect("opened once");
    assert!(settled.rebuilds_values() && whole.rebuilds_values());
    let len = settled.len();
    let mut values = vec![0u8; len as usize];
    let Ok(()) = whole.read_range(0, &mut values) else {
        // Blocks that do not decode, or values that fail the checksum: reads fail or settle.
        assert!(settled.verify_checksum().is_err());
        for i in [0, len / 2, len.saturating_sub(1)] {
            if i < len {
                let _ = settled.try_value(i);
                let _ = settled.try_value_within(i, -1, 1);
            }
        }
        return;
    };
    assert_eq!(crc32fast::hash(&values), settled.header().data_crc32.get());
    settled
        .verify_checksum()
        .expect("values that hold the checksum");
    let mut read = vec![0u8; len as usize];
    settled.read_range(0, &mut read).expect("settled in order");
    assert_eq!(read, values);
    for (i, &v) in values.iter().enumerate() {
        let v = i32::from(v as i8);
        assert_eq!(settled.try_value(i as u64).map(i32::from).ok(), Some(v));
        for (alpha, beta) in [
            (v - 1, v + 1),
            (v, v + 1),
            (v - 1, v),
            (v + 1, v + 3),
            (v - 3, v - 1),
        ] {
            let r = i32::from(
                settled
                    .try_value_within(i as u64, alpha, beta)
                    .expect("settles"),
            );
            assert!(
                if r <= alpha {
                    v <= r
                } else if r >= beta {
                    v >= r
                } else {
                    r == v
                },
                "entry {i}, value {v}, window ({alpha}, {beta}): {r}"
            );
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let mut bytes = rest.to_vec();
    if flags & 1 != 0 {
        reseal(&mut bytes);
    }
    // The layer the header names, if it names one.
    let Ok(header) = parse_header(Path::new("fuzz.tbl"), &bytes, bytes.len() as u64) else {
        return;
    };
    let Some(kind) = TableKind::from_codes(
        header.game,
        header.rules,
        header.sweep,
        usize::from(header.pits),
    ) else {
        return;
    };
    let seeds = u32::from(header.seeds.get());
    let mut file = FILE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let (file, path) = &mut *file;
    file.set_len(0).expect("the temporary file");
    file.rewind().expect("the temporary file");
    file.write_all(&bytes).expect("the temporary file");
    if header.version.get() == CODED_VERSION && header.codec == CODEC_FILLED_HUFFMAN {
        if (1..=12).contains(&seeds) && kind.pits <= 3 {
            filled_every_way(path, kind, seeds);
        }
        return;
    }
    if let Ok(layer) = Layer::open(path, kind, seeds) {
        read_every_way(&layer, kind, seeds, &bytes);
    }
});
