//! Compressed (version 2) layer files, opened as a table directory opens them: any bytes are a
//! layer or a named error, never a panic or a fault, and so is every read of an opened layer.
//! Where the blocks decode, every way of reading gives the same entries (block by block, whole,
//! by range, one by one), the data checksum holds exactly when it matches them, and the entries
//! compressed again open to the same entries.
//!
//! The first byte is flags, the file's bytes follow: bit 0 reseals the block index's checksum
//! and then the header's, so that changed offsets reach the checks past them. The layer asked
//! for is the one the header names.
#![no_main]

use std::io::{Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::{LazyLock, Mutex};

use granary_tables::compressed::{DEFAULT_LEVEL, WHOLE_ENTRIES, block_count, valid_block_entries};
use granary_tables::format::{COMPRESSED_VERSION, HEADER_LEN};
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

/// Reseals the block index (bytes 64.. to the index's end, as the header's entries and block
/// size place it) and then the header.
fn reseal(bytes: &mut [u8]) {
    let Ok((mut header, _)) = granary_tables::Header::read_from_prefix(bytes) else {
        return;
    };
    let block_entries = header.block_entries.get();
    if header.version.get() == COMPRESSED_VERSION && valid_block_entries(block_entries) {
        let blocks = block_count(header.entries.get(), block_entries);
        let end = blocks
            .checked_add(1)
            .and_then(|b| b.checked_mul(8))
            .and_then(|b| b.checked_add(HEADER_LEN as u64));
        if let Some(end) = end.filter(|&end| end <= bytes.len() as u64) {
            header.index_crc32 = crc32fast::hash(&bytes[HEADER_LEN..end as usize]).into();
        }
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

/// Checks every way of reading the opened `layer` against the others.
fn read_every_way(layer: &Layer, kind: TableKind, seeds: u32) {
    let len = layer.len();
    if len > WHOLE_ENTRIES {
        // Large layers (blocks of up to 16 MiB): block by block and a few lookups, no copies.
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
        return;
    };
    let crc = crc32fast::hash(&entries);
    assert_eq!(
        layer.verify_checksum().is_ok(),
        crc == layer.header().data_crc32.get()
    );
    let resident = layer.resident().expect("blocks that decoded decode again");
    assert_eq!(resident.raw(), Some(&entries[..]));
    for (i, &e) in entries.iter().enumerate().step_by(97) {
        assert_eq!(layer.try_value(i as u64).expect("a decoded block"), e as i8);
    }
    let n = entries.len();
    for (first, count) in [(0, n), (n / 3, n / 2), (n - n.min(5), n.min(5))] {
        let mut out = vec![0u8; count];
        layer
            .read_range(first as u64, &mut out)
            .expect("decoded blocks");
        assert_eq!(out, entries[first..first + count]);
    }
    if layer.is_compressed() && crc == layer.header().data_crc32.get() {
        compressed_again(layer, kind, seeds, &entries);
    }
}

/// Compresses `entries` again with the layer's block size and opens the result: the same
/// entries, under the same checksum. Written in memory (`/dev/shm`) where there is one: the
/// writer syncs what it writes.
fn compressed_again(layer: &Layer, kind: TableKind, seeds: u32, entries: &[u8]) {
    let shm = Path::new("/dev/shm");
    let base = if shm.is_dir() {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    };
    let dir = base.join(format!("granary-fuzz-{}", std::process::id()));
    let dest = dir.join("again.tbl");
    let fill = |first: u64, block: &mut [u8]| {
        let first = first as usize;
        block.copy_from_slice(&entries[first..first + block.len()]);
    };
    // Written again in the layer's own version (a version 3 file opens here too).
    let codec = if layer.header().version.get() == COMPRESSED_VERSION {
        Codec::Zstd(DEFAULT_LEVEL)
    } else {
        Codec::Coded
    };
    let options = CompressOptions {
        codec,
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
    assert_eq!(again.header().data_crc32, layer.header().data_crc32);
    assert_eq!(chunks(&again).as_deref(), Some(entries));
    drop(again);
    std::fs::remove_dir_all(&dir).expect("the directory made for the copy");
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
    if let Ok(layer) = Layer::open(path, kind, seeds) {
        read_every_way(&layer, kind, seeds);
    }
});
