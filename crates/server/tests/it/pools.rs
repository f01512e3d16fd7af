//! The pools of work: a full queue answered 503 with `Retry-After`, and small requests
//! answered while searches hold every slot.

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

use crate::common::server;

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
