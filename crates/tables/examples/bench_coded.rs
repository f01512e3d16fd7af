//! Figures for table format version 3 against version 2 on built layers: for each version 1
//! layer file given and each block size, the bits a position (the whole file counted), the
//! writing speed, a random lookup's median and 99th percentile (through `Layer::try_value`, one
//! thread, the file in the page cache), and the decoded entries a second of a whole read in order
//! on one thread (`Layer::read_range` in runs of 4 Mi entries). Every written file is checked
//! against the version 1 entries, entry by entry.
//!
//! `cargo run --release -p granary-tables --example bench_coded -- SCRATCH_DIR FILE...`

use std::path::Path;
use std::time::Instant;

use granary_tables::verify::kind_of;
use granary_tables::{Codec, CompressOptions, Layer, compress_layer};
use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

const LOOKUPS: usize = 100_001;
const RUN: usize = 1 << 22;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let scratch = Path::new(&args[0]);
    println!(
        "| layer | format, block | bits a position | written MB/s | lookup median / p99 | read in order, MB/s a core |"
    );
    println!("| --- | --- | --- | --- | --- | --- |");
    for file in &args[1..] {
        let path = Path::new(file);
        let (kind, seeds) = kind_of(path).expect("a table");
        let v1 = Layer::open(path, kind, seeds).expect("a version 1 table");
        let raw = v1.raw().expect("a version 1 table");
        let settings = [
            (Codec::Coded, 64),
            (Codec::Coded, 128),
            (Codec::Coded, 256),
            (Codec::Coded, 512),
            (Codec::Coded, 1024),
            (Codec::Zstd(1), 1 << 16),
        ];
        for (codec, block_entries) in settings {
            let dest = scratch.join(format!("layer-{seeds:03}.tbl"));
            let options = CompressOptions {
                codec,
                block_entries,
                threads: 1,
            };
            let start = Instant::now();
            let made = compress_layer(&v1, &dest, options).expect("written");
            let write_s = start.elapsed().as_secs_f64();
            let layer = Layer::open(&dest, kind, seeds).expect("readable");
            // In order, one thread, checked against version 1 entry by entry.
            let mut buf = vec![0u8; RUN];
            let start = Instant::now();
            let mut first = 0usize;
            while first < raw.len() {
                let n = RUN.min(raw.len() - first);
                layer
                    .read_range(first as u64, &mut buf[..n])
                    .expect("decoded");
                assert!(buf[..n] == raw[first..first + n], "entries {first}..");
                first += n;
            }
            let read_s = start.elapsed().as_secs_f64();
            // At random.
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(u64::from(seeds));
            let mut times = Vec::with_capacity(LOOKUPS);
            for _ in 0..LOOKUPS {
                let i = rng.next_u64() % raw.len() as u64;
                let start = Instant::now();
                let v = layer.try_value(i).expect("decoded");
                times.push(start.elapsed().as_secs_f64() * 1e6);
                assert_eq!(v, raw[i as usize] as i8, "entry {i}");
            }
            times.sort_by(f64::total_cmp);
            let name = match codec {
                Codec::Coded | Codec::Filled => format!("3, {block_entries}"),
                Codec::Zstd(level) => format!("2 (zstd {level}), {}K", block_entries >> 10),
            };
            println!(
                "| {seeds} | {name} | {:.3} | {:.0} | {:.2} / {:.2} µs | {:.0} |",
                8.0 * made.after as f64 / raw.len() as f64,
                raw.len() as f64 / write_s / 1e6,
                times[LOOKUPS / 2],
                times[LOOKUPS * 99 / 100],
                raw.len() as f64 / read_s / 1e6,
            );
            drop(layer);
            std::fs::remove_file(&dest).expect("removed");
        }
    }
}
