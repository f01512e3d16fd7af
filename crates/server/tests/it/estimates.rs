//! Positions beyond what the server answers exactly: the engine's estimate, labelled as one,
//! with the reason as a plain sentence.

use axum::http::StatusCode;
use serde_json::Value;

use crate::common::{get, get_from, server};

/// The answer beyond what is answered exactly: the engine's estimate, labelled as one
/// (`estimate`, with its depth and time; no `value`, no `result`, no `final`), a best move among
/// the legal ones, and the reason as a plain sentence with no path and no build command.
fn estimated(uri: &str, needle: &str) -> Value {
    let (status, v) = get(uri);
    assert_eq!(status, StatusCode::OK, "{uri}: {v}");
    for exact in ["value", "result", "final", "margin", "source"] {
        assert!(
            v.get(exact).is_none(),
            "{uri}: '{exact}' in an estimate: {v}"
        );
    }
    let estimate = &v["estimate"];
    assert!(estimate["value"].is_i64(), "{uri}: {v}");
    assert!(estimate["depth"].as_u64().unwrap() >= 1, "{uri}: {v}");
    let moves: Vec<u64> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_u64().unwrap())
        .collect();
    assert!(moves.contains(&v["best"].as_u64().unwrap()), "{uri}: {v}");
    let beyond = v["beyond"].as_str().unwrap();
    assert!(beyond.contains(needle), "{uri}: {beyond}");
    let root = server().tablebase.root().to_path_buf();
    for wrong in [
        &*root.to_string_lossy(),
        "/tmp",
        "/",
        ".tbl",
        "granary build",
        "--",
    ] {
        assert!(!beyond.contains(wrong), "{uri}: '{wrong}' in {beyond}");
    }
    v
}

#[test]
fn positions_beyond_the_exact_reach_get_the_engines_estimate_and_a_plain_sentence() {
    // Kalah(6,4) standard with no tables of its kind: a search far beyond the server's limit.
    estimated(
        "/api/v1/query?game=kalah&rules=standard&ms=20",
        "it has 48 seeds on the board, no tables of kalah-6-standard-owner are present, and the \
         search would take about",
    );
    // Kalah(4) with tables to 12: 160 seeds are too many to search.
    estimated(
        "/api/v1/query?game=kalah&pits=4&rules=standard&position=20,20,20,20/20,20,20,20&ms=20",
        "it has 160 seeds on the board, more than the 127 a search answers",
    );
    // Oware is answered from tables alone.
    estimated(
        "/api/v1/query?game=oware&rules=awari&position=4,4,4,4,4,4/4,4,4,4,4,0&ms=20",
        "it has 44 seeds on the board, the tables of oware-6-awari present go up to 16 seeds, \
         and oware is answered from tables alone",
    );
    // The server's sentence is the library's rule's, word for word.
    let game = granary::Setup {
        pits: Some(4),
        rules: Some("standard".into()),
        ..granary::Setup::default()
    }
    .mancala(granary::GameName::Kalah, Some("20,20,20,20/20,20,20,20"))
    .unwrap();
    let granary::plan::Reach::Beyond(why) = granary::plan::reach(
        game.kind(),
        160,
        Some(12),
        60.0,
        &granary::plan::CostModel::default(),
        2,
    ) else {
        panic!("160 seeds are beyond a minute's search");
    };
    let v = estimated(
        "/api/v1/query?game=kalah&pits=4&rules=standard&position=20,20,20,20/20,20,20,20&ms=20",
        "160 seeds",
    );
    let clause = why.to_string();
    let clause = clause.split(", and the search").next().unwrap();
    assert!(v["beyond"].as_str().unwrap().contains(clause), "{v}");
    // The engine's time is checked like Bao's.
    let (status, v) = get("/api/v1/query?game=oware&ms=0");
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    assert!(v["error"].as_str().unwrap().contains("'ms'"), "{v}");
}

/// Over a small game's tables, a position above them that the engine searches through to
/// exact leaves only gets the tables' own value as its estimate, and a best move of theirs.
#[test]
fn an_estimate_that_meets_only_exact_leaves_is_the_tables_value() {
    let low = tempfile::tempdir().unwrap();
    let high = tempfile::tempdir().unwrap();
    let setup = granary::Setup {
        pits: Some(3),
        rules: Some("awari".into()),
        ..granary::Setup::default()
    };
    let position = "2,1,2/1,2,2"; // 10 seeds
    let game = setup
        .mancala(granary::GameName::Oware, Some(position))
        .unwrap();
    for (dir, seeds) in [(&low, 6), (&high, 10)] {
        let tablebase = granary::Tablebase::new(dir.path());
        granary::build(&tablebase, game.kind(), seeds, Some(2), None, &()).unwrap();
    }
    let exact = granary::Tablebase::new(high.path()).query(&game).unwrap();
    let config = granary_server::Config::new(low.path().to_path_buf());
    let app = granary_server::router(&config);
    let uri = format!("/api/v1/query?game=oware&pits=3&rules=awari&position={position}&ms=5000");
    let (_, (status, v)) = get_from(&app, &uri);
    assert_eq!(status, StatusCode::OK, "{v}");
    let estimate = &v["estimate"];
    assert_eq!(
        estimate["every_leaf_exact"], true,
        "a 10-seed game searched to its end: {v}"
    );
    assert_eq!(estimate["value"], exact.value, "{v}");
    let best = v["best"].as_u64().unwrap() as usize;
    assert!(exact.best.contains(&best), "{v} against {:?}", exact.best);
}
