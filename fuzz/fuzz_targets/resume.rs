//! `.resume` checkpoints of a layer's build: any bytes are a checkpoint of the share asked for
//! or refused with why, never a panic; what is accepted writes back to the same bytes.
//!
//! The first byte is flags, the checkpoint's bytes follow: bit 0 reseals the checksum (so that
//! changed fields reach the checks past it); bit 1 asks for the share the header names (a
//! rerun of that share), else for the share of the committed corpus (layer 9, 100 positions).
#![no_main]

use granary_retrograde::resume::{encode_checkpoint, parse_checkpoint};
use libfuzzer_sys::fuzz_target;

/// Bytes of a checkpoint's header; its CRC-32 is at 24..28, over the header's first 24 bytes
/// and everything after the header.
const HEADER: usize = 32;

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let mut bytes = rest.to_vec();
    if flags & 1 != 0 && bytes.len() >= HEADER {
        let mut crc = crc32fast::Hasher::new();
        crc.update(&bytes[..24]);
        crc.update(&bytes[HEADER..]);
        bytes[24..28].copy_from_slice(&crc.finalize().to_le_bytes());
    }
    let (seeds, entries) = if flags & 2 != 0 && bytes.len() >= HEADER {
        let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
        (u32_at(8), u64_at(16))
    } else {
        (9, 100)
    };
    let Ok((next, work, values)) = parse_checkpoint(&bytes, seeds, entries) else {
        return;
    };
    assert!(next <= seeds, "phase {next} of layer {seeds}");
    assert_eq!((work.len() as u64, values.len() as u64), (entries, entries));
    assert_eq!(encode_checkpoint(seeds, next, &work, &values), bytes);
});
