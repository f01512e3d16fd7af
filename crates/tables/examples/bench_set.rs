//! Reads of a set's layers as a reader meets them, whatever their format, against the same
//! layers in version 1: for each layer given, a random lookup's median and 99th percentile
//! (`TableSet::layer(..).try_value`, one thread, after a first pass over the same positions so
//! that the layer and the layers below it are in the page cache) and the entries a second of a
//! read in order on one core (`Layer::read_range` in runs of 4 Mi entries, in a pool of one
//! thread, the layer's first 64 Mi entries at most). Every entry read is checked against
//! version 1.
//!
//! `cargo run --release -p granary-tables --example bench_set -- [--in-order N] [--filled-whole N]
//! PLAIN_ROOT PACKED_ROOT GAME LAYER...` (`GAME` the kind's directory name, e.g.
//! `oware-6-awari`): `--in-order` the most entries read in order (64 Mi by default; 0 reads
//! none), `--filled-whole` the size up to which filled layers are rebuilt whole
//! (`TableSet::with_filled_whole_entries`).

use std::path::Path;
use std::time::Instant;

use granary_tables::TableSet;
use granary_tables::verify::kind_of;
use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

const LOOKUPS: usize = 100_001;
const RUN: usize = 1 << 22;
/// The most entries read in order.
const IN_ORDER: usize = 1 << 26;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut option = |name: &str| {
        let at = args.iter().position(|a| a == name)?;
        let value = args.remove(at + 1);
        args.remove(at);
        Some(value.parse::<u64>().expect("a number of entries"))
    };
    let in_order = option("--in-order").map_or(IN_ORDER, |n| n as usize);
    let filled_whole = option("--filled-whole");
    let (plain_root, packed_root, game) = (Path::new(&args[0]), Path::new(&args[1]), &args[2]);
    let (kind, _) =
        kind_of(&plain_root.join(game).join("layer-000.tbl")).expect("a version 1 layer 0");
    let plain = TableSet::new(plain_root, kind);
    let mut packed = TableSet::new(packed_root, kind);
    if let Some(entries) = filled_whole {
        packed = packed.with_filled_whole_entries(entries);
    }
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a pool of one thread");
    println!(
        "| layer | format, codec, block | bits a position | lookup median / p99 | read in order, M entries/s a core |"
    );
    println!("| --- | --- | --- | --- | --- |");
    for layer_arg in &args[3..] {
        let seeds: u32 = layer_arg.parse().expect("a layer number");
        let raw = plain
            .layer(seeds)
            .expect("the version 1 layer")
            .raw()
            .expect("a version 1 layer");
        let layer = packed.layer(seeds).expect("the packed layer");
        let header = *layer.header();
        let bytes = std::fs::metadata(packed.layer_path(seeds))
            .expect("the packed file")
            .len();
        // At random: a pass to warm the caches, then the timed one.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(u64::from(seeds));
        let ranks: Vec<u64> = (0..LOOKUPS)
            .map(|_| rng.next_u64() % raw.len() as u64)
            .collect();
        for &i in &ranks {
            assert_eq!(layer.try_value(i).expect("read"), raw[i as usize] as i8);
        }
        let mut times = Vec::with_capacity(LOOKUPS);
        for &i in &ranks {
            let start = Instant::now();
            let v = layer.try_value(i).expect("read");
            times.push(start.elapsed().as_secs_f64() * 1e6);
            assert_eq!(v, raw[i as usize] as i8, "entry {i}");
        }
        times.sort_by(f64::total_cmp);
        // In order, on one core.
        let (read, read_s) = one.install(|| {
            let mut buf = vec![0u8; RUN];
            let start = Instant::now();
            let mut first = 0usize;
            let end = raw.len().min(in_order);
            while first < end {
                let n = RUN.min(end - first);
                layer
                    .read_range(first as u64, &mut buf[..n])
                    .expect("decoded");
                assert!(buf[..n] == raw[first..first + n], "entries {first}..");
                first += n;
            }
            (end, start.elapsed().as_secs_f64())
        });
        let in_order = if read == 0 {
            "-".to_string()
        } else {
            format!("{:.1}", read as f64 / read_s / 1e6)
        };
        println!(
            "| {seeds} | {}, {}, {} | {:.3} | {:.2} / {:.2} µs | {in_order} |",
            header.version.get(),
            header.codec,
            header.block_entries.get(),
            8.0 * bytes as f64 / raw.len() as f64,
            times[LOOKUPS / 2],
            times[LOOKUPS * 99 / 100],
        );
    }
}
