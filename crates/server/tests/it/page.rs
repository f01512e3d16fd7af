//! The page's files: the HTML, its style sheet and its scripts served with their content types;
//! the scripts are ES modules, and every module one imports, or the HTML loads, is served, each
//! reached from the one the HTML loads.

use std::collections::BTreeSet;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use granary_server::page::SCRIPTS;
use http_body_util::BodyExt;
use tower::ServiceExt;

/// `path` from a server over an empty table directory: its status, content type and text.
fn fetch(path: &str) -> (StatusCode, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let app = granary_server::router(&granary_server::Config::new(dir.path().to_path_buf()));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let request = Request::get(path).body(Body::empty()).unwrap();
        let response = app.oneshot(request).await.unwrap();
        let status = response.status();
        let content_type = response.headers()[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .to_owned();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        (
            status,
            content_type,
            String::from_utf8(bytes.to_vec()).unwrap(),
        )
    })
}

/// The paths of the modules `script` imports (`from "./name.js"`), as the server serves them.
fn imports(script: &str) -> Vec<String> {
    script
        .split("from \"./")
        .skip(1)
        .map(|rest| format!("/{}", &rest[..rest.find('"').unwrap()]))
        .collect()
}

#[test]
fn the_page_and_its_style_sheet_are_served() {
    let (status, content_type, html) = fetch("/");
    assert_eq!(status, StatusCode::OK);
    assert_eq!(content_type, "text/html; charset=utf-8");
    assert!(
        html.contains(r#"<script type="module" src="/main.js"></script>"#),
        "{html}"
    );
    let (status, content_type, _) = fetch("/style.css");
    assert_eq!(status, StatusCode::OK);
    assert_eq!(content_type, "text/css; charset=utf-8");
}

#[test]
fn every_script_is_a_module_served_as_javascript() {
    for &(path, text) in SCRIPTS {
        let (status, content_type, served) = fetch(path);
        assert_eq!(status, StatusCode::OK, "{path}");
        assert_eq!(content_type, "text/javascript; charset=utf-8", "{path}");
        assert_eq!(served, text, "{path}");
        assert!(
            !text.contains("\"use strict\""),
            "{path}: a module is strict already"
        );
    }
}

#[test]
fn every_import_is_served_and_every_script_is_reached_from_main() {
    let served: BTreeSet<&str> = SCRIPTS.iter().map(|&(path, _)| path).collect();
    assert_eq!(served.len(), SCRIPTS.len(), "a script served twice");
    let mut reached = BTreeSet::from(["/main.js".to_owned()]);
    let mut next = vec!["/main.js".to_owned()];
    while let Some(path) = next.pop() {
        let text = SCRIPTS.iter().find(|&&(p, _)| p == path).unwrap().1;
        for import in imports(text) {
            assert!(
                served.contains(import.as_str()),
                "{path} imports {import}, not served"
            );
            if reached.insert(import.clone()) {
                next.push(import);
            }
        }
    }
    let reached: BTreeSet<&str> = reached.iter().map(String::as_str).collect();
    assert_eq!(reached, served, "scripts served that no module imports");
}
