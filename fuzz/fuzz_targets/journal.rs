//! Solve journals: any bytes are a journal's contents or a named error, never a panic. What
//! parses accounts for every byte (whole records and a torn tail), reads the same once cut to
//! its whole records (as opening it for append cuts it), and is either loaded into a solver of
//! its game or refused as impossible, as a solve that resumes from it does.
//!
//! The first byte is flags, the journal's bytes follow: bit 0 reseals the header's checksum,
//! bit 1 every whole record's, so that changed fields reach the code past the checks.
#![no_main]

use std::path::Path;
use std::sync::LazyLock;

use granary::{GameName, Mancala, Setup};
use granary_rules::{Game, Kalah};
use granary_search::journal::{self, HEADER_LEN, RECORD_LEN};
use granary_search::{Contents, JournalError, kalah_solver};
use libfuzzer_sys::fuzz_target;

/// The game the journals are of: Kalah(4,3) from its start, as `granary solve` binds it.
static GAME: LazyLock<(Mancala, Kalah, String)> = LazyLock::new(|| {
    let setup = Setup {
        pits: Some(4),
        seeds: Some(3),
        ..Setup::default()
    };
    let game = setup.mancala(GameName::Kalah, None).expect("Kalah(4,3)");
    let Game::Kalah { capture, sweep } = game.variant.game else {
        unreachable!("a Kalah setup")
    };
    let rules = Kalah::new(game.variant.pits, capture, sweep);
    let binding = granary::journal::binding(&game);
    (game, rules, binding)
});

/// Puts the CRC-32 of `bytes[..len - 4]` in its last four bytes.
fn reseal(bytes: &mut [u8]) {
    let end = bytes.len() - 4;
    let crc = crc32fast::hash(&bytes[..end]);
    bytes[end..].copy_from_slice(&crc.to_le_bytes());
}

/// Whether two readings hold the same: every field, the floats bit for bit.
fn same(a: &Contents, b: &Contents) -> bool {
    a.bounds == b.bounds
        && a.runs == b.runs
        && a.nodes == b.nodes
        && a.seconds.to_bits() == b.seconds.to_bits()
        && a.bytes == b.bytes
        && a.result
            .as_ref()
            .map(|r| (r.value, r.all_moves, &r.pv, r.nodes, r.seconds.to_bits()))
            == b.result
                .as_ref()
                .map(|r| (r.value, r.all_moves, &r.pv, r.nodes, r.seconds.to_bits()))
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let mut bytes = rest.to_vec();
    if flags & 1 != 0 && bytes.len() >= HEADER_LEN {
        reseal(&mut bytes[..HEADER_LEN]);
    }
    if flags & 2 != 0 && bytes.len() > HEADER_LEN {
        for record in bytes[HEADER_LEN..].chunks_exact_mut(RECORD_LEN) {
            reseal(record);
        }
    }
    let (game, rules, binding) = &*GAME;
    let path = Path::new("fuzz.journal");
    let Ok(contents) = journal::parse(path, &bytes, binding) else {
        return;
    };
    let whole = contents.bytes;
    assert_eq!(
        whole + contents.torn,
        bytes.len() as u64,
        "every byte accounted for"
    );
    assert!(
        whole >= HEADER_LEN as u64 && (whole - HEADER_LEN as u64).is_multiple_of(RECORD_LEN as u64)
    );
    let cut = journal::parse(path, &bytes[..whole as usize], binding)
        .expect("a journal's whole records parse");
    assert_eq!(cut.torn, 0);
    assert!(
        same(&contents, &cut),
        "{contents:?} cut to {whole} bytes: {cut:?}"
    );
    if contents.bounds.is_empty() && contents.result.is_none() {
        return;
    }
    let solver = kalah_solver(rules, None, 1, false).expect("a 1 MiB solver");
    match solver.load_journal(&contents) {
        Ok(loaded) => assert!(loaded <= contents.merged().len()),
        Err(err) => assert!(matches!(err, JournalError::Impossible(_)), "{err}"),
    }
    for all_moves in [false, true] {
        if let Some(answer) = solver.answer_from_journal(&game.position, &contents, all_moves) {
            let recorded = contents.result.as_ref().expect("an answer from a result");
            assert_eq!(answer.value, recorded.value);
            assert_eq!(answer.pv, recorded.pv);
        }
    }
});
