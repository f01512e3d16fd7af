//! What one random update of a work byte costs, alone: 10^8 updates at random positions of an
//! array on huge pages, as the phases make them (prefetched in batches, then changed); the same
//! bucketed by region first (a region's list applied whenever it holds [`BUCKET`] updates),
//! which would keep the TLB and caches warm; and the same as one round (every update's offset
//! written into its region's bucket first, then the regions applied one after the other, each
//! bucket's updates prefetched in batches as above), the layout of a propagation by rounds:
//! several updates a cache line of a region while it is in the caches. The round's time is
//! printed with the part of it that writes the buckets. Compare with the builder's CPU time a
//! parent (`docs/benchmarks.md`).
//!
//! `cargo run --release -p granary-retrograde --example random_updates -- [MiB] [region bits]
//! [threads]` (defaults 3072, 20 and 1): with several threads, the updates at once are shared
//! among them (as the builder's threads share a layer) and the figure is CPU time an update.

use std::sync::atomic::{AtomicU8, Ordering::Relaxed};
use std::time::Instant;

const UPDATES: usize = 100_000_000;
const BATCH: usize = 128;
const BUCKET: usize = 1024;

fn main() {
    let mut args = std::env::args().skip(1);
    let mib: usize = args.next().map_or(3072, |s| s.parse().expect("MiB"));
    let region_bits: u32 = args.next().map_or(20, |s| s.parse().expect("region bits"));
    let threads: usize = args.next().map_or(1, |s| s.parse().expect("threads"));
    let len = mib << 20;
    let map = granary_tables::huge_anon(len).expect("memory");
    // SAFETY: the mapping holds `len` bytes and lives to the end of `main`; `AtomicU8` has the
    // size, alignment and bit validity of a byte, and the bytes are only used through it.
    let cells: &[AtomicU8] = unsafe { std::slice::from_raw_parts(map.as_ptr().cast(), len) };
    for (i, c) in cells.iter().enumerate() {
        c.store(i as u8, Relaxed);
    }
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let positions: Vec<usize> = (0..UPDATES)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % len as u64) as usize
        })
        .collect();
    let update = |c: &AtomicU8| {
        let w = c.load(Relaxed);
        let _ = c.compare_exchange(w, w.wrapping_sub(1), Relaxed, Relaxed);
    };
    let apply = |batch: &[usize]| {
        for &i in batch {
            granary_tables::prefetch(&cells[i]);
        }
        for &i in batch {
            update(&cells[i]);
        }
    };
    let started = Instant::now();
    std::thread::scope(|scope| {
        for share in positions.chunks(UPDATES.div_ceil(threads.max(1))) {
            scope.spawn(|| {
                for chunk in share.chunks(BATCH) {
                    apply(chunk);
                }
            });
        }
    });
    let at_once = started.elapsed().as_secs_f64() * threads.max(1) as f64;
    let regions = len.div_ceil(1 << region_bits);
    let mut buckets: Vec<Vec<usize>> = vec![Vec::with_capacity(BUCKET); regions];
    let started = Instant::now();
    for &i in &positions {
        let bucket = &mut buckets[i >> region_bits];
        bucket.push(i);
        if bucket.len() == BUCKET {
            for chunk in bucket.chunks(BATCH) {
                apply(chunk);
            }
            bucket.clear();
        }
    }
    for bucket in &mut buckets {
        for chunk in bucket.chunks(BATCH) {
            apply(chunk);
        }
        bucket.clear();
    }
    let bucketed = started.elapsed().as_secs_f64();
    let mask = (1usize << region_bits) - 1;
    // The buckets' memory written once before the round timed, as a builder would reuse it.
    let mut round: Vec<Vec<u32>> = (0..regions)
        .map(|_| Vec::with_capacity(UPDATES / regions + UPDATES / regions / 4 + 16))
        .collect();
    let fill = |round: &mut Vec<Vec<u32>>| {
        for &i in &positions {
            round[i >> region_bits].push((i & mask) as u32);
        }
    };
    fill(&mut round);
    round.iter_mut().for_each(Vec::clear);
    let started = Instant::now();
    fill(&mut round);
    let filled = started.elapsed().as_secs_f64();
    for (r, bucket) in round.iter().enumerate() {
        let region = &cells[r << region_bits..((r + 1) << region_bits).min(len)];
        for chunk in bucket.chunks(BATCH) {
            for &o in chunk {
                granary_tables::prefetch(&region[o as usize]);
            }
            for &o in chunk {
                update(&region[o as usize]);
            }
        }
    }
    let by_round = started.elapsed().as_secs_f64();
    let ns = |s: f64| s / UPDATES as f64 * 1e9;
    println!(
        "{mib} MiB on huge pages: {:.1} ns an update at once on {threads} thread(s) (CPU time; prefetched {BATCH} at a time), {:.1} ns bucketed by {} KiB region on one, {:.1} ns as one round in buckets of that region ({:.1} updates a cache line; {:.1} ns of it writing the buckets)",
        ns(at_once),
        ns(bucketed),
        (1usize << region_bits) >> 10,
        ns(by_round),
        (UPDATES * 64) as f64 / len as f64,
        ns(filled)
    );
}
