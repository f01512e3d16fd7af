//! `granary-server`'s integration tests in one binary (compiled and linked once): a module a
//! concern, their shared server and requests in [`common`].

mod api;
mod bao;
mod common;
mod estimates;
mod held;
mod jobs;
mod openapi;
mod page;
mod pools;
mod review;
mod search;
mod tables;
