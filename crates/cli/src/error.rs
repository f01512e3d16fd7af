//! The command line's one error type: a message for the user, printed once by `main`, and the
//! exit code that goes with it.

use std::fmt;
use std::process::ExitCode;

/// Why a command did not succeed, printed once by `main` ([`CliError::line`]).
#[derive(Debug)]
pub enum CliError {
    /// An error: `granary: error: <message>`, exit code 2.
    Failed(String),
    /// The user stopped the command (Ctrl-C) before it finished: `granary: <message>`, exit
    /// code 130 (128 + SIGINT, as a shell reports a process the signal ended).
    Interrupted(String),
}

impl CliError {
    /// The line `main` prints on stderr.
    pub fn line(&self) -> String {
        match self {
            CliError::Failed(message) => format!("granary: error: {message}"),
            CliError::Interrupted(message) => format!("granary: {message}"),
        }
    }

    /// The process's exit code.
    pub fn exit_code(&self) -> ExitCode {
        match self {
            CliError::Failed(_) => ExitCode::from(2),
            CliError::Interrupted(_) => ExitCode::from(130),
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Failed(message) | CliError::Interrupted(message) => f.write_str(message),
        }
    }
}

macro_rules! from_display {
    ($($t:ty),*) => {$(
        impl From<$t> for CliError {
            fn from(err: $t) -> Self {
                CliError::Failed(err.to_string())
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
        CliError::Failed(match &err {
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
            e => CliError::Failed(e.to_string()),
        }
    }
}

impl From<granary::Error> for CliError {
    fn from(err: granary::Error) -> Self {
        match err {
            granary::Error::Build(e) => e.into(),
            granary::Error::Solve(e) => e.into(),
            e => CliError::Failed(e.to_string()),
        }
    }
}

pub type CliResult = Result<(), CliError>;

#[cfg(feature = "mpi")]
from_display!(granary::cluster::ClusterError);
