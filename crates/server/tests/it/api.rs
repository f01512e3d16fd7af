//! The API's catalogue and answers: the variants, exact values on positions the tables decide
//! (the awari test position of Romein & Bal 2002; `docs/references.md`), the same answers as the
//! library's query with what each move leads to, and every kind of bad input answered 400 (a
//! body too large 413) with a JSON error.

use axum::http::StatusCode;
use serde_json::json;

use crate::common::{bad, check_described, get, library_fields, server};

#[test]
fn variants_list_games_and_tables() {
    let (status, v) = get("/api/v1/variants");
    assert_eq!(status, StatusCode::OK);
    let games: Vec<&str> = v["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["game"].as_str().unwrap())
        .collect();
    assert_eq!(games, ["kalah", "oware", "bao"]);
    assert_eq!(v["games"][0]["options"]["rules"]["default"], "empty");
    let tables: Vec<(&str, u64)> = v["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["name"].as_str().unwrap(),
                t["complete_up_to"].as_u64().unwrap(),
            )
        })
        .collect();
    assert!(tables.contains(&("oware-6-awari", 16)), "{tables:?}");
    assert!(
        tables.contains(&("kalah-4-standard-owner", 12)),
        "{tables:?}"
    );
}

#[test]
fn the_awari_test_position_of_romein_and_bal() {
    // keesverstoep/Awari (the public Romein & Bal databases): value 0, moves -1 -1 -2 -2 -2 0.
    let (status, v) = get("/api/v1/query?game=oware&rules=awari&position=1,1,1,1,1,2/4,2,3,0,0,0");
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["value"], 0);
    let values: Vec<i64> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["value"].as_i64().unwrap())
        .collect();
    assert_eq!(values, [-1, -1, -2, -2, -2, 0]);
    assert_eq!(v["best"], json!([6]));
    assert_eq!(
        (v["result"].clone(), v["source"].clone()),
        (json!("draw"), json!("tables"))
    );
    let after = get("/api/v1/show?game=oware&rules=awari&position=1,1,1,1,1,2/4,2,3,0,0,0&moves=6");
    assert_eq!(v["moves"][5]["position"], after.1["position"]);
}

#[test]
fn answers_agree_with_the_library() {
    for (uri, game, setup, position) in [
        (
            "/api/v1/query?game=kalah&pits=4&rules=standard&position=2,0,3,1/1,2,0,2%205-3%20N",
            granary::GameName::Kalah,
            granary::Setup {
                pits: Some(4),
                rules: Some("standard".into()),
                ..granary::Setup::default()
            },
            "2,0,3,1/1,2,0,2 5-3 N",
        ),
        (
            "/api/v1/query?game=oware&rules=awari&position=3,0,2,1,0,4/0,1,2,0,2,1",
            granary::GameName::Oware,
            granary::Setup {
                rules: Some("awari".into()),
                ..granary::Setup::default()
            },
            "3,0,2,1,0,4/0,1,2,0,2,1",
        ),
    ] {
        let (status, v) = get(uri);
        assert_eq!(status, StatusCode::OK, "{uri}: {v}");
        let game = setup.mancala(game, Some(position)).unwrap();
        let expected = serde_json::to_value(server().tablebase.query(&game).unwrap()).unwrap();
        assert_eq!(library_fields(&v), expected, "{uri}");
        check_described(&v);
    }
    // Beyond the tables but small: a search over them, exact (Kalah(4,2) standard: +6,
    // docs/results.md).
    let (status, v) = get("/api/v1/query?game=kalah&pits=4&seeds=2&rules=standard");
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        (v["value"].clone(), v["source"].clone()),
        (json!(6), json!("search"))
    );
    check_described(&v);
}

#[test]
fn bad_input_is_400_with_a_json_error() {
    bad("/api/v1/query", "'game' is missing");
    bad("/api/v1/query?game=chess", "unknown game 'chess'");
    // The option's name is written with or without dashes, with or without a colon.
    bad(
        "/api/v1/query?game=kalah&rules=fast",
        "'fast' is not a kalah capture rule",
    );
    bad("/api/v1/query?game=kalah&pits=9", "9 is out of range");
    bad(
        "/api/v1/query?game=kalah&pits=x",
        "'x' is not a whole number",
    );
    bad("/api/v1/query?game=kalah&position=1,2/3", "same number");
    bad("/api/v1/query?game=kalah&position=%FF%FE", "position");
    bad(
        "/api/v1/query?game=oware&sweep=owner",
        "sweep is a kalah option",
    );
    bad("/api/v1/query?game=bao", "bao has no tables");
    bad("/api/v1/query?game=kalah&game=oware", "given twice");
    bad(
        "/api/v1/query?game=kalah&colour=red",
        "unknown parameter 'colour'",
    );
    bad(
        &format!("/api/v1/query?game=kalah&position={}", "1,".repeat(600)),
        "at most 1024",
    );
    bad(
        &format!("/api/v1/query?game=kalah&{}", "a".repeat(5000)),
        "at most 4096",
    );
    bad(
        "/api/v1/show?game=kalah&moves=3,3",
        "move 2 (pit 3): pit 3 is empty",
    );
    bad("/api/v1/show?game=kalah&moves=x", "not a pit number");
    bad("/api/v1/show?game=bao&moves=Z9", "move 1");
    bad("/api/v1/show?game=bao&pits=6", "bao has a 4x8 board");
    bad("/api/v1/bao/move?ms=0", "out of range");
    bad(
        "/api/v1/bao/move?ms=99999999999999999999",
        "not a whole number",
    );
    bad("/api/v1/bao/move?game=kalah", "leave 'game' out");
    bad("/api/v1/bao/move?position=garbage", "");
    bad("/api/v1/bao/hint?position=garbage", "bao position");
    bad("/api/v1/bao/hint?game=kalah", "leave 'game' out");
    bad("/api/v1/bao/hint?moves=A3R", "takes no 'moves'");
    bad("/api/v1/bao/hint?rules=chess", "'chess'");
    bad(
        "/api/v1/query?game=kalah&position=4,4,4,4,4,4/4,4,4,4,4,4%20x",
        "position",
    );
    bad("/api/v1/query?game=kalah&seeds=-1", "not a whole number");
    bad(
        "/api/v1/query?game=kalah&pits=4&seeds=2&moves=1",
        "takes no 'moves'",
    );
    let (status, v) = get("/api/v1/nothing/here");
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("/api/v1/nothing/here")
    );
}
