//! The API's description (generated from the handlers' types, `granary_server::openapi`, and
//! served at `/api/v1/openapi.json`) against the server, both ways: every path and method it
//! names is routed, and every route of the API (`granary_server::api_routes`) is named; the
//! query parameters and body fields it names are the known ones (`params::KNOWN`) with the
//! catalogue's values, and each endpoint reads exactly the ones it names (probed: a valid value
//! accepted and a junk one refused); every status a probe gets is declared, and every answer,
//! errors and job reports included, is valid under its declared schema (JSON Schema 2020-12,
//! the `jsonschema` crate). Each check returns the problems it finds, and [`broken`] breaks the
//! description a way each and sees the check fail.
//!
//! A module a check ([`document`], [`routes`], [`parameters`], [`probes`]) with its test; here
//! what they share: the description, a server to ask, and JSON Schema at hand.

mod broken;
mod document;
mod parameters;
mod probes;
mod routes;

use std::collections::BTreeSet;
use std::sync::OnceLock;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

/// The page's paths (its HTML, its style sheet and its scripts): served beside the API, and not
/// part of its description.
fn page() -> Vec<&'static str> {
    let scripts = granary_server::page::SCRIPTS.iter().map(|&(path, _)| path);
    ["/", "/style.css"].into_iter().chain(scripts).collect()
}

/// A value every parameter refuses.
const JUNK: &str = "zzz";

/// The methods an operation may have in a path item.
const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// The description as the server generates it.
fn document() -> Value {
    granary_server::openapi::document().clone()
}

/// A server over Kalah(4) tables (rules `empty`, the default) to 8 seeds, searching nothing
/// beyond them, so that every answer is quick and the same on every run.
fn app() -> &'static axum::Router {
    static APP: OnceLock<(axum::Router, tempfile::TempDir)> = OnceLock::new();
    &APP.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let tablebase = granary::Tablebase::new(dir.path());
        let kalah = granary::Setup {
            pits: Some(4),
            ..granary::Setup::default()
        }
        .mancala(granary::GameName::Kalah, None)
        .unwrap();
        granary::build(&tablebase, kalah.kind(), 8, Some(1), None, &()).unwrap();
        let mut config = granary_server::Config::new(dir.path().to_path_buf());
        config.search_seconds = 0.0;
        config.timeout = std::time::Duration::from_secs(60);
        (granary_server::router(&config), dir)
    })
    .0
}

/// An answer: its status, content type, `Retry-After`, `Location` and body.
struct Answer {
    status: StatusCode,
    content_type: Option<String>,
    retry_after: Option<String>,
    location: Option<String>,
    body: Vec<u8>,
}

fn send(request: Request<Body>) -> Answer {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let response = app().clone().oneshot(request).await.unwrap();
        let header = |name| {
            response
                .headers()
                .get(name)
                .map(|v: &header::HeaderValue| v.to_str().unwrap().to_string())
        };
        let (content_type, retry_after, location) = (
            header(header::CONTENT_TYPE),
            header(header::RETRY_AFTER),
            header(header::LOCATION),
        );
        let status = response.status();
        let body = response.into_body().collect().await.unwrap().to_bytes();
        Answer {
            status,
            content_type,
            retry_after,
            location,
            body: body.to_vec(),
        }
    })
}

fn bare(method: &str, path: &str) -> Answer {
    let method = Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
    send(
        Request::builder()
            .method(method)
            .uri(path)
            .body(Body::empty())
            .unwrap(),
    )
}

/// The value a `$ref` points to in `doc`.
fn resolve<'a>(doc: &'a Value, reference: &str) -> Option<&'a Value> {
    doc.pointer(reference.strip_prefix('#')?)
}

/// An array of strings, as strings.
fn strings(value: &Value) -> Option<Vec<String>> {
    value
        .as_array()?
        .iter()
        .map(|v| v.as_str().map(String::from))
        .collect()
}

/// `value`, or what it refers to if it is a reference (a dangling one: `Null`).
fn deref<'a>(doc: &'a Value, value: &'a Value) -> &'a Value {
    match value.get("$ref").and_then(Value::as_str) {
        Some(r) => resolve(doc, r).unwrap_or(&Value::Null),
        None => value,
    }
}

/// `schema` as a JSON Schema 2020-12 validator, its references to the description's components
/// resolved in the description.
fn validator(doc: &Value, schema: &Value) -> Result<jsonschema::Validator, String> {
    let mut root = match schema {
        Value::Object(object) => object.clone(),
        other => return Err(format!("the schema {other} is not an object")),
    };
    root.insert("components".into(), doc["components"].clone());
    jsonschema::draft202012::new(&Value::Object(root)).map_err(|e| e.to_string())
}

/// `value` against `schema`: each way it is not valid, at `at`.
fn validate(doc: &Value, schema: &Value, value: &Value, at: &str, out: &mut Vec<String>) {
    match validator(doc, schema) {
        Ok(validator) => out.extend(
            validator
                .iter_errors(value)
                .map(|e| format!("{at}: {} at '{}'", e, e.instance_path())),
        ),
        Err(e) => out.push(format!("{at}: the schema does not compile: {e}")),
    }
}

/// Whether `path` is a job's (`/api/v1/jobs/{id}`): it takes no game, and its parameters are its
/// own, not the games' ([`job_answers_are_as_described`] checks it).
fn job_path(path: &str) -> bool {
    path.contains('{')
}

/// Every operation: `(path, method, operation)`.
fn operations(doc: &Value) -> Vec<(String, String, &Value)> {
    let mut out = Vec::new();
    for (path, item) in doc["paths"].as_object().into_iter().flatten() {
        for (method, op) in item.as_object().into_iter().flatten() {
            if METHODS.contains(&method.as_str()) {
                out.push((path.clone(), method.clone(), op));
            }
        }
    }
    out
}

fn operation<'a>(doc: &'a Value, path: &str, method: &str) -> &'a Value {
    &doc["paths"][path][method]
}

fn api_routes() -> BTreeSet<(String, String)> {
    granary_server::api_routes()
        .iter()
        .map(|r| (r.method.as_str().to_lowercase(), r.path.to_string()))
        .collect()
}

fn assert_none(problems: &[String]) {
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
