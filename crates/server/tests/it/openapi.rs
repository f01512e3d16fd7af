//! The API's description (generated from the handlers' types, `granary_server::openapi`, and
//! served at `/api/v1/openapi.json`) against the server, both ways: every path and method it
//! names is routed, and every route of the API (`granary_server::api_routes`) is named; the
//! query parameters and body fields it names are the known ones (`params::KNOWN`) with the
//! catalogue's values, and each endpoint reads exactly the ones it names (probed: a valid value
//! accepted and a junk one refused); every status a probe gets is declared, and every answer,
//! errors and job reports included, is valid under its declared schema (JSON Schema 2020-12,
//! the `jsonschema` crate). Each check returns the problems it finds, and
//! [`each_check_catches_a_broken_description`] breaks the description a way each and sees the
//! check fail.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::{Map, Value, json};
use tower::ServiceExt;

/// The page's paths: served beside the API, and not part of its description.
const PAGE: [&str; 3] = ["/", "/app.js", "/style.css"];

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

/// What an operation takes: its query parameters, or its JSON body's fields.
struct Inputs {
    /// Name, schema, required.
    fields: Vec<(String, Value, bool)>,
    /// Whether they travel in a JSON body.
    body: bool,
}

impl Inputs {
    fn of(doc: &Value, op: &Value) -> Inputs {
        if let Some(body) = op.get("requestBody") {
            let schema = deref(
                doc,
                &deref(doc, body)["content"]["application/json"]["schema"],
            );
            let required: Vec<&str> = schema["required"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            let fields = schema["properties"]
                .as_object()
                .into_iter()
                .flatten()
                .map(|(k, s)| {
                    (
                        k.clone(),
                        deref(doc, s).clone(),
                        required.contains(&k.as_str()),
                    )
                })
                .collect();
            return Inputs { fields, body: true };
        }
        let fields = op["parameters"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|p| deref(doc, p))
            .filter(|p| p["in"] == "query")
            .map(|p| {
                let name = p["name"].as_str().unwrap_or("").to_string();
                (
                    name,
                    deref(doc, &p["schema"]).clone(),
                    p["required"] == true,
                )
            })
            .collect();
        Inputs {
            fields,
            body: false,
        }
    }

    fn names(&self) -> BTreeSet<&str> {
        self.fields.iter().map(|(n, _, _)| n.as_str()).collect()
    }

    fn schema(&self, name: &str) -> Option<&Value> {
        self.fields
            .iter()
            .find(|(n, _, _)| n == name)
            .map(|(_, s, _)| s)
    }

    /// The games it takes: its `game`'s values, else every game.
    fn games(&self) -> Vec<String> {
        match self.schema("game").and_then(|s| strings(&s["enum"])) {
            Some(games) => games,
            None => catalogue_games(),
        }
    }
}

fn catalogue_games() -> Vec<String> {
    granary::game::catalogue()
        .iter()
        .map(|g| g.game.name().to_string())
        .collect()
}

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
fn document_problems(doc: &Value) -> Vec<String> {
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

/// The routes against the description: the API's routes and the described operations are the
/// same (method, path) pairs; nothing outside `/api/v1/` (the page) is described.
fn route_problems(doc: &Value, routes: &BTreeSet<(String, String)>) -> Vec<String> {
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
        if !path.starts_with("/api/v1/") || PAGE.contains(&path.as_str()) {
            out.push(format!(
                "{method} {path} is described but is not part of the API"
            ));
        }
    }
    out
}

/// The router against the description: a bare request of every described operation is
/// answered (neither 404 nor 405), and every other method on a described path is 405.
fn routed_problems(doc: &Value) -> Vec<String> {
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

/// The inputs named against the server's: each a query parameter (or, for a body, a field)
/// that `params::KNOWN` accepts, named once; every known one named by some endpoint; the
/// options' values, defaults and ranges the catalogue's, for the games the endpoint takes.
fn parameter_problems(doc: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let known = granary_server::params::KNOWN;
    let mut named_anywhere = BTreeSet::new();
    let catalogue = granary::game::catalogue();
    for (path, method, op) in operations(doc) {
        if job_path(&path) {
            continue;
        }
        let at = format!("{method} {path}");
        for p in op["parameters"].as_array().into_iter().flatten() {
            let p = deref(doc, p);
            if p["in"] != "query" && !(p["in"] == "header" && p["name"] == "Prefer") {
                out.push(format!("{at}: parameter {} is not in the query", p["name"]));
            }
        }
        let inputs = Inputs::of(doc, op);
        for (name, _, _) in &inputs.fields {
            if !known.contains(&name.as_str()) {
                out.push(format!(
                    "{at}: '{name}' is not a parameter the server knows"
                ));
            }
            if inputs.fields.iter().filter(|(n, _, _)| n == name).count() > 1 {
                out.push(format!("{at}: '{name}' is named twice"));
            }
            named_anywhere.insert(name.clone());
        }
        let games = inputs.games();
        for game in &games {
            if !catalogue_games().contains(game) {
                out.push(format!("{at}: game '{game}' is not in the catalogue"));
            }
        }
        let taking: Vec<_> = catalogue
            .iter()
            .filter(|g| games.iter().any(|n| n == g.game.name()))
            .collect();
        for (name, schema, _) in &inputs.fields {
            let name = name.as_str();
            let (values, defaults): (Vec<&str>, Vec<&str>) = match name {
                "game" | "position" | "moves" | "ms" => continue,
                "pits" | "seeds" => {
                    let ranges: Vec<_> = taking
                        .iter()
                        .filter_map(|g| if name == "pits" { g.pits } else { g.seeds })
                        .collect();
                    let Some(range) = ranges.first() else {
                        out.push(format!(
                            "{at}: '{name}' is named, but none of its games has it"
                        ));
                        continue;
                    };
                    let bound = |key: &str, want: Option<u32>| {
                        let have = schema[key].as_u64();
                        (want.is_some() && have != want.map(u64::from))
                            .then(|| format!("{at}: '{name}' {key} {have:?}, not {want:?}"))
                    };
                    out.extend(bound("minimum", range.min));
                    out.extend(bound("maximum", range.max));
                    out.extend(bound("default", Some(range.default)));
                    continue;
                }
                _ => {
                    let (mut values, mut defaults) = (Vec::new(), Vec::new());
                    for option in taking.iter().filter_map(|g| g.options.get(name)) {
                        for value in &option.values {
                            if !values.contains(value) {
                                values.push(*value);
                            }
                        }
                        defaults.push(option.default);
                    }
                    (values, defaults)
                }
            };
            if values.is_empty() {
                out.push(format!(
                    "{at}: '{name}' is named, but none of its games has it"
                ));
                continue;
            }
            let listed = strings(&schema["enum"]).unwrap_or_default();
            if listed != values {
                out.push(format!(
                    "{at}: '{name}' lists {listed:?}, the catalogue {values:?}"
                ));
            }
            if let Some(default) = schema.get("default")
                && (defaults.len() != 1 || default != defaults[0])
            {
                out.push(format!(
                    "{at}: '{name}' default {default}, the catalogue {defaults:?}"
                ));
            }
        }
        if inputs.body {
            let max = inputs.schema("moves").and_then(|s| s["maxItems"].as_u64());
            if max != Some(granary_server::review::MAX_PLIES as u64) {
                out.push(format!(
                    "{at}: moves at most {max:?}, the server {}",
                    granary_server::review::MAX_PLIES
                ));
            }
        }
    }
    for name in known {
        if !named_anywhere.contains(name) {
            out.push(format!(
                "'{name}' is known to the server but named by no endpoint"
            ));
        }
    }
    out
}

/// A valid value of each parameter for a request about `game`.
fn sample(game: &str, name: &str) -> String {
    static BAO_POSITION: OnceLock<String> = OnceLock::new();
    let two_row = "1,1,1,1/1,1,1,1 0-0 S";
    match (game, name) {
        (_, "game") => game.into(),
        ("kalah", "rules") => "standard".into(),
        ("oware", "rules") => "awari".into(),
        (_, "rules") => "kujifunza".into(),
        ("bao", "position") => BAO_POSITION
            .get_or_init(|| {
                let shown = bare("get", "/api/v1/show?game=bao&moves=A6R");
                let shown: Value = serde_json::from_slice(&shown.body).unwrap();
                shown["position"].as_str().unwrap().to_string()
            })
            .clone(),
        (_, "position") => two_row.into(),
        ("bao", "moves") => "A6R".into(),
        (_, "moves") => "1".into(),
        (_, "pits") => "4".into(),
        (_, "seeds") => "1".into(),
        (_, "sweep") => "emptied".into(),
        (_, "nyumba") => "namua".into(),
        (_, "takasia") => "off".into(),
        (_, "tax") => "always".into(),
        (_, "ms") => "1".into(),
        _ => panic!("no sample of '{name}'"),
    }
}

/// A request to the operation with `fields`: a query string, or a JSON body (numbers as
/// numbers, moves as an array).
fn request(path: &str, method: &str, body: bool, fields: &[(&str, String)]) -> Request<Body> {
    let builder =
        Request::builder().method(Method::from_bytes(method.to_uppercase().as_bytes()).unwrap());
    if body {
        let mut object = Map::new();
        for (k, v) in fields {
            let number = |s: &str| s.parse::<u64>().map_or_else(|_| json!(s), |n| json!(n));
            let value = if *k == "moves" {
                Value::Array(v.split(',').map(number).collect())
            } else {
                number(v)
            };
            object.insert((*k).to_string(), value);
        }
        builder
            .uri(path)
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(Value::Object(object).to_string()))
            .unwrap()
    } else {
        let query = serde_urlencoded::to_string(fields).unwrap();
        builder
            .uri(format!("{path}?{query}"))
            .body(Body::empty())
            .unwrap()
    }
}

/// `answer` against the operation's responses: its status declared, JSON, valid under the
/// declared schema, with the headers declared.
fn answer_problems(doc: &Value, op: &Value, asked: &str, answer: &Answer, out: &mut Vec<String>) {
    let status = answer.status.as_u16().to_string();
    let Some(response) = op["responses"].get(&status).map(|r| deref(doc, r)) else {
        let body = String::from_utf8_lossy(&answer.body);
        out.push(format!("{asked}: answered {status}, not declared ({body})"));
        return;
    };
    let Some(media) = answer.content_type.as_deref() else {
        out.push(format!("{asked}: answered {status} with no content type"));
        return;
    };
    let Some(content) = response["content"].get(media) else {
        out.push(format!(
            "{asked}: answered {status} as {media}, not declared"
        ));
        return;
    };
    let Ok(value) = serde_json::from_slice::<Value>(&answer.body) else {
        out.push(format!(
            "{asked}: answered {status} with a body that is not JSON"
        ));
        return;
    };
    validate(
        doc,
        &content["schema"],
        &value,
        &format!("{asked} {status}"),
        out,
    );
    for (name, declared) in response["headers"].as_object().into_iter().flatten() {
        let have = if name.eq_ignore_ascii_case("retry-after") {
            &answer.retry_after
        } else if name.eq_ignore_ascii_case("location") {
            &answer.location
        } else {
            out.push(format!(
                "{asked}: header {name} is not checked by this test"
            ));
            continue;
        };
        match have {
            None => out.push(format!("{asked}: answered {status} without {name}")),
            Some(text) => {
                let value = text
                    .parse::<u64>()
                    .map_or_else(|_| json!(text), |n| json!(n));
                let at = format!("{asked} {status} header {name}");
                validate(doc, &declared["schema"], &value, &at, out);
            }
        }
    }
}

/// One operation probed: for every known parameter and every game it takes, a request with
/// the operation's required inputs and that parameter valid, and one with it junk. The
/// operation reads a parameter if, for some game, it accepts the valid value (any answer but
/// 400) and refuses the junk one (400); it must read exactly the ones it names. Integers just
/// outside their described range are refused. Every answer is checked as [`answer_problems`].
fn probe_problems(doc: &Value, path: &str, method: &str) -> Vec<String> {
    let mut out = Vec::new();
    let op = operation(doc, path, method);
    let inputs = Inputs::of(doc, op);
    let named = inputs.names();
    let mut ask = |fields: Vec<(&str, String)>| {
        let asked = format!("{method} {path} {fields:?}");
        let answer = send(request(path, method, inputs.body, &fields));
        answer_problems(doc, op, &asked, &answer, &mut out);
        answer.status
    };
    let base = |game: &str, except: &str| -> Vec<(&str, String)> {
        let mut fields: Vec<(&str, String)> = inputs
            .fields
            .iter()
            .filter(|(n, _, required)| *required && n.as_str() != except)
            .map(|(n, _, _)| (n.as_str(), sample(game, n)))
            .collect();
        // The engine's turn kept short.
        if named.contains("ms") && except != "ms" {
            fields.push(("ms", "1".into()));
        }
        fields
    };
    let mut misread = Vec::new();
    for name in granary_server::params::KNOWN {
        let mut read = false;
        for game in inputs.games() {
            let with = |value: String| {
                let mut fields = base(&game, name);
                fields.push((name, value));
                fields
            };
            let valid = ask(with(sample(&game, name)));
            let junk = ask(with(JUNK.into()));
            read |= valid != StatusCode::BAD_REQUEST && junk == StatusCode::BAD_REQUEST;
        }
        if read != named.contains(name) {
            misread.push(if read {
                format!("{method} {path} reads '{name}', which the description does not name")
            } else {
                format!("{method} {path} names '{name}', which it does not read")
            });
        }
    }
    for (name, schema, _) in &inputs.fields {
        let game = &inputs.games()[0];
        let beyond = [
            schema["minimum"].as_i64().map(|m| m - 1),
            schema["maximum"].as_i64().map(|m| m + 1),
        ];
        for value in beyond.into_iter().flatten() {
            let mut fields = base(game, name);
            fields.push((name.as_str(), value.to_string()));
            let status = ask(fields);
            if status != StatusCode::BAD_REQUEST {
                misread.push(format!("{method} {path}: '{name}' {value} is answered {status}, outside the described range"));
            }
        }
    }
    if inputs.body {
        let large = "x".repeat(granary_server::review::MAX_BODY);
        let status = ask(vec![("position", large)]);
        if status != StatusCode::PAYLOAD_TOO_LARGE {
            misread.push(format!(
                "{method} {path}: a body over the limit is answered {status}"
            ));
        }
    }
    out.extend(misread);
    out
}

/// Every operation probed.
fn all_probe_problems(doc: &Value) -> Vec<String> {
    operations(doc)
        .into_iter()
        .filter(|(path, _, _)| !job_path(path))
        .flat_map(|(path, method, _)| probe_problems(doc, &path, &method))
        .collect()
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

#[test]
fn the_description_is_openapi_3_1_with_every_reference_resolved() {
    assert_none(&document_problems(&document()));
}

#[test]
fn the_description_names_every_route_of_the_api_and_no_other() {
    let doc = document();
    assert_none(&route_problems(&doc, &api_routes()));
    assert_none(&routed_problems(&doc));
    // The page is served, outside the description.
    for path in PAGE {
        assert_eq!(bare("get", path).status, StatusCode::OK, "{path}");
    }
}

#[test]
fn parameters_are_the_known_ones_with_the_catalogues_values() {
    assert_none(&parameter_problems(&document()));
}

#[test]
fn every_endpoint_reads_what_it_names_and_answers_as_described() {
    assert_none(&all_probe_problems(&document()));
}

/// A review of Kalah(4,4) after `moves`, asked to answer at once (`Prefer: respond-async`).
fn review_at_once(moves: Value) -> Request<Body> {
    Request::post("/api/v1/review")
        .header(header::CONTENT_TYPE, "application/json")
        .header("Prefer", "respond-async")
        .body(Body::from(
            json!({ "game": "kalah", "pits": 4, "moves": moves }).to_string(),
        ))
        .unwrap()
}

/// A job's life against the description: a review of `moves` (a game no other check asks
/// for, so that it is a job) started as a job (202, `Location`), its reports followed to the
/// end, a cancel, and the job's faults (404, 400), each answer as its operation declares.
fn job_problems(doc: &Value, moves: Value) -> Vec<String> {
    let mut out = Vec::new();
    let review = operation(doc, "/api/v1/review", "post");
    let get = operation(doc, "/api/v1/jobs/{id}", "get");
    let delete = operation(doc, "/api/v1/jobs/{id}", "delete");
    let started = send(review_at_once(moves));
    answer_problems(doc, review, "post review", &started, &mut out);
    if started.status != StatusCode::ACCEPTED {
        out.push(format!(
            "a review asked at once answered {}",
            started.status
        ));
        return out;
    }
    let location = started.location.clone().unwrap_or_default();
    let mut report: Value = serde_json::from_slice(&started.body).unwrap_or_default();
    while !matches!(
        report["state"].as_str(),
        Some("done" | "failed" | "cancelled") | None
    ) {
        let asked = format!("{location}?since={}", report["version"]);
        let answer = bare("get", &asked);
        answer_problems(doc, get, &asked, &answer, &mut out);
        report = serde_json::from_slice(&answer.body).unwrap_or_default();
    }
    if report["state"] != "done" {
        out.push(format!("the job ended {}", report["state"]));
    }
    answer_problems(doc, delete, "delete", &bare("delete", &location), &mut out);
    for (asked, op) in [
        ("/api/v1/jobs/0".to_string(), get),
        (format!("{location}?since=x"), get),
    ] {
        answer_problems(doc, op, &asked, &bare("get", &asked), &mut out);
    }
    answer_problems(
        doc,
        delete,
        "delete 0",
        &bare("delete", "/api/v1/jobs/0"),
        &mut out,
    );
    out
}

#[test]
fn job_answers_are_as_described() {
    assert_none(&job_problems(&document(), json!([1, 4, 2, 3, 1, 2, 4, 3])));
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

/// `doc` with `edit` applied at the JSON pointer `at`.
fn broken(at: &str, edit: impl FnOnce(&mut Value)) -> Value {
    let mut doc = document();
    edit(
        doc.pointer_mut(at)
            .unwrap_or_else(|| panic!("{at} is not in the description")),
    );
    doc
}

fn remove(key: &'static str) -> impl FnOnce(&mut Value) {
    move |v| {
        v.as_object_mut()
            .unwrap()
            .remove(key)
            .unwrap_or_else(|| panic!("no {key} to remove"));
    }
}

/// The JSON pointer of the operation's query parameter `name`.
fn parameter(doc: &Value, path: &str, method: &str, name: &str) -> String {
    let params = operation(doc, path, method)["parameters"]
        .as_array()
        .unwrap();
    let i = params
        .iter()
        .position(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("{method} {path} has no parameter {name}"));
    format!(
        "/paths/{}/{method}/parameters/{i}",
        path.replace('~', "~0").replace('/', "~1")
    )
}

/// Asserts that `problems` has one naming `needle`: the check caught `what` for its reason.
fn caught(what: &str, needle: &str, problems: &[String]) {
    assert!(
        problems.iter().any(|p| p.contains(needle)),
        "not caught: {what} (no problem names '{needle}'):\n{}",
        problems.join("\n")
    );
}

#[test]
fn each_check_catches_a_broken_description() {
    let routes = api_routes();
    let doc = document();
    // The document's shape.
    let broken_doc = broken("/openapi", |v| *v = json!("3.0.3"));
    caught("OpenAPI 3.0", "not 3.1", &document_problems(&broken_doc));
    let broken_doc = broken("/paths/~1api~1v1~1show/get", remove("responses"));
    caught(
        "no responses",
        "show: no responses",
        &document_problems(&broken_doc),
    );
    let broken_doc = broken(
        "/paths/~1api~1v1~1query/get/responses/503/headers",
        remove("Retry-After"),
    );
    caught(
        "a 503 without Retry-After",
        "query 503: no Retry-After",
        &document_problems(&broken_doc),
    );
    let broken_doc = broken(
        "/paths/~1api~1v1~1tables/get/responses/400/content/application~1json/schema",
        |v| *v = json!({ "type": "string" }),
    );
    caught(
        "an error of another shape",
        "tables 400: not an {\"error\"} answer",
        &document_problems(&broken_doc),
    );
    let broken_doc = broken("/components/schemas", remove("Ply"));
    caught(
        "a dangling $ref",
        "Ply\" does not resolve",
        &document_problems(&broken_doc),
    );
    let broken_doc = broken("/components/schemas/Error/properties/error", |v| {
        v["type"] = json!(42);
    });
    caught(
        "a schema that is not one",
        "does not compile",
        &document_problems(&broken_doc),
    );
    let broken_doc = broken("/components/schemas/Error", |v| {
        v["description"] = json!("An error ([`crate::error::ApiError`]).");
    });
    caught(
        "a Rust doc link in a description",
        "carries a Rust doc link",
        &document_problems(&broken_doc),
    );
    // The routes, both ways.
    let broken_doc = broken("/paths", remove("/api/v1/tables"));
    let problems = route_problems(&broken_doc, &routes);
    caught(
        "a route left out",
        "get /api/v1/tables is routed",
        &problems,
    );
    let broken_doc = broken("/paths", |v| {
        v["/api/v1/nothing"] = v["/api/v1/variants"].clone();
    });
    let problems = route_problems(&broken_doc, &routes);
    caught(
        "a path not routed",
        "/api/v1/nothing is described",
        &problems,
    );
    let problems = routed_problems(&broken_doc);
    caught(
        "a path not routed, asked",
        "nothing is described but answered 404",
        &problems,
    );
    let broken_doc = broken("/paths/~1api~1v1~1query", |v| v["put"] = v["get"].clone());
    let problems = route_problems(&broken_doc, &routes);
    caught(
        "a method not routed",
        "put /api/v1/query is described",
        &problems,
    );
    let problems = routed_problems(&broken_doc);
    caught(
        "a method not routed, asked",
        "query is described but answered 405",
        &problems,
    );
    let broken_doc = broken("/paths/~1api~1v1~1review", remove("post"));
    let problems = routed_problems(&broken_doc);
    caught(
        "a method left out, asked",
        "review is not described but answered 400",
        &problems,
    );
    let broken_doc = broken("/paths", |v| v["/"] = v["/api/v1/variants"].clone());
    let problems = route_problems(&broken_doc, &routes);
    caught(
        "the page described",
        "get / is described but is not part of the API",
        &problems,
    );
    // The parameters against the server's and the catalogue's.
    let sweep = parameter(&doc, "/api/v1/query", "get", "sweep");
    let broken_doc = broken(&sweep, |v| v["name"] = json!("colour"));
    caught(
        "an unknown parameter",
        "'colour' is not a parameter the server knows",
        &parameter_problems(&broken_doc),
    );
    let rules = parameter(&doc, "/api/v1/query", "get", "rules");
    let broken_doc = broken(&format!("{rules}/schema/enum"), |v| {
        v.as_array_mut().unwrap().pop();
    });
    caught(
        "a rule set left out",
        "'rules' lists",
        &parameter_problems(&broken_doc),
    );
    let pits = parameter(&doc, "/api/v1/show", "get", "pits");
    let broken_doc = broken(&format!("{pits}/schema"), |v| v["default"] = json!(4));
    caught(
        "a wrong default",
        "'pits' default",
        &parameter_problems(&broken_doc),
    );
    // `ms`, left out of both endpoints that take it.
    let mut broken_doc = doc.clone();
    for path in ["/api/v1/bao/move", "/api/v1/query"] {
        let ms = parameter(&broken_doc, path, "get", "ms");
        let at: usize = ms.rsplit('/').next().unwrap().parse().unwrap();
        let (list, _) = ms.rsplit_once('/').unwrap();
        broken_doc
            .pointer_mut(list)
            .unwrap()
            .as_array_mut()
            .unwrap()
            .remove(at);
    }
    caught(
        "a parameter named nowhere",
        "'ms' is known to the server but",
        &parameter_problems(&broken_doc),
    );
    let body = "/paths/~1api~1v1~1review/post/requestBody/content/application~1json/schema";
    let broken_doc = broken(&format!("{body}/properties/moves"), |v| {
        v["maxItems"] = json!(10);
    });
    caught(
        "a wrong limit of moves",
        "moves at most",
        &parameter_problems(&broken_doc),
    );
    // The parameters each endpoint reads, probed.
    let broken_doc = broken("/paths/~1api~1v1~1query/get/parameters", |v| {
        v.as_array_mut().unwrap().retain(|p| p["name"] != "sweep");
    });
    caught(
        "a parameter read, not named",
        "query reads 'sweep'",
        &probe_problems(&broken_doc, "/api/v1/query", "get"),
    );
    let ms = parameter(&doc, "/api/v1/bao/move", "get", "ms");
    let broken_doc = broken("/paths/~1api~1v1~1show/get/parameters", |v| {
        let ms = doc.pointer(&ms).unwrap().clone();
        v.as_array_mut().unwrap().push(ms);
    });
    caught(
        "a parameter named, not read",
        "show names 'ms'",
        &probe_problems(&broken_doc, "/api/v1/show", "get"),
    );
    let broken_doc = broken(&format!("{ms}/schema"), |v| v["minimum"] = json!(2));
    caught(
        "a narrower range",
        "'ms' 1 is answered 200",
        &probe_problems(&broken_doc, "/api/v1/bao/move", "get"),
    );
    // The answers against their schemas and statuses.
    let broken_doc = broken(
        "/components/schemas/QueryAnswer/properties",
        remove("margin"),
    );
    // An exact answer with a field its schema lacks fits neither kind of answer.
    caught(
        "a field not described",
        "is not valid under any of the schemas listed in the 'anyOf'",
        &probe_problems(&broken_doc, "/api/v1/query", "get"),
    );
    let broken_doc = broken("/components/schemas/SideSummary/properties/lost", |v| {
        v["type"] = json!("string");
    });
    caught(
        "a field of another type",
        "is not of type \"string\"",
        &probe_problems(&broken_doc, "/api/v1/review", "post"),
    );
    let broken_doc = broken("/components/schemas/Ply/oneOf/1/required", |v| {
        v.as_array_mut().unwrap().push(json!("value"));
    });
    caught(
        "a ply that fits no schema",
        "oneOf",
        &probe_problems(&broken_doc, "/api/v1/review", "post"),
    );
    let broken_doc = broken("/paths/~1api~1v1~1query/get/responses", remove("400"));
    caught(
        "a status not declared",
        "answered 400, not declared",
        &probe_problems(&broken_doc, "/api/v1/query", "get"),
    );
    let broken_doc = broken("/paths/~1api~1v1~1review/post/responses", remove("413"));
    caught(
        "a body too large",
        "answered 413, not declared",
        &probe_problems(&broken_doc, "/api/v1/review", "post"),
    );
    let broken_doc = broken("/components/schemas/Error", |v| {
        v["required"] = json!(["error", "why"]);
    });
    caught(
        "an error body of another shape",
        "\"why\" is a required property",
        &probe_problems(&broken_doc, "/api/v1/tables", "get"),
    );
    // A job's answers.
    let broken_doc = broken("/components/schemas/Job/properties", remove("version"));
    caught(
        "a job's field not described",
        "'version' was unexpected",
        &job_problems(&broken_doc, json!([1, 4, 2, 3, 1, 2])),
    );
    // A game of its own, so that its review is still a job (202, with `Location`).
    let started = send(review_at_once(json!([1, 4, 2, 3, 1, 2, 4])));
    assert_eq!(started.status, StatusCode::ACCEPTED);
    let mut problems = Vec::new();
    let broken_doc = broken(
        "/paths/~1api~1v1~1review/post/responses/202/headers/Location/schema",
        |v| v["type"] = json!("integer"),
    );
    answer_problems(
        &broken_doc,
        operation(&broken_doc, "/api/v1/review", "post"),
        "review",
        &started,
        &mut problems,
    );
    caught("a header of another type", "header Location", &problems);
}
