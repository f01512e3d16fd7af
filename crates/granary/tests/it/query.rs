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
