//! The written form of a Bao position, as the KIBA diagrams draw it, one row after another.
//!
//! ```text
//!   <b8..b1>/<a8..a1>/<A1..A8>/<B1..B8> [<south hand>-<north hand>] [S|N] [takasia:<pit>]
//! ```
//!
//! Rows are written top to bottom as South sees the board ([`crate::board`]): North's back row,
//! North's front row, South's front row, South's back row, eight counts each, comma-separated.
//! A `#` before a nyumba's count (a5 is the 4th entry of North's front row, A5 the 5th of South's)
//! says that its player still owns it, as in the KIBA diagrams. Hands default to `0-0`, the player
//! to move to `S`. `takasia:a4` names the pit the player to move may not lift. The Bao la
//! kiswahili start:
//!
//! ```text
//!   0,0,0,0,0,0,0,0/0,2,2,#6,0,0,0,0/0,0,0,0,#6,2,2,0/0,0,0,0,0,0,0,0 22-22 S
//! ```

use granary_rules::Side;

use crate::board::{NYUMBA, RING, ROW, is_front, parse_pit_name, pit_name};
use crate::position::{Position, TOTAL_SEEDS};
use crate::rules::BaoRules;

/// Why a position text is not a position; the message names the field.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("bao position: {0}")]
pub struct NotationError(pub String);

/// Row `row` (0..4, top to bottom) column `col` (0..8, left to right as South sees it): whose
/// pit and which ring index.
const fn cell(row: usize, col: usize) -> (usize, u8) {
    let col = col as u8;
    match row {
        0 => (1, ROW as u8 + col),
        1 => (1, ROW as u8 - 1 - col),
        2 => (0, col),
        _ => (0, RING as u8 - 1 - col),
    }
}

const ROW_NAMES: [&str; 4] = [
    "North's back row (b8..b1)",
    "North's front row (a8..a1)",
    "South's front row (A1..A8)",
    "South's back row (B1..B8)",
];

/// Reads a position under `rules` (which say whether nyumbas and hands exist).
///
/// # Errors
/// A [`NotationError`] naming the first field that is wrong.
pub fn parse_position(text: &str, rules: &BaoRules) -> Result<Position, NotationError> {
    let err = |m: String| Err(NotationError(m));
    let mut fields = text.split_whitespace();
    let Some(board) = fields.next() else {
        return err("empty; write four rows like 0,0,0,0,0,0,0,0/... (docs/notation.md)".into());
    };
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != 4 {
        return err(format!(
            "{} rows given; a bao board has 4, separated by '/'",
            rows.len()
        ));
    }
    let mut pos = Position {
        pits: [[0; RING]; 2],
        hands: [0; 2],
        nyumba: [false; 2],
        takasia: None,
        to_move: Side::South,
    };
    for (r, row) in rows.iter().enumerate() {
        let cells: Vec<&str> = row.split(',').collect();
        if cells.len() != ROW {
            return err(format!(
                "{} has {} pits; it needs 8",
                ROW_NAMES[r],
                cells.len()
            ));
        }
        for (c, cell_text) in cells.iter().enumerate() {
            let (side, pit) = cell(r, c);
            let name = pit_name(pit, side == 1);
            let (owned, digits) = match cell_text.strip_prefix('#') {
                Some(d) => (true, d),
                None => (false, *cell_text),
            };
            let Ok(seeds) = digits.parse::<u8>() else {
                return err(format!("pit {name} is '{cell_text}', not a seed count"));
            };
            if owned {
                if pit != NYUMBA {
                    return err(format!("'#' marks a nyumba, and {name} is not one"));
                }
                if !rules.has_nyumba() {
                    return err(format!(
                        "'#' at {name}: bao {} has no nyumba",
                        rules.start.name()
                    ));
                }
            }
            pos.pits[side][usize::from(pit)] = seeds;
            pos.nyumba[side] |= owned;
        }
    }
    for field in fields {
        if let Some((s, n)) = field.split_once('-') {
            let (Ok(s), Ok(n)) = (s.parse::<u8>(), n.parse::<u8>()) else {
                return err(format!(
                    "hands '{field}' should be two counts, South's then North's: 22-22"
                ));
            };
            if !rules.has_nyumba() && (s, n) != (0, 0) {
                return err(format!(
                    "hands {field}: bao {} has no seeds in hand",
                    rules.start.name()
                ));
            }
            pos.hands = [s, n];
        } else if field == "S" || field == "N" {
            pos.to_move = if field == "S" {
                Side::South
            } else {
                Side::North
            };
        } else if let Some(name) = field.strip_prefix("takasia:") {
            let Some((pit, _)) = parse_pit_name(name) else {
                return err(format!("takasia pit '{name}' is not a pit name like a4"));
            };
            if !is_front(pit) {
                return err(format!(
                    "takasia pit {name} is a back-row pit; takasia protects front pits"
                ));
            }
            // Whose pit it must be is known once every field is read.
            pos.takasia = Some(pit);
        } else {
            return err(format!(
                "'{field}' is neither hands (22-22), the side to move (S or N) nor takasia:<pit>"
            ));
        }
    }
    if let Some(pit) = pos.takasia {
        let name = pit_name(pit, pos.to_move == Side::North);
        let written = text
            .split_whitespace()
            .find_map(|f| f.strip_prefix("takasia:"))
            .unwrap_or("");
        if written != name {
            return err(format!(
                "takasia pit {written} is not a pit of the player to move (write {name})"
            ));
        }
    }
    let total = pos.total_seeds();
    if total > TOTAL_SEEDS {
        return err(format!(
            "{total} seeds on the board and in hand; bao has {TOTAL_SEEDS}"
        ));
    }
    Ok(pos)
}

/// The count of the pit at row `r`, column `c`, with `#` on an owned nyumba.
fn count_text(pos: &Position, r: usize, c: usize) -> String {
    let (side, pit) = cell(r, c);
    let seeds = pos.pits[side][usize::from(pit)];
    if pit == NYUMBA && pos.nyumba[side] {
        format!("#{seeds}")
    } else {
        seeds.to_string()
    }
}

/// Writes `pos` in the form [`parse_position`] reads.
#[must_use]
pub fn format_position(pos: &Position) -> String {
    let rows: Vec<String> = (0..4)
        .map(|r| {
            (0..ROW)
                .map(|c| count_text(pos, r, c))
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    let mut text = format!(
        "{} {}-{} {}",
        rows.join("/"),
        pos.hands[0],
        pos.hands[1],
        pos.to_move.letter()
    );
    if let Some(pit) = pos.takasia {
        text.push_str(&format!(
            " takasia:{}",
            pit_name(pit, pos.to_move == Side::North)
        ));
    }
    text
}

/// The board drawn as the KIBA diagrams draw it, with pit names in the margins and each
/// player's hand beside their rows.
#[must_use]
pub fn draw(pos: &Position) -> String {
    let mut out = String::new();
    let label = |r: usize, c: usize| {
        let (side, pit) = cell(r, c);
        pit_name(pit, side == 1)
    };
    let count = |r: usize, c: usize| count_text(pos, r, c);
    let line = |f: &dyn Fn(usize) -> String| -> String {
        (0..ROW).map(|c| format!("{:>4}", f(c))).collect::<String>()
    };
    out.push_str(&format!("      North's hand: {}\n", pos.hands[1]));
    out.push_str(&format!("   {}\n", line(&|c| label(0, c))));
    for r in 0..4 {
        if r == 2 {
            out.push_str(&format!("   {}\n", "-".repeat(4 * ROW)));
        }
        out.push_str(&format!("   {}\n", line(&|c| count(r, c))));
    }
    out.push_str(&format!("   {}\n", line(&|c| label(3, c))));
    out.push_str(&format!("      South's hand: {}\n", pos.hands[0]));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Start;

    #[test]
    fn the_start_round_trips_and_reads_as_kiba_draws_it() {
        let rules = BaoRules::new(Start::Kiswahili);
        let start = Position::start(&rules);
        let text = format_position(&start);
        assert_eq!(
            text,
            "0,0,0,0,0,0,0,0/0,2,2,#6,0,0,0,0/0,0,0,0,#6,2,2,0/0,0,0,0,0,0,0,0 22-22 S"
        );
        assert_eq!(parse_position(&text, &rules), Ok(start));
    }

    #[test]
    fn bad_positions_name_what_is_wrong() {
        let rules = BaoRules::new(Start::Kiswahili);
        let cases = [
            ("", "empty"),
            ("1/2", "2 rows"),
            (
                "0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0",
                "has 7 pits",
            ),
            (
                "0,0,0,0,0,0,0,x/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0",
                "pit b1",
            ),
            (
                "0,0,0,0,0,0,0,0/#1,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0",
                "a8 is not",
            ),
            (
                "9,9,9,9,9,9,9,9/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0",
                "72 seeds",
            ),
            (
                "0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 X",
                "'X'",
            ),
            (
                "0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 S takasia:a4",
                "not a pit of the player",
            ),
            (
                "0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 N takasia:b4",
                "back-row",
            ),
        ];
        for (text, needle) in cases {
            let e = parse_position(text, &rules).unwrap_err().to_string();
            assert!(e.contains(needle), "{text}: {e}");
        }
        let kujifunza = BaoRules::new(Start::Kujifunza);
        let e = parse_position(
            "0,0,0,0,0,0,0,0/0,0,0,#6,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0",
            &kujifunza,
        )
        .unwrap_err();
        assert!(e.to_string().contains("no nyumba"), "{e}");
    }

    #[test]
    fn takasia_round_trips() {
        let rules = BaoRules::new(Start::Kiswahili);
        let text =
            "0,1,2,1,4,8,2,2/10,0,0,10,2,1,0,1/0,2,0,0,1,1,0,0/0,0,2,2,0,2,6,4 0-0 N takasia:a4";
        let pos = parse_position(text, &rules).unwrap();
        assert_eq!(pos.takasia, Some(3));
        assert_eq!(format_position(&pos), text);
    }
}
