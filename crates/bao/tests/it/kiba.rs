//! Every worked example of the KIBA rules (Klubo Internacia de Bao-Amantoj;
//! `docs/references.md`), each test naming its diagram by the section of the rules it
//! illustrates, plus the start position's moves.
//!
//! Diagrams are copied as drawn: North's back row, North's front row, South's front row, South's
//! back row, each left to right as South sees the board; North's hand above, South's below;
//! `#` marks a nyumba still owned.

use std::collections::BTreeSet;

use granary_bao::notation::{format_position, parse_position};
use granary_bao::turn::takasia_after;
use granary_bao::{BaoRules, Position, Start, generate, legal_moves};
use granary_rules::Side;

fn kiswahili() -> BaoRules {
    BaoRules::new(Start::Kiswahili)
}

/// A position from a KIBA diagram.
fn diagram(north_hand: u8, rows: [&str; 4], south_hand: u8, to_move: Side) -> Position {
    let board: Vec<String> = rows
        .iter()
        .map(|r| r.split_whitespace().collect::<Vec<_>>().join(","))
        .collect();
    let text = format!(
        "{} {south_hand}-{north_hand} {}",
        board.join("/"),
        to_move.letter()
    );
    parse_position(&text, &kiswahili()).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The moves' texts as the player to move writes them.
fn texts(rules: &BaoRules, pos: &Position) -> BTreeSet<String> {
    let north = pos.to_move == Side::North;
    legal_moves(rules, pos)
        .iter()
        .map(|(m, _)| m.text(north))
        .collect()
}

/// The start pits of the legal moves (`A6` of `A6R`).
fn start_pits(rules: &BaoRules, pos: &Position) -> BTreeSet<String> {
    texts(rules, pos)
        .iter()
        .map(|t| t[..2].to_string())
        .collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(ToString::to_string).collect()
}

/// The position after the move written `text`.
fn after(rules: &BaoRules, pos: &Position, text: &str) -> Position {
    let north = pos.to_move == Side::North;
    legal_moves(rules, pos)
        .into_iter()
        .find(|(m, _)| m.text(north) == text)
        .unwrap_or_else(|| panic!("{text} is not legal in {}", format_position(pos)))
        .1
}

/// Start of Bao la kiswahili (KIBA 3.2). No South front pit faces a seed (A5, A6, A7 face a4,
/// a3, a2, all empty), so there is no capture and South must takasa. The nyumba (6 seeds) may
/// not start a takasa (3.5.2) and is not the only non-empty front pit, so it is not taxed
/// either. A6 and A7 hold 2 each, so both may be played, each left or right: four moves. Each
/// ends in an empty pit after one sowing of 3 seeds.
#[test]
fn start_of_bao_la_kiswahili_has_exactly_four_moves() {
    let rules = kiswahili();
    let start = Position::start(&rules);
    assert_eq!(
        format_position(&start),
        "0,0,0,0,0,0,0,0/0,2,2,#6,0,0,0,0/0,0,0,0,#6,2,2,0/0,0,0,0,0,0,0,0 22-22 S"
    );
    assert_eq!(texts(&rules, &start), set(&["A6L", "A6R", "A7L", "A7R"]));
    let south = |p: &Position| {
        format_position(p)
            .split('/')
            .skip(2)
            .collect::<Vec<_>>()
            .join("/")
    };
    assert_eq!(
        south(&after(&rules, &start, "A6R")),
        "0,0,0,0,#6,0,3,1/0,0,0,0,0,0,0,1 21-22 N"
    );
    assert_eq!(
        south(&after(&rules, &start, "A6L")),
        "0,0,1,1,#7,0,2,0/0,0,0,0,0,0,0,0 21-22 N"
    );
    assert_eq!(
        south(&after(&rules, &start, "A7R")),
        "0,0,0,0,#6,2,0,1/0,0,0,0,0,0,1,1 21-22 N"
    );
    assert_eq!(
        south(&after(&rules, &start, "A7L")),
        "0,0,0,1,#7,3,0,0/0,0,0,0,0,0,0,0 21-22 N"
    );
}

/// KIBA 3.3 "Kucheza": no capture; South may put the seed in the pit of 2 or the pit of 1 (not
/// the nyumba: it faces an empty pit). South owns the nyumba, so the single seed may be played.
#[test]
fn kiba_3_3_namua_placing_a_seed() {
    let rules = kiswahili();
    let pos = diagram(
        17,
        [
            "0  0  0  0  0  0  0  0",
            "0  0  5 #9  0  2  0  3",
            "0  2  0  0 #7  0  1  0",
            "0  0  0  0  0  0  0  0",
        ],
        18,
        Side::South,
    );
    assert_eq!(start_pits(&rules, &pos), set(&["A2", "A7"]));
}

/// KIBA 3.4 "Kitendo cha kula": capturing is compulsory; South may put the seed in the pit of 2
/// (A2, facing 4), in a pit of 3 (A6, facing 2) or in the nyumba (facing 1); not in the 1 (A7
/// faces an empty pit).
#[test]
fn kiba_3_4_namua_capture_is_compulsory() {
    let rules = kiswahili();
    let pos = diagram(
        13,
        [
            "0  0  0  0  0  0  0  0",
            "0  4  5 #9  1  2  0  3",
            "0  2  0  0 #7  3  1  0",
            "0  0  0  0  0  0  0  0",
        ],
        14,
        Side::South,
    );
    assert_eq!(start_pits(&rules, &pos), set(&["A2", "A5", "A6"]));
    // A2 is a kimbi: its kichwa is forced, no letter; A5 and A6 offer both kichwas.
    let t = texts(&rules, &pos);
    assert!(
        t.contains("A2") && !t.contains("A2L") && !t.contains("A2R"),
        "{t:?}"
    );
    for m in ["A5L", "A5R", "A6L", "A6R"] {
        assert!(t.iter().any(|x| x.starts_with(m)), "{m} missing from {t:?}");
    }
}

/// KIBA 3.4, the capture from a centre pit with both kichwa choices: the seed goes into the 3
/// (A6), the 2 seeds of a3 are captured and sown from the left kichwa (A1, A2) or from the right
/// one (A8, A7). (The text says "3 seeds"; its own diagrams show the 2 of a3 taken and two seeds
/// sown.) Each ends in an empty pit.
#[test]
fn kiba_3_4_namua_capture_with_both_kichwa_choices() {
    let rules = kiswahili();
    let pos = diagram(
        13,
        [
            "0  0  0  0  0  0  0  0",
            "0  6  5 #9  0  2  1  3",
            "0  0  0  0 #8  3  0  0",
            "0  0  0  0  0  0  0  0",
        ],
        14,
        Side::South,
    );
    assert_eq!(texts(&rules, &pos), set(&["A6L", "A6R"]));
    let left = diagram(
        13,
        [
            "0  0  0  0  0  0  0  0",
            "0  6  5 #9  0  0  1  3",
            "1  1  0  0 #8  4  0  0",
            "0  0  0  0  0  0  0  0",
        ],
        13,
        Side::North,
    );
    let right = diagram(
        13,
        [
            "0  0  0  0  0  0  0  0",
            "0  6  5 #9  0  0  1  3",
            "0  0  0  0 #8  4  1  1",
            "0  0  0  0  0  0  0  0",
        ],
        13,
        Side::North,
    );
    assert_eq!(after(&rules, &pos, "A6L"), left);
    assert_eq!(after(&rules, &pos, "A6R"), right);
}

/// KIBA 3.5.2, first diagram: a takasa may not start from a nyumba of more than five seeds;
/// South may play the 4, left or right.
#[test]
fn kiba_3_5_2_no_takasa_from_the_nyumba() {
    let rules = kiswahili();
    let pos = diagram(
        15,
        [
            "0  0  0  0  0  0  0  0",
            "2  1  0 #8  0 10  0  1",
            "0  0  4  0 #7  0  0  0",
            "0  0  0  0  0  0  0  0",
        ],
        16,
        Side::South,
    );
    assert_eq!(texts(&rules, &pos), set(&["A3L", "A3R"]));
}

/// KIBA 3.5.2, the taxed nyumba: only the nyumba holds seeds in the front row, so the seed goes
/// into it and two seeds come out, sown to the right (8 1 1) or to the left (1 1 8).
/// The diagram holds 66 seeds (North's hand of 17 is two too many for its board); North's hand
/// is taken as 15 here, which South's move does not look at.
#[test]
fn kiba_3_5_2_the_taxed_nyumba() {
    let rules = kiswahili();
    let north = ["0  0  0  0  0  0  0  0", "2  1  0 #8  0 10  0  1"];
    let pos = diagram(
        15,
        [
            north[0],
            north[1],
            "0  0  0  0 #9  0  0  0",
            "0  0  0  0  0  0  0  0",
        ],
        18,
        Side::South,
    );
    assert_eq!(texts(&rules, &pos), set(&["A5L", "A5R"]));
    let right = diagram(
        15,
        [
            north[0],
            north[1],
            "0  0  0  0 #8  1  1  0",
            "0  0  0  0  0  0  0  0",
        ],
        17,
        Side::North,
    );
    let left = diagram(
        15,
        [
            north[0],
            north[1],
            "0  0  1  1 #8  0  0  0",
            "0  0  0  0  0  0  0  0",
        ],
        17,
        Side::North,
    );
    assert_eq!(after(&rules, &pos, "A5R"), right);
    assert_eq!(after(&rules, &pos, "A5L"), left);
}

/// KIBA 3.5.3: no takasa from a single seed while another front pit holds more (and the player
/// no longer owns the nyumba: A5 has no `#`). South may play the 3 or the 7, not the 1.
#[test]
fn kiba_3_5_3_no_takasa_from_a_single_seed() {
    let rules = kiswahili();
    let pos = diagram(
        15,
        [
            "0  0  0  0  0  0  0  0",
            "2  1  0 #8  0 10  0  1",
            "0  0  3  0  7  0  1  0",
            "0  0  0  0  0  0  0  0",
        ],
        16,
        Side::South,
    );
    assert_eq!(start_pits(&rules, &pos), set(&["A3", "A5"]));
}

/// KIBA 3.5.1: when only a kichwa holds seeds, its takasa may not go into the back row (A8
/// faces the empty a1, so this is a takasa).
#[test]
fn kiba_3_5_1_a_lone_kichwa_sows_along_the_front_row() {
    let rules = kiswahili();
    let pos = diagram(
        10,
        [
            "0  0  0  0  0  0  0  0",
            "2  1  0 #8  0 10  1  0",
            "0  0  0  0  0  0  0  3",
            "0  0  0  0  0  0  0  0",
        ],
        10,
        Side::South,
    );
    assert_eq!(texts(&rules, &pos), set(&["A8L"]));
}

/// KIBA 4.2: in the mtaji stage South can capture only by sowing the 9 (B2) to the right: its
/// last seed lands on the 4 (A6), facing the 6 of a3.
#[test]
fn kiba_4_2_mtaji_capture_from_the_back_row() {
    let rules = kiswahili();
    let pos = diagram(
        0,
        [
            "5  0  4  1  2  3  0  0",
            "0  0  0  5  5  6  3  0",
            "0  3  2  1  0  4  1  0",
            "0  9  0  3  1  0  1  0",
        ],
        0,
        Side::South,
    );
    assert_eq!(start_pits(&rules, &pos), set(&["B2"]));
    assert!(texts(&rules, &pos).iter().all(|t| t.starts_with("B2R")));
    // The capture takes the 6 of a3.
    let (_, child) = legal_moves(&rules, &pos)[0];
    assert_eq!(child.pits[1][2], 0);
}

/// KIBA 4.5, first diagram: South's takasa threatens only the 2 of a4 (B8 sown left ends on A5,
/// facing a4); North cannot capture, so North may not lift a4 and may only play the pits of 10.
#[test]
fn kiba_4_5_takasia() {
    let rules = kiswahili();
    let mut pos = diagram(
        0,
        [
            "0  1  2  1  4  8  2  2",
            "10  0  0 10  2  1  0  1",
            "0  2  0  0  1  1  0  0",
            "0  0  2  2  0  2  6  4",
        ],
        0,
        Side::North,
    );
    assert_eq!(start_pits(&rules, &pos), set(&["a4", "a5", "a8"]));
    let a4 = 3;
    assert_eq!(takasia_after(&rules, &pos), Some(a4));
    pos.takasia = Some(a4);
    assert_eq!(start_pits(&rules, &pos), set(&["a5", "a8"]));
}

/// KIBA 4.5, second diagram: South's takasa threatens only the 10 of a4, but that is the only
/// front pit of North's with more than one seed, so it is not takasia'd.
#[test]
fn kiba_4_5_no_takasia_of_the_only_playable_pit() {
    let rules = kiswahili();
    let pos = diagram(
        0,
        [
            "7  4  2  4  1  3  2  0",
            "0  1  0  0 10  0  0  0",
            "0  0  1  0  1  1  1  3",
            "0  4  2  0  2  2  5  0",
        ],
        0,
        Side::North,
    );
    assert_eq!(takasia_after(&rules, &pos), None);
    assert_eq!(start_pits(&rules, &pos), set(&["a4"]));
}

/// Takasia is not given to the opponent's nyumba (KIBA 4.5, "lazima isiwe nyumba ya mpinzani"):
/// the first takasia diagram with North's a4 seeds moved into an owned nyumba a5... built so the
/// only threatened pit is North's nyumba.
#[test]
fn kiba_4_5_no_takasia_of_the_nyumba() {
    let rules = kiswahili();
    // South's B8 (4 seeds) sown left ends on A4 (1 seed), which faces a5, North's nyumba.
    let pos = diagram(
        0,
        [
            "0  1  2  1  4  8  2  2",
            "10  0  0 #12  0  1  0  1",
            "0  2  0  1  0  1  0  0",
            "0  0  2  2  0  2  6  4",
        ],
        0,
        Side::North,
    );
    let threatened: BTreeSet<u8> = granary_bao::movegen::mtaji_captures(&pos, Side::South)
        .map(|c| 7 - c.last)
        .collect();
    assert_eq!(threatened, BTreeSet::from([4]));
    assert_eq!(takasia_after(&rules, &pos), None);
    let mut open = pos;
    open.nyumba[1] = false;
    assert_eq!(takasia_after(&rules, &open), Some(4));
}

/// KIBA 3.6.2, the nyumba during a takasa turn: a takasa whose last seed falls into the
/// functional nyumba ends there.
#[test]
fn kiba_3_6_2_a_takasa_stops_in_the_nyumba() {
    let rules = kiswahili();
    // Mtaji stage; no capture for South (nothing faces North's seeds in a4..a1 that South
    // could reach); A3 (2 seeds) sown right ends in the nyumba.
    let pos = diagram(
        0,
        [
            "4  4  4  4  4  4  4  4",
            "2  2  2  2  0  0  0  0",
            "0  0  2  0 #6  0  0  0",
            "0  0  0  0  0  0  0  0",
        ],
        0,
        Side::South,
    );
    assert!(
        granary_bao::movegen::mtaji_captures(&pos, Side::South)
            .next()
            .is_none()
    );
    let child = after(&rules, &pos, "A3R");
    assert_eq!(child.pits[0][..8], [0, 0, 0, 1, 7, 0, 0, 0]);
    assert!(child.nyumba[0]);
}

/// KIBA 3.6.2, the nyumba during a capturing turn: the player may stop there or sow it on
/// (and then no longer owns it).
#[test]
fn kiba_3_6_2_a_capturing_turn_may_stop_in_the_nyumba() {
    let rules = kiswahili();
    // Mtaji stage: A2 (2 seeds) sown right ends on A4 (1 seed), facing the 3 of a5: a capture.
    // A4 is a centre pit and the sowing went clockwise, so the 3 seeds go from the left kichwa:
    // A1, A2, A3. A3 now holds 2 and faces the empty a6: relay, its 2 seeds into A4 and A5, the
    // nyumba, which faces the empty a4: the player may stop there or sow its 7 seeds on.
    let pos = diagram(
        0,
        [
            "4  4  4  4  4  4  4  4",
            "0  0  0  3  0  3  0  0",
            "0  2  0  1 #6  0  0  0",
            "0  0  0  0  0  0  0  0",
        ],
        0,
        Side::South,
    );
    let t = texts(&rules, &pos);
    assert_eq!(t, set(&["A2R", "A2Rs"]));
    let stopped = after(&rules, &pos, "A2Rs");
    assert_eq!(stopped.pits[0][..8], [1, 1, 0, 3, 7, 0, 0, 0]);
    assert!(stopped.nyumba[0]);
    // Sown on: A6, A7, A8, B8, B7, B6, B5; B5 was empty.
    let on = after(&rules, &pos, "A2R");
    assert!(!on.nyumba[0]);
    assert_eq!(on.pits[0], [1, 1, 0, 3, 0, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0]);
}

/// The namua stage ends when the hands are empty; every move keeps the 64 seeds.
#[test]
fn every_move_of_a_few_plies_keeps_the_seeds() {
    for start in [Start::Kiswahili, Start::Kujifunza, Start::Malawi] {
        let rules = BaoRules::new(start);
        let mut frontier = vec![Position::start(&rules)];
        for _ in 0..4 {
            let mut next = Vec::new();
            for pos in &frontier {
                let moves = generate(&rules, pos);
                for (_, child) in moves.legal {
                    assert_eq!(child.total_seeds(), 64);
                    next.push(child);
                }
            }
            frontier = next;
        }
        assert!(!frontier.is_empty());
    }
}
