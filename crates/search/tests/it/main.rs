//! `granary-search`'s integration tests in one binary (compiled and linked once): a module a concern,
//! with the helpers they share in `common`.

mod common;

mod engine;
mod journal;
mod remote;
mod solver;
