//! `.resume` checkpoints of a layer's build: any bytes are a checkpoint of the share asked for
//! or refused with why, never a panic; what is accepted writes back to the same bytes.
//!
//! The first byte is flags, the checkpoint's bytes follow: bit 0 reseals the checksum (so that
//! changed fields reach the checks past it); bit 1 asks for the share the header names (a
//! rerun of that share), else for the share of the committed corpus (layer 9, 100 positions).
#![no_main]

use granary_retrograde::resume::{HEADER_LEN, Header, encode_checkpoint, parse_checkpoint};
use libfuzzer_sys::fuzz_target;
use zerocopy::{FromBytes, IntoBytes};

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let mut bytes = rest.to_vec();
    let mut share = (9, 100);
    if let Ok((mut header, body)) = Header::read_from_prefix(&bytes) {
        if flags & 1 != 0 {
            header.crc32.set(header.checksum(body));
            bytes[..HEADER_LEN].copy_from_slice(header.as_bytes());
        }
        if flags & 2 != 0 {
            share = (header.seeds.get(), header.entries.get());
        }
    }
    let (seeds, entries) = share;
    let Ok((next, work, values)) = parse_checkpoint(&bytes, seeds, entries) else {
        return;
    };
    assert!(next <= seeds, "phase {next} of layer {seeds}");
    assert_eq!((work.len() as u64, values.len() as u64), (entries, entries));
    assert_eq!(encode_checkpoint(seeds, next, &work, &values), bytes);
});
