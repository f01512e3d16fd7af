//! `granary-tables`'s integration tests in one binary (compiled and linked once): a module a concern.

mod header;
