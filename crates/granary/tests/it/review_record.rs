//! A record reviewed through the library's one entry point (`Tablebase::review_record`, as
//! every front end reviews) and written back: the review reads again and carries every ply's
//! figures; only an exact ply's mark ([`Exact::mark`], also in its JSON) replaces the
//! player's, and a ply with no exact value (estimated, beyond, every ply of Bao) keeps the
//! player's mark and comments; a move of another game is refused by name.

use granary::estimate::Budget;
use granary::game::GameMove;
use granary::record::{GameRecord, Mark};
use granary::review::{Exact, ReviewError, Verdict};
use granary::{AnyGame, GameName, Setup, Tablebase};
use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::SplitMix64;

use crate::record::play_choices;

/// Oware(4,2) awari: 16 seeds on the board at the start.
fn oware() -> (Setup, AnyGame) {
    let setup = Setup {
        pits: Some(4),
        seeds: Some(2),
        rules: Some("awari".into()),
        ..Setup::default()
    };
    let any = setup.any(GameName::Oware, None).unwrap();
    (setup, any)
}

/// A directory with `any`'s tables built to `seeds` seeds.
fn tables(any: &AnyGame, seeds: u32) -> (tempfile::TempDir, Tablebase) {
    let AnyGame::Mancala(game) = any else {
        panic!("bao has no tables")
    };
    let dir = tempfile::tempdir().unwrap();
    let tb = Tablebase::new(dir.path());
    granary::build(&tb, game.kind(), seeds, Some(2), None, &()).unwrap();
    (dir, tb)
}

/// The record of a game of `any` of at most `limit` plies, its moves drawn from `seed`.
fn random_record(setup: &Setup, any: &AnyGame, seed: u64, limit: usize) -> GameRecord {
    let mut rng = SplitMix64::seed_from_u64(seed);
    let mut left = limit;
    let moves = play_choices(any, |n| {
        left = left.checked_sub(1)?;
        Some((rng.next_u64() % n as u64) as usize)
    });
    GameRecord::new(any.name(), setup, None, &moves).unwrap()
}

/// The marks a player writes, in turn, on a record's moves: every kind, the review's among them.
const PLAYERS: [Option<Mark>; 5] = [
    Some(Mark::Mistake),
    Some(Mark::Good),
    Some(Mark::Blunder),
    None,
    Some(Mark::Interesting),
];

/// The record with the player's marks ([`PLAYERS`] in turn) and a comment on every move.
fn annotated(mut record: GameRecord) -> GameRecord {
    for (i, mv) in record.moves_mut().iter_mut().enumerate() {
        mv.mark = PLAYERS[i % PLAYERS.len()];
        mv.comments.push(format!("mine {}", i + 1));
    }
    record
}

/// The mark a move has once the review is written back: an exact ply's mark where it has one;
/// else, on an exact ply, the player's less a `?` or `??` (the review's words); else the
/// player's.
fn expected_mark(verdict: &Verdict, player: Option<Mark>) -> Option<Mark> {
    match verdict {
        Verdict::Exact(e) => e
            .mark()
            .or(player.filter(|m| !matches!(m, Mark::Mistake | Mark::Blunder))),
        Verdict::Estimated(_) | Verdict::Beyond { .. } => player,
    }
}

/// A review written back into a record reads again, carries every ply's figures in its
/// comments, and marks as [`expected_mark`] says: over games with exact plies marked and not,
/// each met; the exact plies' JSON carries the same mark. A second review replaces the first.
#[test]
fn a_review_written_back_reads_again_and_marks_only_the_exact_plies() {
    let (setup, any) = oware();
    let (_dir, tb) = tables(&any, 16);
    let (mut marked, mut unmarked) = (0, 0);
    for seed in 0..20 {
        let mut record = annotated(random_record(&setup, &any, seed, 30));
        record.comments.push("kept".into());
        let reviewed = tb.review_record(&record, 0.0, None, &()).unwrap();
        let review = &reviewed.review;
        let read = GameRecord::read(&reviewed.record).unwrap();
        assert_eq!(read, record.with_review(review));
        assert_eq!(read.comments[0], "kept");
        assert!(read.comments[1].starts_with("review: oware-4-awari tables; south: "));
        let json = serde_json::to_value(review).unwrap();
        let plies = json["plies"].as_array().unwrap();
        assert_eq!(plies.len(), record.moves().len());
        for (i, (mv, ply)) in read.moves().iter().zip(&review.plies).enumerate() {
            let e: &Exact = ply.exact().unwrap();
            assert_eq!(
                mv.mark,
                expected_mark(&ply.verdict, record.moves()[i].mark),
                "ply {}",
                ply.ply
            );
            assert_eq!(
                plies[i]["mark"],
                serde_json::json!(e.mark().map(Mark::text))
            );
            marked += usize::from(e.mark().is_some());
            unmarked += usize::from(e.mark().is_none());
            assert_eq!(mv.comments[0], format!("mine {}", i + 1));
            let review_comment = mv.comments.last().unwrap();
            assert!(
                review_comment.starts_with(&format!(
                    "review: value {:+}, played {:+}, loss {}, best ",
                    e.value, e.played, e.loss
                )),
                "{review_comment}"
            );
        }
        // Reviewed again: the same record, no comment doubled.
        assert_eq!(read.with_review(review).to_string(), reviewed.record);
    }
    assert!(
        marked > 0 && unmarked > 0,
        "{marked} marked, {unmarked} not"
    );
}

/// Above the tables a ply is beyond (no budget) or estimated (a budget): the player's marks,
/// `?` and `??` included, and comments stay; an exact ply in the same game is judged.
#[test]
fn a_ply_without_an_exact_value_keeps_the_players_mark() {
    let (setup, any) = oware();
    let (_dir, tb) = tables(&any, 12);
    let record = annotated(random_record(&setup, &any, 3, 40));
    for budget in [None, Some(Budget::Nodes(5_000))] {
        let reviewed = tb.review_record(&record, 0.0, budget, &()).unwrap();
        let read = GameRecord::read(&reviewed.record).unwrap();
        let mut kept = 0;
        let mut exact = 0;
        for ((mv, ply), given) in read
            .moves()
            .iter()
            .zip(&reviewed.review.plies)
            .zip(record.moves())
        {
            assert_eq!(mv.mark, expected_mark(&ply.verdict, given.mark));
            assert_eq!(&mv.comments[..1], &given.comments[..]);
            match (&ply.verdict, budget) {
                (Verdict::Beyond { .. }, None) | (Verdict::Estimated(_), Some(_)) => {
                    assert!(ply.exact().is_none());
                    kept += usize::from(matches!(given.mark, Some(Mark::Mistake | Mark::Blunder)));
                }
                (Verdict::Exact(_), _) => exact += 1,
                (verdict, _) => panic!("ply {}: {verdict:?} with budget {budget:?}", ply.ply),
            }
        }
        assert!(kept > 0 && exact > 0, "{kept} kept, {exact} exact");
    }
}

/// A Bao record reviews through the record entry point: every ply beyond, the player's `?`,
/// `??` and comments kept, the review's comments added; in JSON no ply has a value or a mark.
#[test]
fn a_bao_record_keeps_the_players_marks() {
    let dir = tempfile::tempdir().unwrap();
    let tb = Tablebase::new(dir.path());
    let record = GameRecord::read("[Game \"bao\"]\nA6R? {mine} a6L??\n").unwrap();
    let reviewed = tb.review_record(&record, 0.0, None, &()).unwrap();
    assert_eq!(reviewed.review.tables, None);
    let beyond = "{review: no exact value: bao has no endgame tables, so no exact value}";
    assert!(
        reviewed
            .record
            .ends_with(&format!("\nA6R? {{mine}} {beyond}\na6L?? {beyond}\n")),
        "{}",
        reviewed.record
    );
    let json = serde_json::to_value(&reviewed).unwrap();
    let plies = json["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 2);
    for (ply, mv) in plies.iter().zip(["A6R", "a6L"]) {
        assert_eq!(ply["answer"], "beyond");
        assert_eq!(ply["move"], mv);
        for key in ["value", "mark"] {
            assert!(ply.get(key).is_none(), "{ply}");
        }
    }
    assert_eq!(json["record"], reviewed.record.as_str());
    assert_eq!(json["setup"]["game"], "bao");
    assert_eq!(json["setup"]["moves"], serde_json::json!(["A6R", "a6L"]));
}

/// A move written as another game's is refused naming the game; an illegal Bao move keeps
/// Bao's error as its source.
#[test]
fn a_move_of_another_game_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let tb = Tablebase::new(dir.path());
    let (_, oware) = oware();
    let moves = [GameMove::Pit(1), GameMove::Bao("A6R".into())];
    let err = tb.review_game(&oware, &moves, 0.0, None, &()).unwrap_err();
    assert!(
        matches!(
            &err,
            ReviewError::MoveOfAnotherGame {
                ply: 2,
                game: GameName::Oware,
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "ply 2: move A6R cannot be played: a move of oware is a pit number"
    );
    assert!(err.is_input());
    let bao = Setup::default().any(GameName::Bao, None).unwrap();
    let err = tb
        .review_game(&bao, &[GameMove::Pit(3)], 0.0, None, &())
        .unwrap_err();
    assert!(
        matches!(
            &err,
            ReviewError::MoveOfAnotherGame {
                ply: 1,
                game: GameName::Bao,
                ..
            }
        ),
        "{err:?}"
    );
    let moves = [GameMove::Bao("A6R".into()), GameMove::Bao("A6R".into())];
    let err = tb.review_game(&bao, &moves, 0.0, None, &()).unwrap_err();
    assert!(
        matches!(
            &err,
            ReviewError::IllegalBao {
                ply: 2,
                source: granary::bao::BaoMoveError::WrongSide { .. },
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "ply 2: move A6R cannot be played: A6R is a pit of South; North is to move (pits a1..b8)"
    );
    assert!(std::error::Error::source(&err).is_some());
}
