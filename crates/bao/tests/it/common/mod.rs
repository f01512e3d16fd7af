pub mod reference;
pub mod rng;

/// A property test's configuration: `cases` cases, sized for the test loop, or `PROPTEST_CASES`
/// where it is set, for a long run (`PROPTEST_CASES=100000 cargo test --profile ci -p ...`).
pub fn cases(cases: u32) -> proptest::test_runner::Config {
    let mut config = proptest::test_runner::Config::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = cases;
    }
    config
}
