//! The index against plain enumeration: sizes, round trips on every layout of small layers, order.

use granary_index::LayerIndex;
use granary_rules::Board;

fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1))
}

/// Every layout of `seeds` seeds on `lanes` pits, by plain recursion, in lexicographic order.
fn layouts(lanes: usize, seeds: u8) -> Vec<Vec<u8>> {
    if lanes == 1 {
        return vec![vec![seeds]];
    }
    let mut all = Vec::new();
    for first in 0..=seeds {
        for mut rest in layouts(lanes - 1, seeds - first) {
            rest.insert(0, first);
            all.push(rest);
        }
    }
    all
}

#[test]
fn oware_layer_sizes_are_romein_and_bal_s() {
    for n in 0..=40u64 {
        let index = LayerIndex::new(6, n as u32, true).unwrap();
        assert_eq!(
            index.size(),
            binomial(n + 11, 11) - binomial(n + 5, 11),
            "layer {n}"
        );
    }
    // Layers 0..=24 hold 1.17e9 positions, the build `scripts/bench-tables.sh` times by default.
    let total: u64 = (0..=24)
        .map(|n| LayerIndex::new(6, n, true).unwrap().size())
        .sum();
    let formula: u64 = (0..=24)
        .map(|n| binomial(n + 11, 11) - binomial(n + 5, 11))
        .sum();
    assert_eq!(total, formula);
    assert_eq!((total + 5_000_000) / 10_000_000, 117);
}

#[test]
fn full_layer_sizes_are_compositions() {
    for m in 1..=8u64 {
        for n in 0..=20u64 {
            let index = LayerIndex::new(m as usize, n as u32, false).unwrap();
            assert_eq!(
                index.size(),
                binomial(n + 2 * m - 1, 2 * m - 1),
                "m {m} n {n}"
            );
        }
    }
}

#[test]
fn stepping_visits_the_unranked_layouts_in_order() {
    // Wider boards than the plain enumeration above reaches: a sequence held in up to 16 bytes.
    for (m, max) in [(5usize, 5u32), (6, 4), (8, 3)] {
        for n in 0..=max {
            for reduced in [false, true] {
                let index = LayerIndex::new(m, n, reduced).unwrap();
                let unranked: Vec<Board> = (0..index.size()).map(|r| index.unrank(r)).collect();
                let stepped: Vec<Board> = index.iter_from(0).collect();
                assert_eq!(stepped, unranked, "m {m} n {n} reduced {reduced}");
                let from = index.size() / 2;
                assert!(
                    index
                        .iter_from(from)
                        .eq(unranked[from as usize..].iter().copied())
                );
            }
        }
    }
}

#[test]
fn rank_is_the_position_in_plain_enumeration() {
    // Up to 24 seeds in a pit on the smaller boards, every layout of each layer.
    for (m, most) in [(1usize, 24u8), (2, 20), (3, 12), (4, 7)] {
        for n in 0..=most {
            for reduced in [false, true] {
                let index = LayerIndex::new(m, u32::from(n), reduced).unwrap();
                // The sequences in lexicographic order, seen from the opponent, as the docs say.
                let expected: Vec<Board> = layouts(2 * m, n)
                    .into_iter()
                    .filter(|s| !reduced || s[..m].contains(&0))
                    .map(|s| Board::from_sides(&s[m..], &s[..m]))
                    .collect();
                assert_eq!(
                    expected.len() as u64,
                    index.size(),
                    "m {m} n {n} reduced {reduced}"
                );
                for (i, &board) in expected.iter().enumerate() {
                    assert!(index.contains(board));
                    assert_eq!(index.rank(board), i as u64, "m {m} n {n} {board:?}");
                    assert_eq!(index.unrank(i as u64), board);
                }
                let stepped: Vec<Board> = index.iter_from(0).collect();
                assert_eq!(stepped, expected);
                if index.size() > 3 {
                    assert_eq!(index.iter_from(3).next(), Some(expected[3]));
                }
            }
        }
    }
}

#[test]
fn round_trip_on_a_large_layer_sample() {
    let index = LayerIndex::new(6, 24, true).unwrap();
    let step = index.size() / 100_003;
    for i in (0..index.size()).step_by(step as usize) {
        assert_eq!(index.rank(index.unrank(i)), i);
    }
    let last = index.size() - 1;
    assert_eq!(index.rank(index.unrank(last)), last);
}

#[test]
fn contains_rejects_other_layers_and_full_opponent_rows() {
    let index = LayerIndex::new(2, 4, true).unwrap();
    assert!(index.contains(Board::from_sides(&[1, 1], &[0, 2])));
    assert!(!index.contains(Board::from_sides(&[1, 1], &[1, 1])));
    assert!(!index.contains(Board::from_sides(&[1, 1], &[0, 1])));
}

#[test]
fn rank_is_block_start_plus_row_rank() {
    for m in 1..=4usize {
        for n in 0..=7u8 {
            for reduced in [false, true] {
                let index = LayerIndex::new(m, u32::from(n), reduced).unwrap();
                let layer = layouts(2 * m, n)
                    .into_iter()
                    .filter(|s| !reduced || s[..m].contains(&0));
                for (expected, s) in layer.enumerate() {
                    // `s` is seen from the opponent: their row first.
                    let board = Board::from_sides(&s[m..], &s[..m]);
                    let (opponent, mover) = (board.opponent_lanes(m), board.mover_lanes(m));
                    let row: u32 = s[m..].iter().map(|&v| u32::from(v)).sum();
                    // The mover's row among the rows of as many seeds, by plain enumeration.
                    let row_rank = layouts(m, row as u8)
                        .iter()
                        .position(|r| r[..] == s[m..])
                        .unwrap() as u64;
                    assert_eq!(index.row_rank(mover), row_rank, "{s:?}");
                    assert_eq!(
                        index.block_start(opponent) + index.row_rank(mover),
                        expected as u64,
                        "{s:?} reduced {reduced}"
                    );
                    assert_eq!(index.rows(row), layouts(m, row as u8).len() as u64);
                }
            }
        }
    }
}

#[test]
fn unrank_near_and_row_unrank_invert_the_ranks() {
    for m in 1..=4usize {
        for n in 0..=7u32 {
            for reduced in [false, true] {
                let index = LayerIndex::new(m, n, reduced).unwrap();
                for seeds in 0..=n {
                    for r in 0..index.rows(seeds) {
                        let row = index.row_unrank(r, seeds);
                        assert_eq!(granary_rules::board::byte_sum(row), seeds);
                        assert_eq!(index.row_rank(row), r, "m {m} seeds {seeds}");
                    }
                }
                // In rank order (a scan), every other rank, and back and forth (a new group
                // each time): the same layouts as `unrank`.
                let size = index.size();
                let orders: [Vec<u64>; 3] = [
                    (0..size).collect(),
                    (0..size).step_by(2).collect(),
                    (0..size)
                        .map(|i| if i % 2 == 0 { i / 2 } else { size - 1 - i / 2 })
                        .collect(),
                ];
                for ranks in orders {
                    let mut last = granary_index::Group::default();
                    for rank in ranks {
                        assert_eq!(
                            index.unrank_near(rank, &mut last),
                            index.unrank(rank),
                            "m {m} n {n} reduced {reduced} rank {rank}"
                        );
                    }
                }
            }
        }
    }
}
