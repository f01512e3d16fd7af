//! Properties of the header: written then parsed it is the same; any other bytes are a named
//! error, never a panic; a changed byte is always caught (a CRC-32 catches every 1-byte error).

use std::path::Path;

use granary_rules::{Capture, Game, OwareRules, Sweep};
use granary_tables::TableKind;
use granary_tables::format::HEADER_LEN;
use granary_tables::layer::{check_header, parse_header};
use proptest::prelude::*;
use zerocopy::IntoBytes;

fn kind() -> impl Strategy<Value = TableKind> {
    let game = prop_oneof![
        (0usize..2, 0usize..2).prop_map(|(c, s)| Game::Kalah {
            capture: Capture::ALL[c],
            sweep: Sweep::ALL[s],
        }),
        (0usize..2).prop_map(|r| Game::Oware {
            rules: OwareRules::ALL[r],
        }),
    ];
    (game, 1usize..=8).prop_map(|(game, pits)| TableKind { game, pits })
}

fn sealed(kind: TableKind, seeds: u32, entries: u64, crc: u32) -> Vec<u8> {
    let mut header = kind.header(seeds, entries);
    header.data_crc32 = crc.into();
    header.header_crc32 = header.compute_crc().into();
    header.as_bytes().to_vec()
}

proptest! {
    #[test]
    fn write_then_read_is_the_identity(kind in kind(), seeds in 0u32..=64, entries: u64, crc: u32) {
        let bytes = sealed(kind, seeds, entries, crc);
        let path = Path::new("t.tbl");
        let header = parse_header(path, &bytes, 64u64.saturating_add(entries)).unwrap();
        prop_assert_eq!(header.as_bytes(), &bytes[..]);
        prop_assert_eq!(
            TableKind::from_codes(header.game, header.rules, header.sweep, usize::from(header.pits)),
            Some(kind)
        );
        prop_assert_eq!(u32::from(header.seeds.get()), seeds);
    }

    #[test]
    fn a_changed_byte_is_refused(
        kind in kind(),
        seeds in 0u32..=20,
        at in 0usize..HEADER_LEN,
        flip in 1u8..=255,
    ) {
        let index = granary_index::LayerIndex::new(kind.pits, seeds, kind.reduced()).unwrap();
        let mut bytes = sealed(kind, seeds, index.size(), 7);
        let length = (HEADER_LEN as u64) + index.size();
        let path = Path::new("t.tbl");
        let good = parse_header(path, &bytes, length).unwrap();
        prop_assert!(check_header(path, &good, length, kind, seeds).is_ok());
        bytes[at] ^= flip;
        let refused = parse_header(path, &bytes, length)
            .and_then(|h| check_header(path, &h, length, kind, seeds).map(|_| ()));
        prop_assert!(refused.is_err(), "byte {} changed and accepted", at);
    }

    #[test]
    fn any_bytes_are_a_header_or_an_error(bytes in prop::collection::vec(any::<u8>(), 0..100)) {
        let _ = parse_header(Path::new("t.tbl"), &bytes, bytes.len() as u64);
    }
}
