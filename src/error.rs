//! The library's errors, typed: what kind of thing failed and where, so that the commands
//! can choose their exit code and message and the proof checker can name its failing step.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Data given to the library that breaks its rules: a CSV file that does not parse, an
    /// army or a play that is not legal, a proof file that is not one.
    #[error("{0}")]
    Input(String),
    /// A file that cannot be read or written.
    #[error("cannot {action} {}: {source}", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A computation beyond the program's built-in limits (a pagoda window, a budget).
    #[error("{0}")]
    Limit(String),
    /// A solver failed, or ended in a state it should not.
    #[error("{0}")]
    Solver(String),
    /// Two solvers disagree on the same integer program: nothing built on it can be trusted.
    #[error("{0}")]
    Disagreement(String),
    /// A step of a proof does not hold.
    #[error(transparent)]
    Proof(#[from] CheckError),
}

impl Error {
    pub fn io(action: &'static str, path: impl Into<PathBuf>, source: std::io::Error) -> Error {
        Error::Io {
            action,
            path: path.into(),
            source,
        }
    }
}

pub type Result<T> = std::result::Result<T, Error>;

/// Code that still speaks in messages takes a typed error as its message.
impl From<Error> for String {
    fn from(e: Error) -> String {
        e.to_string()
    }
}

/// The first step of a proof that failed, as the checker ([`crate::proof::check`]) names it.
/// It lives here, at the bottom of the house, so that every layer's [`Error`] can carry it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckError {
    pub step: usize,
    pub context: String,
    pub message: String,
}

impl std::error::Error for CheckError {}

impl std::fmt::Display for CheckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "step {} ({}): {}", self.step, self.context, self.message)
    }
}
