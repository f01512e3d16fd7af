//! `granary-bao`'s integration tests in one binary (compiled and linked once): a module a concern,
//! with the helpers they share in `common`.

mod common;

mod endless;
mod kiba;
mod notation_roundtrip;
mod perft;
mod pns;
mod random_games;
mod reference_vs_engine;
