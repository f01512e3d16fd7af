//! The catalogue of games and their options, and turning what a user wrote into a game and a
//! position.
//!
//! Options arrive as the strings a user typed (`--rules standard`, `?rules=standard`); [`Setup`]
//! checks them against the game and names the option at fault. Kalah and Oware resolve to a
//! [`Variant`] and a two-row [`Position`]; Bao to its [`BaoRules`] and a [`BaoPosition`].

use std::fmt;
use std::str::FromStr;

use granary_bao::{BaoRules, NyumbaRule, Start, TakasiaRule, TaxRule};
use granary_rules::notation::parse_position;
use granary_rules::{Capture, Game, OptionError, OwareRules, Position, Sweep, Variant};
use serde::Serialize;

use crate::error::InputError;

pub use granary_bao::Position as BaoPosition;

/// The games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
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

/// What a user wrote to name a game: the game and its options as typed, all optional.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Setup {
    /// Pits a side (Kalah, Oware), 1 to 8; default 6, or the position's.
    pub pits: Option<usize>,
    /// Seeds a pit at the start (Kalah, Oware); default 4.
    pub seeds: Option<u32>,
    /// Rule set: Kalah `empty`|`standard`, Oware `abapa`|`awari`, Bao `kiswahili`|`kujifunza`|`malawi`.
    pub rules: Option<String>,
    /// Kalah: `owner`|`emptied`.
    pub sweep: Option<String>,
    /// Bao: `emptied`|`below6`|`namua`.
    pub nyumba: Option<String>,
    /// Bao: `kiba`|`off`.
    pub takasia: Option<String>,
    /// Bao: `last-resort`|`always`.
    pub tax: Option<String>,
}

fn choose<T: FromStr<Err = OptionError> + Copy>(
    flag: &'static str,
    given: Option<&str>,
    default: T,
) -> Result<T, InputError> {
    given.map_or(Ok(default), |g| {
        g.parse()
            .map_err(|source| InputError::Option { flag, source })
    })
}

/// A two-row game (Kalah or Oware) resolved: the variant and the position to start from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mancala {
    pub variant: Variant,
    pub position: Position,
}

impl Setup {
    /// The options that belong to Bao only, if any was given.
    fn bao_only_given(&self) -> bool {
        self.nyumba.is_some() || self.takasia.is_some() || self.tax.is_some()
    }

    /// The two-row game `game` (Kalah or Oware) with these options.
    ///
    /// # Errors
    /// An option the game does not have or a value it does not know, or Bao.
    pub fn mancala_game(&self, game: GameName) -> Result<Game, InputError> {
        if self.bao_only_given() {
            return Err(InputError::NotForGame(
                "--nyumba, --takasia and --tax are bao options".into(),
            ));
        }
        let rules = self.rules.as_deref();
        Ok(match game {
            GameName::Kalah => Game::Kalah {
                capture: choose("--rules", rules, Capture::ALL[0])?,
                sweep: choose("--sweep", self.sweep.as_deref(), Sweep::ALL[0])?,
            },
            GameName::Oware => {
                if self.sweep.is_some() {
                    return Err(InputError::NotForGame(
                        "--sweep is a kalah option; oware has none".into(),
                    ));
                }
                Game::Oware {
                    rules: choose("--rules", rules, OwareRules::ALL[0])?,
                }
            }
            GameName::Bao => {
                return Err(InputError::NotForGame(
                    "bao has no endgame tables; its commands are show, perft, solve and play"
                        .into(),
                ));
            }
        })
    }

    /// The two-row game with its start, or the written `position` (whose pits a side must match
    /// `pits` if given).
    ///
    /// # Errors
    /// As [`Setup::mancala_game`], or a position that does not parse or fit.
    pub fn mancala(&self, game: GameName, position: Option<&str>) -> Result<Mancala, InputError> {
        let game = self.mancala_game(game)?;
        let seeds = self.seeds.unwrap_or(DEFAULT_SEEDS);
        match position {
            None => {
                let variant = Variant::new(game, self.pits.unwrap_or(DEFAULT_PITS), seeds)?;
                Ok(Mancala {
                    variant,
                    position: variant.start(),
                })
            }
            Some(text) => {
                let (position, pits) = parse_position(text, self.pits)?;
                Ok(Mancala {
                    variant: Variant::new(game, pits, seeds)?,
                    position,
                })
            }
        }
    }

    /// Bao's rule set from `rules`, `nyumba`, `takasia`, `tax`; Kalah/Oware options refused.
    ///
    /// # Errors
    /// An option Bao does not have, or a value it does not know.
    pub fn bao_rules(&self) -> Result<BaoRules, InputError> {
        if self.pits.is_some() || self.sweep.is_some() {
            return Err(InputError::NotForGame(
                "--pits and --sweep are kalah/oware options; bao has a 4x8 board".into(),
            ));
        }
        if self.seeds.is_some() {
            return Err(InputError::NotForGame(
                "--seeds is a kalah/oware option; bao's start is set by --rules".into(),
            ));
        }
        let mut rules = BaoRules::new(choose("--rules", self.rules.as_deref(), Start::ALL[0])?);
        rules.nyumba = choose("--nyumba", self.nyumba.as_deref(), rules.nyumba)?;
        rules.takasia = choose("--takasia", self.takasia.as_deref(), rules.takasia)?;
        rules.tax = choose("--tax", self.tax.as_deref(), rules.tax)?;
        if !rules.has_nyumba() && (self.nyumba.is_some() || self.tax.is_some()) {
            return Err(InputError::NotForGame(
                "--nyumba and --tax are options of bao kiswahili/malawi; bao kujifunza has no nyumba"
                    .into(),
            ));
        }
        Ok(rules)
    }

    /// Bao's rules and the position to start from (the start, or `position` written out).
    ///
    /// # Errors
    /// As [`Setup::bao_rules`], or a position that does not parse.
    pub fn bao(&self, position: Option<&str>) -> Result<(BaoRules, BaoPosition), InputError> {
        let rules = self.bao_rules()?;
        let pos = match position {
            Some(text) => granary_bao::notation::parse_position(text, &rules)?,
            None => BaoPosition::start(&rules),
        };
        Ok((rules, pos))
    }
}

/// Parses a list of pit numbers (`3`, ` 1 `), naming the first entry that is not one.
///
/// # Errors
/// [`InputError::Move`] for the first entry that is not a whole number.
pub fn parse_pits<S: AsRef<str>>(moves: &[S]) -> Result<Vec<usize>, InputError> {
    moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let m = m.as_ref().trim();
            m.parse::<usize>().map_err(|_| InputError::Move {
                number: i + 1,
                pit: None,
                reason: format!("'{m}' is not a pit number"),
            })
        })
        .collect()
}

/// A numeric option's range.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Range {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<u32>,
    pub default: u32,
}

/// An option's values, the default first.
#[derive(Clone, Debug, Serialize)]
pub struct Values {
    pub values: Vec<&'static str>,
    pub default: &'static str,
}

/// A game in the catalogue.
#[derive(Clone, Debug, Serialize)]
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

/// Parses a family of start positions, `A..BxC..D` (pits a side `A` to `B`, seeds a pit `C` to
/// `D`; a single number for either range), e.g. `1..6x1..5`.
///
/// # Errors
/// [`InputError::Value`] naming the text when it is not two ranges, a range is empty or
/// reversed, or pits fall outside `1..=8` or seeds outside `1..=127`.
pub fn parse_family(
    spec: &str,
) -> Result<
    (
        std::ops::RangeInclusive<usize>,
        std::ops::RangeInclusive<u32>,
    ),
    InputError,
> {
    let bad = |why: &str| {
        InputError::Value(format!(
            "--family '{spec}': {why}; expected PITSxSEEDS ranges such as 1..6x1..5"
        ))
    };
    let (pits, seeds) = spec.split_once('x').ok_or_else(|| bad("no 'x'"))?;
    let range = |r: &str, max: u32, what: &str| -> Result<(u32, u32), InputError> {
        let r = r.trim();
        let (a, b) = r.split_once("..").unwrap_or((r, r));
        let number = |t: &str| {
            t.trim()
                .parse::<u32>()
                .map_err(|_| bad(&format!("'{}' is not a number", t.trim())))
        };
        let (a, b) = (number(a)?, number(b)?);
        if a > b {
            return Err(bad(&format!("{what} {a}..{b} is empty")));
        }
        if a < 1 || b > max {
            return Err(bad(&format!("{what} must lie within 1..{max}")));
        }
        Ok((a, b))
    };
    let (p0, p1) = range(pits, granary_rules::board::MAX_PITS as u32, "pits")?;
    let (s0, s1) = range(seeds, 127, "seeds")?;
    Ok((p0 as usize..=p1 as usize, s0..=s1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn family_ranges() {
        let (p, s) = parse_family("1..6x1..5").unwrap();
        assert_eq!((p, s), (1..=6, 1..=5));
        assert_eq!(parse_family(" 4 x 3 ").unwrap(), (4..=4, 3..=3));
        for bad in [
            "",
            "6",
            "x",
            "1..6x",
            "0..6x1..5",
            "1..9x1",
            "6..1x1",
            "1x0",
            "1x1..4000000000",
            "1..6x1..5..7",
            "-1x2",
        ] {
            let err = parse_family(bad).unwrap_err().to_string();
            assert!(
                err.starts_with(&format!("--family '{bad}'")),
                "{bad}: {err}"
            );
        }
    }

    #[test]
    fn options_name_the_flag_at_fault() {
        let setup = |f: fn(&mut Setup)| {
            let mut s = Setup::default();
            f(&mut s);
            s
        };
        let err = setup(|s| s.rules = Some("fast".into()))
            .mancala(GameName::Kalah, None)
            .unwrap_err();
        assert!(err.to_string().starts_with("--rules 'fast'"), "{err}");
        let err = setup(|s| s.sweep = Some("x".into()))
            .mancala(GameName::Oware, None)
            .unwrap_err();
        assert!(
            err.to_string().contains("--sweep is a kalah option"),
            "{err}"
        );
        let err = setup(|s| s.pits = Some(9))
            .mancala(GameName::Kalah, None)
            .unwrap_err();
        assert!(err.to_string().contains("--pits 9"), "{err}");
        let err = setup(|s| s.tax = Some("never".into()))
            .bao(None)
            .unwrap_err();
        assert!(err.to_string().starts_with("--tax 'never'"), "{err}");
        assert!("chess".parse::<GameName>().is_err());
    }
}
