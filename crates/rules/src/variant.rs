//! A game with its options and board size: what the command line names and tables record.

use std::fmt;

use crate::board::{Board, MAX_PITS, MAX_SEEDS};
use crate::kalah::{Capture, Kalah, Sweep};
use crate::oware::{Oware, OwareRules};
use crate::pits::COMPILED_PITS;
use crate::position::Position;
use crate::rules::{MoveSet, Outcome, Rules};

/// A game and its rule options.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Game {
    Kalah { capture: Capture, sweep: Sweep },
    Oware { rules: OwareRules },
}

impl Game {
    /// The game's name on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Game::Kalah { .. } => "kalah",
            Game::Oware { .. } => "oware",
        }
    }

    /// The rule options as `key=value` words.
    #[must_use]
    pub fn options(self) -> String {
        match self {
            Game::Kalah { capture, sweep } => {
                format!("capture={} sweep={}", capture.name(), sweep.name())
            }
            Game::Oware { rules } => format!("rules={}", rules.name()),
        }
    }
}

impl Capture {
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Capture::Empty => "empty",
            Capture::Standard => "standard",
        }
    }
}

impl Sweep {
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Sweep::Owner => "owner",
            Sweep::Emptied => "emptied",
        }
    }
}

impl OwareRules {
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            OwareRules::Abapa => "abapa",
            OwareRules::Awari => "awari",
        }
    }
}

/// An option name that is not one of the game's.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("'{given}' is not a {what}: use {}", .choices.join(" or "))]
pub struct OptionError {
    pub given: String,
    pub what: &'static str,
    pub choices: Vec<&'static str>,
}

/// Gives an option enum `ALL` (default first) and a `FromStr` by its `name()`, failing with an
/// [`OptionError`] that lists the choices. Used by every game's options, also outside this crate.
#[macro_export]
macro_rules! named_option {
    ($t:ty, $what:literal, [$($v:expr),+]) => {
        impl $t {
            /// Every value, the default first.
            pub const ALL: &'static [$t] = &[$($v),+];
        }
        impl std::str::FromStr for $t {
            type Err = $crate::OptionError;
            fn from_str(s: &str) -> Result<Self, $crate::OptionError> {
                Self::ALL.iter().copied().find(|v| v.name() == s).ok_or_else(|| $crate::OptionError {
                    given: s.to_string(),
                    what: $what,
                    choices: Self::ALL.iter().map(|v| v.name()).collect(),
                })
            }
        }
    };
}

named_option!(
    Capture,
    "kalah capture rule",
    [Capture::Empty, Capture::Standard]
);
named_option!(Sweep, "kalah sweep rule", [Sweep::Owner, Sweep::Emptied]);
named_option!(
    OwareRules,
    "oware rule set",
    [OwareRules::Abapa, OwareRules::Awari]
);

/// A game, its pits a side and its seeds a pit at the start.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Variant {
    pub game: Game,
    pub pits: usize,
    pub seeds: u8,
}

/// Pits a side that no board has: outside `1..=MAX_PITS` ([`checked_pits`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
#[error("pits {0} is out of range: a side has 1 to {MAX_PITS} pits")]
pub struct PitsError(pub usize);

/// `pits` a side if a board has them (`1..=MAX_PITS`): the one check of a game's size, made by
/// [`Variant::new`] and by a table kind's constructor.
///
/// # Errors
/// [`PitsError`] naming `pits` outside that range.
pub fn checked_pits(pits: usize) -> Result<usize, PitsError> {
    if (1..=MAX_PITS).contains(&pits) {
        Ok(pits)
    } else {
        Err(PitsError(pits))
    }
}

/// Why a variant cannot be played.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum VariantError {
    #[error(transparent)]
    Pits(#[from] PitsError),
    #[error(
        "--seeds {seeds} with {pits} pits a side makes {total} seeds; the packed encoding holds at most {MAX_SEEDS}"
    )]
    Seeds { pits: usize, seeds: u32, total: u32 },
}

impl Variant {
    /// Checks the sizes against the packed encoding.
    ///
    /// # Errors
    /// If `pits` is not in `1..=8` ([`checked_pits`]) or the start position holds more than
    /// 255 seeds.
    pub fn new(game: Game, pits: usize, seeds: u32) -> Result<Variant, VariantError> {
        let pits = checked_pits(pits)?;
        // Saturating: a huge --seeds must not wrap to a small total (found by fuzzing).
        let total = (2 * pits as u32).saturating_mul(seeds);
        if total > MAX_SEEDS {
            return Err(VariantError::Seeds { pits, seeds, total });
        }
        Ok(Variant {
            game,
            pits,
            seeds: seeds as u8,
        })
    }

    /// The start position.
    #[must_use]
    pub fn start(&self) -> Position {
        Position::start(self.pits, self.seeds)
    }

    /// The rules, ready to play (Oware with the majority rule of play).
    #[must_use]
    pub fn engine(&self) -> Engine {
        match self.game {
            Game::Kalah { capture, sweep } => Engine::Kalah(Kalah::new(self.pits, capture, sweep)),
            Game::Oware { rules } => Engine::Oware(Oware::new(self.pits, rules)),
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let title = match self.game {
            Game::Kalah { .. } => "Kalah",
            Game::Oware { .. } => "Oware",
        };
        write!(
            f,
            "{title}({},{}) {}",
            self.pits,
            self.seeds,
            self.game.options()
        )
    }
}

/// The rules of any two-row game, for code that does not need to be generic.
#[derive(Clone, Debug)]
pub enum Engine {
    Kalah(Kalah),
    Oware(Oware),
}

/// Code generic over the rules, run by [`Engine::visit`] with the engine's own rules type.
pub trait RulesVisitor {
    type Output;
    /// Runs with `rules`.
    fn visit<R: Rules>(self, rules: &R) -> Self::Output;
}

impl Engine {
    /// Runs `visitor` with this engine's rules as their own type, not through the enum: with
    /// 6 pits a side as a constant where the board has 6 (`Kalah::with_const_pits`), so that
    /// a builder's inner loops are compiled for that board ([`crate::pits`]).
    pub fn visit<V: RulesVisitor>(&self, visitor: V) -> V::Output {
        match self {
            Engine::Kalah(r) => match r.with_const_pits::<COMPILED_PITS>() {
                Some(six) => visitor.visit(&six),
                None => visitor.visit(r),
            },
            Engine::Oware(r) => match r.with_const_pits::<COMPILED_PITS>() {
                Some(six) => visitor.visit(&six),
                None => visitor.visit(r),
            },
        }
    }
}

impl Rules for Engine {
    fn pits(&self) -> usize {
        match self {
            Engine::Kalah(r) => r.pits(),
            Engine::Oware(r) => r.pits(),
        }
    }

    fn legal_moves(&self, pos: &Position) -> MoveSet {
        match self {
            Engine::Kalah(r) => r.legal_moves(pos),
            Engine::Oware(r) => r.legal_moves(pos),
        }
    }

    fn is_legal(&self, pos: &Position, lane: usize) -> bool {
        match self {
            Engine::Kalah(r) => r.is_legal(pos, lane),
            Engine::Oware(r) => r.is_legal(pos, lane),
        }
    }

    fn play(&self, pos: &Position, lane: usize) -> Position {
        match self {
            Engine::Kalah(r) => r.play(pos, lane),
            Engine::Oware(r) => r.play(pos, lane),
        }
    }

    fn play_if_legal(&self, pos: &Position, lane: usize) -> Option<Position> {
        match self {
            Engine::Kalah(r) => r.play_if_legal(pos, lane),
            Engine::Oware(r) => r.play_if_legal(pos, lane),
        }
    }

    fn quiet_sowing(&self, pos: &Position, lane: usize, sown: Board, last: usize) -> Option<bool> {
        match self {
            Engine::Kalah(r) => r.quiet_sowing(pos, lane, sown, last),
            Engine::Oware(r) => r.quiet_sowing(pos, lane, sown, last),
        }
    }

    fn outcome(&self, pos: &Position) -> Option<Outcome> {
        match self {
            Engine::Kalah(r) => r.outcome(pos),
            Engine::Oware(r) => r.outcome(pos),
        }
    }

    fn sow_table(&self) -> &crate::sowing::SowTable {
        match self {
            Engine::Kalah(r) => r.sow_table(),
            Engine::Oware(r) => r.sow_table(),
        }
    }
}
