//! Reviews as jobs, in process: 202 with `Location`, reports that grow ply by ply to the
//! library's own review, a second asking answered from the reviews kept, a cancel that stops
//! the search (or the engine estimating a ply beyond the exact reach) and frees its slot, the
//! bound on jobs (503), a job nobody asks about cancelled, and the job's faults answered 400 or
//! 404; and a review that waits for the search of its position led elsewhere and takes its
//! answer. Every order is held by the job's own reports (`since` waits for a change), by a slot
//! awaited or by a search's waiters counted, never by a sleep. The server and tables here serve
//! [`crate::held`] too.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

/// Kalah(4) standard tables to 12 seeds, built once.
pub(crate) fn tables() -> &'static tempfile::TempDir {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let tablebase = granary::Tablebase::new(dir.path());
        let kalah = setup()
            .mancala(granary::GameName::Kalah, None)
            .unwrap()
            .kind();
        granary::build(&tablebase, kalah, 12, Some(2), None, &()).unwrap();
        dir
    })
}

pub(crate) fn setup() -> granary::Setup {
    granary::Setup {
        pits: Some(4),
        rules: Some("standard".into()),
        ..granary::Setup::default()
    }
}

/// A server of its own over [`tables`], one search at a time, every Kalah position searched
/// however long (so that a game without tables never ends by itself), `max_jobs` jobs.
pub(crate) struct Server {
    pub(crate) state: Arc<granary_server::State>,
    app: axum::Router,
    runtime: tokio::runtime::Runtime,
}

impl Server {
    pub(crate) fn new(max_jobs: usize) -> Server {
        Server::estimating(max_jobs, None)
    }

    /// A server as [`Server::new`]'s, whose reviews estimate the plies beyond the exact reach
    /// within `estimate` a ply.
    fn estimating(max_jobs: usize, estimate: Option<granary::estimate::Budget>) -> Server {
        let mut config = granary_server::Config::new(tables().path().to_path_buf());
        config.review_estimate = estimate;
        config.max_searches = 1;
        config.max_jobs = max_jobs;
        config.search_seconds = f64::INFINITY;
        config.timeout = Duration::from_secs(30);
        let state = granary_server::state(&config);
        Server {
            app: granary_server::app(Arc::clone(&state)),
            state,
            runtime: tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap(),
        }
    }

    /// `request`'s headers, status and JSON body.
    fn send(&self, request: Request<Body>) -> (HeaderMap, StatusCode, Value) {
        self.runtime.block_on(async {
            let response = self.app.clone().oneshot(request).await.unwrap();
            let (status, headers) = (response.status(), response.headers().clone());
            let bytes = response.into_body().collect().await.unwrap().to_bytes();
            (headers, status, serde_json::from_slice(&bytes).unwrap())
        })
    }

    /// `body` posted for review, with `Prefer: respond-async` if `at_once`.
    pub(crate) fn review(&self, body: &Value, at_once: bool) -> (HeaderMap, StatusCode, Value) {
        let mut request =
            Request::post("/api/v1/review").header(header::CONTENT_TYPE, "application/json");
        if at_once {
            request = request.header("Prefer", "respond-async");
        }
        self.send(request.body(Body::from(body.to_string())).unwrap())
    }

    pub(crate) fn get(&self, uri: &str) -> (StatusCode, Value) {
        let (_, status, v) = self.send(Request::get(uri).body(Body::empty()).unwrap());
        (status, v)
    }

    fn delete(&self, uri: &str) -> (StatusCode, Value) {
        let (_, status, v) = self.send(Request::delete(uri).body(Body::empty()).unwrap());
        (status, v)
    }

    /// The job at `location` followed until `until` holds of its report: each report newer
    /// than the last (`since`), the plies never fewer. Every report seen, in order.
    pub(crate) fn follow(&self, location: &str, until: impl Fn(&Value) -> bool) -> Vec<Value> {
        let (status, mut report) = self.get(location);
        assert_eq!(status, StatusCode::OK, "{report}");
        let mut seen = vec![report.clone()];
        while !until(&report) {
            assert!(
                !matches!(
                    report["state"].as_str(),
                    Some("failed" | "cancelled" | "done")
                ),
                "ended before: {report}"
            );
            let (status, next) = self.get(&format!("{location}?since={}", report["version"]));
            assert_eq!(status, StatusCode::OK, "{next}");
            assert!(
                next["plies"].as_array().unwrap().len()
                    >= report["done"].as_u64().unwrap() as usize
            );
            report = next;
            seen.push(report.clone());
        }
        seen
    }

    /// Waits for the one search slot: free once the job holding it has ended.
    fn slot_freed(&self) {
        self.runtime.block_on(async {
            let slot =
                tokio::time::timeout(Duration::from_secs(60), self.state.searches.queued_slot())
                    .await
                    .expect("the search slot was not freed");
            assert!(slot.is_some());
        });
    }
}

/// A game of Kalah(4,4) standard, its positions above the 12-seed tables searched.
fn searched_game() -> Value {
    json!({ "game": "kalah", "pits": 4, "rules": "standard",
            "moves": [1, 4, 2, 3, 1, 2, 4, 3, 2, 1] })
}

/// Kalah(6,4): no tables at all, so its first position's search runs for hours.
fn endless_game(moves: &[u32]) -> Value {
    json!({ "game": "kalah", "moves": moves })
}

#[test]
fn a_review_is_a_job_whose_plies_grow_to_the_librarys_review_then_kept() {
    let server = Server::new(4);
    let body = searched_game();
    let (headers, status, report) = server.review(&body, true);
    assert_eq!(status, StatusCode::ACCEPTED, "{report}");
    let location = headers[header::LOCATION].to_str().unwrap().to_string();
    assert_eq!(
        location,
        format!("/api/v1/jobs/{}", report["id"].as_str().unwrap())
    );
    assert_eq!(
        (report["kind"].as_str(), report["total"].as_u64()),
        (Some("review"), Some(10))
    );
    let seen = server.follow(&location, |r| r["state"] == "done");
    let done = seen.last().unwrap();
    // The plies came in order, each report's a prefix of the next's.
    for pair in seen.windows(2) {
        let (a, b) = (&pair[0]["plies"], &pair[1]["plies"]);
        let a = a.as_array().unwrap();
        assert_eq!(a[..], b.as_array().unwrap()[..a.len()]);
        assert!(pair[1]["version"].as_u64() > pair[0]["version"].as_u64());
    }
    // The result is the library's review of the same game, and its plies the job's.
    let tablebase = granary::Tablebase::new(tables().path());
    let record = granary::GameRecord::new(
        granary::GameName::Kalah,
        &setup(),
        None,
        &[1, 4, 2, 3, 1, 2, 4, 3, 2, 1].map(granary::game::GameMove::Pit),
    )
    .unwrap();
    let library = tablebase
        .review_record(&record, f64::INFINITY, None, &())
        .unwrap();
    let library = serde_json::to_value(library).unwrap();
    assert_eq!(done["result"], library);
    assert_eq!(done["plies"], library["plies"]);
    assert_eq!(done["done"], 10);
    assert!(
        library["plies"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["source"] == "search")
    );
    // Asked again, at once: kept, no job.
    let (_, status, again) = server.review(&body, true);
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again, library);
    // A longer game of the same start finds its searched positions kept: one more ply, and the
    // first ten the same.
    let mut longer = body.clone();
    longer["moves"].as_array_mut().unwrap().push(json!(4));
    let (_, status, review) = server.review(&longer, false);
    assert_eq!(status, StatusCode::OK, "{review}");
    assert_eq!(
        review["plies"].as_array().unwrap()[..10],
        library["plies"].as_array().unwrap()[..]
    );
    assert_eq!(server.state.jobs.kept_reviews(), 2);
}

#[test]
fn a_review_waits_for_the_search_of_its_position_running_elsewhere_and_takes_its_answer() {
    let server = Server::new(4);
    let game = setup().mancala(granary::GameName::Kalah, None).unwrap();
    let present = server.state.tablebase.complete_up_to(game.kind());
    // A search of the start led by other work (as the opening's is when serving begins).
    let granary_server::search::Plan::Start(leader) = server.state.solved.plan(&game, present, 1.0)
    else {
        panic!("no search of the start yet");
    };
    let (headers, status, _) = server.review(
        &json!({ "game": "kalah", "pits": 4, "rules": "standard", "moves": [1] }),
        true,
    );
    assert_eq!(status, StatusCode::ACCEPTED);
    let location = headers[header::LOCATION].to_str().unwrap().to_string();
    // Held until the job waits on the search: the map's receiver and the job's.
    let waited = std::time::Instant::now();
    while leader.waiters() < 2 {
        assert!(
            waited.elapsed() < Duration::from_secs(60),
            "the job never waited"
        );
        std::thread::yield_now();
    }
    // A made-up answer, to tell the one it takes from one it would search itself.
    let mut made_up =
        granary_server::search::search(&server.state.tablebase, &game, present, 1.0).unwrap();
    made_up.value += 2;
    for m in &mut made_up.moves {
        m.value += 2;
    }
    server
        .state
        .solved
        .finish(leader, Ok(Arc::new(made_up.clone())));
    let seen = server.follow(&location, |r| r["state"] == "done");
    let ply = &seen.last().unwrap()["plies"][0];
    assert_eq!(ply["value"], made_up.value, "{ply}");
}

#[test]
fn a_cancelled_review_stops_its_search_and_frees_its_slot() {
    let server = Server::new(4);
    let (headers, status, report) = server.review(&endless_game(&[3, 6, 2]), true);
    assert_eq!(status, StatusCode::ACCEPTED, "{report}");
    let location = headers[header::LOCATION].to_str().unwrap().to_string();
    server.follow(&location, |r| r["state"] == "running");
    assert_eq!(server.state.searches.free(), 0);
    // The same game asked again joins the job.
    let (again, status, _) = server.review(&endless_game(&[3, 6, 2]), true);
    assert_eq!(
        (status, &again[header::LOCATION]),
        (StatusCode::ACCEPTED, &headers[header::LOCATION])
    );
    let (status, cancelled) = server.delete(&location);
    assert_eq!(status, StatusCode::OK, "{cancelled}");
    assert_eq!(cancelled["state"], "cancelled");
    server.slot_freed();
    let (status, report) = server.get(&location);
    assert_eq!(
        (status, &report["state"], &report["done"]),
        (StatusCode::OK, &json!("cancelled"), &json!(0))
    );
    assert_eq!(server.state.jobs.active(), 0);
}

#[test]
fn a_cancelled_review_stops_the_engine_estimating_its_ply_and_frees_its_slot() {
    // Oware(6,4) has no tables here: its first ply is estimated, for an hour unless cancelled.
    let hour = granary::estimate::Budget::Time(Duration::from_secs(3600));
    let server = Server::estimating(4, Some(hour));
    let (headers, status, report) = server.review(&json!({ "game": "oware", "moves": [3] }), true);
    assert_eq!(status, StatusCode::ACCEPTED, "{report}");
    let location = headers[header::LOCATION].to_str().unwrap().to_string();
    server.follow(&location, |r| r["state"] == "running");
    // The review runs among the searches.
    assert_eq!(server.state.searches.free(), 0);
    let (status, cancelled) = server.delete(&location);
    assert_eq!(status, StatusCode::OK, "{cancelled}");
    server.slot_freed();
    let (status, report) = server.get(&location);
    assert_eq!(
        (status, &report["state"], &report["done"]),
        (StatusCode::OK, &json!("cancelled"), &json!(0))
    );
}

#[test]
fn jobs_past_the_bound_are_refused_and_one_nobody_asks_about_is_cancelled() {
    let server = Server::new(1);
    let (headers, status, report) = server.review(&endless_game(&[3]), true);
    assert_eq!(status, StatusCode::ACCEPTED, "{report}");
    let location = headers[header::LOCATION].to_str().unwrap().to_string();
    let (refused, status, error) = server.review(&endless_game(&[4]), true);
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{error}");
    assert!(refused.contains_key(header::RETRY_AFTER));
    assert!(
        error["error"].as_str().unwrap().contains("long answers"),
        "{error}"
    );
    server.follow(&location, |r| r["state"] == "running");
    // Nobody asks about it for longer than the server waits: cancelled, its slot freed, and
    // room for another.
    let later = std::time::Instant::now() + Duration::from_secs(61);
    server.state.jobs.sweep(later);
    server.slot_freed();
    let (status, report) = server.get(&location);
    assert_eq!(
        (status, &report["state"]),
        (StatusCode::OK, &json!("cancelled"))
    );
    assert!(
        report["error"].as_str().unwrap().contains("nobody asked"),
        "{report}"
    );
    let (headers, status, _) = server.review(&endless_game(&[4]), true);
    assert_eq!(status, StatusCode::ACCEPTED);
    server.delete(headers[header::LOCATION].to_str().unwrap());
    server.slot_freed();
}

#[test]
fn a_job_s_faults_are_400_and_an_unknown_job_404() {
    let server = Server::new(4);
    let (status, v) = server.get("/api/v1/jobs/0123456789abcdef");
    assert_eq!(status, StatusCode::NOT_FOUND, "{v}");
    assert!(v["error"].as_str().unwrap().contains("no such job"), "{v}");
    let (status, v) = server.delete("/api/v1/jobs/nothing");
    assert_eq!(status, StatusCode::NOT_FOUND, "{v}");
    let (headers, status, _) = server.review(&searched_game(), true);
    assert_eq!(status, StatusCode::ACCEPTED);
    let location = headers[header::LOCATION].to_str().unwrap();
    for query in ["since=x", "since=-1", "wait=3", "since=1&since=2"] {
        let (status, v) = server.get(&format!("{location}?{query}"));
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}: {v}");
        assert!(v["error"].is_string(), "{v}");
    }
    server.follow(location, |r| r["state"] == "done");
}
