//! The routes against the description, both ways: every described operation routed, every
//! route of the API described, the page served outside it.

use std::collections::BTreeSet;

use axum::http::StatusCode;
use serde_json::Value;

use super::{api_routes, assert_none, bare, document, operations, page};

/// The routes against the description: the API's routes and the described operations are the
/// same (method, path) pairs; nothing outside `/api/v1/` (the page) is described.
pub(super) fn route_problems(doc: &Value, routes: &BTreeSet<(String, String)>) -> Vec<String> {
    let mut out = Vec::new();
    let described: BTreeSet<(String, String)> = operations(doc)
        .into_iter()
        .map(|(path, method, _)| (method, path))
        .collect();
    for (method, path) in routes.difference(&described) {
        out.push(format!("{method} {path} is routed but not described"));
    }
    for (method, path) in described.difference(routes) {
        out.push(format!(
            "{method} {path} is described but not among the API's routes"
        ));
    }
    for (method, path) in &described {
        if !path.starts_with("/api/v1/") || page().contains(&path.as_str()) {
            out.push(format!(
                "{method} {path} is described but is not part of the API"
            ));
        }
    }
    out
}

/// The router against the description: a bare request of every described operation is
/// answered (neither 404 nor 405), and every other method on a described path is 405.
pub(super) fn routed_problems(doc: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for (path, item) in doc["paths"].as_object().into_iter().flatten() {
        for method in ["get", "post", "put", "delete", "patch"] {
            // A job's path asked of a job that does not exist: the job's 404, not the router's.
            let answer = bare(method, &path.replace("{id}", "0"));
            let status = answer.status;
            let described = item.get(method).is_some();
            let unrouted = String::from_utf8_lossy(&answer.body).contains("no such path");
            let routed = status != StatusCode::METHOD_NOT_ALLOWED
                && (status != StatusCode::NOT_FOUND || !unrouted);
            if described && !routed {
                out.push(format!(
                    "{method} {path} is described but answered {status}"
                ));
            }
            if !described && status != StatusCode::METHOD_NOT_ALLOWED {
                out.push(format!(
                    "{method} {path} is not described but answered {status}"
                ));
            }
        }
    }
    out
}

#[test]
fn the_description_names_every_route_of_the_api_and_no_other() {
    let doc = document();
    assert_none(&route_problems(&doc, &api_routes()));
    assert_none(&routed_problems(&doc));
    // The page is served, outside the description.
    for path in page() {
        assert_eq!(bare("get", path).status, StatusCode::OK, "{path}");
    }
}
