//! What a model of the stored values could gain, measured on built layers before any format is
//! chosen: for each layer given, over runs of consecutive entries starting at random ranks,
//!
//! - the share of *don't-care* positions: those whose value a move into a lower layer already
//!   gives (a capture in Oware; in Kalah, any move that sows into the store), and those without a
//!   move (valued by the rules alone);
//! - the entropy of the values (bits a position) under several contexts: none, the previous
//!   entry, the two previous, the seeds on the mover's side, the value the lower layers
//!   guarantee, and pairs of these;
//! - the same entropies once each don't-care entry is replaced by the previous stored one where
//!   that is allowed (any value at most the guaranteed one rebuilds the true value as
//!   `max(stored, guaranteed)`);
//! - the bits a position of Huffman codes in three of those contexts (as version 3 codes them);
//! - the cost of rebuilding a don't-care: the time to compute the guaranteed value of a random
//!   position from its lower layers (mapped, warm), median and 99th percentile.
//!
//! With `filled` before GAME and a scratch directory after DIR, it writes each layer given as a
//! filled file would hold it, every don't-care filled greedily, coded as version 3 (block 256),
//! and reports its bits a position (the whole file) beside version 3 of the values. It then reads
//! the file back and checks, entry by entry, that `max(stored, guaranteed)` (the rules' value
//! where there is no move) is the layer's value: the design is exact on the real layer. It leaves
//! both symbol streams whole in the scratch directory (`values-NNN.raw`, `filled-NNN.raw`, a
//! byte a position) for general-purpose compressors to weigh: a bound on what a coder with
//! longer contexts could gain, without random access.
//!
//! `cargo run --release -p granary-tables --example value_model -- GAME DIR LAYER...`
//! with GAME `awari`, `abapa`, `kalah-standard` or `kalah-empty` (6 pits).
//!
//! With `designs` before GAME, it weighs two ways of leaving don't-cares out instead:
//!
//! - *marked*: a don't-care is stored as one more symbol, and a reader that meets it computes
//!   the value from the moves into lower layers, whose values may be marked in turn. A position
//!   is marked only where that costs at most `B` table reads in all (the writer knows, as it
//!   writes bottom-up), so a probe's cost is bounded; reported for several `B`: the share
//!   marked, the entropy given the previous entry, and its Huffman bits;
//! - *filled*: a don't-care holds any value at most the guaranteed one, and every read computes
//!   `max(stored, guaranteed)` (as Syzygy's tables resolve captures), so every probe reads the
//!   lower layers, whether its entry is a don't-care or not: the reads a probe makes (without
//!   cut-offs), median, 99th percentile and mean, capped at a million; the time such a probe
//!   takes over the set's files as they are (their entries are the values, and a filled file
//!   would be read in the same places, in whatever format the files have), against a plain
//!   probe's, for probes of at most 100,000 reads; and the entropy given the previous entry when
//!   each don't-care is filled greedily (the previous stored value where allowed) and when it is
//!   filled by the model (the likeliest value after the previous one, model refitted three
//!   times).
//!
//! With `ranks` before GAME, it weighs a third way, which reads the lower layers for the entry
//! looked up alone, never for the entries before it in its block: each value is stored as its
//! rank among the values seen under its guarantee (the likeliest first), and the ranks are coded
//! in the context of the previous rank, so that a block's codes are parsed without the rules and
//! only the entry read maps its rank back to a value through its own guarantee.

use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

use granary_rules::{Capture, Engine, Game, OwareRules, Position, Rules, Sweep};
use granary_tables::huffman::Lengths;
use granary_tables::{
    Codec, CompressOptions, Entries, Layer, TableKind, TableSet, compress_entries,
};
use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Runs of consecutive entries a layer, and their length.
const RUNS: u64 = 1024;
const RUN: u64 = 4096;
/// Random positions timed for the cost of a rebuild.
const TIMED: usize = 20_001;

/// Prints a Markdown table's head row `head` and the row under it, a `---` a column.
fn print_head(head: &str) {
    let columns = head.trim().trim_matches('|').split('|').count();
    println!("{head}");
    println!("|{}", " --- |".repeat(columns));
}

/// A layer to sample: its seeds (`n` as a value), its entries, their number, the values' width
/// `2n + 1`, and the generator of its random ranks (seeded by the layer, so runs repeat).
struct Sample<'a> {
    seeds: u32,
    layer: &'a Layer,
    size: u64,
    n: i32,
    width: usize,
    rng: Xoshiro256PlusPlus,
}

impl Sample<'_> {
    fn of<'a>(set: &'a TableSet, layer_arg: &str) -> Sample<'a> {
        let seeds: u32 = layer_arg.parse().expect("a layer number");
        let layer = set.layer(seeds).expect("layer readable");
        let size = layer.index().size();
        let n = seeds as i32;
        Sample {
            seeds,
            layer,
            size,
            n,
            width: (2 * n + 1) as usize,
            rng: Xoshiro256PlusPlus::seed_from_u64(u64::from(seeds)),
        }
    }
}

/// The runs sampled from a layer of `size` entries: the whole layer where it holds at most
/// `count` runs of [`RUN`], else `count` runs from random ranks (first entry, length).
fn runs(size: u64, count: u64, rng: &mut Xoshiro256PlusPlus) -> Vec<(u64, u64)> {
    if size <= count * RUN {
        return vec![(0, size)];
    }
    (0..count)
        .map(|_| (rng.next_u64() % (size - RUN), RUN))
        .collect()
}

/// Counts of values (shifted by `n`) under each context.
#[derive(Default)]
struct Model(HashMap<u64, Vec<u64>>);

impl Model {
    fn add(&mut self, context: u64, value: usize, width: usize) {
        self.0.entry(context).or_insert_with(|| vec![0; width])[value] += 1;
    }

    /// The empirical conditional entropy, bits a position.
    fn bits(&self) -> f64 {
        let total: u64 = self.0.values().flatten().sum();
        let mut bits = 0.0;
        for counts in self.0.values() {
            let sum: u64 = counts.iter().sum();
            for &c in counts.iter().filter(|&&c| c > 0) {
                bits -= c as f64 * (c as f64 / sum as f64).log2();
            }
        }
        bits / total as f64
    }

    /// The bits a position of a Huffman code a context (as version 3 codes the previous
    /// entry's context: lengths limited to 11 bits), model left out.
    fn huffman_bits(&self, width: usize) -> f64 {
        let total: u64 = self.0.values().flatten().sum();
        let mut bits = 0;
        for counts in self.0.values() {
            let mut padded = vec![0u64; (width + 1) * width];
            padded[width * width..].copy_from_slice(counts);
            let lengths = Lengths::fit(width, &padded);
            bits += lengths
                .cost(&padded)
                .expect("a code for every counted symbol");
        }
        bits as f64 / total as f64
    }
}

fn kind_of(game: &str) -> TableKind {
    let game = match game {
        "awari" => Game::Oware {
            rules: OwareRules::Awari,
        },
        "abapa" => Game::Oware {
            rules: OwareRules::Abapa,
        },
        "kalah-standard" => Game::Kalah {
            capture: Capture::Standard,
            sweep: Sweep::Owner,
        },
        "kalah-empty" => Game::Kalah {
            capture: Capture::Empty,
            sweep: Sweep::Owner,
        },
        _ => panic!("GAME: awari, abapa, kalah-standard or kalah-empty"),
    };
    TableKind::new(game, 6).expect("6 pits")
}

/// The table set of GAME (`args[0]`) in DIR (`args[1]`), and its rules.
fn open(args: &[String]) -> (TableSet, Engine) {
    let kind = kind_of(&args[0]);
    (TableSet::new(Path::new(&args[1]), kind), kind.engine())
}

/// The best value a move into a lower layer gives the mover of `pos` (`None` without such a
/// move), and whether `pos` has no move at all (then its value is the rules').
fn guaranteed<R: Rules>(
    set: &TableSet,
    rules: &R,
    pos: &Position,
    seeds: u32,
) -> (Option<i32>, bool) {
    match granary_tables::filled::guarantee(rules, pos, seeds, set).expect("lower layers readable")
    {
        granary_tables::filled::Guarantee::Finished(_) => (None, true),
        granary_tables::filled::Guarantee::Lower(best) => (best, false),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args[0] == "designs" {
        designs(&args[1..]);
        return;
    }
    if args[0] == "filled" {
        filled_files(&args[1..]);
        return;
    }
    if args[0] == "ranks" {
        ranks(&args[1..]);
        return;
    }
    let (set, rules) = open(&args);
    print_head(
        "| layer | sampled | lower move | don't-care | H0 | H(prev) | H(prev2) | H(side) | H(side,prev) | H(guar) | H(guar,prev) | filled H0 | filled H(prev) | filled H(prev2) | filled H(side,prev) | filled H(guar,prev) | H(prev,last pit) | filled H(prev,last pit) | filled H(prev2,side) | Huffman: prev / filled prev / filled guar,prev | rebuild median / p99 |",
    );
    for layer_arg in &args[2..] {
        let Sample {
            seeds,
            layer,
            size,
            n,
            width,
            mut rng,
        } = Sample::of(&set, layer_arg);
        let index = layer.index();
        let names = [
            "H0",
            "prev",
            "prev2",
            "side",
            "side,prev",
            "guar",
            "guar,prev",
            "f H0",
            "f prev",
            "f prev2",
            "f side,prev",
            "f guar,prev",
            "prev,last",
            "f prev,last",
            "f prev2,side",
        ];
        let mut models: Vec<Model> = names.iter().map(|_| Model::default()).collect();
        let (mut sampled, mut lower, mut dont_care) = (0u64, 0u64, 0u64);
        for (first, len) in runs(size, RUNS, &mut rng) {
            let (mut p1, mut p2, mut f1, mut f2) = (width, width, width, width);
            for (offset, board) in index.iter_from(first).take(len as usize).enumerate() {
                let i = first + offset as u64;
                let v = i32::from(layer.value(i));
                let pos = Position::of_board(board);
                let (guar, terminal) = guaranteed(&set, &rules, &pos, seeds);
                sampled += 1;
                lower += u64::from(guar.is_some());
                let care = !(terminal || guar == Some(v));
                dont_care += u64::from(!care);
                let vi = (v + n) as usize;
                let g = guar.map_or(width as u64, |g| (g + n) as u64);
                let w = width as u64 + 1;
                let side = u64::from(board.mover_seeds(6));
                models[0].add(0, vi, width);
                models[1].add(p1 as u64, vi, width);
                models[2].add(p1 as u64 * w + p2 as u64, vi, width);
                models[3].add(side, vi, width);
                models[4].add(side * w + p1 as u64, vi, width);
                models[5].add(g, vi, width);
                models[6].add(g * w + p1 as u64, vi, width);
                // The stored entry: the true value where it matters, else the previous stored one
                // if that rebuilds the value, else the largest one that does.
                let stored = fill_greedily(f1, vi, dont_care_limit(guar, terminal, v, n, width));
                models[7].add(0, stored, width);
                models[8].add(f1 as u64, stored, width);
                models[9].add(f1 as u64 * w + f2 as u64, stored, width);
                models[10].add(side * w + f1 as u64, stored, width);
                models[11].add(g * w + f1 as u64, stored, width);
                let last = u64::from(board.pit(5));
                models[12].add(last * w + p1 as u64, vi, width);
                models[13].add(last * w + f1 as u64, stored, width);
                models[14].add((side * w + f1 as u64) * w + f2 as u64, stored, width);
                (p2, p1) = (p1, vi);
                (f2, f1) = (f1, stored);
            }
        }
        // The cost of a rebuild at random positions.
        let mut times = Vec::with_capacity(TIMED);
        let mut sink = 0i64;
        for _ in 0..TIMED {
            let i = rng.next_u64() % size;
            let board = index.unrank(i);
            let start = Instant::now();
            let pos = Position::of_board(board);
            let (guar, _) = guaranteed(&set, &rules, &pos, seeds);
            sink += i64::from(guar.unwrap_or(0));
            times.push(start.elapsed().as_secs_f64() * 1e6);
        }
        std::hint::black_box(sink);
        times.sort_by(f64::total_cmp);
        let bits: Vec<String> = models.iter().map(|m| format!("{:.2}", m.bits())).collect();
        println!(
            "| {seeds} | {sampled} | {:.1}% | {:.1}% | {} | {:.2} / {:.2} / {:.2} | {:.2} / {:.2} µs |",
            100.0 * lower as f64 / sampled as f64,
            100.0 * dont_care as f64 / sampled as f64,
            bits.join(" | "),
            models[1].huffman_bits(width),
            models[8].huffman_bits(width),
            models[11].huffman_bits(width),
            times[times.len() / 2],
            times[times.len() * 99 / 100],
        );
    }
}

/// One sampled entry for the rank model: its value (a symbol), the context its guarantee gives
/// (the guaranteed value as a symbol, `width` without a lower move, `width + 1` without a move),
/// and the largest symbol that rebuilds it if it is a don't-care.
struct Ranked {
    value: usize,
    context: usize,
    limit: Option<usize>,
}

/// The rank model: each value replaced by its rank among the values seen under its guarantee's
/// context (likeliest first), so that the code of a rank, in the context of the previous rank,
/// is parsed without the lower layers and only the entry read maps its rank back to a value.
/// Reports the entropy of the values given the guarantee (the bound for any code of ranks), of
/// the ranks alone and given the previous rank, unfilled and with don't-cares filled (the
/// previous rank where it rebuilds the value, else the lowest that does), and Huffman bits.
fn ranks(args: &[String]) {
    let (set, rules) = open(args);
    print_head(
        "| layer | sampled | H(v given guar) | H(rank) | H(rank given prev rank) | filled H(rank) | filled H(rank given prev rank) | Huffman: rank, prev rank / filled rank, prev rank |",
    );
    for layer_arg in &args[2..] {
        let Sample {
            seeds,
            layer,
            size,
            n,
            width,
            mut rng,
        } = Sample::of(&set, layer_arg);
        let index = layer.index();
        let mut sampled: Vec<Vec<Ranked>> = Vec::new();
        for (first, len) in runs(size, RUNS, &mut rng) {
            let mut run = Vec::with_capacity(len as usize);
            for (offset, board) in index.iter_from(first).take(len as usize).enumerate() {
                let v = i32::from(layer.value(first + offset as u64));
                let pos = Position::of_board(board);
                let (guar, terminal) = guaranteed(&set, &rules, &pos, seeds);
                let context = match (terminal, guar) {
                    (true, _) => width + 1,
                    (false, None) => width,
                    (false, Some(g)) => (g + n) as usize,
                };
                run.push(Ranked {
                    value: (v + n) as usize,
                    context,
                    limit: dont_care_limit(guar, terminal, v, n, width),
                });
            }
            sampled.push(run);
        }
        // Each context's values, likeliest first.
        let mut counts = vec![vec![0u64; width]; width + 2];
        for e in sampled.iter().flatten() {
            counts[e.context][e.value] += 1;
        }
        let mut given_guar = Model::default();
        for (context, row) in counts.iter().enumerate() {
            if row.iter().any(|&c| c > 0) {
                given_guar.0.insert(context as u64, row.clone());
            }
        }
        let order: Vec<Vec<usize>> = counts
            .iter()
            .map(|row| {
                let mut symbols: Vec<usize> = (0..width).collect();
                symbols.sort_by_key(|&s| (std::cmp::Reverse(row[s]), s));
                symbols
            })
            .collect();
        let mut rank_of = vec![vec![0usize; width]; width + 2];
        for (context, symbols) in order.iter().enumerate() {
            for (rank, &s) in symbols.iter().enumerate() {
                rank_of[context][s] = rank;
            }
        }
        let plain: Vec<Vec<usize>> = sampled
            .iter()
            .map(|run| run.iter().map(|e| rank_of[e.context][e.value]).collect())
            .collect();
        let filled: Vec<Vec<usize>> = sampled
            .iter()
            .map(|run| {
                let mut prev = None;
                run.iter()
                    .map(|e| {
                        let rank = match e.limit {
                            None => rank_of[e.context][e.value],
                            Some(limit) => {
                                let allowed = |r: usize| order[e.context][r] <= limit;
                                match prev {
                                    Some(p) if allowed(p) => p,
                                    _ => (0..width).find(|&r| allowed(r)).expect("a rank"),
                                }
                            }
                        };
                        prev = Some(rank);
                        rank
                    })
                    .collect()
            })
            .collect();
        let alone = |runs: &[Vec<usize>]| {
            let mut counts = vec![vec![0u64; width]];
            for &r in runs.iter().flatten() {
                counts[0][r] += 1;
            }
            model_of(&counts)
        };
        let (plain_prev, filled_prev) = (
            model_of(&prev_counts(&plain, width)),
            model_of(&prev_counts(&filled, width)),
        );
        println!(
            "| {seeds} | {} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} / {:.2} |",
            plain.iter().map(Vec::len).sum::<usize>(),
            given_guar.bits(),
            alone(&plain).bits(),
            plain_prev.bits(),
            alone(&filled).bits(),
            filled_prev.bits(),
            plain_prev.huffman_bits(width),
            filled_prev.huffman_bits(width),
        );
    }
}

/// Bounds on the reads of a probe through marked entries.
const BOUNDS: [u32; 4] = [4, 8, 16, 64];
/// Where the reads of a probe through filled entries stop being counted.
const TREE_CAP: u64 = 1_000_000;
/// Runs sampled a layer for the designs (each of [`RUN`] entries).
const DESIGN_RUNS: u64 = 256;
/// Random positions whose probe reads are counted.
const COUNTED: usize = 20_001;
/// Filled probes of more reads than this are left out of the timing.
const TIMED_READS: u64 = 100_000;

/// What a position's value needs: its value, the best a move into a lower layer gives (`None`
/// without one), whether it has no move, and the layouts those moves lead to.
struct Node {
    value: i32,
    guaranteed: Option<i32>,
    terminal: bool,
    lower: Vec<granary_rules::Board>,
}

fn node<R: Rules>(set: &TableSet, rules: &R, board: granary_rules::Board) -> Node {
    let pos = Position::of_board(board);
    let seeds = board.seeds(6);
    let value = granary_tables::probe::position_value(set, rules, &pos).expect("readable");
    let (guaranteed, terminal) = guaranteed(set, rules, &pos, seeds);
    let lower = rules
        .legal_moves(&pos)
        .iter()
        .map(|lane| rules.play(&pos, lane).board)
        .filter(|child| child.seeds(6) < seeds)
        .collect();
    Node {
        value,
        guaranteed,
        terminal,
        lower,
    }
}

/// Table reads of a probe of `board` where don't-cares costing at most `bound` reads are
/// marked (1 if it is not marked).
fn marked_cost<R: Rules>(
    set: &TableSet,
    rules: &R,
    board: granary_rules::Board,
    bound: u32,
    memo: &mut HashMap<granary_rules::Board, u32>,
) -> u32 {
    if let Some(&cost) = memo.get(&board) {
        return cost;
    }
    let node = node(set, rules, board);
    // Read as it is stored: a terminal position, or one whose value is more than its lower
    // moves guarantee.
    let cost = if node.terminal || node.guaranteed != Some(node.value) {
        1
    } else {
        let mut sum = 1;
        for &child in &node.lower {
            sum += marked_cost(set, rules, child, bound, memo);
            if sum > bound {
                break;
            }
        }
        if sum > bound { 1 } else { sum }
    };
    memo.insert(board, cost);
    cost
}

/// Table reads of a probe of `board` that always reads the lower layers, capped.
fn filled_cost<R: Rules>(
    set: &TableSet,
    rules: &R,
    board: granary_rules::Board,
    memo: &mut HashMap<granary_rules::Board, u64>,
) -> u64 {
    if let Some(&cost) = memo.get(&board) {
        return cost;
    }
    let node = node(set, rules, board);
    let mut sum = 1;
    for &child in &node.lower {
        sum += filled_cost(set, rules, child, memo);
        if sum >= TREE_CAP {
            sum = TREE_CAP;
            break;
        }
    }
    memo.insert(board, sum);
    sum
}

/// The value of `pos` as a reader of filled layers computes it: its entry, raised by every move
/// into a lower layer, each valued the same way (no cut-off, no cache). Over the set's files as
/// they are (entries that are the values), it reads what a filled file would make it read.
fn filled_probe<R: Rules>(set: &TableSet, rules: &R, pos: &Position) -> i32 {
    let seeds = pos.board.seeds(6);
    let moves = rules.legal_moves(pos);
    if moves.is_empty() {
        return granary_tables::probe::terminal_value(rules, pos);
    }
    let mut best = set
        .probe(pos.board)
        .expect("readable")
        .map_or(i32::MIN, i32::from);
    for lane in moves.iter() {
        let child = rules.play(pos, lane);
        if child.board.seeds(6) < seeds || best == i32::MIN {
            let (gain, again) = pos.move_gain(&child);
            let value = granary_rules::exit_value(gain, again, filled_probe(set, rules, &child));
            best = best.max(value);
        }
    }
    best
}

/// Median and 99th percentile of `times` (µs), sorted in place.
fn median_p99(times: &mut [f64]) -> (f64, f64) {
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2], times[times.len() * 99 / 100])
}

/// The `filled` mode: each layer written filled and as it is, both coded, compared, and the
/// filled one read back and checked against the values.
fn filled_files(args: &[String]) {
    let kind = kind_of(&args[0]);
    let set = TableSet::new(Path::new(&args[1]), kind);
    let scratch = Path::new(&args[2]);
    std::fs::create_dir_all(scratch).expect("the scratch directory");
    let rules = kind.engine();
    print_head(
        "| layer | positions | don't-care | version 3: bits a position | filled: bits a position | ratio | filled, read back: entries checked |",
    );
    for layer_arg in &args[3..] {
        let Sample {
            seeds,
            layer,
            size,
            n,
            width,
            ..
        } = Sample::of(&set, layer_arg);
        let index = layer.index();
        // The values and the filled entries, as symbols.
        let (mut values, mut filled) = (Vec::new(), Vec::new());
        let (mut prev, mut dont_care) = (width, 0usize);
        for (i, board) in index.iter_from(0).enumerate() {
            let v = i32::from(layer.value(i as u64));
            let pos = Position::of_board(board);
            let (guar, terminal) = guaranteed(&set, &rules, &pos, seeds);
            let limit = dont_care_limit(guar, terminal, v, n, width);
            dont_care += usize::from(limit.is_some());
            let vi = (v + n) as usize;
            prev = fill_greedily(prev, vi, limit);
            values.push(vi as u8);
            filled.push(prev as u8);
        }
        // Entries as a layer stores them: the value, `- n`, as a byte.
        let coded_bytes = |symbols: &[u8], name: &str| {
            let dest = scratch.join(format!("{name}-{seeds:03}.tbl"));
            let fill = |first: u64, block: &mut [u8]| {
                let first = first as usize;
                for (out, &s) in block.iter_mut().zip(&symbols[first..]) {
                    *out = (i32::from(s) - n) as i8 as u8;
                }
            };
            let entries = Entries {
                len: size,
                fill: &fill,
            };
            let options = CompressOptions {
                codec: Codec::Coded,
                block_entries: 256,
                threads: 2,
            };
            compress_entries(&dest, kind.header(seeds, size), &entries, options).expect("written");
            let bytes = std::fs::metadata(&dest).expect("written").len();
            (dest, bytes)
        };
        for (symbols, name) in [(&values, "values"), (&filled, "filled")] {
            std::fs::write(scratch.join(format!("{name}-{seeds:03}.raw")), symbols)
                .expect("the symbols written");
        }
        let (plain_path, plain_bytes) = coded_bytes(&values, "values");
        std::fs::remove_file(plain_path).expect("removed");
        let (filled_path, filled_bytes) = coded_bytes(&filled, "filled");
        // Read back through the decoder: the value rebuilt from every entry.
        let back = Layer::open(&filled_path, kind, seeds).expect("the filled file opens");
        let mut stored = vec![0u8; size as usize];
        back.read_range(0, &mut stored)
            .expect("the filled file decodes");
        for (i, board) in index.iter_from(0).enumerate() {
            let pos = Position::of_board(board);
            let (guar, terminal) = guaranteed(&set, &rules, &pos, seeds);
            let rebuilt = if terminal {
                granary_tables::probe::terminal_value(&rules, &pos)
            } else {
                guar.map_or(i32::from(stored[i] as i8), |g| {
                    g.max(i32::from(stored[i] as i8))
                })
            };
            assert_eq!(
                rebuilt,
                i32::from(values[i]) - n,
                "layer {seeds}, entry {i}: the filled entry does not rebuild the value"
            );
        }
        drop(back);
        std::fs::remove_file(filled_path).expect("removed");
        let bits = |bytes: u64| 8.0 * bytes as f64 / size as f64;
        println!(
            "| {seeds} | {size} | {:.1}% | {:.3} | {:.3} | {:.3}x | {size} |",
            100.0 * dont_care as f64 / size as f64,
            bits(plain_bytes),
            bits(filled_bytes),
            filled_bytes as f64 / plain_bytes as f64
        );
    }
}

/// The largest entry (as a symbol) that rebuilds the value `v` of a position whose lower moves
/// guarantee `guar`, if it is a don't-care: any symbol where it has no move, its own where its
/// lower moves give its value; `None` where the entry must be the value.
fn dont_care_limit(
    guar: Option<i32>,
    terminal: bool,
    v: i32,
    n: i32,
    width: usize,
) -> Option<usize> {
    if terminal {
        Some(width - 1)
    } else if guar == Some(v) {
        Some((v + n) as usize)
    } else {
        None
    }
}

/// The entry a greedy fill stores after `prev`: the value where it matters, else `prev` where
/// that rebuilds the value, else the largest entry that does.
fn fill_greedily(prev: usize, value: usize, limit: Option<usize>) -> usize {
    match limit {
        None => value,
        Some(limit) => prev.min(limit),
    }
}

/// Fills don't-cares (`limit[i]`: `None` where the entry matters, else the largest value that
/// rebuilds it) with the likeliest value after the previous stored one under `counts`.
fn fill_by_model(values: &[usize], limits: &[Option<usize>], counts: &[Vec<u64>]) -> Vec<usize> {
    let width = counts.len() - 1;
    let mut prev = width;
    values
        .iter()
        .zip(limits)
        .map(|(&v, limit)| {
            let stored = match *limit {
                None => v,
                Some(limit) => (0..=limit)
                    .max_by_key(|&s| (counts[prev][s], s == prev.min(limit)))
                    .expect("a value at most the limit"),
            };
            prev = stored;
            stored
        })
        .collect()
}

/// Counts of each of `symbols` symbols after the previous one (context `symbols`: the start of
/// a run).
fn prev_counts(runs: &[Vec<usize>], symbols: usize) -> Vec<Vec<u64>> {
    let mut counts = vec![vec![0u64; symbols]; symbols + 1];
    for run in runs {
        let mut prev = symbols;
        for &s in run {
            counts[prev][s] += 1;
            prev = s;
        }
    }
    counts
}

fn model_of(counts: &[Vec<u64>]) -> Model {
    let mut model = Model::default();
    for (context, row) in counts.iter().enumerate() {
        if row.iter().any(|&c| c > 0) {
            model.0.insert(context as u64, row.clone());
        }
    }
    model
}

fn designs(args: &[String]) {
    let (set, rules) = open(args);
    let bounds: Vec<String> = BOUNDS
        .iter()
        .map(|b| format!("marked, B = {b}: share / H(prev) / Huffman"))
        .collect();
    print_head(&format!(
        "| layer | sampled | {} | filled: probe reads median / p99 / mean | filled probe time median / p99 | plain probe time median / p99 | filled greedily: H(prev) / Huffman | filled by the model: H(prev) / Huffman |",
        bounds.join(" | ")
    ));
    for layer_arg in &args[2..] {
        let Sample {
            seeds,
            layer,
            size,
            n,
            width,
            mut rng,
        } = Sample::of(&set, layer_arg);
        let index = layer.index();
        let mut memos: Vec<HashMap<granary_rules::Board, u32>> =
            BOUNDS.iter().map(|_| HashMap::new()).collect();
        // Per run: the values, the limits of the don't-cares, and each bound's symbols.
        let mut values: Vec<Vec<usize>> = Vec::new();
        let mut limits: Vec<Vec<Option<usize>>> = Vec::new();
        let mut marked: Vec<Vec<Vec<usize>>> = BOUNDS.iter().map(|_| Vec::new()).collect();
        let mut marked_count = vec![0u64; BOUNDS.len()];
        let mut sampled = 0u64;
        for (first, len) in runs(size, DESIGN_RUNS, &mut rng) {
            let (mut run_values, mut run_limits) = (Vec::new(), Vec::new());
            let mut run_marked: Vec<Vec<usize>> = BOUNDS.iter().map(|_| Vec::new()).collect();
            for (offset, board) in index.iter_from(first).take(len as usize).enumerate() {
                let v = i32::from(layer.value(first + offset as u64));
                let pos = Position::of_board(board);
                let (guar, terminal) = guaranteed(&set, &rules, &pos, seeds);
                let vi = (v + n) as usize;
                run_values.push(vi);
                run_limits.push(dont_care_limit(guar, terminal, v, n, width));
                for (b, &bound) in BOUNDS.iter().enumerate() {
                    let cost = marked_cost(&set, &rules, board, bound, &mut memos[b]);
                    let is_marked = terminal || (guar == Some(v) && cost > 1);
                    marked_count[b] += u64::from(is_marked);
                    run_marked[b].push(if is_marked { width } else { vi });
                }
                sampled += 1;
            }
            values.push(run_values);
            limits.push(run_limits);
            for (b, run) in run_marked.into_iter().enumerate() {
                marked[b].push(run);
            }
        }
        let mut cells = Vec::new();
        for (b, runs) in marked.iter().enumerate() {
            // The marker is symbol `width`: `width + 1` symbols, `width + 2` contexts.
            let counts = prev_counts(runs, width + 1);
            let model = model_of(&counts);
            cells.push(format!(
                "{:.1}% / {:.2} / {:.2}",
                100.0 * marked_count[b] as f64 / sampled as f64,
                model.bits(),
                model.huffman_bits(width + 1)
            ));
        }
        // Filled: the reads of a probe at random positions.
        let mut reads = Vec::with_capacity(COUNTED);
        let mut memo = HashMap::new();
        let mut boards = Vec::with_capacity(COUNTED);
        for _ in 0..COUNTED {
            let board = index.unrank(rng.next_u64() % size);
            let cost = filled_cost(&set, &rules, board, &mut memo);
            reads.push(cost);
            if cost <= TIMED_READS {
                boards.push(board);
            }
        }
        reads.sort_unstable();
        let mean = reads.iter().sum::<u64>() as f64 / reads.len() as f64;
        cells.push(format!(
            "{} / {} / {mean:.1}",
            reads[reads.len() / 2],
            reads[reads.len() * 99 / 100]
        ));
        // The time of a plain probe and of a filled one over the set's files, one thread, on
        // those positions whose probe makes at most `TIMED_READS` reads: each in a pass of its
        // own over the positions shuffled again, so that what counting their reads and the
        // other pass left in the caches is mostly gone.
        let mut timed = |probe: &dyn Fn(granary_rules::Board) -> i32| {
            for i in (1..boards.len()).rev() {
                boards.swap(i, (rng.next_u64() % (i as u64 + 1)) as usize);
            }
            let mut sink = 0i64;
            let times: Vec<f64> = boards
                .iter()
                .map(|&board| {
                    let start = Instant::now();
                    sink += i64::from(probe(board));
                    start.elapsed().as_secs_f64() * 1e6
                })
                .collect();
            std::hint::black_box(sink);
            times
        };
        let mut plain = timed(&|board| i32::from(set.probe(board).expect("readable").unwrap_or(0)));
        let mut filled = timed(&|board| filled_probe(&set, &rules, &Position::of_board(board)));
        let (fm, fp) = median_p99(&mut filled);
        let (pm, pp) = median_p99(&mut plain);
        cells.push(format!(
            "{fm:.2} / {fp:.2} µs ({:.1}% timed) | {pm:.2} / {pp:.2} µs",
            100.0 * filled.len() as f64 / COUNTED as f64
        ));
        // Filled greedily, then by the model.
        let mut stored: Vec<Vec<usize>> = values
            .iter()
            .zip(&limits)
            .map(|(run, limits)| {
                let mut prev = width;
                run.iter()
                    .zip(limits)
                    .map(|(&v, &limit)| {
                        prev = fill_greedily(prev, v, limit);
                        prev
                    })
                    .collect()
            })
            .collect();
        let greedy = model_of(&prev_counts(&stored, width));
        cells.push(format!(
            "{:.2} / {:.2}",
            greedy.bits(),
            greedy.huffman_bits(width)
        ));
        for _ in 0..3 {
            let counts = prev_counts(&stored, width);
            stored = values
                .iter()
                .zip(&limits)
                .map(|(run, limits)| fill_by_model(run, limits, &counts))
                .collect();
        }
        let fitted = model_of(&prev_counts(&stored, width));
        cells.push(format!(
            "{:.2} / {:.2}",
            fitted.bits(),
            fitted.huffman_bits(width)
        ));
        println!("| {seeds} | {sampled} | {} |", cells.join(" | "));
    }
}
