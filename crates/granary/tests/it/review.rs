//! `Tablebase::review`, a game reviewed against perfect play: perfect games lose nothing, moves
//! known to lose are marked with losses that two independent answers confirm, illegal moves
//! are typed errors naming ply and move, and positions beyond what is answered carry no number.

use granary::review::{Ply, ReviewError, Verdict};
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
    let review = tb.review(game, &moves, f64::INFINITY, &()).unwrap();
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
    let review = tb.review(game, &moves, f64::INFINITY, &()).unwrap();
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
        let err = tb.review(&game, moves, f64::INFINITY, &()).unwrap_err();
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
    let err = tb.review(&game, &moves, f64::INFINITY, &()).unwrap_err();
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
    let full = full_tb.review(game, &moves, f64::INFINITY, &()).unwrap();
    let low = seeds(game, &before[moves.len() / 2]);
    assert!(low < seeds(game, &game.position), "no capture in {moves:?}");
    let (_dir, tb) = tables(game, low);
    let review = tb.review(game, &moves, limit, &()).unwrap();
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
