//! Property: every position reached by play, under every rule set, prints in the notation and
//! parses back to itself; move text prints and parses back to the move.

use granary_bao::notation::{format_position, parse_position};
use granary_bao::{BaoRules, MoveText, Position, Start, generate};
use granary_rules::Side;
use proptest::prelude::*;

proptest! {
    #![proptest_config(crate::common::cases(300))]

    #[test]
    fn positions_and_moves_round_trip(
        start in 0usize..3,
        choices in prop::collection::vec(any::<prop::sample::Index>(), 0..60),
    ) {
        let rules = BaoRules::new(Start::ALL[start]);
        let mut pos = Position::start(&rules);
        for choice in choices {
            let text = format_position(&pos);
            prop_assert_eq!(parse_position(&text, &rules).unwrap(), pos, "{}", text);
            let moves = generate(&rules, &pos);
            if moves.legal.is_empty() {
                break;
            }
            let (mv, next) = moves.legal[choice.index(moves.legal.len())];
            let north = pos.to_move == Side::North;
            let written = mv.text(north);
            let parsed: MoveText = written.parse().unwrap();
            prop_assert_eq!((parsed.mv, parsed.north), (mv, north), "{}", written);
            pos = next;
        }
    }
}
