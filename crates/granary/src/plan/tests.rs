//! The planner's choices on made-up machines: horizons, disk and memory limits, hash sizes.

use super::*;
use granary_rules::{Capture, OwareRules, Sweep};

fn machine(free_disk: u64, memory: u64) -> Machine {
    Machine {
        memory,
        available_memory: memory,
        free_disk,
        cores: 2,
    }
}

fn kalah(capture: Capture) -> TableKind {
    TableKind {
        game: Game::Kalah {
            capture,
            sweep: Sweep::Owner,
        },
        pits: 6,
    }
}

const BIG: u64 = 80_000_000_000;
const RAM: u64 = 24 << 30;

#[test]
fn a_copy_of_the_tables_leaves_headroom() {
    // Kalah(6,6) over 32-seed tables (21.1 GB) on 24 GiB: mapped, not copied, so that the
    // machine keeps its headroom; on 64 GiB the same search copies them.
    let k = kalah(Capture::Empty);
    for (ram, held) in [(RAM, false), (64 << 30, true)] {
        let p = plan_solve(
            k,
            72,
            Some(32),
            TableChoice::Seeds(32),
            None,
            &machine(BIG, ram),
            &CostModel::default(),
        )
        .unwrap();
        assert_eq!(p.resident, held, "{}", p.describe());
        assert!(
            !p.resident || p.table_bytes + ((p.hash_mib as u64) << 20) + HEADROOM <= ram,
            "{}",
            p.describe()
        );
    }
}

#[test]
fn kalah_tables_grow_with_the_game() {
    let m = machine(BIG, RAM);
    let k = kalah(Capture::Standard);
    let h = |seeds| {
        plan_solve(
            k,
            seeds,
            None,
            TableChoice::Auto,
            None,
            &m,
            &CostModel::default(),
        )
        .unwrap()
        .horizon
        .unwrap()
    };
    let (h64, h65) = (h(48), h(60));
    assert!((14..=20).contains(&h64), "Kalah(6,4): {h64}");
    assert!((24..=30).contains(&h65), "Kalah(6,5): {h65}");
    assert!(h(24) <= h64, "a small game gets no larger tables");
}

#[test]
fn present_tables_are_used_and_cost_nothing() {
    let m = machine(BIG, RAM);
    let k = kalah(Capture::Standard);
    let p = plan_solve(
        k,
        48,
        Some(24),
        TableChoice::Auto,
        None,
        &m,
        &CostModel::default(),
    )
    .unwrap();
    assert_eq!(p.horizon, Some(24));
    assert_eq!(p.build_positions, 0);
    assert!(p.describe().contains("all present"), "{}", p.describe());
}

#[test]
fn long_searches_hold_their_tables_in_memory() {
    let m = machine(BIG, RAM);
    let k = kalah(Capture::Standard);
    // Kalah(6,5) over 28-seed tables: minutes of search, seconds of copying.
    let p = plan_solve(
        k,
        60,
        Some(28),
        TableChoice::Auto,
        None,
        &m,
        &CostModel::default(),
    )
    .unwrap();
    assert!(p.resident, "{}", p.describe());
    assert!(p.describe().contains("held in memory"), "{}", p.describe());
    // A small position over the same tables: the copy would take longer than the search.
    let p = plan_solve(
        k,
        30,
        Some(28),
        TableChoice::Auto,
        None,
        &m,
        &CostModel::default(),
    )
    .unwrap();
    assert!(!p.resident, "{}", p.describe());
    // Kalah(6,4) over its planned tables: seconds of search, a fraction of a second to copy.
    let p = plan_solve(
        k,
        48,
        None,
        TableChoice::Auto,
        None,
        &m,
        &CostModel::default(),
    )
    .unwrap();
    assert!(p.resident, "{}", p.describe());
    // Layers too small to pay, however long the search.
    let p = plan_solve(
        k,
        48,
        None,
        TableChoice::Seeds(10),
        None,
        &m,
        &CostModel::default(),
    )
    .unwrap();
    assert!(
        layers_bytes(k, 0, 10) < RESIDENT_MIN_BYTES && !p.resident,
        "{}",
        p.describe()
    );
    assert!(
        !plan_solve(
            k,
            60,
            None,
            TableChoice::None,
            None,
            &m,
            &CostModel::default()
        )
        .unwrap()
        .resident
    );
}

#[test]
fn long_searches_get_the_larger_hash_table() {
    let m = machine(BIG, RAM);
    let k = kalah(Capture::Standard);
    let plan = |present, hash| {
        plan_solve(
            k,
            48,
            present,
            TableChoice::Auto,
            hash,
            &m,
            &CostModel::default(),
        )
        .unwrap()
    };
    // Kalah(6,4) from scratch: seconds of search, over the threshold.
    let p = plan(None, None);
    assert!(
        p.search_seconds.unwrap() >= LARGE_HASH_FROM_SECONDS,
        "{}",
        p.describe()
    );
    assert_eq!(p.hash_mib, LARGE_HASH_MIB);
    // Over 24-seed tables the search is short: the small table.
    let p = plan(Some(24), None);
    assert!(
        p.search_seconds.unwrap() < LARGE_HASH_FROM_SECONDS,
        "{}",
        p.describe()
    );
    assert_eq!(p.hash_mib, DEFAULT_HASH_MIB);
    // Kalah(6,4) empty from scratch: a few seconds of search, the middle size.
    let p = plan_solve(
        kalah(Capture::Empty),
        48,
        None,
        TableChoice::Auto,
        None,
        &m,
        &CostModel::default(),
    )
    .unwrap();
    let s = p.search_seconds.unwrap();
    assert!(
        (MEDIUM_HASH_FROM_SECONDS..LARGE_HASH_FROM_SECONDS).contains(&s),
        "{}",
        p.describe()
    );
    assert_eq!(p.hash_mib, MEDIUM_HASH_MIB);
    // The caller's choice stands either way.
    assert_eq!(plan(None, Some(32)).hash_mib, 32);
    assert_eq!(plan(Some(24), Some(1024)).hash_mib, 1024);
    // Kalah(6,5) from scratch and over 28-seed tables: minutes of search, and room beside
    // the tables; the longer search, the larger table.
    for (rules, present, mib) in [
        (Capture::Empty, Some(28), 1024),
        (Capture::Standard, None, 2048),
        (Capture::Standard, Some(28), 2048),
    ] {
        let p = plan_solve(
            kalah(rules),
            60,
            present,
            TableChoice::Auto,
            None,
            &m,
            &CostModel::default(),
        )
        .unwrap();
        assert_eq!(p.hash_mib, mib, "{}", p.describe());
    }
    // Where the tables fill the memory, they keep it: the hash the limits set aside.
    let full = layers_bytes(k, 0, 28) + (1 << 30) + ((LARGE_HASH_MIB as u64) << 20);
    let m = machine(BIG, full + (200 << 20));
    let p = plan_solve(
        k,
        60,
        None,
        TableChoice::Auto,
        None,
        &m,
        &CostModel::default(),
    )
    .unwrap();
    assert_eq!(p.horizon, Some(28), "{}", p.describe());
    assert_eq!(p.hash_mib, LARGE_HASH_MIB, "{}", p.describe());
}

#[test]
fn disk_and_memory_bound_the_tables() {
    let k = kalah(Capture::Standard);
    // 200 MB free disk beyond the margin: no more than that is planned.
    let m = machine((1 << 30) + 200_000_000, RAM);
    let p = plan_solve(
        k,
        60,
        None,
        TableChoice::Auto,
        None,
        &m,
        &CostModel::default(),
    )
    .unwrap();
    assert!(p.build_bytes <= 200_000_000, "{}", p.describe());
    assert!(p.describe().contains("disk"), "{}", p.describe());
    // Asked-for tables that do not fit are refused, naming the disk.
    let err = plan_solve(
        k,
        60,
        None,
        TableChoice::Seeds(28),
        None,
        &m,
        &CostModel::default(),
    )
    .unwrap_err();
    assert!(matches!(err, PlanError::Disk { .. }), "{err}");
    assert!(err.to_string().contains("disk"), "{err}");
    // Little memory: the tables fit it.
    let m = machine(BIG, 3 << 30);
    let p = plan_solve(
        k,
        60,
        None,
        TableChoice::Auto,
        None,
        &m,
        &CostModel::default(),
    )
    .unwrap();
    assert!(
        p.table_bytes + ((p.hash_mib as u64) << 20) <= 3 << 30,
        "{}",
        p.describe()
    );
}

#[test]
fn oware_builds_what_it_needs_or_says_how() {
    let m = machine(BIG, RAM);
    let k = TableKind {
        game: Game::Oware {
            rules: OwareRules::Awari,
        },
        pits: 4,
    };
    let p = plan_solve(
        k,
        16,
        None,
        TableChoice::Auto,
        None,
        &m,
        &CostModel::default(),
    )
    .unwrap();
    assert_eq!(p.horizon, Some(16));
    // Oware(5,4): 6.4e9 positions, over half an hour: left to an explicit build.
    let k5 = TableKind { pits: 5, ..k };
    let err = plan_solve(
        k5,
        40,
        None,
        TableChoice::Auto,
        None,
        &m,
        &CostModel::default(),
    )
    .unwrap_err();
    assert!(matches!(err, PlanError::LongBuild { .. }), "{err}");
    assert!(
        err.to_string()
            .contains("granary build oware --pits 5 --rules awari --max-seeds 40"),
        "{err}"
    );
    // ... unless they are present.
    assert!(
        plan_solve(
            k5,
            40,
            Some(40),
            TableChoice::Auto,
            None,
            &m,
            &CostModel::default()
        )
        .is_ok()
    );
    // Present layers far larger than the memory answer too: the tables alone answer, from
    // their maps (Oware(6,3): 58.6 GB of layers on 24 GiB).
    let k6 = TableKind { pits: 6, ..k };
    let p = plan_solve(
        k6,
        36,
        Some(36),
        TableChoice::Auto,
        None,
        &m,
        &CostModel::default(),
    )
    .unwrap();
    assert!(p.table_bytes > RAM, "{}", p.table_bytes);
    assert_eq!((p.horizon, p.build_positions), (Some(36), 0));
    // Oware(6,4) does not fit the disk.
    let k6 = TableKind { pits: 6, ..k };
    let err = plan_solve(
        k6,
        48,
        None,
        TableChoice::Auto,
        None,
        &m,
        &CostModel::default(),
    )
    .unwrap_err();
    assert!(matches!(err, PlanError::Disk { .. }), "{err}");
    assert!(err.to_string().contains("disk"), "{err}");
    assert!(
        plan_solve(
            k,
            16,
            None,
            TableChoice::None,
            None,
            &m,
            &CostModel::default()
        )
        .is_err()
    );
}

#[test]
fn a_search_within_the_measured_range_is_given_a_time() {
    let m = machine(BIG, RAM);
    // Kalah(6,5) over 28-seed tables present: the model's figure is the time to expect.
    let k = kalah(Capture::Standard);
    let p = plan_solve(
        k,
        60,
        Some(28),
        TableChoice::Auto,
        None,
        &m,
        &CostModel::default(),
    )
    .unwrap();
    let estimate = CostModel::default().search(k, 60, 28, 2);
    assert!(estimate.measured);
    assert_eq!(p.search_seconds, Some(estimate.seconds));
    assert_eq!(p.search_measured, Some(true));
    assert!(p.describe().contains(", search about "), "{}", p.describe());
    assert!(!p.describe().contains("promised"), "{}", p.describe());
    assert!(matches!(
        reach(k, 60, Some(28), f64::INFINITY, &CostModel::default(), 2),
        Reach::Search {
            horizon: Some(28),
            ..
        }
    ));
    // Oware reads tables: no search, measured or not.
    let oware = TableKind {
        game: Game::Oware {
            rules: OwareRules::Awari,
        },
        pits: 4,
    };
    let p = plan_solve(
        oware,
        16,
        None,
        TableChoice::Auto,
        None,
        &m,
        &CostModel::default(),
    )
    .unwrap();
    assert_eq!((p.search_seconds, p.search_measured), (None, None));
}

#[test]
fn a_search_beyond_the_measured_range_is_promised_no_time() {
    let m = machine(BIG, RAM);
    for capture in [Capture::Empty, Capture::Standard] {
        let k = kalah(capture);
        for choice in [
            TableChoice::Auto,
            TableChoice::Seeds(32),
            TableChoice::Seeds(12),
        ] {
            let p = plan_solve(k, 72, None, choice, None, &m, &CostModel::default()).unwrap();
            let text = p.describe();
            assert_eq!((p.search_seconds, p.search_measured), (None, Some(false)));
            assert!(!text.contains("search about"), "{text}");
            assert!(
                text.ends_with(
                    "; no search time is promised: the search lies beyond the measured range of \
                     the cost model (measured up to 60 seeds on 6 pits, with 24-seed tables)"
                ),
                "{text}"
            );
        }
        // The planner still picks its tables by the model's figure, and says no total.
        let p = plan_solve(
            k,
            72,
            None,
            TableChoice::Auto,
            None,
            &m,
            &CostModel::default(),
        )
        .unwrap();
        assert_eq!(p.horizon, Some(32), "{}", p.describe());
        assert!(
            p.reason
                .starts_with("least estimated build + search time, the search's estimate"),
            "{}",
            p.reason
        );
        // No query searches it, whatever its limit.
        let Reach::Beyond(why) = reach(k, 72, Some(32), f64::INFINITY, &CostModel::default(), 2)
        else {
            panic!("beyond the measured range");
        };
        assert!(
            why.to_string().ends_with(
                "and the search lies beyond the measured range of the cost model (measured up \
                 to 60 seeds on 6 pits, with 24-seed tables): no time is promised"
            ),
            "{why}"
        );
    }
}
