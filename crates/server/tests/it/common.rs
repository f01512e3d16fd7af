//! What the API's tests share: a server over awari 6-pit tables to 16 seeds and Kalah(4)
//! standard tables to 12, built once, and requests to it answered in process (no socket); an
//! answer checked against what the API says of it.

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

pub(crate) struct Server {
    pub(crate) app: axum::Router,
    pub(crate) dir: tempfile::TempDir,
    pub(crate) tablebase: granary::Tablebase,
}

/// A server over awari 6-pit tables to 16 seeds and Kalah(4) standard tables to 12.
pub(crate) fn server() -> &'static Server {
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
            dir,
        }
    })
}

pub(crate) fn get(uri: &str) -> (StatusCode, Value) {
    get_from(&server().app, uri).1
}

/// `uri` from `app`: the headers and `(status, JSON body)`.
pub(crate) fn get_from(
    app: &axum::Router,
    uri: &str,
) -> (axum::http::HeaderMap, (StatusCode, Value)) {
    send(app, Request::get(uri).body(Body::empty()).unwrap())
}

/// `body` posted to `uri` of the shared server: `(status, JSON body)`.
pub(crate) fn post(uri: &str, body: impl Into<Body>) -> (StatusCode, Value) {
    post_as(uri, "application/json", body)
}

/// `body` posted to `uri` as `content_type`.
pub(crate) fn post_as(uri: &str, content_type: &str, body: impl Into<Body>) -> (StatusCode, Value) {
    let request = Request::post(uri)
        .header(header::CONTENT_TYPE, content_type)
        .body(body.into())
        .unwrap();
    send(&server().app, request).1
}

/// `request` to `app`: the headers and `(status, JSON body)`, which must be JSON.
pub(crate) fn send(
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
pub(crate) fn library_fields(v: &Value) -> Value {
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
pub(crate) fn check_described(v: &Value) {
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
    // A principal variation is empty only where there is no move to begin it.
    let moves = v["moves"].as_array().unwrap();
    let Some(first) = steps.first() else {
        assert!(moves.is_empty(), "moves, yet no principal variation: {v}");
        return;
    };
    assert_eq!(first["side"], v["to_move"]);
    let played = moves.iter().find(|m| m["move"] == first["move"]).unwrap();
    assert_eq!(first["position"], played["position"]);
}

pub(crate) fn bad(uri: &str, needle: &str) {
    let (status, body) = get(uri);
    assert_eq!(status, StatusCode::BAD_REQUEST, "{uri}: {body}");
    let error = body["error"].as_str().unwrap();
    assert!(error.contains(needle), "{uri}: {error}");
}
