//! A route declared once: its method, its path and its handler. A module that serves the API
//! lists its routes as a table of [`Route`]s; the router is built from that table
//! ([`router`]), and the same table says what is served ([`crate::api_routes`]), so the list
//! the API's description is checked against cannot drift from what the server answers.

use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::handler::Handler;
use axum::http::Method;
use axum::routing::{MethodRouter, delete, get, post};

use crate::State;

/// A method on a path, and the handler that answers it.
#[derive(Debug)]
pub struct Route {
    pub method: Method,
    pub path: &'static str,
    handler: MethodRouter<Arc<State>>,
}

impl Route {
    /// `GET path`, answered by `handler`.
    pub fn get<H: Handler<T, Arc<State>>, T: 'static>(path: &'static str, handler: H) -> Route {
        Route {
            method: Method::GET,
            path,
            handler: get(handler),
        }
    }

    /// `POST path`, answered by `handler`.
    pub fn post<H: Handler<T, Arc<State>>, T: 'static>(path: &'static str, handler: H) -> Route {
        Route {
            method: Method::POST,
            path,
            handler: post(handler),
        }
    }

    /// `DELETE path`, answered by `handler`.
    pub fn delete<H: Handler<T, Arc<State>>, T: 'static>(path: &'static str, handler: H) -> Route {
        Route {
            method: Method::DELETE,
            path,
            handler: delete(handler),
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

/// A router serving exactly `routes` (routes on one path share it, each with its method).
pub fn router(routes: Vec<Route>) -> Router<Arc<State>> {
    routes
        .into_iter()
        .fold(Router::new(), |router, r| router.route(r.path, r.handler))
}
