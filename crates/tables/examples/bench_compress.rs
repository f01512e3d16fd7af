//! Compression figures for table format version 2: for each layer file given, each block size and
//! each compressor, the ratio (uncompressed bytes over compressed bytes, index left out), the
//! compression speed, and the median time of one random lookup on a cold block (decompress the
//! block, read an entry) and on a warm one (the block cached, through `Layer::value` for zstd).
//!
//! `cargo run --profile ci -p granary-tables --example bench_compress -- FILE...`
//! (`scripts/bench-compress.sh` builds tables and runs it).

use std::path::Path;
use std::time::Instant;

use granary_tables::CompressOptions;
use granary_tables::compressed::valid_block_entries;
use granary_tables::verify::kind_of;
use granary_tables::{Layer, compress_layer};
use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

const BLOCKS: [u32; 5] = [4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20];
const SAMPLES: usize = 301;

#[derive(Clone, Copy)]
enum Codec {
    Zstd(i32),
    Lz4,
}

impl Codec {
    fn name(self) -> String {
        match self {
            Codec::Zstd(level) => format!("zstd-{level}"),
            Codec::Lz4 => "lz4_flex".into(),
        }
    }
}

/// A seeded generator: the same lookups every run.
struct Rng(Xoshiro256PlusPlus);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0.next_u64() % n
    }
}

fn median(mut times: Vec<f64>) -> f64 {
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// Ratio, compression MB/s and the median cold lookup in microseconds of `codec` on `data`.
fn measure(data: &[u8], block: usize, codec: Codec, rng: &mut Rng) -> (f64, f64, f64) {
    let start = Instant::now();
    let frames: Vec<Vec<u8>> = match codec {
        Codec::Zstd(level) => {
            let mut c = zstd::bulk::Compressor::new(level).expect("a zstd context");
            c.include_checksum(true).expect("a zstd parameter");
            data.chunks(block)
                .map(|b| c.compress(b).expect("compressed"))
                .collect()
        }
        Codec::Lz4 => data.chunks(block).map(lz4_flex::block::compress).collect(),
    };
    let seconds = start.elapsed().as_secs_f64();
    let compressed: usize = frames.iter().map(Vec::len).sum();
    let mut out = vec![0u8; block];
    let mut context = zstd::bulk::Decompressor::new().expect("a zstd context");
    let mut sink = 0u64;
    let times = (0..SAMPLES)
        .map(|_| {
            let i = rng.below(frames.len() as u64) as usize;
            let len = data.len().saturating_sub(i * block).min(block);
            let at = rng.below(len as u64) as usize;
            let start = Instant::now();
            let n = match codec {
                Codec::Zstd(_) => context
                    .decompress_to_buffer(&frames[i], &mut out[..])
                    .expect("decompressed"),
                Codec::Lz4 => lz4_flex::block::decompress_into(&frames[i], &mut out[..len])
                    .expect("decompressed"),
            };
            sink += u64::from(out[at]);
            let t = start.elapsed().as_secs_f64();
            assert_eq!(n, len);
            t
        })
        .collect();
    std::hint::black_box(sink);
    (
        data.len() as f64 / compressed as f64,
        data.len() as f64 / seconds / 1e6,
        median(times) * 1e6,
    )
}

/// The median lookup in nanoseconds through `Layer::value`, each timed over 1000 lookups: all in
/// one block (warm after the first) for a compressed layer, anywhere for a version 1 one.
fn warm(layer: &Layer, block: u64, rng: &mut Rng) -> f64 {
    let entries = layer.len();
    let times = (0..SAMPLES)
        .map(|_| {
            let first = rng.below(entries.div_ceil(block)) * block;
            let span = (entries - first).min(block);
            let indexes: Vec<u64> = (0..1000).map(|_| first + rng.below(span)).collect();
            std::hint::black_box(layer.value(indexes[0]));
            let start = Instant::now();
            let mut sum = 0i64;
            for &i in &indexes {
                sum += i64::from(layer.value(i));
            }
            std::hint::black_box(sum);
            start.elapsed().as_secs_f64() / 1000.0
        })
        .collect();
    median(times) * 1e9
}

fn main() {
    let files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        eprintln!("usage: bench_compress LAYER-FILE...");
        std::process::exit(2);
    }
    let scratch = tempfile::tempdir().expect("a scratch directory");
    let mut rng = Rng(Xoshiro256PlusPlus::seed_from_u64(0x9E37_79B9_7F4A_7C15));
    println!(
        "{:<28} {:>9} {:>8} {:>7} {:>9} {:>10} {:>10}",
        "layer", "block", "codec", "ratio", "MB/s", "cold us", "warm ns"
    );
    for file in &files {
        let path = Path::new(file);
        let (kind, seeds) = kind_of(path).expect("a table file");
        let layer = Layer::open(path, kind, seeds).expect("a table file");
        let Some(data) = layer.raw() else {
            eprintln!("{file}: compressed already, left out");
            continue;
        };
        let name = format!("{} {seeds}", kind.name());
        let v1 = warm(&layer, layer.len(), &mut rng);
        println!(
            "{name:<28} {:>9} {:>8} {:>7.2} {:>9} {:>10} {v1:>10.1}",
            "-", "none", 1.0, "-", "-"
        );
        for block in BLOCKS {
            assert!(valid_block_entries(block));
            for codec in [Codec::Zstd(1), Codec::Zstd(3), Codec::Zstd(9), Codec::Lz4] {
                let (ratio, speed, cold) = measure(data, block as usize, codec, &mut rng);
                // Warm: the real reader, for the codec it uses.
                // (once a block size: the level does not change the lookup)
                let warm_ns = if let Codec::Zstd(1) = codec {
                    let dest = scratch.path().join("layer.tbl");
                    let options = CompressOptions {
                        block_entries: block,
                        threads: 1,
                        ..CompressOptions::zstd(1)
                    };
                    compress_layer(&layer, &dest, options).expect("compressed");
                    let v2 = Layer::open(&dest, kind, seeds).expect("a compressed table");
                    format!("{:.1}", warm(&v2, u64::from(block), &mut rng))
                } else {
                    "-".into()
                };
                println!(
                    "{name:<28} {:>8}K {:>8} {ratio:>7.2} {speed:>9.1} {cold:>10.1} {warm_ns:>10}",
                    block >> 10,
                    codec.name()
                );
            }
        }
    }
}
