//! `granary-rules`'s integration tests in one binary (compiled and linked once): a module a concern.

mod examples;
mod notation_roundtrip;
mod perft;
mod reference_vs_packed;

/// A property test's configuration: `cases` cases, sized for the test loop, or `PROPTEST_CASES`
/// where it is set, for a long run (`PROPTEST_CASES=100000 cargo test --profile ci -p ...`).
fn cases(cases: u32) -> proptest::test_runner::Config {
    let mut config = proptest::test_runner::Config::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = cases;
    }
    config
}
