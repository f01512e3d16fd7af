//! A route declared once: its method, its path, its handler and what the API's description says
//! of it ([`Doc`]). A module that serves the API lists its routes as a table of [`Route`]s; the
//! router is built from that table ([`router`]), the API's description too ([`api_router`],
//! [`crate::openapi`]), and the same table says what is served ([`crate::api_routes`]), so the
//! description cannot drift from what the server answers.
//!
//! What the description says of an operation comes from its handler's types (the request
//! structs its extractors read, the answer it returns) and from its [`Doc`]: its id, summary
//! and description, what its answer is, and the failures ([`Failure`]) it answers with
//! ([`describe`]). [`json_response`], [`header`] and [`media`] are the pieces of it that an
//! extractor or an answer describing itself uses.

use std::sync::Arc;

use aide::axum::routing::ApiMethodRouter;
use aide::axum::{ApiRouter, routing};
use aide::generate::GenContext;
use aide::openapi::{
    Header, HeaderStyle, MediaType, ParameterSchemaOrContent, ReferenceOr, Response, SchemaObject,
    StatusCode,
};
use aide::operation::OperationHandler;
use aide::transform::TransformOperation;
use aide::{OperationInput, OperationOutput};
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::handler::Handler;
use axum::http::Method;
use schemars::{JsonSchema, Schema, json_schema};

use crate::State;
use crate::error::{ErrorBody, Failure};

/// What the API's description says of a route, beside what its handler's types say.
#[derive(Clone, Copy, Debug)]
pub struct Doc {
    /// The operation's id.
    pub id: &'static str,
    /// One line on what it does.
    pub summary: &'static str,
    /// More on how, if anything.
    pub description: &'static str,
    /// What its answer (200) is.
    pub answer: &'static str,
    /// The statuses it fails with.
    pub failures: &'static [Failure],
}

/// A method on a path, the handler that answers it, and its operation as the description has
/// it.
pub struct Route {
    pub method: Method,
    pub path: &'static str,
    handler: ApiMethodRouter<Arc<State>>,
}

impl std::fmt::Debug for Route {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.method, self.path)
    }
}

/// The description of an operation: its handler's types, then `doc` ([`describe`]).
fn described(doc: Doc) -> impl FnOnce(TransformOperation<'_>) -> TransformOperation<'_> {
    move |op| describe(op, &doc)
}

impl Route {
    /// `GET path`, answered by `handler`.
    pub fn get<H, T, I, O>(path: &'static str, handler: H, doc: Doc) -> Route
    where
        H: Handler<T, Arc<State>> + OperationHandler<I, O>,
        T: 'static,
        I: OperationInput,
        O: OperationOutput,
    {
        Route {
            method: Method::GET,
            path,
            handler: routing::get_with(handler, described(doc)),
        }
    }

    /// `POST path`, answered by `handler`.
    pub fn post<H, T, I, O>(path: &'static str, handler: H, doc: Doc) -> Route
    where
        H: Handler<T, Arc<State>> + OperationHandler<I, O>,
        T: 'static,
        I: OperationInput,
        O: OperationOutput,
    {
        Route {
            method: Method::POST,
            path,
            handler: routing::post_with(handler, described(doc)),
        }
    }

    /// `DELETE path`, answered by `handler`.
    pub fn delete<H, T, I, O>(path: &'static str, handler: H, doc: Doc) -> Route
    where
        H: Handler<T, Arc<State>> + OperationHandler<I, O>,
        T: 'static,
        I: OperationInput,
        O: OperationOutput,
    {
        Route {
            method: Method::DELETE,
            path,
            handler: routing::delete_with(handler, described(doc)),
        }
    }

    /// The route with its request bodies limited to `bytes` (a larger one is 413).
    #[must_use]
    pub fn body_limit(self, bytes: usize) -> Route {
        Route {
            handler: self.handler.layer(DefaultBodyLimit::max(bytes)),
            ..self
        }
    }
}

/// The routes with their operations, for the description (routes on one path share it, each
/// with its method).
pub fn api_router(routes: Vec<Route>) -> ApiRouter<Arc<State>> {
    routes.into_iter().fold(ApiRouter::new(), |router, r| {
        router.api_route(r.path, r.handler)
    })
}

/// A router serving exactly `routes` (routes on one path share it, each with its method).
pub fn router(routes: Vec<Route>) -> Router<Arc<State>> {
    routes.into_iter().fold(Router::new(), |router, r| {
        router.route(r.path, axum::routing::MethodRouter::from(r.handler))
    })
}

/// `op` described: its id, summary and description, its answer (200) and its failures.
pub(crate) fn describe<'t>(op: TransformOperation<'t>, doc: &Doc) -> TransformOperation<'t> {
    let mut op = op.id(doc.id).summary(doc.summary);
    if !doc.description.is_empty() {
        op = op.description(doc.description);
    }
    let responses = op
        .inner_mut()
        .responses
        .get_or_insert_with(Default::default);
    if let Some(ReferenceOr::Item(answer)) = responses.responses.get_mut(&StatusCode::Code(200)) {
        answer.description = doc.answer.into();
    }
    aide::generate::in_context(|ctx| {
        for failure in doc.failures {
            responses.responses.insert(
                StatusCode::Code(failure.status.as_u16()),
                ReferenceOr::Item(failed(ctx, failure)),
            );
        }
    });
    op
}

/// A failure's answer: `{"error": "..."}`, with `Retry-After` if it is 503.
fn failed(ctx: &mut GenContext, failure: &Failure) -> Response {
    let mut response = json_response::<ErrorBody>(ctx, failure.means);
    if failure.status == axum::http::StatusCode::SERVICE_UNAVAILABLE {
        response.headers.insert(
            "Retry-After".into(),
            self::header(
                "Seconds to wait before asking again, at least 1.",
                json_schema!({ "type": "integer", "minimum": 1 }),
            ),
        );
    }
    response
}

/// An answer of `T` as JSON, `description` saying what it is.
pub(crate) fn json_response<T: JsonSchema>(ctx: &mut GenContext, description: &str) -> Response {
    let schema = ctx.schema.subschema_for::<T>();
    Response {
        description: description.into(),
        content: [("application/json".into(), media(schema))]
            .into_iter()
            .collect(),
        ..Response::default()
    }
}

/// A header of `schema`, always sent, `description` saying what it is.
pub(crate) fn header(description: &str, schema: Schema) -> ReferenceOr<Header> {
    ReferenceOr::Item(Header {
        description: Some(description.into()),
        style: HeaderStyle::Simple,
        required: true,
        deprecated: None,
        format: ParameterSchemaOrContent::Schema(SchemaObject {
            json_schema: schema,
            example: None,
            external_docs: None,
        }),
        example: None,
        examples: Default::default(),
        extensions: Default::default(),
    })
}

/// A body of `schema`.
pub(crate) fn media(schema: Schema) -> MediaType {
    MediaType {
        schema: Some(SchemaObject {
            json_schema: schema,
            example: None,
            external_docs: None,
        }),
        ..MediaType::default()
    }
}
