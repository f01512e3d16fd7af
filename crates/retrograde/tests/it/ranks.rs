//! The distributed build ([`granary_retrograde::peers`]) writes the same bytes as one process,
//! for 2 and 3 ranks, with and without a memory budget: each rank is a thread here, its
//! [`Peers`] a mailbox behind a barrier; without a budget, or with one that holds a rank's share
//! of the lower layers, the ranks ask each other for lower-layer entries (the MPI ranks of `scripts/test-mpi.sh` are the other
//! implementation, checked the same way).

use std::sync::{Barrier, Mutex};

use granary_retrograde::{BuildOptions, LayerReport, Peers, build_layers, build_layers_on};
use granary_rules::{Capture, Game, OwareRules, Sweep};
use granary_tables::{CompressOptions, TableKind, TableSet};

/// The shared state of `n` ranks that are threads of this process.
struct Mailbox {
    n: usize,
    barrier: Barrier,
    /// `posted[from][to]`.
    posted: Mutex<Vec<Vec<Vec<u32>>>>,
    flags: Mutex<Vec<bool>>,
    sums: Mutex<Vec<u64>>,
}

/// One thread's view of the mailbox.
struct ThreadRank<'a> {
    rank: usize,
    mailbox: &'a Mailbox,
}

impl Peers for ThreadRank<'_> {
    fn rank(&self) -> usize {
        self.rank
    }
    fn size(&self) -> usize {
        self.mailbox.n
    }
    fn exchange(&self, outgoing: &[Vec<u32>]) -> Vec<u32> {
        let m = self.mailbox;
        assert_eq!(outgoing.len(), m.n);
        m.posted.lock().unwrap()[self.rank] = outgoing.to_vec();
        m.barrier.wait();
        let incoming = (0..m.n)
            .flat_map(|from| m.posted.lock().unwrap()[from][self.rank].clone())
            .collect();
        m.barrier.wait(); // everyone has read before anyone posts again
        incoming
    }
    fn any(&self, local: bool) -> bool {
        let m = self.mailbox;
        m.flags.lock().unwrap()[self.rank] = local;
        m.barrier.wait();
        let any = m.flags.lock().unwrap().iter().any(|&f| f);
        m.barrier.wait();
        any
    }
    fn sum(&self, local: u64) -> u64 {
        let m = self.mailbox;
        m.sums.lock().unwrap()[self.rank] = local;
        m.barrier.wait();
        let sum = m.sums.lock().unwrap().iter().sum();
        m.barrier.wait();
        sum
    }
    fn min(&self, local: u64) -> u64 {
        let m = self.mailbox;
        m.sums.lock().unwrap()[self.rank] = local;
        m.barrier.wait();
        let min = *m.sums.lock().unwrap().iter().min().unwrap();
        m.barrier.wait();
        min
    }
    fn barrier(&self) {
        self.mailbox.barrier.wait();
    }
}

/// Builds `kind` to `max` in one process, then with each `(ranks, budget)`, and compares every
/// file; nothing but tables may be left behind.
fn same_bytes(kind: TableKind, max: u32, runs: &[(usize, Option<u64>)]) {
    let runs: Vec<Vec<Option<u64>>> = runs.iter().map(|&(n, m)| vec![m; n]).collect();
    same_bytes_with(kind, max, &runs);
}

/// [`same_bytes`] with each rank's budget: a run is the budgets of its ranks.
fn same_bytes_with(kind: TableKind, max: u32, runs: &[Vec<Option<u64>>]) {
    let solo = tempfile::tempdir().unwrap();
    let one = BuildOptions {
        threads: Some(2),
        memory: None,
        compress: None,
        checkpoint_every: None,
        region: None,
    };
    build_layers(solo.path(), kind, max, one, &()).unwrap();
    let expected = TableSet::new(solo.path(), kind);
    for budgets in runs {
        let dir = tempfile::tempdir().unwrap();
        on_ranks(dir.path(), kind, max, budgets, None, None);
        let set = TableSet::new(dir.path(), kind);
        for k in 0..=max {
            let (a, b) = (
                std::fs::read(expected.layer_path(k)).unwrap(),
                std::fs::read(set.layer_path(k)).unwrap(),
            );
            assert!(
                a == b,
                "{kind:?} layer {k}: ranks in {budgets:?}: other bytes"
            );
        }
        let left: Vec<_> = std::fs::read_dir(set.layer_path(0).parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .filter(|name| !name.to_string_lossy().ends_with(".tbl"))
            .filter(|name| !name.to_string_lossy().starts_with('.'))
            .collect();
        assert!(left.is_empty(), "left behind: {left:?}");
    }
}

/// Builds `kind` to `max` in `dir` on ranks that are threads, one a budget of `budgets`, each
/// layer compressed as it is built if `compress` says so, checkpoints as often as
/// `checkpoint_every` says; checks how rank 0 read the top layer's lower layers
/// ([`check_lookups`]).
fn on_ranks(
    dir: &std::path::Path,
    kind: TableKind,
    max: u32,
    budgets: &[Option<u64>],
    compress: Option<CompressOptions>,
    checkpoint_every: Option<std::time::Duration>,
) {
    let n = budgets.len();
    let mailbox = Mailbox {
        n,
        barrier: Barrier::new(n),
        posted: Mutex::new(vec![Vec::new(); n]),
        flags: Mutex::new(vec![false; n]),
        sums: Mutex::new(vec![0; n]),
    };
    std::thread::scope(|s| {
        for rank in 0..n {
            let mailbox = &mailbox;
            s.spawn(move || {
                let peers = ThreadRank { rank, mailbox };
                let options = BuildOptions {
                    threads: Some(1),
                    memory: budgets[rank],
                    compress,
                    checkpoint_every,
                    region: None,
                };
                let reports = build_layers_on(dir, kind, max, options, &(), &peers).unwrap();
                if rank == 0 {
                    check_lookups(&reports, budgets);
                }
            });
        }
    });
}

/// How the first pass of the top layer read its lower layers: asking their owners when a
/// rank's share of them and of the layer fit three quarters of every rank's budget, else in
/// tiles, each rank reading them all.
fn check_lookups(reports: &[LayerReport], budgets: &[Option<u64>]) {
    let ranks = budgets.len();
    let top = reports.last().unwrap();
    let traffic = top.traffic.unwrap();
    let share: u64 = reports
        .iter()
        .map(|r| r.positions.div_ceil(ranks as u64))
        .sum();
    if budgets.iter().all(|b| b.is_none_or(|m| share <= m / 4 * 3)) {
        assert!(traffic.lookups > 0, "ranks in {budgets:?}: no lookups");
        assert!(top.sweep.is_none(), "ranks in {budgets:?}: tiles");
    } else {
        assert_eq!(traffic.lookups, 0, "ranks in {budgets:?}: lookups");
        assert!(top.sweep.is_some(), "ranks in {budgets:?}: no tiles");
    }
}

#[test]
fn awari_on_ranks_asking_owners_writes_the_same_files() {
    let kind = TableKind {
        game: Game::Oware {
            rules: OwareRules::Awari,
        },
        pits: 6,
    };
    // 2 ranks in 4 MiB each: a share of 0..=12 (1.3 MB) within three quarters; 256 KiB: tiles.
    same_bytes(
        kind,
        12,
        &[(3, None), (2, Some(4 << 20)), (2, Some(256 << 10))],
    );
    // Ranks of different budgets agree: one that cannot hold its share takes them all to tiles.
    same_bytes_with(kind, 12, &[vec![None, Some(256 << 10), Some(4 << 20)]]);
}

#[test]
fn ranks_asking_owners_read_compressed_lower_layers_and_checkpoint() {
    let kind = TableKind {
        game: Game::Oware {
            rules: OwareRules::Awari,
        },
        pits: 6,
    };
    let (plain, packed) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let one = BuildOptions {
        threads: Some(2),
        memory: None,
        compress: None,
        checkpoint_every: None,
        region: None,
    };
    build_layers(plain.path(), kind, 12, one, &()).unwrap();
    // Small blocks: a rank's slice of a layer starts and ends inside blocks.
    let compress = CompressOptions {
        block_entries: 1 << 6,
        threads: 1,
        ..CompressOptions::default()
    };
    // A checkpoint of every rank between every two phases, too (they change no value).
    let every = Some(std::time::Duration::ZERO);
    on_ranks(
        packed.path(),
        kind,
        12,
        &[None, None, None],
        Some(compress),
        every,
    );
    // One process alone writes each layer compressed straight from its values: the same files,
    // byte for byte, as the ranks' version 1 files compressed after.
    let direct = tempfile::tempdir().unwrap();
    let alone = BuildOptions {
        compress: Some(compress),
        ..one
    };
    let reports = build_layers(direct.path(), kind, 12, alone, &()).unwrap();
    let (plain, packed, direct) = (
        TableSet::new(plain.path(), kind),
        TableSet::new(packed.path(), kind),
        TableSet::new(direct.path(), kind),
    );
    for (k, report) in (0..=12).zip(&reports) {
        let (a, b) = (packed.layer_path(k), direct.layer_path(k));
        let on_disk = std::fs::metadata(&b).unwrap().len();
        assert_eq!(report.compressed.map(|c| c.1), Some(on_disk), "layer {k}");
        assert!(
            std::fs::read(&a).unwrap() == std::fs::read(&b).unwrap(),
            "layer {k}: another file written straight compressed"
        );
    }
    for k in 0..=12 {
        let (a, b) = (plain.layer(k).unwrap(), packed.layer(k).unwrap());
        assert!(b.is_compressed(), "layer {k} not compressed");
        let (mut x, mut y) = (vec![0; a.len() as usize], vec![0; b.len() as usize]);
        a.read_range(0, &mut x).unwrap();
        b.read_range(0, &mut y).unwrap();
        assert!(x == y, "layer {k}: other values");
    }
    let left: Vec<_> = std::fs::read_dir(packed.layer_path(0).parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| !name.ends_with(".tbl") && !name.starts_with('.'))
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

#[test]
#[ignore = "slow (about 40 s on 2 cores): .ci/run runs it, or cargo test -- --ignored"]
fn awari_on_ranks_writes_the_same_files() {
    let kind = TableKind {
        game: Game::Oware {
            rules: OwareRules::Awari,
        },
        pits: 6,
    };
    // Layer 15: 7.5 million positions; 1 MiB gives blocks of three quarters of a million,
    // several a rank.
    same_bytes(kind, 15, &[(2, None), (3, None), (3, Some(1 << 20))]);
}

#[test]
#[ignore = "slow (about 40 s on 2 cores): .ci/run runs it, or cargo test -- --ignored"]
fn abapa_on_ranks_writes_the_same_files() {
    let kind = TableKind {
        game: Game::Oware {
            rules: OwareRules::Abapa,
        },
        pits: 6,
    };
    same_bytes(kind, 13, &[(2, Some(1 << 20)), (3, None)]);
}

#[test]
#[ignore = "slow (about 40 s on 2 cores): .ci/run runs it, or cargo test -- --ignored"]
fn kalah_on_ranks_writes_the_same_files() {
    for capture in [Capture::Standard, Capture::Empty] {
        let kind = TableKind {
            game: Game::Kalah {
                capture,
                sweep: Sweep::Owner,
            },
            pits: 6,
        };
        same_bytes(kind, 14, &[(2, None), (3, Some(1 << 20))]);
    }
}
