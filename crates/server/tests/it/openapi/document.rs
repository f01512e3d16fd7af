//! The description's shape: OpenAPI 3.1, every operation described, every error an
//! `{"error"}` answer, every `$ref` resolved, every schema one that compiles; and the
//! description served as generated.

use axum::http::StatusCode;
use serde_json::Value;

use super::{assert_none, bare, deref, document, operations, resolve, validator};

/// Every schema of the description with where it is: the components' schemas, and each
/// parameter's, body's and answer's.
fn schemas(doc: &Value) -> Vec<(String, &Value)> {
    let mut out: Vec<(String, &Value)> = doc["components"]["schemas"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(name, s)| (format!("#/components/schemas/{name}"), s))
        .collect();
    for (path, method, op) in operations(doc) {
        let at = format!("{method} {path}");
        for p in op["parameters"].as_array().into_iter().flatten() {
            out.push((format!("{at} parameter {}", p["name"]), &p["schema"]));
        }
        for (media, m) in op["requestBody"]["content"]
            .as_object()
            .into_iter()
            .flatten()
        {
            out.push((format!("{at} body {media}"), &m["schema"]));
        }
        for (status, r) in op["responses"].as_object().into_iter().flatten() {
            for (media, m) in r["content"].as_object().into_iter().flatten() {
                out.push((format!("{at} {status} {media}"), &m["schema"]));
            }
            for (name, h) in r["headers"].as_object().into_iter().flatten() {
                out.push((format!("{at} {status} header {name}"), &h["schema"]));
            }
        }
    }
    out
}

/// The description's shape: OpenAPI 3.1; every operation with a summary and responses, each
/// described, each error an `{"error": "..."}` (503 with `Retry-After`); every `$ref` resolved;
/// no Rust doc link in a description; every schema a JSON Schema 2020-12 that compiles.
pub(super) fn document_problems(doc: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let version = doc["openapi"].as_str().unwrap_or("");
    if !version.starts_with("3.1.") {
        out.push(format!("openapi is '{version}', not 3.1.x"));
    }
    for key in ["title", "version"] {
        if !doc["info"][key].is_string() {
            out.push(format!("info.{key} is missing"));
        }
    }
    let ops = operations(doc);
    if ops.is_empty() {
        out.push("no operations".into());
    }
    for (path, method, op) in &ops {
        if !op["summary"].is_string() {
            out.push(format!("{method} {path}: no summary"));
        }
        let responses = op["responses"].as_object().filter(|r| !r.is_empty());
        let Some(responses) = responses else {
            out.push(format!("{method} {path}: no responses"));
            continue;
        };
        for (status, response) in responses {
            if status.len() != 3 || status.parse::<u16>().is_err() {
                out.push(format!(
                    "{method} {path}: response '{status}' is not a status"
                ));
            }
            let response = deref(doc, response);
            if response["description"].as_str().is_none_or(str::is_empty) {
                out.push(format!("{method} {path} {status}: no description"));
            }
            let error = &response["content"]["application/json"]["schema"];
            if status.starts_with(['4', '5']) && error["$ref"] != "#/components/schemas/Error" {
                out.push(format!(
                    "{method} {path} {status}: not an {{\"error\"}} answer"
                ));
            }
            if status == "503" && response["headers"].get("Retry-After").is_none() {
                out.push(format!("{method} {path} 503: no Retry-After"));
            }
        }
    }
    references(doc, doc, "#", &mut out);
    for (at, schema) in schemas(doc) {
        if let Err(e) = validator(doc, schema) {
            out.push(format!("{at}: the schema does not compile: {e}"));
        }
    }
    out
}

/// Every `$ref` under `value` that does not resolve in `doc`, and every description that
/// carries a Rust doc link (`[`name`]`, written for rustdoc, not for the API's readers).
fn references(doc: &Value, value: &Value, at: &str, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                if k == "description" && v.as_str().is_some_and(|d| d.contains("[`")) {
                    out.push(format!("{at}: a description carries a Rust doc link: {v}"));
                }
                if k == "$ref" {
                    match v.as_str() {
                        Some(r) if resolve(doc, r).is_some() => {}
                        _ => out.push(format!("{at}: $ref {v} does not resolve")),
                    }
                } else {
                    references(doc, v, &format!("{at}/{k}"), out);
                }
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                references(doc, v, &format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn the_description_is_openapi_3_1_with_every_reference_resolved() {
    assert_none(&document_problems(&document()));
}

#[test]
fn the_description_is_served_as_generated() {
    let answer = bare("get", "/api/v1/openapi.json");
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.content_type.as_deref(), Some("application/json"));
    assert_eq!(answer.body, granary_server::openapi::text().as_bytes());
    let served: Value = serde_json::from_slice(&answer.body).unwrap();
    assert_eq!(&served, granary_server::openapi::document());
}
