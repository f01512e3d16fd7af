//! What a child's parents cost to generate and rank, alone (no memory traffic): for a fixed
//! sample of positions of awari layer `N`, the parents a second of [`for_each_parent`] alone
//! and with [`LayerIndex::rank_on`], and `unrank` a second.
//! `cargo run --release -p granary-retrograde --example parents -- N`.

use std::hint::black_box;
use std::time::Instant;

use granary_index::LayerIndex;
use granary_retrograde::unmove::for_each_parent;
use granary_rules::{Oware, OwareRules, Rules};

fn main() {
    let n: u32 = std::env::args()
        .nth(1)
        .map_or(30, |s| s.parse().expect("seeds"));
    let rules = Oware::new(6, OwareRules::Awari)
        .played_out()
        .with_const_pits::<6>()
        .expect("6 pits");
    let index = LayerIndex::new(6, n, true).expect("index");
    let ranks: Vec<u64> = (0..1u64 << 20)
        .map(|i| (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 1) % index.size())
        .collect();
    let boards: Vec<_> = ranks.iter().map(|&r| index.unrank(r)).collect();
    for _ in 0..3 {
        let t = Instant::now();
        let mut parents = 0u64;
        for &b in &boards {
            for_each_parent(&rules, &index, black_box(b), |p, _| {
                parents += 1;
                black_box(p);
            });
        }
        let generated = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let mut sum = 0u64;
        for &b in &boards {
            for_each_parent(&rules, &index, black_box(b), |p, _| {
                sum = sum.wrapping_add(index.rank_on(p, rules.pits()));
            });
        }
        black_box(sum);
        let ranked = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let mut sum = 0u64;
        for &r in &ranks {
            sum = sum.wrapping_add(index.unrank(black_box(r)).0 as u64);
        }
        black_box(sum);
        let unrank = t.elapsed().as_secs_f64();
        let k = boards.len() as f64;
        println!(
            "layer {n}: {:.2} parents a child; a child: {:.1} ns generated, {:.1} ns generated and ranked ({:.1} ns a parent); unrank {:.1} ns",
            parents as f64 / k,
            generated / k * 1e9,
            ranked / k * 1e9,
            ranked / parents as f64 * 1e9,
            unrank / k * 1e9
        );
    }
}
