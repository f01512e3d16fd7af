//! A build in blocks under a memory budget writes the same bytes as a build in memory: Oware
//! awari 0..=18 and Kalah 6-pit standard 0..=16, with budgets of a few MiB (layers of up to 33
//! million positions cut into up to 32 blocks, with messages spilled to scratch files).

use granary_retrograde::{BuildOptions, build_layers};
use granary_rules::{Capture, Game, OwareRules, Sweep};
use granary_tables::{TableKind, TableSet};

fn build(dir: &std::path::Path, kind: TableKind, max: u32, memory: Option<u64>, threads: usize) {
    let options = BuildOptions {
        threads: Some(threads),
        memory,
        compress: None,
        checkpoint_every: None,
        region: None,
    };
    build_layers(dir, kind, max, options, &()).unwrap();
}

/// Builds `kind` to `max` in memory, then under each budget, and compares every file; no
/// scratch file may be left behind.
fn same_bytes(kind: TableKind, max: u32, budgets: &[(u64, usize)]) {
    let free = tempfile::tempdir().unwrap();
    build(free.path(), kind, max, None, 2);
    let expected = TableSet::new(free.path(), kind);
    for &(budget, threads) in budgets {
        let dir = tempfile::tempdir().unwrap();
        build(dir.path(), kind, max, Some(budget), threads);
        let set = TableSet::new(dir.path(), kind);
        for n in 0..=max {
            let (a, b) = (
                std::fs::read(expected.layer_path(n)).unwrap(),
                std::fs::read(set.layer_path(n)).unwrap(),
            );
            assert!(
                a == b,
                "{kind:?} layer {n}: {budget} bytes of memory, {threads} threads: other bytes"
            );
        }
        let left: Vec<_> = std::fs::read_dir(set.layer_path(0).parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .filter(|name| !name.to_string_lossy().ends_with(".tbl"))
            .collect();
        assert!(
            left.iter().all(|n| n.to_string_lossy().starts_with('.')),
            "left behind: {left:?}"
        );
    }
}

#[test]
#[ignore = "slow (about 2 minutes on 2 cores): .ci/run runs it, or cargo test -- --ignored"]
fn awari_in_blocks_writes_the_same_files() {
    let kind = TableKind {
        game: Game::Oware {
            rules: OwareRules::Awari,
        },
        pits: 6,
    };
    // 2 MiB: blocks of 1.5 Mi positions, 22 for layer 18.
    same_bytes(kind, 18, &[(2 << 20, 2)]);
    // Smaller layers, other block sizes and thread counts: 1 MiB (10 blocks for layer 15) on
    // one thread, 3 MiB on three.
    same_bytes(kind, 15, &[(1 << 20, 1), (3 << 20, 3)]);
}

#[test]
#[ignore = "slow (about 2 minutes on 2 cores): .ci/run runs it, or cargo test -- --ignored"]
fn kalah_in_blocks_writes_the_same_files() {
    let kind = TableKind {
        game: Game::Kalah {
            capture: Capture::Standard,
            sweep: Sweep::Owner,
        },
        pits: 6,
    };
    // The blocked phases against the builder in order of potential, which runs unbudgeted.
    same_bytes(kind, 16, &[(2 << 20, 2)]);
}

/// Lower layers larger than a quarter of the budget are read in tiles (`crates/retrograde/src/sweep.rs`),
/// compressed or not: the same bytes as in memory, and for Oware every exit read from its tile.
#[test]
fn lower_layers_read_in_tiles_compressed_or_not_give_the_same_files() {
    use granary_retrograde::build_layers;
    use granary_tables::Layer;
    use granary_tables::compress::CompressOptions;
    for rules in [OwareRules::Awari, OwareRules::Abapa] {
        let kind = TableKind {
            game: Game::Oware { rules },
            pits: 6,
        };
        let max = 12;
        let free = tempfile::tempdir().unwrap();
        build(free.path(), kind, max, None, 2);
        let expected = TableSet::new(free.path(), kind);
        for compress in [None, Some(CompressOptions::default())] {
            let dir = tempfile::tempdir().unwrap();
            // 256 KiB: tiles of 64 Ki entries (layers 0..=11 hold 2.6 M), blocks of 192 Ki
            // positions (layer 12 holds 1.7 M).
            let options = BuildOptions {
                threads: Some(2),
                memory: Some(256 << 10),
                compress,
                checkpoint_every: None,
                region: None,
            };
            let reports = build_layers(dir.path(), kind, max, options, &()).unwrap();
            let swept = reports
                .last()
                .unwrap()
                .sweep
                .expect("layer 12 read in tiles");
            assert!(swept.tiles > 10, "{swept:?}");
            assert_eq!(swept.misses, 0, "an Oware exit outside its tile: {swept:?}");
            assert!(
                reports
                    .iter()
                    .all(|r| r.sweep.is_none_or(|s| s.misses == 0))
            );
            for n in 0..=max {
                let path = TableSet::new(dir.path(), kind).layer_path(n);
                let layer = Layer::open(&path, kind, n).unwrap();
                assert_eq!(layer.is_compressed(), compress.is_some(), "layer {n}");
                assert_eq!(
                    layer.resident().unwrap().raw().unwrap(),
                    expected.layer(n).unwrap().raw().unwrap(),
                    "{rules:?} layer {n}, compressed: {}",
                    compress.is_some()
                );
            }
        }
    }
}

/// A first pass in tiles writes its best exits into values in anonymous memory where they fit
/// the budget beside the work bytes, else into a mapped scratch file
/// (`crates/retrograde/src/memory.rs`, `MemoryPlan::values_in_memory`): both ways, in one block
/// and in several, the same bytes as in memory.
#[test]
fn tiles_with_values_in_memory_or_in_a_file_give_the_same_files() {
    use granary_index::LayerIndex;
    use granary_retrograde::memory::{MemoryPlan, Reads, TILE, VALUES, Work};
    let kind = TableKind {
        game: Game::Oware {
            rules: OwareRules::Awari,
        },
        pits: 6,
    };
    let max = 15;
    // 8 MB: layer 13 (2.46 M positions) keeps its values in memory beside its work bytes,
    // though they exceed a quarter of the budget, while its lower layers (2.69 M) are read in
    // tiles; layers 14 and 15 (4.4 M, 7.6 M) keep theirs in a file, in one block (6 M work
    // bytes) and in two. 11 MB: layer 14 keeps its values beside its work bytes, its tiles
    // smaller than a quarter of the budget.
    let indexes: Vec<LayerIndex> = (0..=max)
        .map(|n| LayerIndex::new(6, n, kind.reduced()).unwrap())
        .collect();
    let sizes: Vec<u64> = indexes.iter().map(LayerIndex::size).collect();
    let budgets = [8_000_000u64, 11_000_000];
    let plan = |n: usize, m: u64| MemoryPlan::new(kind, &indexes[n], Some(m), 2, 1);
    let one_block = |n: usize, m: u64| matches!(plan(n, m).work(0), Work::Memory(_));
    let in_memory = |n: usize, m: u64| plan(n, m).values_in_memory(0);
    let tile = |n: usize, m: u64| plan(n, m).tile().unwrap();
    let tiled = |n: usize, m: u64| matches!(plan(n, m).reads(&sizes[..n]), Reads::Tiles(_));
    let beside = |n: usize, m: u64| in_memory(n, m) && sizes[n] > VALUES.of(m);
    let any = |case: &dyn Fn(usize, u64) -> bool| {
        budgets
            .iter()
            .any(|&m| (0..=max as usize).any(|n| tiled(n, m) && case(n, m)))
    };
    assert!(any(&|n, m| beside(n, m) && tile(n, m) == TILE.of(m)));
    assert!(any(&|n, m| beside(n, m) && tile(n, m) < TILE.of(m)));
    assert!(any(&|n, m| !in_memory(n, m) && one_block(n, m)));
    assert!(any(&|n, m| !in_memory(n, m) && !one_block(n, m)));
    same_bytes(kind, max, &budgets.map(|m| (m, 2)));
}

/// A resolved position's work byte holds magnitudes up to 64, the most seeds a layer holds
/// (`crates/retrograde/src/phases/mod.rs`): Kalah with 2 pits a side to 64 seeds, by the phases
/// in blocks, against the builder in order of potential.
#[test]
fn kalah_to_64_seeds_by_the_phases_writes_the_same_files() {
    let kind = TableKind {
        game: Game::Kalah {
            capture: Capture::Standard,
            sweep: Sweep::Owner,
        },
        pits: 2,
    };
    let dir = tempfile::tempdir().unwrap();
    let options = BuildOptions {
        threads: Some(2),
        memory: Some(16 << 10),
        compress: None,
        checkpoint_every: None,
        region: None,
    };
    let reports = build_layers(dir.path(), kind, 64, options, &()).unwrap();
    let phased = reports.iter().filter(|r| r.counts.is_some()).count();
    assert!(phased > 30, "{phased} layers by the phases");
    let set = TableSet::new(dir.path(), kind);
    let top = set.layer(64).unwrap();
    assert!((0..top.len()).any(|r| top.value(r).unsigned_abs() > 62));
    same_bytes(kind, 64, &[(16 << 10, 2), (8 << 10, 1)]);
}
