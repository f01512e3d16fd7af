//! Bao over the API: the engine's move, every move's evaluation, the proven start, and
//! positions shown after moves.

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::common::get;

#[test]
fn bao_moves_with_the_engine_and_the_proven_start() {
    let (status, v) = get("/api/v1/bao/hint?rules=kujifunza");
    assert_eq!(status, StatusCode::OK, "{v}");
    // Donkers & Uiterwijk 2002, reproduced by `granary solve bao --rules kujifunza`.
    assert_eq!(v["proven"]["winner"], "south", "{v}");
    assert_eq!(v["proven"]["move"], "A3R", "{v}");
    assert!(
        v["proven"]["how"]
            .as_str()
            .unwrap()
            .contains("proof-number search"),
        "{v}"
    );
    let scores: Vec<f64> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["score"].as_f64().unwrap())
        .collect();
    assert!(
        scores.windows(2).all(|w| w[0] >= w[1]),
        "best first: {scores:?}"
    );
    let mut listed: Vec<String> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_string())
        .collect();
    let mut legal: Vec<String> = get("/api/v1/show?game=bao&rules=kujifunza").1["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    listed.sort();
    legal.sort();
    assert_eq!(listed, legal);
    // After a move, and at the kiswahili start (not proven), nothing is claimed.
    let after = get("/api/v1/show?game=bao&rules=kujifunza&moves=A3R").1["position"].clone();
    let (status, v) = get(&format!(
        "/api/v1/bao/hint?rules=kujifunza&position={}",
        after
            .as_str()
            .unwrap()
            .replace(' ', "%20")
            .replace('#', "%23")
    ));
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["to_move"], "north");
    assert_eq!(v["proven"], Value::Null);
    assert!(
        v["moves"][0]["move"]
            .as_str()
            .unwrap()
            .starts_with(|c: char| c.is_ascii_lowercase())
    );
}

#[test]
fn show_and_the_bao_engine() {
    let (status, v) = get("/api/v1/show?game=kalah&moves=3");
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["pits"], json!([4, 4, 0, 5, 5, 5, 4, 4, 4, 4, 4, 4]));
    assert_eq!(v["legal_moves"], json!([1, 2, 4, 5, 6]));
    let (status, v) = get("/api/v1/show?game=bao&moves=A6R,a6L");
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["moves_played"], json!(["A6R", "a6L"]));
    let (status, v) = get("/api/v1/bao/move?rules=kujifunza&ms=50");
    assert_eq!(status, StatusCode::OK, "{v}");
    let legal = get("/api/v1/show?game=bao&rules=kujifunza").1["legal_moves"].clone();
    assert!(
        legal.as_array().unwrap().contains(&v["move"]),
        "{v} not in {legal}"
    );
}
