//! Kalah searched beyond small tables: answered, kept for the next request, and followed as a
//! job when the search outlasts the request.

use std::time::Duration;

use axum::http::{StatusCode, header};
use serde_json::json;

use crate::common::{check_described, get_from};

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
