//! Why a text is not a game record: one line naming the line and the column.

use super::MoveFault;
use crate::error::InputError;

/// A text that is not a record, where it goes wrong (`line 3, column 7: ...`).
#[derive(Debug, thiserror::Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct RecordError {
    /// 1 for the first line.
    pub line: usize,
    /// 1 for the first character of the line (characters, not bytes).
    pub column: usize,
    pub kind: RecordErrorKind,
}

/// What is wrong at a record's line and column.
#[derive(Debug, thiserror::Error)]
pub enum RecordErrorKind {
    /// Text the grammar does not allow there.
    #[error("{0}")]
    Syntax(String),
    #[error("unknown tag '{0}'; known: {known}", known = known_tags())]
    UnknownTag(String),
    #[error("tag {0} is given twice")]
    TagTwice(&'static str),
    #[error("a tag after the first move; tags come before the moves")]
    TagAfterMoves,
    #[error(
        "no Game tag: a record starts with [Game \"kalah\"], [Game \"oware\"] or [Game \"bao\"]"
    )]
    NoGame,
    /// A tag's value the game cannot take (an unknown rule, an option of another game, a
    /// position the options cannot hold).
    #[error("tag {tag}: {source}")]
    Value {
        tag: &'static str,
        #[source]
        source: InputError,
    },
    /// A move that cannot be played where it stands.
    #[error("ply {ply}, '{text}': {source}")]
    Move {
        /// 1 for the first move of the record.
        ply: usize,
        /// The move as written.
        text: String,
        #[source]
        source: MoveFault,
    },
}

/// The tags' names, for the message.
fn known_tags() -> String {
    super::Tag::ALL.map(super::Tag::name).join(", ")
}
