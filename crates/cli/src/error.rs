//! The command line's one error type: a message for the user, printed once by `main`.

use std::fmt;

/// An error to print as `granary: error: <message>` with exit code 2.
#[derive(Debug)]
pub struct CliError(pub String);

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

macro_rules! from_display {
    ($($t:ty),*) => {$(
        impl From<$t> for CliError {
            fn from(err: $t) -> Self {
                CliError(err.to_string())
            }
        }
    )*};
}

from_display!(
    granary::InputError,
    granary::ReviewError,
    granary::TableError,
    std::io::Error,
    serde_json::Error
);

/// A build error in the command line's words: the library names what is wrong, the command line
/// adds the flag that set it.
impl From<granary::BuildError> for CliError {
    fn from(err: granary::BuildError) -> Self {
        use granary::{BuildError, BuilderError};
        CliError(match &err {
            BuildError::TooManySeeds(n) => format!(
                "--max-seeds {n}: tables hold at most {} seeds on the board",
                granary::MAX_LAYER_SEEDS
            ),
            BuildError::Builder(BuilderError::Threads(e)) => format!("--threads: {e}"),
            _ => err.to_string(),
        })
    }
}

impl From<granary::SolveError> for CliError {
    fn from(err: granary::SolveError) -> Self {
        match err {
            granary::SolveError::Build(e) => e.into(),
            e => CliError(e.to_string()),
        }
    }
}

impl From<granary::Error> for CliError {
    fn from(err: granary::Error) -> Self {
        match err {
            granary::Error::Build(e) => e.into(),
            granary::Error::Solve(e) => e.into(),
            e => CliError(e.to_string()),
        }
    }
}

pub type CliResult = Result<(), CliError>;

#[cfg(feature = "mpi")]
from_display!(granary::cluster::ClusterError);
