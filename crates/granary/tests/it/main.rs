//! `granary`'s integration tests in one binary (compiled and linked once): a module a concern.

mod choose;
mod modules;
mod query;
mod record;
mod record_errors;
mod review;
mod review_record;
mod worth;
