//! `granary-cli`'s integration tests in one binary (compiled and linked once): a module a concern,
//! with the helpers they share in `common`.

mod common;

mod bao;
mod build_resume;
mod cli;
mod completions;
mod compress;
mod disk_full;
mod journal;
mod play;
mod review;
mod review_record;
mod tables;
