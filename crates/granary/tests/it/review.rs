//! `Tablebase::review`, a game reviewed against perfect play: perfect games lose nothing, moves
//! known to lose are marked with losses that two independent answers confirm, illegal moves
//! are typed errors naming ply and move, and positions beyond what is answered carry no number,
//! or the engine's estimates in fields of their own, never marked.

use granary::estimate::Budget;
use granary::review::{Ply, PlyEstimate, ReviewError, Verdict, Watch};
use granary::{GameName, Mancala, MoveError, Position, Query, Record, Setup, Status, Tablebase};

fn game(name: GameName, rules: &str, pits: usize, seeds: u32) -> Mancala {
    Setup {
        pits: Some(pits),
        seeds: Some(seeds),
        rules: Some(rules.into()),
        ..Setup::default()
    }
    .mancala(name, None)
    .unwrap()
}

/// Kalah(4,3) and awari Oware(4,2) from their starts.
fn kalah() -> Mancala {
    game(GameName::Kalah, "standard", 4, 3)
}

fn oware() -> Mancala {
    game(GameName::Oware, "awari", 4, 2)
}

/// Seeds on the board of `pos`.
fn seeds(game: &Mancala, pos: &Position) -> u32 {
    pos.board.seeds(game.variant.pits)
}

/// A directory with `game`'s tables built to `seeds` seeds.
fn tables(game: &Mancala, seeds: u32) -> (tempfile::TempDir, Tablebase) {
    let dir = tempfile::tempdir().unwrap();
    let tb = Tablebase::new(dir.path());
    granary::build(&tb, game.kind(), seeds, Some(2), None, &()).unwrap();
    (dir, tb)
}

/// The answer for `pos` from `tb` (which holds it).
fn answer(tb: &Tablebase, game: &Mancala, pos: Position) -> Query {
    let here = Mancala {
        variant: game.variant,
        position: pos,
    };
    tb.query(&here).unwrap()
}

/// A game played from `game`'s start by the rules of play, at most 200 plies: `pick` chooses a
/// pit from the answer at each ply (and the ply, 1-based). Returns the moves and the positions
/// before each.
fn play(
    tb: &Tablebase,
    game: &Mancala,
    pick: impl Fn(usize, &Query) -> usize,
) -> (Vec<usize>, Vec<Position>) {
    let rules = game.variant.engine();
    let mut record = Record::new(&rules, game.position);
    let (mut moves, mut before) = (Vec::new(), Vec::new());
    while record.status() == Status::Ongoing && moves.len() < 200 {
        let pos = *record.current();
        let pit = pick(moves.len() + 1, &answer(tb, game, pos));
        record.play(pit).unwrap();
        moves.push(pit);
        before.push(pos);
    }
    (moves, before)
}

/// A best move, varied by ply so that games differ from the first best move's line.
fn best(ply: usize, q: &Query) -> usize {
    q.best[ply % q.best.len()]
}

/// The value of playing `child` from `pos` for `pos`'s mover, given `child`'s value for its own
/// mover: worked out here from stores, apart from the library's conversion.
fn for_mover(pos: &Position, child: &Position, value: i32) -> i32 {
    let again = child.to_move == pos.to_move;
    let (gain, _) = pos.move_gain(child);
    if again { gain + value } else { gain - value }
}

/// `win`, `draw` or `loss` for `pos`'s mover when they make `value` of the seeds on the board.
fn result(pos: &Position, value: i32) -> &'static str {
    let lead = i32::from(pos.stores[0]) - i32::from(pos.stores[1]);
    match (lead + value).signum() {
        1 => "win",
        0 => "draw",
        _ => "loss",
    }
}

fn exact(ply: &Ply) -> &granary::review::Exact {
    ply.exact()
        .unwrap_or_else(|| panic!("ply {} has no value", ply.ply))
}

/// Checks each side's summary against its plies.
fn check_sides(review: &granary::Review) {
    for (index, side) in ["south", "north"].into_iter().enumerate() {
        let mine: Vec<&Ply> = review
            .plies
            .iter()
            .filter(|p| p.side.name() == side)
            .collect();
        let valued: Vec<&granary::review::Exact> = mine.iter().filter_map(|p| p.exact()).collect();
        let summary = &review.sides[index];
        assert_eq!(summary.played, mine.len(), "{side}");
        assert_eq!(summary.exact, valued.len(), "{side}");
        assert_eq!(
            summary.kept,
            valued.iter().filter(|e| e.loss == 0).count(),
            "{side}"
        );
        assert_eq!(
            summary.lost,
            valued.iter().map(|e| i64::from(e.loss)).sum::<i64>(),
            "{side}"
        );
        let first = mine
            .iter()
            .find(|p| p.exact().is_some_and(|e| e.changed))
            .map(|p| p.ply);
        assert_eq!(summary.first_change, first, "{side}");
    }
}

/// Perfect play by both sides loses nothing and changes no result; every ply's values are the
/// tables' for the position before it.
fn perfect_play_loses_nothing(game: &Mancala, tb: &Tablebase) {
    let (moves, before) = play(tb, game, best);
    assert!(moves.len() > 4, "{moves:?}");
    let review = tb.review(game, &moves, f64::INFINITY, None, &()).unwrap();
    assert_eq!(review.tables, Some(game.kind().name()));
    assert_eq!(review.plies.len(), moves.len());
    for (i, ply) in review.plies.iter().enumerate() {
        let q = answer(tb, game, before[i]);
        assert_eq!(ply.ply, i + 1);
        assert_eq!((ply.mv.pit(), ply.side.name()), (Some(moves[i]), q.to_move));
        assert_eq!(ply.position, q.position);
        let e = exact(ply);
        assert_eq!(
            (e.value, e.played, e.loss),
            (q.value, q.value, 0),
            "ply {}",
            i + 1
        );
        assert_eq!(
            (e.best.clone(), e.result.name()),
            (q.best.clone(), q.result)
        );
        assert_eq!((e.result_after.name(), e.changed), (q.result, false));
        assert_eq!(e.source, granary::Source::Tables);
    }
    for side in &review.sides {
        assert!(side.played > 0);
        assert_eq!((side.exact, side.kept), (side.played, side.played));
        assert_eq!((side.lost, side.first_change), (0, None));
    }
    check_sides(&review);
}

#[test]
fn perfect_play_loses_nothing_in_kalah_extra_turns_included() {
    let game = kalah();
    let (_dir, tb) = tables(&game, seeds(&game, &game.position));
    perfect_play_loses_nothing(&game, &tb);
    // The game reviewed has a side moving twice running (each ply's side is checked above).
    let (moves, before) = play(&tb, &game, best);
    assert!(
        before.windows(2).any(|w| w[0].to_move == w[1].to_move),
        "no extra turn in {moves:?}"
    );
}

#[test]
fn perfect_play_loses_nothing_in_oware() {
    let game = oware();
    let (_dir, tb) = tables(&game, seeds(&game, &game.position));
    perfect_play_loses_nothing(&game, &tb);
}

/// A game where every third ply plays the worst move: exactly the plies whose worst move is
/// worse than the best are marked, each loss the difference of two answers of a second,
/// separate tablebase (the position before, and the position after the move converted to the
/// mover's side).
fn known_losses_are_marked(game: &Mancala, dir: &tempfile::TempDir, tb: &Tablebase) {
    let worst = |ply: usize, q: &Query| {
        if ply % 3 == 2 {
            q.moves.iter().min_by_key(|m| m.value).unwrap().pit
        } else {
            best(ply, q)
        }
    };
    let (moves, before) = play(tb, game, worst);
    let review = tb.review(game, &moves, f64::INFINITY, None, &()).unwrap();
    let other = Tablebase::new(dir.path());
    let rules = game.variant.engine();
    let mut marked = Vec::new();
    let mut expected = Vec::new();
    for (i, ply) in review.plies.iter().enumerate() {
        let pos = before[i];
        let q = answer(&other, game, pos);
        let mut record = Record::new(&rules, pos);
        record.play(moves[i]).unwrap();
        let child = *record.current();
        let after = answer(&other, game, child);
        let played = for_mover(&pos, &child, after.value);
        let loss = q.value - played;
        assert!(loss >= 0);
        if loss > 0 {
            expected.push(i + 1);
        }
        let e = exact(ply);
        if e.loss > 0 {
            marked.push(ply.ply);
        }
        assert_eq!(
            (e.value, e.played, e.loss),
            (q.value, played, loss),
            "ply {}",
            i + 1
        );
        assert_eq!(e.result.name(), result(&pos, q.value));
        assert_eq!(e.result_after.name(), result(&pos, played));
        assert_eq!(e.changed, e.result != e.result_after);
    }
    let changed: Vec<bool> = marked
        .iter()
        .map(|&p| exact(&review.plies[p - 1]).changed)
        .collect();
    assert!(
        changed.contains(&true) && changed.contains(&false),
        "{changed:?}"
    );
    let chosen: Vec<usize> = (1..=moves.len())
        .filter(|&p| p % 3 == 2)
        .filter(|&p| {
            let q = answer(&other, game, before[p - 1]);
            q.moves.iter().any(|m| m.value < q.value)
        })
        .collect();
    assert!(!chosen.is_empty());
    assert_eq!(marked, chosen);
    assert_eq!(expected, chosen);
    check_sides(&review);
}

#[test]
fn known_losses_are_marked_in_kalah() {
    let game = kalah();
    let (dir, tb) = tables(&game, seeds(&game, &game.position));
    known_losses_are_marked(&game, &dir, &tb);
}

#[test]
fn known_losses_are_marked_in_oware() {
    let game = oware();
    let (dir, tb) = tables(&game, seeds(&game, &game.position));
    known_losses_are_marked(&game, &dir, &tb);
}

#[test]
fn an_illegal_move_names_its_ply_and_move_before_anything_is_answered() {
    // No tables at all: the moves are checked first.
    let dir = tempfile::tempdir().unwrap();
    let tb = Tablebase::new(dir.path());
    let game = kalah();
    let cases: [(&[usize], usize, usize, MoveError, &str); 3] = [
        (
            &[1, 5],
            2,
            5,
            MoveError::NoSuchPit { pit: 5, pits: 4 },
            "ply 2: move 5 cannot be played: pit 5 does not exist: pits are numbered 1 to 4",
        ),
        (
            &[0],
            1,
            0,
            MoveError::NoSuchPit { pit: 0, pits: 4 },
            "ply 1: move 0 cannot be played: pit 0 does not exist: pits are numbered 1 to 4",
        ),
        // South's 1 sows 2, 3, 4; North's 1 likewise; South's pit 1 is empty.
        (
            &[1, 1, 1],
            3,
            1,
            MoveError::EmptyPit(1),
            "ply 3: move 1 cannot be played: pit 1 is empty",
        ),
    ];
    for (moves, ply, pit, source, message) in cases {
        let err = tb
            .review(&game, moves, f64::INFINITY, None, &())
            .unwrap_err();
        assert_eq!(err.to_string(), message);
        match err {
            ReviewError::Illegal {
                ply: p,
                pit: m,
                source: s,
            } => assert_eq!((p, m, s), (ply, pit, source)),
            other => panic!("{other}"),
        }
    }
}

#[test]
fn a_move_after_the_end_is_illegal() {
    let game = kalah();
    let (_dir, tb) = tables(&game, seeds(&game, &game.position));
    let (mut moves, _) = play(&tb, &game, best);
    let n = moves.len();
    moves.push(1);
    let err = tb
        .review(&game, &moves, f64::INFINITY, None, &())
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("ply {}: move 1 cannot be played: the game is over", n + 1)
    );
    assert!(matches!(
        err,
        ReviewError::Illegal { ply, pit: 1, source: MoveError::GameOver } if ply == n + 1
    ));
}

/// Reviews a perfect game of `game` against tables built only to the seeds on the board at its
/// middle ply, with searches allowed `limit` seconds: a ply above those tables is either
/// beyond (`searched` false), saying why and carrying no number, or searched exactly to the full
/// tables' values; a ply the tables hold is the full review's. Returns the reasons given.
fn above_the_tables(game: &Mancala, limit: f64, searched: bool) -> Vec<String> {
    let (_full_dir, full_tb) = tables(game, seeds(game, &game.position));
    let (moves, before) = play(&full_tb, game, best);
    let full = full_tb
        .review(game, &moves, f64::INFINITY, None, &())
        .unwrap();
    let low = seeds(game, &before[moves.len() / 2]);
    assert!(low < seeds(game, &game.position), "no capture in {moves:?}");
    let (_dir, tb) = tables(game, low);
    let review = tb.review(game, &moves, limit, None, &()).unwrap();
    let mut reasons = Vec::new();
    let mut held = 0;
    for ((ply, whole), pos) in review.plies.iter().zip(&full.plies).zip(&before) {
        assert_eq!(
            (ply.ply, ply.side, &ply.mv, &ply.position),
            (whole.ply, whole.side, &whole.mv, &whole.position)
        );
        let json = serde_json::to_value(ply).unwrap();
        if seeds(game, pos) <= low {
            held += 1;
            assert_eq!(ply, whole);
            assert_eq!(json["answer"], "exact");
            assert_eq!(json["value"], exact(whole).value);
        } else if searched {
            let (mine, theirs) = (exact(ply), exact(whole));
            assert_eq!(mine.source, granary::Source::Search);
            assert_eq!(
                (mine.value, mine.played, &mine.best, mine.loss),
                (theirs.value, theirs.played, &theirs.best, theirs.loss),
                "ply {}",
                ply.ply
            );
        } else {
            let Verdict::Beyond { reason } = &ply.verdict else {
                panic!("ply {} above the tables has a value", ply.ply);
            };
            assert_eq!(json["answer"], "beyond");
            assert_eq!(json["reason"], reason.as_str());
            for key in ["value", "played", "loss", "best", "result", "changed"] {
                assert!(json.get(key).is_none(), "{json}");
            }
            reasons.push(reason.clone());
        }
    }
    assert!(held > 0 && held < moves.len());
    let exact_plies = review.sides[0].exact + review.sides[1].exact;
    let played = review.sides[0].played + review.sides[1].played;
    assert_eq!(played, moves.len());
    assert_eq!(exact_plies, if searched { played } else { held });
    check_sides(&review);
    reasons
}

#[test]
fn oware_above_its_tables_is_beyond_with_a_reason_and_no_number() {
    let reasons = above_the_tables(&oware(), f64::INFINITY, false);
    assert!(!reasons.is_empty());
    for reason in reasons {
        assert!(
            reason.ends_with("and oware is answered from tables alone"),
            "{reason}"
        );
    }
}

#[test]
fn kalah_above_its_tables_is_searched_within_the_limit_and_beyond_it_otherwise() {
    assert!(above_the_tables(&kalah(), f64::INFINITY, true).is_empty());
    let reasons = above_the_tables(&kalah(), 0.0, false);
    assert!(!reasons.is_empty());
    for reason in reasons {
        assert!(reason.contains("the search would take about"), "{reason}");
    }
}

/// The estimates of two reviews of the same game within the same node budget, their times
/// aside.
fn same_estimates(a: &PlyEstimate, b: &PlyEstimate) -> bool {
    let timeless = |e: &PlyEstimate| {
        let mut e = e.clone();
        e.estimate.seconds = 0.0;
        e
    };
    timeless(a) == timeless(b)
}

#[test]
fn oware_above_its_tables_carries_the_engines_estimates_labelled_and_never_marked() {
    let game = oware();
    let (_full_dir, full_tb) = tables(&game, seeds(&game, &game.position));
    // Perfect play, but the worst move at ply 2 (above the small tables below).
    let pick = |ply: usize, q: &Query| {
        if ply == 2 {
            q.moves.iter().min_by_key(|m| m.value).unwrap().pit
        } else {
            best(ply, q)
        }
    };
    let (moves, before) = play(&full_tb, &game, pick);
    let full = full_tb
        .review(&game, &moves, f64::INFINITY, None, &())
        .unwrap();
    let low = seeds(&game, &before[moves.len() / 2]);
    let (_dir, tb) = tables(&game, low);
    let budget = Some(Budget::Nodes(20_000));
    let plain = tb.review(&game, &moves, f64::INFINITY, None, &()).unwrap();
    let review = tb
        .review(&game, &moves, f64::INFINITY, budget, &())
        .unwrap();
    let again = tb
        .review(&game, &moves, f64::INFINITY, budget, &())
        .unwrap();
    let (mut estimated, mut exact_plies) = (0, 0);
    for (i, ply) in review.plies.iter().enumerate() {
        let json = serde_json::to_value(ply).unwrap();
        match &plain.plies[i].verdict {
            Verdict::Exact(_) => {
                exact_plies += 1;
                assert_eq!(ply, &plain.plies[i], "an exact ply is as it was");
            }
            Verdict::Beyond { reason } => {
                estimated += 1;
                let e = ply
                    .estimated()
                    .unwrap_or_else(|| panic!("ply {} has no estimate", ply.ply));
                assert_eq!(&e.reason, reason);
                assert_eq!(ply.verdict.reason(), Some(reason.as_str()));
                assert_eq!(json["answer"], "estimated");
                for key in ["value", "played", "loss", "best", "result", "changed"] {
                    assert!(json.get(key).is_none(), "{json}");
                }
                assert_eq!(json["estimate"]["value"], e.estimate.value);
                assert_eq!(json["estimated_loss"], e.estimated_loss);
                assert_eq!(e.estimated_loss, e.estimate.value - e.estimate_played);
                assert!(e.estimated_loss >= 0, "{e:?}");
                assert!(e.estimate.depth >= 1 && e.estimate.nodes > 0, "{e:?}");
                assert_eq!(
                    e.estimated_best.contains(&moves[i]),
                    e.estimated_loss == 0,
                    "{e:?}"
                );
                // A search that met only exact leaves is the tables' value.
                if e.estimate.every_leaf_exact {
                    let whole = exact(&full.plies[i]);
                    assert_eq!(
                        (e.estimate.value, e.estimate_played),
                        (whole.value, whole.played),
                        "ply {}",
                        ply.ply
                    );
                }
                // The same budget, the same estimates.
                assert!(same_estimates(e, again.plies[i].estimated().unwrap()));
            }
            Verdict::Estimated(_) => panic!("estimated with no budget"),
        }
    }
    assert!(
        estimated > 0 && exact_plies > 0,
        "{estimated} {exact_plies}"
    );
    for (side, (mine, theirs)) in review.sides.iter().zip(&plain.sides).enumerate() {
        let own: Vec<&PlyEstimate> = review
            .plies
            .iter()
            .filter(|p| usize::from(p.side.name() == "north") == side)
            .filter_map(Ply::estimated)
            .collect();
        assert_eq!(mine.estimated, own.len());
        assert_eq!(
            mine.estimated_lost,
            own.iter().map(|e| i64::from(e.estimated_loss)).sum::<i64>()
        );
        assert_eq!(
            (
                mine.played,
                mine.exact,
                mine.kept,
                mine.lost,
                mine.first_change
            ),
            (
                theirs.played,
                theirs.exact,
                theirs.kept,
                theirs.lost,
                theirs.first_change
            )
        );
    }
    check_sides(&review);
    // Written back: the estimates in words, and no mark but the exact losses'.
    let record = granary::GameRecord::new(
        GameName::Oware,
        &Setup {
            pits: Some(4),
            seeds: Some(2),
            rules: Some("awari".into()),
            ..Setup::default()
        },
        None,
        &moves
            .iter()
            .map(|&m| granary::GameMove::Pit(m))
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let with = record.with_review(&review);
    let marks = record.with_review(&plain);
    for ((mv, plain_mv), ply) in with.moves().iter().zip(marks.moves()).zip(&review.plies) {
        assert_eq!(mv.mark, plain_mv.mark, "ply {}", ply.ply);
        if let Some(e) = ply.estimated() {
            assert_eq!(mv.mark, None);
            let comment = mv.comments.last().unwrap();
            assert!(comment.starts_with("review: estimate: best "), "{comment}");
            assert!(comment.ends_with(&format!("no exact value: {}", e.reason)));
        }
    }
}

/// Cancels the review once ply `after` is told.
struct CancelAfter {
    cancel: granary::Cancel,
    after: usize,
}

impl Watch for CancelAfter {
    fn cancel(&self) -> Option<&granary::Cancel> {
        Some(&self.cancel)
    }

    fn ply(&self, ply: &Ply, _total: usize) {
        if ply.ply == self.after {
            self.cancel.cancel();
        }
    }
}

#[test]
fn a_review_that_estimates_stops_at_its_cancel() {
    // No tables: every ply of Oware(4,2) is estimated, an hour a ply.
    let dir = tempfile::tempdir().unwrap();
    let tb = Tablebase::new(dir.path());
    let game = oware();
    let hour = Some(Budget::Time(std::time::Duration::from_secs(3600)));
    let watch = CancelAfter {
        cancel: granary::Cancel::new(),
        after: 1,
    };
    // Cancelled before it begins: nothing is searched (were the engine's hour searched, the
    // test would not end).
    watch.cancel.cancel();
    let err = tb
        .review(&game, &[1, 1], f64::INFINITY, hour, &watch)
        .unwrap_err();
    assert!(
        matches!(
            err,
            ReviewError::Cancelled {
                ply: 1,
                done: 0,
                total: 2
            }
        ),
        "{err}"
    );
    let watch = CancelAfter {
        cancel: granary::Cancel::new(),
        after: 1,
    };
    let nodes = Some(Budget::Nodes(2_000));
    let err = tb
        .review(&game, &[1, 1], f64::INFINITY, nodes, &watch)
        .unwrap_err();
    assert!(
        matches!(
            err,
            ReviewError::Cancelled {
                ply: 2,
                done: 1,
                total: 2
            }
        ),
        "{err}"
    );
}
