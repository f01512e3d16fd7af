//! A move's mark ([`Mark`]): a judgement written beside it in a record (`S3?`), and the one a
//! review gives a move with an exact value ([`crate::review::Exact::mark`]). Its own module, for
//! both the record and the review to name.

use serde::{Serialize, Serializer};

/// A move's mark: a judgement written beside it. In JSON as written (`"??"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// `!`
    Good,
    /// `?`: a review marks a move that gave seeds away.
    Mistake,
    /// `!!`
    Brilliant,
    /// `??`: a review marks a move that changed the result.
    Blunder,
    /// `!?`
    Interesting,
    /// `?!`
    Dubious,
}

impl Mark {
    /// Every mark.
    pub const ALL: [Mark; 6] = [
        Mark::Good,
        Mark::Mistake,
        Mark::Brilliant,
        Mark::Blunder,
        Mark::Interesting,
        Mark::Dubious,
    ];

    /// As written.
    #[must_use]
    pub const fn text(self) -> &'static str {
        match self {
            Mark::Good => "!",
            Mark::Mistake => "?",
            Mark::Brilliant => "!!",
            Mark::Blunder => "??",
            Mark::Interesting => "!?",
            Mark::Dubious => "?!",
        }
    }
}

impl Serialize for Mark {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.text())
    }
}
