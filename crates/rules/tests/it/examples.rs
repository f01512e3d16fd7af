//! The worked examples of `docs/rules/kalah.md` and `docs/rules/oware.md`, each a position, moves
//! and the expected result in notation. Sources are named beside each.

use granary_rules::notation::{format_position, parse_position};
use granary_rules::{Capture, Game, GameEnd, OwareRules, Record, Rules, Status, Sweep, Variant};

const KALAH: Game = Game::Kalah {
    capture: Capture::Empty,
    sweep: Sweep::Owner,
};
const KALAH_STANDARD: Game = Game::Kalah {
    capture: Capture::Standard,
    sweep: Sweep::Owner,
};
const KALAH_EMPTIED: Game = Game::Kalah {
    capture: Capture::Empty,
    sweep: Sweep::Emptied,
};
const ABAPA: Game = Game::Oware {
    rules: OwareRules::Abapa,
};
const AWARI: Game = Game::Oware {
    rules: OwareRules::Awari,
};

/// Plays `moves` (pit numbers) from `position`; the position after them, and the status.
fn after(game: Game, position: &str, moves: &[usize]) -> (String, Status) {
    let (start, m) = parse_position(position, None).unwrap();
    let engine = Variant::new(game, m, 1).unwrap().engine();
    let mut record = Record::new(&engine, start);
    for &pit in moves {
        record
            .play(pit)
            .unwrap_or_else(|e| panic!("{position} pit {pit}: {e}"));
    }
    (format_position(record.current(), m), record.status())
}

fn legal(game: Game, position: &str) -> Vec<usize> {
    let (pos, m) = parse_position(position, None).unwrap();
    Variant::new(game, m, 1)
        .unwrap()
        .engine()
        .legal_moves(&pos)
        .iter()
        .map(|l| l + 1)
        .collect()
}

fn over(stores: [u32; 2]) -> Status {
    Status::Over {
        end: GameEnd::Rules(granary_rules::End::Finished),
        stores,
    }
}

// ---- Oware ----

#[test]
fn oware_sowing_311112_gives_022212() {
    // The Japanese Oware blog post: own pits "311112", sowing the 3 gives "022212".
    let (pos, _) = after(ABAPA, "3,1,1,1,1,2/1,1,1,1,1,1 0-0 S", &[1]);
    assert_eq!(pos, "0,2,2,2,1,2/1,1,1,1,1,1 0-0 N");
}

#[test]
fn oware_twelve_seeds_skip_the_origin() {
    // Japanese Wikipedia and the blog post: with 12 or more seeds the origin pit is skipped.
    let (pos, _) = after(ABAPA, "0,0,12,0,0,0/5,5,5,5,5,5 0-0 S", &[3]);
    assert_eq!(pos, "1,1,0,2,1,1/6,6,6,6,6,6 0-0 N");
}

#[test]
fn oware_capture_goes_back_while_2_or_3_and_stops_at_own_side() {
    // Last seed on N3 makes it 3; N2 holds 2, N1 holds 2; captures stop at South's own row.
    let (pos, _) = after(ABAPA, "0,0,0,0,0,3/1,1,2,4,1,0 0-0 S", &[6]);
    assert_eq!(pos, "0,0,0,0,0,0/0,0,0,4,1,0 7-0 N");
    // A pit of 4 in the chain stops it: only N4 (now 2) is taken... here N4 becomes 5, so nothing.
    let (pos, _) = after(ABAPA, "0,0,0,0,0,4/1,1,1,4,1,0 0-0 S", &[6]);
    assert_eq!(pos, "0,0,0,0,0,0/2,2,2,5,1,0 0-0 N");
}

#[test]
fn oware_grand_slam_003222() {
    // The blog post: the opponent's row, seen by the mover, ends as 003222 (N6..N1) with the last
    // seed on the 3: taking 3-2-2-2 would empty it, so nothing is captured (abapa).
    let start = "1,0,0,0,0,4/1,1,1,2,0,0 0-0 S";
    let (pos, _) = after(ABAPA, start, &[6]);
    assert_eq!(pos, "1,0,0,0,0,0/2,2,2,3,0,0 0-0 N");
    // Awari: the grand slam leaves North without seeds, so it is illegal while pit 1 is not...
    assert_eq!(legal(AWARI, start), vec![1]);
    // ...and when every move starves North it is played in full, captures included; North,
    // left without seeds, cannot move and South takes the rest (none).
    // (North's store of 9 keeps South's 9 from being a majority of the 18 seeds.)
    let (pos, status) = after(AWARI, "0,0,0,0,0,4/1,1,1,2,0,0 0-9 S", &[6]);
    assert_eq!(pos, "0,0,0,0,0,0/0,0,0,0,0,0 9-9 N");
    assert_eq!(status, over([9, 9]));
}

#[test]
fn oware_must_feed_an_opponent_without_seeds() {
    // Japanese Wikipedia, the blog post: North has no seeds, so South must sow into North's row
    // if it can.
    assert_eq!(legal(ABAPA, "3,0,0,0,0,1/0,0,0,0,0,0 0-0 S"), vec![6]);
    assert_eq!(legal(AWARI, "3,0,0,0,0,1/0,0,0,0,0,0 0-0 S"), vec![6]);
}

#[test]
fn oware_cannot_feed_ends_the_game() {
    // Abapa: no move reaches North, so the game ends and South takes the seeds on its side.
    let pos = "1,1,0,0,0,0/0,0,0,0,0,0 10-12 S";
    assert!(legal(ABAPA, pos).is_empty());
    assert_eq!(after(ABAPA, pos, &[]).1, over([12, 12]));
    // Awari: both moves starve North, so both are legal; after either North cannot move and
    // South takes the rest: the same final score, one move later.
    assert_eq!(legal(AWARI, pos), vec![1, 2]);
    assert_eq!(
        after(AWARI, pos, &[2]),
        (
            "1,0,1,0,0,0/0,0,0,0,0,0 10-12 N".to_string(),
            over([12, 12])
        )
    );
}

#[test]
fn oware_majority_ends_play() {
    // 25 of 48 seeds: the game is over, the board as it stands.
    let (_, status) = after(ABAPA, "1,1,1,1,1,1/1,1,1,1,1,1 25-11 S", &[]);
    assert_eq!(
        status,
        Status::Over {
            end: GameEnd::Rules(granary_rules::End::Majority),
            stores: [25, 11]
        }
    );
    assert!(legal(ABAPA, "1,1,1,1,1,1/1,1,1,1,1,1 24-12 S").len() == 6);
}

#[test]
fn oware_repetition_ends_play() {
    // Two seeds chasing each other round a 2x2 board never meet: the position repeats.
    let game = Game::Oware {
        rules: OwareRules::Abapa,
    };
    let (_, status) = after(game, "1,0/1,0 0-0 S", &[1, 1, 2, 2]);
    assert_eq!(
        status,
        Status::Over {
            end: GameEnd::Repetition,
            stores: [1, 1]
        }
    );
}

// ---- Kalah ----

#[test]
fn kalah_last_seed_in_own_store_moves_again() {
    // Irving et al.: pit 3 of the 6x4 start ends in South's store; South moves again.
    let (pos, _) = after(KALAH, "4,4,4,4,4,4/4,4,4,4,4,4", &[3]);
    assert_eq!(pos, "4,4,0,5,5,5/4,4,4,4,4,4 1-0 S");
}

#[test]
fn kalah_skips_opponent_store_and_refills_origin() {
    // 13 seeds from S3 on a 6-pit board: one in every pit and South's store, none in North's,
    // the last back in the (emptied) origin, which captures it and the facing N4 (2 + 1).
    let (pos, _) = after(KALAH, "0,0,13,0,0,0/0,0,0,2,0,0 0-0 S", &[3]);
    assert_eq!(pos, "1,1,0,1,1,1/1,1,1,0,1,1 5-0 N");
}

#[test]
fn kalah_capture_rules_differ_on_an_empty_opposite_pit() {
    // S1 sows its seed into empty S2; the facing pit N5 is empty.
    let start = "1,0,0,0,0,5/2,0,0,0,0,0 0-0 S";
    // "empty" (Irving et al.): the last seed is captured alone.
    assert_eq!(after(KALAH, start, &[1]).0, "0,0,0,0,0,5/2,0,0,0,0,0 1-0 N");
    // "standard": nothing is captured.
    assert_eq!(
        after(KALAH_STANDARD, start, &[1]).0,
        "0,1,0,0,0,5/2,0,0,0,0,0 0-0 N"
    );
    // With seeds opposite, both capture them with the last seed.
    let start = "1,0,0,0,0,5/2,0,0,0,3,0 0-0 S";
    assert_eq!(
        after(KALAH_STANDARD, start, &[1]).0,
        "0,0,0,0,0,5/2,0,0,0,0,0 4-0 N"
    );
    assert_eq!(after(KALAH, start, &[1]).0, "0,0,0,0,0,5/2,0,0,0,0,0 4-0 N");
}

#[test]
fn kalah_sweep_rules_differ_when_a_side_empties() {
    // S6's last seed goes to the store (another move), but South's row is now empty: the game
    // ends at once. "owner": North keeps the 5 on its side; "emptied" (Japanese Wikipedia): South,
    // whose side became empty, takes them.
    let start = "0,0,0,0,0,1/2,3,0,0,0,0 10-12 S";
    assert_eq!(after(KALAH, start, &[6]).1, over([11, 17]));
    assert_eq!(after(KALAH_EMPTIED, start, &[6]).1, over([16, 12]));
}

#[test]
fn kalah_game_ends_when_the_opponent_is_emptied_by_a_capture() {
    // S1 -> S2 empty, captures N5's 3, North's last seeds: game over, South sweeps its own.
    let (pos, status) = after(KALAH, "1,0,0,0,0,5/0,0,0,0,3,0 0-0 S", &[1]);
    assert_eq!(pos, "0,0,0,0,0,5/0,0,0,0,0,0 4-0 N");
    assert_eq!(status, over([9, 0]));
}
