//! Games reviewed ply by ply as query answers each position (above the tables, with the
//! engine's estimates in fields of their own), Bao's without values, and bad reviews answered
//! with a JSON error.

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use serde_json::{Value, json};

use crate::common::{get, post, post_as, send, server};

/// A game played through query from `position` (the start if `None`) with `options` (a query
/// string without `position`): at even plies
/// a best move, at odd plies the last move listed, to its end or `plies` moves; posted to
/// review with `body` (JSON, without `moves`), every ply's position, value, best moves, value played and
/// source are query's for that position, and each side's summary adds up.
fn reviewed_as_query_answers(
    options: &str,
    position: Option<&str>,
    body: Value,
    plies: usize,
) -> Value {
    let at = |position: &str| {
        let position = position.replace(' ', "%20");
        format!("/api/v1/query?{options}&position={position}")
    };
    let mut uri = position.map_or_else(|| format!("/api/v1/query?{options}"), at);
    let mut answers = Vec::new();
    let mut moves = Vec::new();
    while moves.len() < plies {
        let (status, v) = get(&uri);
        assert_eq!(status, StatusCode::OK, "{uri}: {v}");
        let listed = v["moves"].as_array().unwrap().clone();
        let Some(chosen) = (if moves.len() % 2 == 0 {
            listed.iter().find(|m| m["move"] == v["best"][0])
        } else {
            listed.last()
        }) else {
            break;
        };
        moves.push(chosen["move"].as_u64().unwrap());
        uri = at(chosen["position"].as_str().unwrap());
        answers.push(v);
    }
    assert!(moves.len() >= 6, "{moves:?}");
    let mut body = body;
    body["moves"] = json!(moves);
    let (status, review) = post("/api/v1/review", body.to_string());
    assert_eq!(status, StatusCode::OK, "{review}");
    let rows = review["plies"].as_array().unwrap();
    assert_eq!(rows.len(), moves.len(), "{review}");
    let mut played = [0, 0];
    let mut lost = [0, 0];
    for (i, (row, v)) in rows.iter().zip(&answers).enumerate() {
        assert_eq!(row["ply"], i + 1, "{row}");
        assert_eq!(row["move"], moves[i], "{row}");
        assert_eq!(row["answer"], "exact", "{row}");
        assert_eq!(
            (&row["position"], &row["side"], &row["value"], &row["best"]),
            (&v["position"], &v["to_move"], &v["value"], &v["best"]),
            "ply {}",
            i + 1
        );
        assert_eq!(row["source"], v["source"], "ply {}", i + 1);
        let value = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["move"] == moves[i])
            .unwrap()["value"]
            .as_i64()
            .unwrap();
        assert_eq!(row["played"], value, "ply {}", i + 1);
        let loss = v["value"].as_i64().unwrap() - value;
        assert_eq!(row["loss"], loss, "ply {}", i + 1);
        // Every exact ply carries the library's mark: `??` a move that changes the result, `?`
        // one that loses seeds, else `null`.
        let mark = if row["changed"] == true {
            json!("??")
        } else if loss > 0 {
            json!("?")
        } else {
            Value::Null
        };
        assert_eq!(row.get("mark"), Some(&mark), "ply {}: {row}", i + 1);
        let side = usize::from(row["side"] == "north");
        played[side] += 1;
        lost[side] += loss;
    }
    for side in 0..2 {
        assert_eq!(review["sides"][side]["played"], played[side], "{review}");
        assert_eq!(review["sides"][side]["exact"], played[side], "{review}");
        assert_eq!(review["sides"][side]["lost"], lost[side], "{review}");
    }
    // The game in full, and the same game posted as the record the answer writes back: the
    // same review.
    assert_eq!(review["setup"]["moves"], json!(moves), "{review}");
    assert_eq!(review["setup"]["game"], body["game"], "{review}");
    assert_eq!(review["setup"]["position"], rows[0]["position"], "{review}");
    let record = review["record"].as_str().unwrap();
    let (status, again) = post_as(
        "/api/v1/review",
        "text/plain; charset=utf-8",
        record.to_string(),
    );
    assert_eq!(status, StatusCode::OK, "{again}");
    assert_eq!(again["plies"], review["plies"]);
    assert_eq!(again["sides"], review["sides"]);
    assert_eq!(again["record"], review["record"]);
    review
}

#[test]
fn a_kalah_game_is_reviewed_as_query_answers_each_ply() {
    // Kalah(4,2) standard: 16 seeds over tables to 12, so its first plies are searched.
    let review = reviewed_as_query_answers(
        "game=kalah&pits=4&seeds=2&rules=standard",
        None,
        json!({ "game": "kalah", "pits": 4, "seeds": "2", "rules": "standard" }),
        40,
    );
    assert_eq!(review["tables"], "kalah-4-standard-owner");
    let sources: Vec<&Value> = review["plies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| &p["source"])
        .collect();
    assert_eq!(sources[0], "search", "{review}");
    assert!(sources.contains(&&json!("tables")), "{review}");
}

#[test]
fn an_oware_game_is_reviewed_from_the_tables() {
    let review = reviewed_as_query_answers(
        "game=oware&rules=awari",
        Some("1,1,1,1,1,2/4,2,3,0,0,0"),
        json!({ "game": "oware", "rules": "awari", "position": "1,1,1,1,1,2/4,2,3,0,0,0" }),
        12,
    );
    assert_eq!(review["tables"], "oware-6-awari");
    assert!(
        review["plies"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["source"] == "tables"),
        "{review}"
    );
    // The first ply: the awari test position, whose best move is 6, worth 0.
    assert_eq!(
        (&review["plies"][0]["value"], &review["plies"][0]["best"]),
        (&json!(0), &json!([6]))
    );
}

/// A review's refusal: `status`, a JSON error containing `needle`.
fn review_refused(body: impl Into<Body>, status: StatusCode, needle: &str) {
    let (got, v) = post("/api/v1/review", body);
    assert_eq!(got, status, "{v}");
    let error = v["error"].as_str().unwrap();
    assert!(error.contains(needle), "{error}");
}

#[test]
fn bad_reviews_are_answered_with_a_json_error() {
    let kalah = |moves: Value| {
        json!({ "game": "kalah", "pits": 4, "rules": "standard", "moves": moves }).to_string()
    };
    // South sows pit 2 (no extra turn), North pit 1: South's pit 2 is empty at ply 3.
    review_refused(
        kalah(json!([2, 1, 2])),
        StatusCode::BAD_REQUEST,
        "moves: move 3 (pit 2): pit 2 is empty",
    );
    review_refused(
        kalah(json!([9])),
        StatusCode::BAD_REQUEST,
        "moves: move 1 (pit 9)",
    );
    review_refused(
        kalah(json!(vec![1; 1001])),
        StatusCode::BAD_REQUEST,
        "at most 1000",
    );
    review_refused(
        format!(
            "{{\"game\": \"kalah\", \"moves\": [1], \"pad\": \"{}\"}}",
            "x".repeat(70 * 1024)
        ),
        StatusCode::PAYLOAD_TOO_LARGE,
        "larger than 64 KiB",
    );
    review_refused(
        "{\"game\": \"kalah\", \"moves\": [1,",
        StatusCode::BAD_REQUEST,
        "not JSON",
    );
    review_refused("[1, 2]", StatusCode::BAD_REQUEST, "not a JSON object");
    review_refused(
        json!({ "game": "bao", "moves": ["A6R", "A1"] }).to_string(),
        StatusCode::BAD_REQUEST,
        "moves: move 2: A1 is a pit of South; North is to move",
    );
    review_refused(
        json!({ "game": "kalah", "pits": "four", "moves": [] }).to_string(),
        StatusCode::BAD_REQUEST,
        "parameter 'pits'",
    );
    review_refused(
        json!({ "game": "kalah", "colour": "red", "moves": [] }).to_string(),
        StatusCode::BAD_REQUEST,
        "unknown parameter 'colour'",
    );
    review_refused(
        json!({ "game": "kalah" }).to_string(),
        StatusCode::BAD_REQUEST,
        "'moves' is missing",
    );
    review_refused(kalah(json!([1, true])), StatusCode::BAD_REQUEST, "move 2");
    // A record: its line and column.
    let (status, v) = post_as(
        "/api/v1/review",
        "text/plain",
        "[Game \"kalah\"] [Pits \"4\"]\n[Colour \"red\"]\n",
    );
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .starts_with("record: line 2, column 2: unknown tag 'Colour'"),
        "{v}"
    );
    let (status, v) = post_as("/api/v1/review", "text/plain", "[Game \"kalah\"]\nS3 N1\n");
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    assert_eq!(
        v["error"],
        "record: line 2, column 4: ply 2, 'N1': it is a move of North, but South is to move"
    );
    let (status, v) = post_as("/api/v1/review", "text/plain", vec![0xff_u8, 0xfe]);
    assert_eq!(
        (status, &v["error"]),
        (
            StatusCode::BAD_REQUEST,
            &json!("the record is not UTF-8 text")
        )
    );
}

/// An Oware game that starts above the tables (18 seeds over tables to 16) and captures below
/// them at once: its first ply has the engine's estimates (within a node budget), labelled and
/// never marked, in fields of their own; the plies after it are exact, as query answers them.
#[test]
fn a_review_above_the_tables_has_the_engines_estimates_there_and_exact_values_below() {
    let mut config = granary_server::Config::new(server().dir.path().to_path_buf());
    config.timeout = Duration::from_secs(30);
    config.review_estimate = Some(granary::estimate::Budget::Nodes(20_000));
    let app = granary_server::router(&config);
    // South's 6 sows into North's 1 and 2, making twos, and takes them: 14 seeds left.
    let start = "2,2,2,2,2,2/1,1,1,1,1,1 0-0 S";
    let mut moves = vec![6];
    let mut position = get(&format!(
        "/api/v1/show?game=oware&rules=awari&position={}&moves=6",
        start.replace(' ', "%20")
    ))
    .1["position"]
        .as_str()
        .unwrap()
        .to_string();
    let mut answers = Vec::new();
    for _ in 0..3 {
        let (status, v) = get(&format!(
            "/api/v1/query?game=oware&rules=awari&position={}",
            position.replace(' ', "%20")
        ));
        assert_eq!(status, StatusCode::OK, "{v}");
        let best = v["best"][0].as_u64().unwrap();
        moves.push(best);
        position = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["move"] == best)
            .unwrap()["position"]
            .as_str()
            .unwrap()
            .to_string();
        answers.push(v);
    }
    let body = json!({ "game": "oware", "rules": "awari", "position": start, "moves": moves });
    let request = Request::post("/api/v1/review")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let (status, review) = send(&app, request).1;
    assert_eq!(status, StatusCode::OK, "{review}");
    let plies = review["plies"].as_array().unwrap();
    let first = &plies[0];
    assert_eq!(first["answer"], "estimated", "{first}");
    assert!(
        first["reason"].as_str().unwrap().contains("18 seeds"),
        "{first}"
    );
    for key in [
        "value", "played", "loss", "best", "result", "changed", "source",
    ] {
        assert!(first.get(key).is_none(), "{key}: {first}");
    }
    assert!(
        first.get("mark").is_none_or(Value::is_null),
        "never marked: {first}"
    );
    let value = first["estimate"]["value"].as_i64().unwrap();
    let played = first["estimate_played"].as_i64().unwrap();
    assert_eq!(first["estimated_loss"].as_i64(), Some(value - played));
    assert!(value >= played, "{first}");
    assert!(first["estimate"]["depth"].as_u64() >= Some(1), "{first}");
    for (ply, v) in plies[1..].iter().zip(&answers) {
        assert_eq!(ply["answer"], "exact", "{ply}");
        assert_eq!((&ply["value"], &ply["best"]), (&v["value"], &v["best"]));
        assert_eq!(ply["loss"], 0, "{ply}");
    }
    let south = &review["sides"][0];
    assert_eq!(
        (south["estimated"].as_u64(), south["exact"].as_u64()),
        (Some(1), Some(1)),
        "{review}"
    );
    assert_eq!(south["estimated_lost"], first["estimated_loss"]);
    // Written back: the estimates in words, and the first move never marked.
    let record = review["record"].as_str().unwrap();
    assert!(record.contains("S6 {review: estimate: best "), "{record}");
    assert!(!record.contains('?'), "{record}");
}

/// A Bao game is reviewed move by move, no ply with a value, each saying why; its record
/// reads back to the same review.
#[test]
fn a_bao_game_is_reviewed_without_values() {
    let (status, review) = post(
        "/api/v1/review",
        json!({ "game": "bao", "rules": "kujifunza", "moves": ["A6R", "a6L"] }).to_string(),
    );
    assert_eq!(status, StatusCode::OK, "{review}");
    assert_eq!(review["tables"], Value::Null);
    for ply in review["plies"].as_array().unwrap() {
        assert_eq!(ply["answer"], "beyond", "{ply}");
        assert!(ply.get("value").is_none(), "{ply}");
    }
    assert_eq!(review["setup"]["rules"], "kujifunza");
    assert_eq!(review["setup"]["moves"], json!(["A6R", "a6L"]));
    let (status, again) = post_as(
        "/api/v1/review",
        "text/plain",
        review["record"].as_str().unwrap().to_string(),
    );
    assert_eq!(status, StatusCode::OK, "{again}");
    assert_eq!(again["plies"], review["plies"]);
}
