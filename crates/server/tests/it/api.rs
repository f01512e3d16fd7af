//! The API in process (no socket): status codes, exact values on positions the tables decide
//! (the awari test position of Romein & Bal 2002; `docs/references.md`), the same answers as the
//! library's query with what each move leads to, Kalah searched beyond small tables and kept,
//! positions beyond the limits refused in a plain sentence, Bao's evaluations and proven start,
//! games reviewed ply by ply as query answers each position (above the tables, with the engine's
//! estimates in fields of their own), and every kind of bad input
//! answered 400 (a body too large 413) with a JSON error.

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
    get_from(&server().app, uri).1
}

/// `uri` from `app`: the headers and `(status, JSON body)`.
fn get_from(app: &axum::Router, uri: &str) -> (axum::http::HeaderMap, (StatusCode, Value)) {
    send(app, Request::get(uri).body(Body::empty()).unwrap())
}

/// `body` posted to `uri` of the shared server: `(status, JSON body)`.
fn post(uri: &str, body: impl Into<Body>) -> (StatusCode, Value) {
    post_as(uri, "application/json", body)
}

/// `body` posted to `uri` as `content_type`.
fn post_as(uri: &str, content_type: &str, body: impl Into<Body>) -> (StatusCode, Value) {
    let request = Request::post(uri)
        .header(header::CONTENT_TYPE, content_type)
        .body(body.into())
        .unwrap();
    send(&server().app, request).1
}

/// `request` to `app`: the headers and `(status, JSON body)`, which must be JSON.
fn send(
    app: &axum::Router,
    request: Request<Body>,
) -> (axum::http::HeaderMap, (StatusCode, Value)) {
    let uri = request.uri().to_string();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let response = app.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let headers = response.headers().clone();
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
        (headers, (status, serde_json::from_slice(&bytes).unwrap()))
    })
}

/// `v` without the fields the server adds to the library's answer.
fn library_fields(v: &Value) -> Value {
    let mut v = v.clone();
    let object = v.as_object_mut().unwrap();
    object.remove("margin");
    object.remove("pv_steps");
    for mv in object["moves"].as_array_mut().unwrap() {
        let mv = mv.as_object_mut().unwrap();
        mv.remove("final");
        mv.remove("result");
        mv.remove("margin");
    }
    v
}

/// Each move's final score, result and margin agree with its value, the stores and the seeds
/// on the board; the best moves' margin is the position's; the principal variation's steps
/// follow it.
fn check_described(v: &Value) {
    let south = v["to_move"] == "south";
    let finals = |f: &Value| (f[0].as_f64().unwrap(), f[1].as_f64().unwrap());
    let (fs, fn_) = finals(&v["final"]);
    let total = fs + fn_;
    let mut best_margin = f64::MIN;
    for mv in v["moves"].as_array().unwrap() {
        let (s, n) = finals(&mv["final"]);
        assert_eq!(s + n, total, "{mv}");
        let margin = if south { s - n } else { n - s };
        assert_eq!(mv["margin"].as_f64().unwrap(), margin, "{mv}");
        let word = if margin > 0.0 {
            "win"
        } else if margin < 0.0 {
            "loss"
        } else {
            "draw"
        };
        assert_eq!(mv["result"], word, "{mv}");
        best_margin = best_margin.max(margin);
        // The margin and the net of the seeds left differ by the stores' difference, the same
        // for every move.
        let stores = margin - mv["value"].as_f64().unwrap();
        let position_stores = v["margin"].as_f64().unwrap() - v["value"].as_f64().unwrap();
        assert_eq!(stores, position_stores, "{mv}");
    }
    assert_eq!(v["margin"].as_f64().unwrap(), best_margin, "{v}");
    assert_eq!(
        v["result"],
        if best_margin > 0.0 {
            "win"
        } else if best_margin < 0.0 {
            "loss"
        } else {
            "draw"
        }
    );
    let steps = v["pv_steps"].as_array().unwrap();
    let pv = v["pv"].as_array().unwrap();
    assert_eq!(steps.len(), pv.len(), "{v}");
    for (step, pit) in steps.iter().zip(pv) {
        assert_eq!(&step["move"], pit);
    }
    if let Some(first) = steps.first() {
        assert_eq!(first["side"], v["to_move"]);
        let played = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["move"] == first["move"])
            .unwrap();
        assert_eq!(first["position"], played["position"]);
    }
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

/// Kalah's start with `pits` pits of `seeds` seeds (the default rules, empty capture), over
/// layers to `table_seeds` only: `uri` asks for it, it is searched over them to `value`, then
/// the same position written out (`position`) is answered from what is kept.
fn searched_over_small_tables_and_kept(
    (pits, seeds, table_seeds): (usize, u32, u32),
    uri: &str,
    position: &str,
    value: i64,
) {
    let dir = tempfile::tempdir().unwrap();
    let tablebase = granary::Tablebase::new(dir.path());
    let game = granary::Setup {
        pits: Some(pits),
        seeds: Some(seeds),
        ..granary::Setup::default()
    }
    .mancala(granary::GameName::Kalah, None)
    .unwrap();
    let started = std::time::Instant::now();
    granary::build(&tablebase, game.kind(), table_seeds, None, None, &()).unwrap();
    eprintln!(
        "layers 0..={table_seeds} built in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let mut config = granary_server::Config::new(dir.path().to_path_buf());
    config.timeout = Duration::from_secs(600);
    config.search_seconds = 600.0;
    let state = granary_server::state(&config);
    let app = granary_server::app(std::sync::Arc::clone(&state));
    let started = std::time::Instant::now();
    let (_, (status, v)) = get_from(&app, uri);
    eprintln!("searched in {:.1} s", started.elapsed().as_secs_f64());
    assert_eq!(status, StatusCode::OK, "{v}");
    let result = if value > 0 {
        "win"
    } else if value < 0 {
        "loss"
    } else {
        "draw"
    };
    assert_eq!(
        (v["value"].clone(), v["result"].clone(), v["source"].clone()),
        (json!(value), json!(result), json!("search")),
        "{v}"
    );
    // Every seed ends in a store, the first player's lead by the value.
    let total = i64::from(seeds) * 2 * pits as i64;
    assert_eq!(
        v["final"],
        json!([(total + value) / 2, (total - value) / 2]),
        "{v}"
    );
    check_described(&v);
    assert_eq!(state.solved.kept_count(), 1);
    assert_eq!(state.solved.started_count(), 1);
    // The same position written out: the kept answer, no second search.
    let (_, (status, again)) = get_from(&app, position);
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again, v);
    assert_eq!(state.solved.started_count(), 1);
    assert_eq!(state.solved.kept_count(), 1);
}

#[test]
fn a_small_start_is_searched_over_small_tables_and_kept() {
    // Kalah(3,3), +2: the value a plain minimax gives (crates/search/tests/it/solver.rs).
    searched_over_small_tables_and_kept(
        (3, 3, 6),
        "/api/v1/query?game=kalah&pits=3&seeds=3",
        "/api/v1/query?game=kalah&pits=3&position=3,3,3/3,3,3",
        2,
    );
}

#[test]
#[ignore = "slow (about 30 s on 2 cores): .ci/run runs it, or cargo test -- --ignored"]
fn the_default_start_is_searched_over_small_tables_and_kept() {
    // Kalah(6,4) with layers to 18 seeds only: +10 (published; docs/results.md).
    searched_over_small_tables_and_kept(
        (6, 4, 18),
        "/api/v1/query?game=kalah",
        "/api/v1/query?game=kalah&position=4,4,4,4,4,4/4,4,4,4,4,4",
        10,
    );
}

#[test]
fn a_search_longer_than_the_request_is_a_job_that_holds_its_answer_and_the_answer_is_kept() {
    // No time to wait at all: the first request is answered 202 with a job that follows the
    // search; the job ends done with the answer, which a later request gets at once (kept),
    // and which is the value a plain minimax gives (crates/search/tests/it/solver.rs).
    let dir = tempfile::tempdir().unwrap();
    let mut config = granary_server::Config::new(dir.path().to_path_buf());
    config.timeout = Duration::ZERO;
    let state = granary_server::state(&config);
    let app = granary_server::app(std::sync::Arc::clone(&state));
    let uri = "/api/v1/query?game=kalah&pits=4&seeds=2&rules=standard";
    let (headers, (status, job)) = get_from(&app, uri);
    assert_eq!(status, StatusCode::ACCEPTED, "{job}");
    let location = headers[header::LOCATION].to_str().unwrap().to_string();
    assert_eq!(
        location,
        format!("/api/v1/jobs/{}", job["id"].as_str().unwrap())
    );
    assert_eq!(
        (job["kind"].clone(), job["total"].clone()),
        (json!("query"), json!(1))
    );
    assert!(job["what"].as_str().unwrap().contains("search"), "{job}");
    // Asked again while it searches: the same job.
    let (_, (status, again)) = get_from(&app, uri);
    if status == StatusCode::ACCEPTED {
        assert_eq!(again["id"], job["id"], "{again}");
    }
    let started = std::time::Instant::now();
    let report = loop {
        let (_, (status, report)) = get_from(&app, &location);
        assert_eq!(status, StatusCode::OK, "{report}");
        if report["state"] != "queued" && report["state"] != "running" {
            break report;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "never done");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(report["state"], "done", "{report}");
    assert_eq!(report["done"], 1, "{report}");
    let answer = &report["result"];
    assert_eq!(
        (answer["value"].clone(), answer["source"].clone()),
        (json!(6), json!("search")),
        "{report}"
    );
    check_described(answer);
    let (_, (status, kept)) = get_from(&app, uri);
    assert_eq!(status, StatusCode::OK, "{kept}");
    assert_eq!(&kept, answer);
    assert_eq!(state.solved.kept_count(), 1);
    assert_eq!(state.solved.started_count(), 1);
}

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

#[test]
fn a_full_queue_is_503_with_retry_after() {
    // One search slot, no room to wait: the test holds the slot itself, so whatever the load,
    // the request finds it taken; once the test lets it go, the same request is answered.
    let dir = tempfile::tempdir().unwrap();
    let mut config = granary_server::Config::new(dir.path().to_path_buf());
    config.max_searches = 1;
    config.max_queue = 0;
    let state = granary_server::state(&config);
    let app = granary_server::app(std::sync::Arc::clone(&state));
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let uri = "/api/v1/bao/move?ms=50";
        let request = || {
            app.clone()
                .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        };
        let held = state
            .searches
            .try_slot()
            .expect("the one search slot is free");
        let refused = request().await.unwrap();
        assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(refused.headers()[header::RETRY_AFTER], "1");
        let body = refused.into_body().collect().await.unwrap().to_bytes();
        let v: Value = serde_json::from_slice(&body).unwrap();
        assert!(v["error"].as_str().unwrap().contains("waiting"), "{v}");
        drop(held);
        let (status, v) = ask(&app, uri).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    });
}

/// `uri` from `app`, awaited on the caller's runtime: `(status, JSON body)`.
async fn ask(app: &axum::Router, uri: &str) -> (StatusCode, Value) {
    let response = app
        .clone()
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, serde_json::from_slice(&bytes).unwrap())
}

#[test]
fn small_requests_are_answered_while_a_search_holds_every_slot() {
    // Two search slots: the test holds one itself and the Bao engine, thinking from the
    // kiswahili start (which nothing proves) for up to 5 s, takes the other. The test's slot is
    // let go only after the small requests, so every slot is held while they are asked whatever
    // the load or the engine's speed. Kalah and Oware positions shown, the variants and queries
    // the tables answer are each answered 200 (a Bao position shown is work of the searches'
    // kind: its relay sowings can be long).
    let mut config = granary_server::Config::new(server().tablebase.root().to_path_buf());
    config.max_searches = 2;
    config.max_queue = 0;
    config.timeout = Duration::from_secs(3);
    let state = granary_server::state(&config);
    let app = granary_server::app(std::sync::Arc::clone(&state));
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let held = state.searches.try_slot().expect("a search slot is free");
        let long = tokio::spawn({
            let app = app.clone();
            async move { ask(&app, "/api/v1/bao/move?ms=5000").await }
        });
        // The engine's request either takes the other slot or has already been answered (on a
        // machine slow enough to start it late); either way no slot is free until it ends.
        while state.searches.free() > 0 && !long.is_finished() {
            tokio::task::yield_now().await;
        }
        for uri in [
            "/api/v1/show?game=kalah&moves=3,1",
            "/api/v1/variants",
            "/api/v1/query?game=oware&rules=awari&position=1,1,1,1,1,2/4,2,3,0,0,0",
            "/api/v1/query?game=kalah&pits=4&rules=standard&position=2,0,3,1/1,2,0,2%205-3%20N",
            "/api/v1/show?game=oware&rules=awari&moves=1",
        ] {
            let (status, v) = ask(&app, uri).await;
            assert_eq!(status, StatusCode::OK, "{uri}: {v}");
        }
        drop(held);
        // The engine's request is answered when its time is up, the engine's or the request's.
        let (status, v) = long.await.unwrap();
        assert!(
            status == StatusCode::OK || status == StatusCode::SERVICE_UNAVAILABLE,
            "{status}: {v}"
        );
    });
    // The engine's search ends and gives its slot back.
    let started = std::time::Instant::now();
    while state.searches.free() < 2 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the search never ended"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn the_game_selector_gets_a_variant_with_tables_or_the_command_to_build() {
    // Oware's default rule set (abapa) has no tables here; awari's go to 16 seeds at 6 pits: the
    // variant shown is awari with one seed a pit (12 on the board), which they answer.
    let (status, v) = get("/api/v1/tables?game=oware");
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        v["show"],
        json!({"rules": "awari", "pits": 6, "seeds": 1}),
        "{v}"
    );
    assert_eq!(v["build"], Value::Null);
    let note = v["note"].as_str().unwrap();
    assert!(
        note.contains("oware abapa with 6 pits and 4 seeds a pit")
            && note.contains("showing oware awari with 6 pits and 1 seed a pit"),
        "{note}"
    );
    assert!(
        v["present"].as_array().unwrap().contains(
            &json!({"name": "oware-6-awari", "rules": "awari", "pits": 6, "complete_up_to": 16})
        ),
        "{v}"
    );
    let (status, q) = get("/api/v1/query?game=oware&rules=awari&pits=6&seeds=1");
    assert_eq!(
        (status, q["source"].clone()),
        (StatusCode::OK, json!("tables")),
        "{q}"
    );
    // Asked for what the tables answer: as asked, nothing to say.
    let (_, v) = get("/api/v1/tables?game=oware&rules=awari&seeds=1");
    assert_eq!(
        v["show"],
        json!({"rules": "awari", "pits": 6, "seeds": 1}),
        "{v}"
    );
    assert_eq!(v["note"], Value::Null);
    // Kalah at 4 pits: standard capture has the tables there.
    let (_, v) = get("/api/v1/tables?game=kalah&pits=4");
    assert_eq!(
        v["show"],
        json!({"rules": "standard", "pits": 4, "seeds": 4}),
        "{v}"
    );
    // Kalah at 6 pits, none present: searched as asked.
    let (_, v) = get("/api/v1/tables?game=kalah");
    assert_eq!(
        v["show"],
        json!({"rules": "empty", "pits": 6, "seeds": 4}),
        "{v}"
    );
    assert_eq!(v["note"], Value::Null);
    // No Oware tables at all: the variant asked, and the command that builds its tables.
    let dir = tempfile::tempdir().unwrap();
    let app = granary_server::router(&granary_server::Config::new(dir.path().to_path_buf()));
    let (_, (status, v)) = get_from(&app, "/api/v1/tables?game=oware&pits=4&seeds=3");
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        v["show"],
        json!({"rules": "abapa", "pits": 4, "seeds": 3}),
        "{v}"
    );
    let command = "granary build oware --pits 4 --rules abapa --max-seeds 24";
    assert_eq!(v["build"], command);
    assert!(v["note"].as_str().unwrap().contains(command), "{v}");
    // Oware(6,4) needs tables of 48 seeds, beyond any disk here: no build is advised.
    let (_, (status, v)) = get_from(&app, "/api/v1/tables?game=oware&pits=6&seeds=4");
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["build"], Value::Null, "{v}");
    let note = v["note"].as_str().unwrap();
    assert!(
        !note.contains("granary build") && note.contains("more than this machine holds"),
        "{v}"
    );
    bad("/api/v1/tables?game=bao", "bao has no tables");
    bad("/api/v1/tables?game=oware&rules=fast", "'fast'");
    bad("/api/v1/tables?game=oware&moves=1", "takes only");
    bad("/api/v1/tables?game=oware&pits=9", "9 is out of range");
    // The library's words, as the command line and Python say them.
    for (uri, pits) in [
        ("/api/v1/tables?game=kalah&pits=0", 0),
        ("/api/v1/query?game=oware&pits=9", 9),
    ] {
        let (status, body) = get(uri);
        assert_eq!(status, StatusCode::BAD_REQUEST, "{uri}: {body}");
        assert_eq!(
            body["error"],
            format!("pits {pits} is out of range: a side has 1 to 8 pits"),
            "{uri}"
        );
    }
}

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
    let mut config = granary_server::Config::new(server()._dir.path().to_path_buf());
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
