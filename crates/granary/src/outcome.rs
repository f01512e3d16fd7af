//! How a value reads for people: the final stores it leads to, win, draw or loss.

use std::fmt;

use granary_rules::Position;
use serde::{Serialize, Serializer};

/// The longest principal variation given.
pub const PV_LIMIT: usize = 400;

/// A number of seeds that may end in a half (an endless game's odd seed split evenly), kept as
/// twice its value. Written `12` or `12.5`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Seeds(pub i64);

impl Seeds {
    /// As a float.
    #[must_use]
    pub fn get(self) -> f64 {
        self.0 as f64 / 2.0
    }
}

impl fmt::Display for Seeds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 % 2 == 0 {
            write!(f, "{}", self.0 / 2)
        } else {
            write!(f, "{}", self.get())
        }
    }
}

impl Serialize for Seeds {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0 % 2 == 0 {
            s.serialize_i64(self.0 / 2)
        } else {
            s.serialize_f64(self.get())
        }
    }
}

/// As [`Seeds`] is written: a number of seeds, whole or ending in a half.
#[cfg(feature = "schema")]
impl schemars::JsonSchema for Seeds {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Seeds".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "number",
            "multipleOf": 0.5,
            "description": "Seeds; a final score may end in a half (an endless game's odd seed split evenly)."
        })
    }
}

/// The final stores `[south, north]` when the mover of `pos` makes `value` of the seeds left.
#[must_use]
pub fn final_stores(pos: &Position, pits: usize, value: i32) -> [Seeds; 2] {
    let n = i64::from(pos.board.seeds(pits));
    let v = i64::from(value);
    let [mover, opponent] = pos.stores.map(i64::from);
    pos.absolute([2 * mover + n + v, 2 * opponent + n - v])
        .map(Seeds)
}

/// How a game ends for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum GameResult {
    Win,
    Draw,
    Loss,
}

impl GameResult {
    /// `win`, `draw` or `loss`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            GameResult::Win => "win",
            GameResult::Draw => "draw",
            GameResult::Loss => "loss",
        }
    }

    /// The result for the player to move of `pos`, by the final stores.
    #[must_use]
    pub fn of(pos: &Position, finals: [Seeds; 2]) -> GameResult {
        let [mine, theirs] = pos.absolute(finals);
        match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => GameResult::Win,
            std::cmp::Ordering::Equal => GameResult::Draw,
            std::cmp::Ordering::Less => GameResult::Loss,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// `win`, `draw` or `loss` for the player to move, by the final stores.
#[must_use]
pub fn result_word(pos: &Position, finals: [Seeds; 2]) -> &'static str {
    GameResult::of(pos, finals).name()
}
