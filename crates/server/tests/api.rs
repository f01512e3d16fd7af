//! The API in process (no socket): status codes, exact values on positions the tables decide
//! (the awari test position of Romein & Bal 2002; `docs/references.md`), the same answers as the
//! library's query, and every kind of bad input answered 400 with a JSON error.

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

struct Server {
    app: axum::Router,
    _dir: tempfile::TempDir,
    tablebase: granary::Tablebase,
}

/// A server over awari 6-pit tables to 16 seeds and Kalah(4) standard tables to 12.
fn server() -> &'static Server {
    static SERVER: std::sync::OnceLock<Server> = std::sync::OnceLock::new();
    SERVER.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let tablebase = granary::Tablebase::new(dir.path());
        let awari = granary::Setup {
            rules: Some("awari".into()),
            ..granary::Setup::default()
        }
        .mancala(granary::GameName::Oware, None)
        .unwrap();
        granary::build(&tablebase, awari.kind(), 16, Some(2), None, &()).unwrap();
        let kalah = granary::Setup {
            pits: Some(4),
            rules: Some("standard".into()),
            ..granary::Setup::default()
        }
        .mancala(granary::GameName::Kalah, None)
        .unwrap();
        granary::build(&tablebase, kalah.kind(), 12, Some(2), None, &()).unwrap();
        let mut config = granary_server::Config::new(dir.path().to_path_buf());
        config.timeout = Duration::from_secs(30);
        Server {
            app: granary_server::router(&config),
            tablebase: granary::Tablebase::new(dir.path()),
            _dir: dir,
        }
    })
}

fn get(uri: &str) -> (StatusCode, Value) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let response = server()
            .app
            .clone()
            .oneshot(Request::get(uri).body(Body::empty()).unwrap())
            .await
            .unwrap();
        let status = response.status();
        let json_type = response
            .headers()
            .get(header::CONTENT_TYPE)
            .is_some_and(|t| t.to_str().unwrap().starts_with("application/json"));
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        assert!(
            json_type,
            "{uri}: not JSON: {}",
            String::from_utf8_lossy(&bytes)
        );
        (status, serde_json::from_slice(&bytes).unwrap())
    })
}

fn bad(uri: &str, needle: &str) {
    let (status, body) = get(uri);
    assert_eq!(status, StatusCode::BAD_REQUEST, "{uri}: {body}");
    let error = body["error"].as_str().unwrap();
    assert!(error.contains(needle), "{uri}: {error}");
}

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
        assert_eq!(v, expected, "{uri}");
    }
    // Beyond the tables but small: a search over them, exact (Kalah(4,2) standard: +6,
    // docs/results.md).
    let (status, v) = get("/api/v1/query?game=kalah&pits=4&seeds=2&rules=standard");
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        (v["value"].clone(), v["source"].clone()),
        (json!(6), json!("search"))
    );
    // Not covered and too large: 422, naming the build.
    let (status, v) = get("/api/v1/query?game=kalah&rules=standard");
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    let error = v["error"].as_str().unwrap();
    assert!(error.contains("granary build kalah"), "{v}");
    // The message names the layer within the table directory, never where the server keeps it.
    let root = server().tablebase.root().to_path_buf();
    assert!(
        !error.contains(&*root.to_string_lossy()) && !error.contains("/tmp"),
        "{error}"
    );
    assert!(
        error.contains("kalah-6-standard-owner/layer-048.tbl"),
        "{error}"
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

#[test]
fn bad_input_is_400_with_a_json_error() {
    bad("/api/v1/query", "'game' is missing");
    bad("/api/v1/query?game=chess", "unknown game 'chess'");
    bad("/api/v1/query?game=kalah&rules=fast", "--rules 'fast'");
    bad("/api/v1/query?game=kalah&pits=9", "--pits 9");
    bad(
        "/api/v1/query?game=kalah&pits=x",
        "'x' is not a whole number",
    );
    bad("/api/v1/query?game=kalah&position=1,2/3", "same number");
    bad("/api/v1/query?game=kalah&position=%FF%FE", "position");
    bad(
        "/api/v1/query?game=oware&sweep=owner",
        "--sweep is a kalah option",
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
    let (status, v) = get("/api/v1/nothing/here");
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("/api/v1/nothing/here")
    );
}

#[test]
fn a_full_queue_is_503_with_retry_after() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = granary_server::Config::new(dir.path().to_path_buf());
    config.max_searches = 1;
    config.max_queue = 0;
    let app = granary_server::router(&config);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        // The engine thinks 400 ms: the first request holds the one slot, the second finds no
        // room to wait.
        let slow = || {
            app.clone().oneshot(
                Request::get("/api/v1/bao/move?ms=400")
                    .body(Body::empty())
                    .unwrap(),
            )
        };
        let first = tokio::spawn(slow());
        tokio::time::sleep(Duration::from_millis(100)).await;
        let second = slow().await.unwrap();
        assert_eq!(second.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(second.headers()[header::RETRY_AFTER], "1");
        let body = second.into_body().collect().await.unwrap().to_bytes();
        let v: Value = serde_json::from_slice(&body).unwrap();
        assert!(v["error"].as_str().unwrap().contains("waiting"), "{v}");
        assert_eq!(first.await.unwrap().unwrap().status(), StatusCode::OK);
    });
}
