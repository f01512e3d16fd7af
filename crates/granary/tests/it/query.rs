//! The library's answers against each other: a search over small tables agrees with complete
//! tables on every move; present tables are found and used; bad input is an input error.

use granary::{Error, GameName, Setup, Source, TableChoice, Tablebase};

fn kalah(position: &str, rules: &str) -> granary::Mancala {
    Setup {
        rules: Some(rules.into()),
        ..Setup::default()
    }
    .mancala(GameName::Kalah, Some(position))
    .unwrap()
}

#[test]
fn search_beyond_the_tables_agrees_with_complete_tables() {
    let small = tempfile::tempdir().unwrap();
    let full = tempfile::tempdir().unwrap();
    let (small, full) = (Tablebase::new(small.path()), Tablebase::new(full.path()));
    let game = kalah("1,0,3,0,2,1/2,0,1,1,0,2 5-3 N", "standard");
    granary::build(&small, game.kind(), 6, Some(2), None, &()).unwrap();
    granary::build(&full, game.kind(), 13, Some(2), None, &()).unwrap();
    for position in [
        "1,0,3,0,2,1/2,0,1,1,0,2 5-3 N",
        "0,2,0,3,1,1/1,1,0,2,2,0 7-1 S",
        "2,2,2,2,2,2/1,0,0,0,0,0 0-0 S",
    ] {
        let game = kalah(position, "standard");
        let searched = small.query_or_search(&game).unwrap();
        let read = full.query_or_search(&game).unwrap();
        assert_eq!(
            (searched.source, read.source),
            (Source::Search, Source::Tables)
        );
        assert_eq!(searched.value, read.value, "{position}");
        assert_eq!(searched.moves, read.moves, "{position}");
        assert_eq!(searched.final_stores, read.final_stores, "{position}");
    }
    // Too far beyond the tables for a query's search: refused, naming the search that answers
    // it.
    let big = kalah("4,4,4,4,4,4/4,4,4,4,4,4", "standard");
    let err = small.query_within(&big, 1.0).unwrap_err().to_string();
    assert!(
        err.contains("granary solve kalah --pits 6 --rules standard"),
        "{err}"
    );
}

#[test]
fn present_tables_are_found_and_preferred() {
    let dir = tempfile::tempdir().unwrap();
    let tb = Tablebase::new(dir.path());
    let game = kalah("3,3,3,3/3,3,3,3", "empty");
    granary::build(&tb, game.kind(), 20, Some(2), None, &()).unwrap();
    let present = tb.present().unwrap();
    assert_eq!(present.len(), 1);
    assert_eq!(present[0].complete_up_to, Some(20));
    let plan = granary::plan(&tb, game.variant, 24, &granary::Settings::default()).unwrap();
    assert!(plan.horizon >= Some(20), "{}", plan.describe());
    assert_eq!(plan.build_positions, 0, "{}", plan.describe());
    let forced = granary::Settings {
        tables: TableChoice::Seeds(4),
        ..granary::Settings::default()
    };
    let report = granary::solve(&tb, &game, &forced, &()).unwrap();
    let auto = granary::solve(&tb, &game, &granary::Settings::default(), &()).unwrap();
    assert_eq!(report.value, auto.value);
    assert_eq!(report.value, 8, "Kalah(4,3) empty is +8 (docs/results.md)");
}

#[test]
fn bad_input_is_an_input_error() {
    let setup = Setup {
        rules: Some("fast".into()),
        ..Setup::default()
    };
    let err: Error = setup.mancala(GameName::Oware, None).unwrap_err().into();
    assert!(err.is_input());
    assert!(
        err.to_string().contains("'fast' is not a oware rule set"),
        "{err}"
    );
}

/// A principal variation agrees with the answer's ranking, in every variant and wherever it
/// comes from (tables, or a Kalah search over small tables): its first move is one of the
/// answer's best moves, and each later move is one of the best moves of its position, as
/// complete tables (an independent reading) rank them.
#[test]
fn principal_variations_agree_with_the_ranking() {
    use granary_rules::Rules;
    let cases: [(GameName, &str, usize, u32, Option<u32>); 4] = [
        (GameName::Kalah, "standard", 4, 2, Some(5)),
        (GameName::Kalah, "empty", 4, 2, Some(5)),
        (GameName::Oware, "awari", 4, 2, None),
        (GameName::Oware, "abapa", 4, 2, None),
    ];
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut random = move |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    for (name, rules, pits, seeds, small_tables) in cases {
        let setup = Setup {
            rules: Some(rules.into()),
            pits: Some(pits),
            seeds: Some(seeds),
            ..Setup::default()
        };
        let start = setup.mancala(name, None).unwrap();
        let total = u32::try_from(pits).unwrap() * 2 * seeds;
        let full_dir = tempfile::tempdir().unwrap();
        let full = Tablebase::new(full_dir.path());
        granary::build(&full, start.kind(), total, Some(2), None, &()).unwrap();
        let small_dir = tempfile::tempdir().unwrap();
        let small = Tablebase::new(small_dir.path());
        if let Some(n) = small_tables {
            granary::build(&small, start.kind(), n, Some(2), None, &()).unwrap();
        }
        let engine = start.variant.engine();
        let mut checked = 0;
        for _ in 0..40 {
            let mut pos = start.position;
            for _ in 0..random(12) {
                let legal: Vec<usize> = engine.legal_moves(&pos).iter().collect();
                if legal.is_empty() {
                    break;
                }
                pos = engine.play(&pos, legal[random(legal.len())]);
            }
            let game = granary::Mancala {
                variant: start.variant,
                position: pos,
            };
            if engine.outcome(&pos).is_some() {
                continue;
            }
            let answers = if small_tables.is_some() {
                vec![
                    small.query_or_search(&game).unwrap(),
                    full.query(&game).unwrap(),
                ]
            } else {
                vec![full.query(&game).unwrap()]
            };
            for answer in answers {
                let Some(&first) = answer.pv.first() else {
                    continue;
                };
                assert!(
                    answer.best.contains(&first),
                    "{name:?} {rules} {}: pv {:?} starts outside best {:?} ({:?})",
                    answer.position,
                    answer.pv,
                    answer.best,
                    answer.source
                );
                let mut here = pos;
                for &pit in &answer.pv {
                    let judge = full
                        .query(&granary::Mancala {
                            variant: start.variant,
                            position: here,
                        })
                        .unwrap();
                    assert!(
                        judge.best.contains(&pit),
                        "{name:?} {rules} {}: pv {:?} plays {pit} in {}, best {:?} ({:?})",
                        answer.position,
                        answer.pv,
                        judge.position,
                        judge.best,
                        answer.source
                    );
                    here = engine.play(&here, pit - 1);
                }
                checked += 1;
            }
        }
        assert!(checked >= 20, "{name:?} {rules}: {checked} lines checked");
    }
}
