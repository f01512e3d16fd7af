//! What a user wrote to name a game ([`Setup`]), resolved to a game and the position to start
//! from: a Kalah/Oware [`Variant`] and [`Position`] ([`Mancala`]), or Bao's [`BaoRules`] and a
//! [`BaoPosition`].

use std::str::FromStr;

use granary_bao::{BaoRules, Start};
use granary_rules::notation::parse_position;
use granary_rules::{Capture, Game, OptionError, OwareRules, Position, Sweep, Variant};
use granary_tables::TableKind;

use super::catalogue::{DEFAULT_PITS, DEFAULT_SEEDS, GameName};
use super::counts::Counts;
use crate::error::{InputError, NotForGame};

pub use granary_bao::Position as BaoPosition;

/// What a user wrote to name a game: the game and its options as typed, all optional. In JSON
/// the options given, under the names the API takes.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub struct Setup {
    /// Pits a side (Kalah, Oware), 1 to 8; default 6, or the position's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pits: Option<usize>,
    /// Seeds a pit at the start (Kalah, Oware); default 4.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seeds: Option<u32>,
    /// Rule set: Kalah `empty`|`standard`, Oware `abapa`|`awari`, Bao `kiswahili`|`kujifunza`|`malawi`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
    /// Kalah: `owner`|`emptied`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sweep: Option<String>,
    /// Bao: `emptied`|`below6`|`namua`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nyumba: Option<String>,
    /// Bao: `kiba`|`off`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub takasia: Option<String>,
    /// Bao: `last-resort`|`always`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tax: Option<String>,
}

/// The value of the option named `option` (as the API names it: `rules`), or `default`.
fn choose<T: FromStr<Err = OptionError> + Copy>(
    option: &'static str,
    given: Option<&str>,
    default: T,
) -> Result<T, InputError> {
    given.map_or(Ok(default), |g| {
        g.parse()
            .map_err(|source| InputError::Option { option, source })
    })
}

/// A two-row game (Kalah or Oware) resolved: the variant and the position to start from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mancala {
    pub variant: Variant,
    pub position: Position,
}

/// A game of any kind resolved, with the position to start from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnyGame {
    /// Kalah or Oware.
    Mancala(Mancala),
    /// Bao: its rules and the position.
    Bao(BaoRules, BaoPosition),
}

impl AnyGame {
    /// Which game.
    #[must_use]
    pub fn name(&self) -> GameName {
        match self {
            AnyGame::Mancala(m) => match m.variant.game {
                Game::Kalah { .. } => GameName::Kalah,
                Game::Oware { .. } => GameName::Oware,
            },
            AnyGame::Bao(..) => GameName::Bao,
        }
    }

    /// The game's options, every one written out (a [`Setup`] that names this game again,
    /// with [`AnyGame::position_text`]).
    #[must_use]
    pub fn setup(&self) -> Setup {
        match self {
            AnyGame::Mancala(m) => {
                let (rules, sweep) = match m.variant.game {
                    Game::Kalah { capture, sweep } => (capture.name(), Some(sweep.name())),
                    Game::Oware { rules } => (rules.name(), None),
                };
                Setup {
                    pits: Some(m.variant.pits),
                    seeds: Some(u32::from(m.variant.seeds)),
                    rules: Some(rules.into()),
                    sweep: sweep.map(String::from),
                    ..Setup::default()
                }
            }
            AnyGame::Bao(rules, _) => {
                let nyumba = rules.has_nyumba();
                Setup {
                    rules: Some(rules.start.name().into()),
                    nyumba: nyumba.then(|| rules.nyumba.name().into()),
                    takasia: Some(rules.takasia.name().into()),
                    tax: nyumba.then(|| rules.tax.name().into()),
                    ..Setup::default()
                }
            }
        }
    }

    /// The position to start from, written in the game's notation.
    #[must_use]
    pub fn position_text(&self) -> String {
        match self {
            AnyGame::Mancala(m) => {
                granary_rules::notation::format_position(&m.position, m.variant.pits)
            }
            AnyGame::Bao(_, pos) => granary_bao::notation::format_position(pos),
        }
    }
}

impl Setup {
    /// Any game `game` with these options, at its start or the written `position`.
    ///
    /// # Errors
    /// As [`Setup::mancala`] or [`Setup::bao`].
    pub fn any(&self, game: GameName, position: Option<&str>) -> Result<AnyGame, InputError> {
        Ok(match game {
            GameName::Bao => {
                let (rules, pos) = self.bao(position)?;
                AnyGame::Bao(rules, pos)
            }
            _ => AnyGame::Mancala(self.mancala(game, position)?),
        })
    }

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
            return Err(NotForGame::BaoOptions.into());
        }
        let rules = self.rules.as_deref();
        Ok(match game {
            GameName::Kalah => Game::Kalah {
                capture: choose("rules", rules, Capture::ALL[0])?,
                sweep: choose("sweep", self.sweep.as_deref(), Sweep::ALL[0])?,
            },
            GameName::Oware => {
                if self.sweep.is_some() {
                    return Err(NotForGame::SweepInOware.into());
                }
                Game::Oware {
                    rules: choose("rules", rules, OwareRules::ALL[0])?,
                }
            }
            GameName::Bao => {
                return Err(NotForGame::BaoTables.into());
            }
        })
    }

    /// The kind of tables of the two-row game `game` (Kalah or Oware) with these options, at
    /// `pits` a side (default 6): the one checked way from what a user wrote to a table kind,
    /// for every front end. Seeds a pit do not matter to tables and are not read.
    ///
    /// # Errors
    /// As [`Setup::mancala_game`], or pits a side outside `1..=8`
    /// ([`InputError::Pits`]: `pits 9 is out of range: a side has 1 to 8 pits`).
    pub fn table_kind(&self, game: GameName) -> Result<TableKind, InputError> {
        let game = self.mancala_game(game)?;
        Ok(TableKind::new(game, self.pits.unwrap_or(DEFAULT_PITS))?)
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

    /// The two-row game at the position `counts` gives ([`Counts::position`]: the one check of
    /// a position given as numbers), whose pits a side must match `pits` if given.
    ///
    /// # Errors
    /// As [`Setup::mancala_game`], or counts the packed board cannot hold.
    pub fn mancala_at(&self, game: GameName, counts: &Counts<'_>) -> Result<Mancala, InputError> {
        let game = self.mancala_game(game)?;
        let (position, pits) = counts.position(self.pits)?;
        Ok(Mancala {
            variant: Variant::new(game, pits, self.seeds.unwrap_or(DEFAULT_SEEDS))?,
            position,
        })
    }

    /// Bao's rule set from `rules`, `nyumba`, `takasia`, `tax`; Kalah/Oware options refused.
    ///
    /// # Errors
    /// An option Bao does not have, or a value it does not know.
    pub fn bao_rules(&self) -> Result<BaoRules, InputError> {
        if self.pits.is_some() || self.sweep.is_some() {
            return Err(NotForGame::BoardInBao.into());
        }
        if self.seeds.is_some() {
            return Err(NotForGame::SeedsInBao.into());
        }
        let mut rules = BaoRules::new(choose("rules", self.rules.as_deref(), Start::ALL[0])?);
        rules.nyumba = choose("nyumba", self.nyumba.as_deref(), rules.nyumba)?;
        rules.takasia = choose("takasia", self.takasia.as_deref(), rules.takasia)?;
        rules.tax = choose("tax", self.tax.as_deref(), rules.tax)?;
        if !rules.has_nyumba() && (self.nyumba.is_some() || self.tax.is_some()) {
            return Err(NotForGame::NyumbaInKujifunza.into());
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

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(f: fn(&mut Setup)) -> Setup {
        let mut s = Setup::default();
        f(&mut s);
        s
    }

    fn mancala_error(game: GameName, f: fn(&mut Setup)) -> String {
        setup(f).mancala(game, None).unwrap_err().to_string()
    }

    fn bao_error(f: fn(&mut Setup)) -> String {
        setup(f).bao(None).unwrap_err().to_string()
    }

    #[test]
    fn options_are_named_plainly_in_one_line() {
        let errors = [
            (
                mancala_error(GameName::Kalah, |s| s.rules = Some("fast".into())),
                "rules: 'fast' is not a kalah capture rule: use empty or standard",
            ),
            (
                mancala_error(GameName::Kalah, |s| s.sweep = Some("x".into())),
                "sweep: 'x' is not a kalah sweep rule: use owner or emptied",
            ),
            (
                mancala_error(GameName::Oware, |s| s.sweep = Some("owner".into())),
                "sweep is a kalah option; oware has none",
            ),
            (
                mancala_error(GameName::Kalah, |s| s.tax = Some("always".into())),
                "nyumba, takasia and tax are bao options",
            ),
            (
                mancala_error(GameName::Kalah, |s| s.pits = Some(9)),
                "pits 9 is out of range: a side has 1 to 8 pits",
            ),
            (
                mancala_error(GameName::Kalah, |s| s.seeds = Some(30)),
                "seeds 30 with 6 pits a side makes 360 seeds; the packed encoding holds at most 255",
            ),
            (
                bao_error(|s| s.tax = Some("never".into())),
                "tax: 'never' is not a bao tax rule: use last-resort or always",
            ),
            (
                bao_error(|s| s.pits = Some(6)),
                "pits and sweep are kalah/oware options; bao has a 4x8 board",
            ),
            (
                bao_error(|s| s.seeds = Some(4)),
                "seeds is a kalah/oware option; bao's start is set by its rules",
            ),
            (
                bao_error(|s| {
                    s.rules = Some("kujifunza".into());
                    s.nyumba = Some("below6".into());
                }),
                "nyumba and tax are options of bao kiswahili/malawi; bao kujifunza has no nyumba",
            ),
        ];
        for (err, expected) in errors {
            assert_eq!(err, expected);
        }
        assert!("chess".parse::<GameName>().is_err());
    }

    #[test]
    fn a_table_kind_is_checked_as_a_game_is() {
        let kind = setup(|s| {
            s.pits = Some(4);
            s.rules = Some("awari".into());
            s.seeds = Some(200);
        })
        .table_kind(GameName::Oware)
        .unwrap();
        assert_eq!(kind.name(), "oware-4-awari");
        assert_eq!(
            Setup::default().table_kind(GameName::Kalah).unwrap(),
            Setup::default()
                .mancala(GameName::Kalah, None)
                .unwrap()
                .kind()
        );
        for pits in [0, 9] {
            let bad = Setup {
                pits: Some(pits),
                ..Setup::default()
            };
            let expected = format!("pits {pits} is out of range: a side has 1 to 8 pits");
            let err = bad.table_kind(GameName::Kalah).unwrap_err();
            assert!(matches!(err, InputError::Pits(_)), "{err:?}");
            assert_eq!(err.to_string(), expected);
            // The same words as a game of those pits.
            assert_eq!(
                bad.mancala(GameName::Kalah, None).unwrap_err().to_string(),
                expected
            );
        }
        assert_eq!(
            mancala_error(GameName::Oware, |s| s.sweep = Some("owner".into())),
            setup(|s| s.sweep = Some("owner".into()))
                .table_kind(GameName::Oware)
                .unwrap_err()
                .to_string()
        );
        assert!(Setup::default().table_kind(GameName::Bao).is_err());
    }

    #[test]
    fn a_position_of_other_pits_names_the_pits_option() {
        let err = setup(|s| s.pits = Some(4))
            .mancala(GameName::Kalah, Some("1,2,3/4,5,6"))
            .unwrap_err()
            .to_string();
        assert_eq!(err, "position has 3 pits a side but pits is 4");
    }

    #[test]
    fn no_input_error_names_a_command_line_flag() {
        let errors = [
            mancala_error(GameName::Kalah, |s| s.rules = Some("fast".into())),
            mancala_error(GameName::Oware, |s| s.rules = Some("empty".into())),
            mancala_error(GameName::Oware, |s| s.sweep = Some("owner".into())),
            mancala_error(GameName::Oware, |s| s.nyumba = Some("namua".into())),
            mancala_error(GameName::Kalah, |s| s.pits = Some(0)),
            mancala_error(GameName::Oware, |s| s.seeds = Some(100)),
            bao_error(|s| s.rules = Some("x".into())),
            bao_error(|s| s.nyumba = Some("x".into())),
            bao_error(|s| s.takasia = Some("x".into())),
            bao_error(|s| s.sweep = Some("owner".into())),
        ];
        for err in errors {
            assert!(!err.contains("--") && !err.contains('\n'), "{err}");
        }
    }
}
