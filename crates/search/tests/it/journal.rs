//! The solve journal against a plain minimax on the reference rules: a solve resumed from its
//! journal cut at every point a kill could leave (whole records, and a torn last one) gives the
//! minimax's value and root move values; a finished journal answers alone; every record holds
//! when proved again from scratch, and a false one does not.

use std::collections::HashMap;

use crate::common::minimax;
use std::sync::Arc;

use granary_rules::reference::Reference;
use granary_rules::{Capture, Game, Kalah, Side, Sweep, Variant};
use granary_search::journal::{self, HEADER_LEN, RECORD_LEN};
use granary_search::{Journal, Solver};

/// A game, its start's minimax value and each root move's `(lane, value)`.
type Case = (Game, Variant, i32, Vec<(usize, i32)>);

/// Kalah(3,3) under both capture rules (18 seeds, no tables).
fn cases() -> Vec<Case> {
    [Capture::Empty, Capture::Standard]
        .into_iter()
        .map(|capture| {
            let game = Game::Kalah {
                capture,
                sweep: Sweep::Owner,
            };
            let reference = Reference::new(game, 3);
            let start = reference.start(3);
            let mut memo = HashMap::new();
            let value = minimax(&reference, &start, &mut memo);
            let moves = reference
                .legal_moves(&start)
                .into_iter()
                .map(|pit| {
                    let child = reference.play(&start, pit);
                    let v = minimax(&reference, &child, &mut memo);
                    (pit, if child.to_move == Side::South { v } else { -v })
                })
                .collect();
            (game, Variant::new(game, 3, 3).unwrap(), value, moves)
        })
        .collect()
}

fn rules(game: Game) -> Kalah {
    let Game::Kalah { capture, sweep } = game else {
        unreachable!()
    };
    Kalah::new(3, capture, sweep)
}

#[test]
fn resumed_from_any_cut_of_its_journal_a_solve_gives_the_minimax_values() {
    for (game, variant, value, moves) in cases() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j");
        let binding = variant.to_string();
        // One solve through, every search of 16 nodes or more recorded.
        let (j, _) = Journal::open(&path, &binding).unwrap();
        let mut solver = Solver::new(rules(game), None, 1).unwrap();
        solver.set_journal(Arc::new(j), 16);
        let whole = solver.solve(&variant.start(), true).unwrap();
        assert_eq!(whole.value, value, "{variant}");
        drop(solver); // it holds the journal, locked
        let bytes = std::fs::read(&path).unwrap();
        let records = (bytes.len() - HEADER_LEN) / RECORD_LEN;
        assert!(records > 20, "{variant}: {records} records");
        // The journal as a kill would leave it at 12 points, a torn record at every other one.
        for k in 0..12 {
            let whole_records = records * k / 12;
            let torn = if k % 2 == 1 { 13 } else { 0 };
            let cut = HEADER_LEN + whole_records * RECORD_LEN + torn;
            std::fs::write(&path, &bytes[..cut]).unwrap();
            let (j, contents) = Journal::open(&path, &binding).unwrap();
            assert_eq!(contents.torn, torn as u64, "{variant} cut {k}");
            assert!(contents.bounds.len() <= whole_records);
            let mut solver = Solver::new(rules(game), None, 1).unwrap();
            solver.load_journal(&contents).unwrap();
            solver.set_journal(Arc::new(j), 16);
            let s = solver.solve(&variant.start(), true).unwrap();
            assert_eq!(s.value, value, "{variant} cut {k}");
            let got: Vec<(usize, Option<i32>)> =
                s.moves.iter().map(|r| (r.lane, r.worth.exact())).collect();
            let want: Vec<(usize, Option<i32>)> =
                moves.iter().map(|&(lane, v)| (lane, Some(v))).collect();
            assert_eq!(got, want, "{variant} cut {k}");
            // The resumed journal, finished, answers alone and agrees.
            let contents = journal::read(&path, &binding).unwrap();
            let answer = Solver::new(rules(game), None, 0)
                .unwrap()
                .answer_from_journal(&variant.start(), &contents, true)
                .expect("a finished journal answers");
            assert_eq!(answer.value, value);
            assert_eq!(answer.moves, s.moves, "{variant} cut {k}");
            assert_eq!(answer.pv, s.pv);
        }
    }
}

#[test]
fn every_record_rechecks_and_a_false_one_fails() {
    for (game, variant, ..) in cases() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j");
        let binding = variant.to_string();
        let (j, _) = Journal::open(&path, &binding).unwrap();
        let mut solver = Solver::new(rules(game), None, 1).unwrap();
        solver.set_journal(Arc::new(j), 16);
        solver.solve(&variant.start(), false).unwrap();
        let contents = journal::read(&path, &binding).unwrap();
        let merged = contents.merged();
        assert!(merged.len() > 10, "{variant}");
        for (&board, &(lower, upper, _)) in &merged {
            let fresh = Solver::new(rules(game), None, 1).unwrap();
            let (lower, upper) = (i32::from(lower), i32::from(upper));
            assert!(
                fresh.check_bound(board, lower, upper).0,
                "{variant} {board:?}"
            );
            // A bound two above the true lower one is false (values keep the seeds' parity).
            let n = board.seeds(3) as i32;
            if lower == upper && lower + 2 <= n {
                let fresh = Solver::new(rules(game), None, 1).unwrap();
                assert!(
                    !fresh.check_bound(board, lower + 2, n).0,
                    "{variant} {board:?}"
                );
            }
        }
        // A journal's result is not an answer for every move when it solved only the best.
        assert!(
            Solver::new(rules(game), None, 0)
                .unwrap()
                .answer_from_journal(&variant.start(), &contents, true)
                .is_none()
        );
    }
}

#[test]
fn a_journal_in_use_and_impossible_records_are_refused() {
    let (game, variant, ..) = cases().remove(0);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("j");
    let binding = variant.to_string();
    let (j, _) = Journal::open(&path, &binding).unwrap();
    // A second solve on the same journal while the first has it.
    assert!(matches!(
        Journal::open(&path, &binding),
        Err(granary_search::JournalError::Busy { .. })
    ));
    // Bounds beyond the seeds on the board; then a board with seeds beyond the game's pits.
    let board = granary_rules::Board(0x0303_0303_0303);
    j.bound(board, 20, 20, None, 1).unwrap();
    let contents = journal::read(&path, &binding).unwrap();
    let solver = Solver::new(rules(game), None, 1).unwrap();
    assert!(solver.load_journal(&contents).is_err());
    drop(j);
    std::fs::remove_file(&path).unwrap();
    let (j, _) = Journal::open(&path, &binding).unwrap();
    j.bound(granary_rules::Board(1 << 100), 0, 0, None, 1)
        .unwrap();
    let contents = journal::read(&path, &binding).unwrap();
    assert!(solver.load_journal(&contents).is_err());
    // Consistent records load.
    drop(j);
    std::fs::remove_file(&path).unwrap();
    let (j, _) = Journal::open(&path, &binding).unwrap();
    j.bound(board, -4, 6, Some(1), 1).unwrap();
    let contents = journal::read(&path, &binding).unwrap();
    assert_eq!(solver.load_journal(&contents).unwrap(), 1);
}
