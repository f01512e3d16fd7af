//! The API's description: OpenAPI 3.1, generated from the handlers' types (`aide`, with
//! `schemars`'s JSON Schemas, draft 2020-12) once ([`document`]), and served at
//! `GET /api/v1/openapi.json` (`application/json`).
//!
//! The contract: the description names every route of [`crate::api_routes`] with its method,
//! and no other (the page at `/` is not part of the API), as it is generated from the same
//! table ([`crate::route`]); for each endpoint, the parameters it reads (its request struct's
//! fields, [`crate::params`], with the values the catalogue allows), its request body, its
//! answer's schema (the type it answers with), and every status it answers with (its route's
//! [`Doc`]), errors being [`crate::error::ApiError`]'s `{"error": "..."}` and 503 with
//! `Retry-After`. Every object an answer holds is closed (`unevaluatedProperties: false`, on the
//! object that holds any flattened into it): an answer has exactly the fields described. The server's tests check it against the router
//! both ways and against the answers themselves.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use aide::generate::GenContext;
use aide::openapi::{Info, OpenApi, Response};
use axum::http::header;
use axum::response::IntoResponse;
use schemars::generate::SchemaSettings;
use schemars::json_schema;
use serde_json::Value;

use crate::route::{self, Doc, Route, media};

/// The description's route ([`crate::route`]).
pub fn routes() -> Vec<Route> {
    vec![Route::get(
        "/api/v1/openapi.json",
        description,
        Doc {
            id: "openapi",
            summary: "This description.",
            description: "Takes no parameters; generated from the server's handlers.",
            answer: "The API's description, OpenAPI 3.1.",
            failures: &[],
        },
    )]
}

/// The description, generated once.
pub fn document() -> &'static Value {
    static DOCUMENT: OnceLock<Value> = OnceLock::new();
    DOCUMENT.get_or_init(generate)
}

/// The description as served: [`document`] written out.
pub fn text() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| document().to_string())
}

/// The description generated from [`crate::api_routes`], each object of an answer closed.
fn generate() -> Value {
    aide::generate::in_context(|ctx| {
        ctx.schema = SchemaSettings::draft2020_12()
            .for_serialize()
            .with(|s| {
                s.definitions_path = "#/components/schemas/".into();
                s.inline_subschemas = false;
            })
            .into_generator();
    });
    let mut api = OpenApi {
        info: Info {
            title: "granary".into(),
            version: "1".into(),
            summary: Some(
                "Perfect play in Kalah and Oware from endgame tables and searches, and Bao's \
                 engine."
                    .into(),
            ),
            description: Some(ABOUT.into()),
            ..Info::default()
        },
        ..OpenApi::default()
    };
    let _ = route::api_router(crate::api_routes()).finish_api(&mut api);
    let mut doc = serde_json::to_value(&api).unwrap_or_default();
    let mut merged = BTreeSet::new();
    merged_into_others(&doc, true, &mut merged);
    if let Some(schemas) = doc
        .pointer_mut("/components/schemas")
        .and_then(Value::as_object_mut)
    {
        for (name, schema) in schemas.iter_mut() {
            close(schema, !merged.contains(name));
        }
    }
    for operation in doc["paths"]
        .as_object_mut()
        .into_iter()
        .flat_map(|paths| paths.values_mut())
        .filter_map(Value::as_object_mut)
        .flat_map(|item| item.values_mut())
    {
        for response in operation["responses"]
            .as_object_mut()
            .into_iter()
            .flat_map(|r| r.values_mut())
        {
            for media in response["content"]
                .as_object_mut()
                .into_iter()
                .flat_map(|c| c.values_mut())
            {
                close(&mut media["schema"], true);
            }
        }
    }
    doc
}

/// The API as a whole.
const ABOUT: &str = "The JSON API of `granary serve`, version 1. Every answer is JSON. Every \
    error is `{\"error\": \"...\"}`, one line naming what is wrong: 400 (the request is wrong), \
    404 (no such path), 413 (a body too large), 422 (the position is beyond what the server \
    answers, in a plain sentence), 503 (a full queue, as many jobs as the server takes, or \
    an answer later than the server's timeout; with `Retry-After`) or 500 (the server's tables \
    are damaged). A long answer (a review, a query whose search outlasts the request) is 202 \
    with a job to follow at `Location`. A method a path does not take is 405. Query parameters are URL-encoded, each one \
    the endpoint takes and given once, at most 1,024 bytes each and 4,096 in all; an empty \
    value counts as not given. Positions and moves are written as `docs/notation.md` writes \
    them.";

/// The schemas (of `#/components/schemas/`) that `value` merges into other objects: referred to
/// from a branch of `oneOf`, `anyOf` or `allOf` under an object with properties (a field
/// flattened into its holder). Closed on their own, they would refuse their holder's fields.
fn merged_into_others(value: &Value, top: bool, out: &mut BTreeSet<String>) {
    match value {
        Value::Object(object) => {
            if !top
                && let Some(name) = object
                    .get("$ref")
                    .and_then(Value::as_str)
                    .and_then(|r| r.strip_prefix("#/components/schemas/"))
            {
                out.insert(name.to_string());
            }
            let has_properties = object.contains_key("properties");
            for (key, sub) in object {
                let branch = matches!(key.as_str(), "oneOf" | "anyOf" | "allOf");
                for sub in sub
                    .as_array()
                    .map_or(std::slice::from_ref(sub), Vec::as_slice)
                {
                    merged_into_others(sub, !(branch && has_properties), out);
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                merged_into_others(item, top, out);
            }
        }
        _ => {}
    }
}

/// Closes every object `schema` describes that is not closed yet: no property beyond those
/// described. A branch of `oneOf`, `anyOf` or `allOf` under an object with properties is left
/// open, its properties counting for the object that holds it (`unevaluatedProperties` sees
/// them); one under a schema without is closed on its own (`top`).
fn close(schema: &mut Value, top: bool) {
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    let has_properties = object.contains_key("properties");
    if top
        && has_properties
        && !object.contains_key("additionalProperties")
        && !object.contains_key("unevaluatedProperties")
    {
        object.insert("unevaluatedProperties".into(), Value::Bool(false));
    }
    for (key, value) in object.iter_mut() {
        match key.as_str() {
            "properties" | "$defs" => {
                for sub in value
                    .as_object_mut()
                    .into_iter()
                    .flat_map(|m| m.values_mut())
                {
                    close(sub, true);
                }
            }
            "items" | "additionalProperties" => close(value, true),
            "oneOf" | "anyOf" | "allOf" | "prefixItems" => {
                for sub in value.as_array_mut().into_iter().flatten() {
                    close(sub, !has_properties);
                }
            }
            _ => {}
        }
    }
}

/// The description as an answer.
#[derive(Debug)]
struct Description;

impl IntoResponse for Description {
    fn into_response(self) -> axum::response::Response {
        ([(header::CONTENT_TYPE, "application/json")], text()).into_response()
    }
}

impl aide::OperationOutput for Description {
    type Inner = Self;

    fn inferred_responses(
        _: &mut GenContext,
        _: &mut aide::openapi::Operation,
    ) -> Vec<(Option<u16>, Response)> {
        let described = media(json_schema!({ "type": "object" }));
        vec![(
            Some(200),
            Response {
                description: String::new(),
                content: [("application/json".into(), described)]
                    .into_iter()
                    .collect(),
                ..Response::default()
            },
        )]
    }
}

async fn description() -> Description {
    Description
}
