//! `granary-server`'s integration tests in one binary (compiled and linked once): a module a concern.

mod api;
mod jobs;
mod openapi;
