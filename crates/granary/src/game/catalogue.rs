//! The catalogue: the games, their rule options and their defaults.

use std::fmt;
use std::str::FromStr;

use granary_bao::{NyumbaRule, Start, TakasiaRule, TaxRule};
use granary_rules::{Capture, OwareRules, Sweep};
use serde::Serialize;

use crate::error::InputError;

/// The games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum GameName {
    Kalah,
    Oware,
    Bao,
}

impl GameName {
    /// Every game, in catalogue order.
    pub const ALL: [GameName; 3] = [GameName::Kalah, GameName::Oware, GameName::Bao];

    /// The name users type.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            GameName::Kalah => "kalah",
            GameName::Oware => "oware",
            GameName::Bao => "bao",
        }
    }

    /// One line on what the game is.
    #[must_use]
    pub const fn about(self) -> &'static str {
        match self {
            GameName::Kalah => {
                "Kalah(m,n): sowing through your store, another move there, capture from an own empty pit"
            }
            GameName::Oware => {
                "Oware(m,n): no stores on the path, origin skipped, capture of 2s and 3s going back"
            }
            GameName::Bao => {
                "Bao: 4x8 pits, 64 seeds, relay sowing, captures sown from a kichwa, nyumba, takasia"
            }
        }
    }
}

impl fmt::Display for GameName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GameName {
    type Err = InputError;
    fn from_str(s: &str) -> Result<Self, InputError> {
        GameName::ALL
            .into_iter()
            .find(|g| g.name() == s)
            .ok_or_else(|| InputError::Game(s.to_string()))
    }
}

/// A rule option of a game: its flag (`--rules`) and its values, the default first.
#[derive(Clone, Debug, Serialize)]
pub struct OptionInfo {
    pub game: GameName,
    pub flag: &'static str,
    pub values: Vec<&'static str>,
}

impl OptionInfo {
    /// The option's key without dashes (`rules`), as a URL parameter names it.
    #[must_use]
    pub fn key(&self) -> &'static str {
        self.flag.trim_start_matches('-')
    }

    /// The default value.
    #[must_use]
    pub fn default_value(&self) -> &'static str {
        self.values[0]
    }
}

fn names<T: Copy>(all: &[T], name: fn(T) -> &'static str) -> Vec<&'static str> {
    all.iter().map(|&v| name(v)).collect()
}

/// Every game's rule options.
#[must_use]
pub fn options() -> Vec<OptionInfo> {
    let info = |game, flag, values| OptionInfo { game, flag, values };
    vec![
        info(
            GameName::Kalah,
            "--rules",
            names(Capture::ALL, Capture::name),
        ),
        info(GameName::Kalah, "--sweep", names(Sweep::ALL, Sweep::name)),
        info(
            GameName::Oware,
            "--rules",
            names(OwareRules::ALL, OwareRules::name),
        ),
        info(GameName::Bao, "--rules", names(Start::ALL, Start::name)),
        info(
            GameName::Bao,
            "--nyumba",
            names(NyumbaRule::ALL, NyumbaRule::name),
        ),
        info(
            GameName::Bao,
            "--takasia",
            names(TakasiaRule::ALL, TakasiaRule::name),
        ),
        info(GameName::Bao, "--tax", names(TaxRule::ALL, TaxRule::name)),
    ]
}

/// Pits a side when none is given, and seeds a pit.
pub const DEFAULT_PITS: usize = 6;
/// Seeds a pit at the start when none is given.
pub const DEFAULT_SEEDS: u32 = 4;

/// A numeric option's range.
#[derive(Clone, Copy, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Range {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<u32>,
    pub default: u32,
}

/// An option's values, the default first.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Values {
    pub values: Vec<&'static str>,
    pub default: &'static str,
}

/// A game in the catalogue.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct GameInfo {
    pub game: GameName,
    pub about: &'static str,
    /// Pits a side (Kalah, Oware).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pits: Option<Range>,
    /// Seeds a pit at the start (Kalah, Oware).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seeds: Option<Range>,
    /// Rule options by key (`rules`, `sweep`, ...).
    pub options: std::collections::BTreeMap<&'static str, Values>,
}

/// Every game, its options and defaults.
#[must_use]
pub fn catalogue() -> Vec<GameInfo> {
    let all = options();
    GameName::ALL
        .into_iter()
        .map(|game| {
            let two_row = game != GameName::Bao;
            GameInfo {
                game,
                about: game.about(),
                pits: two_row.then_some(Range {
                    min: Some(1),
                    max: Some(granary_rules::board::MAX_PITS as u32),
                    default: DEFAULT_PITS as u32,
                }),
                seeds: two_row.then_some(Range {
                    min: None,
                    max: None,
                    default: DEFAULT_SEEDS,
                }),
                options: all
                    .iter()
                    .filter(|o| o.game == game)
                    .map(|o| {
                        (
                            o.key(),
                            Values {
                                values: o.values.clone(),
                                default: o.default_value(),
                            },
                        )
                    })
                    .collect(),
            }
        })
        .collect()
}
