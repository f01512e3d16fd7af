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
    granary::Error,
    granary::InputError,
    granary::TableError,
    granary::BuildError,
    granary::SolveError,
    std::io::Error,
    serde_json::Error
);

pub type CliResult = Result<(), CliError>;

#[cfg(feature = "mpi")]
from_display!(granary::cluster::ClusterError);
