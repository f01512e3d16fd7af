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

/// Inputs the fuzzer found (`fuzz/`, `scripts/fuzz.sh`): each is refused with an error, no panic.
#[test]
fn fuzz_regressions() {
    // Pit counts summing past u64::MAX wrapped to a small total and were accepted.
    let bytes = include_bytes!("regressions/position-u64-overflow");
    let text = std::str::from_utf8(&bytes[1..]).unwrap();
    assert!(matches!(
        parse_position(text, None),
        Err(granary_rules::notation::NotationError::TooManySeeds(_))
    ));
    assert!(parse_position("18446744073709551615,1/0,0", None).is_err());
    assert!(parse_position("1,1/0,0 18446744073709551615-1", None).is_err());
}

/// A huge seed count wrapped `2 * pits * seeds` to a small total, accepted (found by fuzzing:
/// `oware||999999999`).
#[test]
fn huge_seed_counts_are_refused() {
    use granary_rules::{Game, OwareRules, Variant, VariantError};
    let game = Game::Oware {
        rules: OwareRules::Abapa,
    };
    for seeds in [999_999_999, u32::MAX, 715_827_883] {
        assert!(matches!(
            Variant::new(game, 6, seeds),
            Err(VariantError::Seeds { .. })
        ));
    }
}
