//! Every endpoint probed: it reads exactly the parameters it names (a valid value accepted, a
//! junk one refused), every status it answers is declared, and every answer, errors and job
//! reports included, is valid under its declared schema.

use std::sync::OnceLock;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use serde_json::{Map, Value, json};

use super::parameters::Inputs;
use super::{
    Answer, JUNK, assert_none, bare, deref, document, job_path, operation, operations, send,
    validate,
};

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
pub(super) fn answer_problems(
    doc: &Value,
    op: &Value,
    asked: &str,
    answer: &Answer,
    out: &mut Vec<String>,
) {
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
pub(super) fn probe_problems(doc: &Value, path: &str, method: &str) -> Vec<String> {
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

#[test]
fn every_endpoint_reads_what_it_names_and_answers_as_described() {
    assert_none(&all_probe_problems(&document()));
}

/// A review of Kalah(4,4) after `moves`, asked to answer at once (`Prefer: respond-async`).
pub(super) fn review_at_once(moves: Value) -> Request<Body> {
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
pub(super) fn job_problems(doc: &Value, moves: Value) -> Vec<String> {
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
