//! Rank speed on one core: `cargo bench -p granary-index --bench rank`.
//!
//! Prints, for a full 6-pit layer (Kalah's tables) and a reduced one (awari's), the median of
//! several runs of calls a second of [`LayerIndex::rank`], [`LayerIndex::row_rank`] and
//! [`LayerIndex::unrank`] over a fixed pseudo-random sample of the layer's layouts (unranked
//! once, before timing), and of layouts a second stepped through by [`LayerIndex::iter_from`]
//! (the builders' scans); and for ranks in increasing order a stride of about 80 apart (a
//! phase's scan of its list), [`LayerIndex::unrank`] against [`LayerIndex::unrank_near`].

use std::hint::black_box;
use std::time::Instant;

use std::cell::RefCell;

use granary_index::{Group, LayerIndex};
use granary_rules::Board;

const RUNS: usize = 7;
const SAMPLE: u64 = 1 << 20;
const ROUNDS: usize = 8;

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// Ranks a second of `f` over `boards`, median of [`RUNS`].
fn rate<T: Copy>(boards: &[T], f: impl Fn(T) -> u64) -> f64 {
    let runs = (0..RUNS)
        .map(|_| {
            let t = Instant::now();
            let mut sum = 0u64;
            for _ in 0..ROUNDS {
                for &b in boards {
                    sum = sum.wrapping_add(f(black_box(b)));
                }
            }
            black_box(sum);
            (boards.len() * ROUNDS) as f64 / t.elapsed().as_secs_f64()
        })
        .collect();
    median(runs)
}

fn measure(name: &str, index: &LayerIndex) {
    // A multiplicative walk through the ranks: spread over the layer, the same every run.
    let boards: Vec<Board> = (0..SAMPLE)
        .map(|i| index.unrank((i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 1) % index.size()))
        .collect();
    let m = index.pits();
    let rank = rate(&boards, |b| index.rank(b));
    let row = rate(&boards, |b| index.row_rank(b.mover_lanes(m)));
    let ranks: Vec<u64> = boards.iter().map(|&b| index.rank(b)).collect();
    let unrank = rate(&ranks, |r| index.unrank(r).0 as u64);
    // Runs of 4096 layouts from the sample's ranks: a builder's work pieces.
    let starts = &ranks[..SAMPLE as usize / 4096];
    let iter = rate(starts, |r| {
        index
            .iter_from(r)
            .take(4096)
            .fold(0u64, |sum, b| sum.wrapping_add(b.0 as u64))
    }) * 4096.0;
    let stride = (index.size() / SAMPLE).max(1);
    let scan: Vec<u64> = (0..index.size()).step_by(stride as usize).collect();
    let plain = rate(&scan, |r| index.unrank(r).0 as u64);
    let group = RefCell::new(Group::default());
    let near = rate(&scan, |r| {
        index.unrank_near(r, &mut group.borrow_mut()).0 as u64
    });
    println!(
        "{name}: rank {:.1} M/s, row_rank {:.1} M/s, unrank {:.1} M/s, iter_from {:.1} M/s; \
         ranks {stride} apart in order: unrank {:.1} M/s, unrank_near {:.1} M/s",
        rank / 1e6,
        row / 1e6,
        unrank / 1e6,
        iter / 1e6,
        plain / 1e6,
        near / 1e6
    );
}

fn main() {
    measure(
        "6 pits, 20 seeds, full",
        &LayerIndex::new(6, 20, false).unwrap(),
    );
    measure(
        "6 pits, 20 seeds, reduced",
        &LayerIndex::new(6, 20, true).unwrap(),
    );
}
