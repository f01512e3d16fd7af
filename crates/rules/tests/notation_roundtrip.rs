//! Property: every position prints in the notation and parses back to itself.

use granary_rules::notation::{format_position, parse_position};
use granary_rules::{Position, Side};
use proptest::prelude::*;

/// Positions of 1..=8 pits a side with at most 255 seeds in all (the packed limit).
fn position() -> impl Strategy<Value = (Position, usize)> {
    (1usize..=8).prop_flat_map(|m| {
        (
            prop::collection::vec(0u8..=15, m),
            prop::collection::vec(0u8..=15, m),
            0u8..=7,
            0u8..=7,
            any::<bool>(),
        )
            .prop_map(move |(south, north, s, n, north_moves)| {
                let side = if north_moves {
                    Side::North
                } else {
                    Side::South
                };
                (Position::from_sides(&south, &north, [s, n], side), m)
            })
    })
}

proptest! {
    #[test]
    fn print_then_parse_is_the_identity((pos, m) in position()) {
        let text = format_position(&pos, m);
        prop_assert_eq!(parse_position(&text, Some(m)), Ok((pos, m)));
        prop_assert_eq!(parse_position(&text, None), Ok((pos, m)));
    }

    #[test]
    fn any_text_parses_or_is_refused(text in ".{0,80}", pits in proptest::option::of(0usize..12)) {
        let _ = parse_position(&text, pits);
    }
}
