//! Property: rank and unrank are inverse on every layer the tables use, ranks lie below the
//! layer's size, and positions out of a reduced index are not in it.

use granary_index::LayerIndex;
use granary_rules::Board;
use proptest::prelude::*;

/// A layer (pits a side, seeds, reduced) and a rank within it.
fn layer_and_rank() -> impl Strategy<Value = (LayerIndex, u64)> {
    (1usize..=8, 0u32..=40, any::<bool>())
        .prop_filter_map("a non-empty layer", |(m, n, reduced)| {
            LayerIndex::new(m, n, reduced).ok().filter(|i| i.size() > 0)
        })
        .prop_flat_map(|index| {
            let size = index.size();
            (Just(index), 0..size)
        })
}

proptest! {
    #[test]
    fn unrank_then_rank_is_the_identity((index, rank) in layer_and_rank()) {
        let board = index.unrank(rank);
        prop_assert!(index.contains(board));
        prop_assert_eq!(board.seeds(index.pits()), index.seeds());
        prop_assert_eq!(index.rank(board), rank);
    }

    #[test]
    fn rank_then_unrank_is_the_identity(
        m in 1usize..=8,
        pits in prop::collection::vec(0u8..=4, 16),
        reduced in any::<bool>(),
    ) {
        let (south, north) = (&pits[..m], &pits[8..8 + m]);
        let board = Board::from_sides(south, north);
        let seeds = board.seeds(m);
        let index = LayerIndex::new(m, seeds, reduced).unwrap();
        if index.contains(board) {
            let rank = index.rank(board);
            prop_assert!(rank < index.size());
            prop_assert_eq!(index.unrank(rank), board);
        } else {
            prop_assert!(reduced, "an unreduced index holds every layout");
        }
    }
}
