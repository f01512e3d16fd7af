//! Each check breaks: the description broken a way at a time, and the check that should
//! notice it names the fault.

use axum::http::StatusCode;
use serde_json::{Value, json};

use super::document::document_problems;
use super::parameters::parameter_problems;
use super::probes::{answer_problems, job_problems, probe_problems, review_at_once};
use super::routes::{route_problems, routed_problems};
use super::{api_routes, document, operation, send};

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

/// The document's shape.
#[test]
fn the_document_check_catches_a_broken_shape() {
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
}

/// The routes, both ways.
#[test]
fn the_route_checks_catch_a_route_left_out_or_not_routed() {
    let routes = api_routes();
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
}

/// The parameters against the server's and the catalogue's.
#[test]
fn the_parameter_check_catches_names_values_and_limits_not_the_servers() {
    let doc = document();
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
}

/// The parameters each endpoint reads, probed.
#[test]
fn the_probe_check_catches_a_parameter_misnamed_or_misread() {
    let doc = document();
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
}

/// The answers against their schemas and statuses.
#[test]
fn the_answer_check_catches_answers_not_as_described() {
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
}

/// A job's answers.
#[test]
fn the_job_check_catches_job_answers_not_as_described() {
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
