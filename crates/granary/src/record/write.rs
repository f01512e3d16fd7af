//! A record written out, and a review written back into one.
//!
//! ```text
//! [Game "kalah"]                 the tags, one a line, in the record's order
//! [Rules "standard"]
//! {a comment of the game}        the game's comments, one a line
//!                                a blank line
//! S3 S6 N1? {a comment} N4 S2    the moves, each with its mark and comments, in lines of at
//!                                most 80 characters where the moves allow
//! ```

use std::fmt;

use granary_rules::Side;

use super::{GameRecord, Mark, RecordMove};
use crate::review::{Review, Verdict};

/// Lines of moves are broken before this width where they can be.
const WIDTH: usize = 80;

/// What a review's comments start with; a review written back replaces those comments.
pub const REVIEW_PREFIX: &str = "review: ";

/// `text` between `open` and `close`, `close` and `\` escaped with a backslash.
fn escaped(text: &str, open: char, close: char) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push(open);
    for ch in text.chars() {
        if ch == close || ch == '\\' {
            out.push('\\');
        }
        out.push(ch);
    }
    out.push(close);
    out
}

/// A tag's value between quotes.
fn quoted(value: &str) -> String {
    escaped(value, '"', '"')
}

/// A comment between braces.
fn braced(text: &str) -> String {
    escaped(text, '{', '}')
}

impl RecordMove {
    /// The move as written: side letter (Kalah, Oware; Bao's case names the side), move, mark,
    /// comments.
    fn written(&self) -> String {
        let mut out = match &self.mv {
            crate::game::GameMove::Pit(pit) => format!("{}{pit}", self.side.letter()),
            crate::game::GameMove::Bao(text) => text.clone(),
        };
        if let Some(mark) = self.mark {
            out += mark.text();
        }
        for comment in &self.comments {
            out.push(' ');
            out += &braced(comment);
        }
        out
    }
}

impl fmt::Display for GameRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (tag, value) in &self.tags {
            writeln!(f, "[{} {}]", tag.name(), quoted(value))?;
        }
        for comment in &self.comments {
            writeln!(f, "{}", braced(comment))?;
        }
        if self.moves.is_empty() {
            return Ok(());
        }
        writeln!(f)?;
        let mut line = String::new();
        for mv in &self.moves {
            let written = mv.written();
            if !line.is_empty() && line.chars().count() + 1 + written.chars().count() > WIDTH {
                writeln!(f, "{line}")?;
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line += &written;
        }
        writeln!(f, "{line}")
    }
}

impl GameRecord {
    /// The record with `review` (of this record's moves) written back: each move's comment
    /// `review: ...` (its value, the value of the move played, the loss, the best moves, and
    /// where the result changed; or the engine's estimates, and why there is no value), and the
    /// sides' summaries in a comment of the game. Earlier review comments are replaced; the
    /// player's comments are kept.
    ///
    /// Marks: on a ply with exact values the review judges the move ([`Exact::mark`]): its
    /// mark (`??`, `?`) replaces the player's, and where it has none the player's `?` or `??`
    /// (a review's words) goes and any other mark stays. A ply with no exact value (estimated,
    /// beyond, every ply of Bao) keeps the player's mark, whatever it is. Moves past the
    /// review's last ply are left as they are.
    ///
    /// [`Exact::mark`]: crate::review::Exact::mark
    #[must_use]
    pub fn with_review(&self, review: &Review) -> GameRecord {
        let mut out = self.clone();
        let own = |c: &String| !c.starts_with(REVIEW_PREFIX);
        out.comments.retain(own);
        out.comments
            .push(format!("{REVIEW_PREFIX}{}", summary(review)));
        for (mv, ply) in out.moves.iter_mut().zip(&review.plies) {
            mv.comments.retain(own);
            let comment = match &ply.verdict {
                Verdict::Exact(e) => {
                    mv.mark = match e.mark() {
                        Some(mark) => Some(mark),
                        None if matches!(mv.mark, Some(Mark::Mistake | Mark::Blunder)) => None,
                        None => mv.mark,
                    };
                    let best: Vec<String> = e.best.iter().map(ToString::to_string).collect();
                    let mut text = format!(
                        "value {:+}, played {:+}, loss {}, best {}",
                        e.value,
                        e.played,
                        e.loss,
                        best.join(" ")
                    );
                    if e.changed {
                        text += &format!(", {} to {}", e.result, e.result_after);
                    }
                    text
                }
                Verdict::Estimated(e) => format!("{e}; no exact value: {}", e.reason),
                Verdict::Beyond { reason } => format!("no exact value: {reason}"),
            };
            mv.comments.push(format!("{REVIEW_PREFIX}{comment}"));
        }
        out
    }
}

/// The review's sides in one line.
fn summary(review: &Review) -> String {
    let tables = review
        .tables
        .as_deref()
        .map_or("no tables".to_string(), |t| format!("{t} tables"));
    let sides: Vec<String> = [Side::South, Side::North]
        .iter()
        .zip(&review.sides)
        .map(|(side, summary)| format!("{}: {summary}", side.name()))
        .collect();
    format!("{tables}; {}", sides.join(" | "))
}
