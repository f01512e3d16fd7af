//! `granary-retrograde`'s integration tests in one binary (compiled and linked once): a module a concern.

mod against_reference;
mod budget;
mod deterministic;
mod kalah_negamax;
mod ranks;
