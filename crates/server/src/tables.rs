//! The tables present of a two-row game, and the variant the page's game selector shows.
//!
//! `GET /api/v1/tables?game=&rules=&pits=&seeds=` (and Kalah's `sweep`): `present`, the kinds of
//! the game in the table directory (rule set, pits, layers complete); `show`, the variant to
//! show (`rules`, `pits`, `seeds`); `note`, a sentence when `show` is not the variant asked, or
//! when the directory holds no tables that answer the game, with the `granary build` command that
//! builds them (`build`). Where the asked variant's tables answer its start, it is shown as asked.
//!
//! The library's rule of what is answered ([`granary::plan::searched_above_tables`]) decides
//! what is shown. A game answered from tables alone (Oware) is shown as a variant whose tables
//! answer its start: the rule set asked, else another, at the pits asked, else at other pits;
//! the seeds asked, else as many a pit as the tables answer. A game whose positions beyond the
//! tables are searched (Kalah) changes only its rule set, to one with tables at the pits asked.

use std::sync::Arc;

use axum::Json;
use axum::extract::State as Shared;
use granary::{GameName, Setup};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::State;
use crate::error::{ApiError, Failure, internal};
use crate::params::{self, Params};
use crate::route::{Doc, Route};

/// The route of the tables present ([`crate::route`]).
pub fn routes() -> Vec<Route> {
    vec![Route::get(
        "/api/v1/tables",
        tables,
        Doc {
            id: "tables",
            summary: "The tables present of a two-row game, and the variant to show.",
            description: "`present`: the game's kinds in the table directory; `show`: the \
                          variant to show (the one asked where its tables answer its start; \
                          else, for a game answered from tables alone, one whose tables do; for \
                          Kalah, whose positions beyond the tables are searched, only another \
                          rule set with tables at the pits asked); `note`: a sentence when \
                          `show` is not the variant asked or when no tables answer the game, \
                          with the `granary build` command that builds them in `build`.",
            answer: "The tables present and the variant to show.",
            failures: &[Failure::BAD_REQUEST, Failure::INTERNAL],
        },
    )]
}

/// `GET /api/v1/tables`'s parameters.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = params::two_row)]
pub struct TablesParams {
    #[serde(default, deserialize_with = "params::text")]
    pub game: Option<String>,
    #[serde(default, deserialize_with = "params::text")]
    pub rules: Option<String>,
    #[serde(default, deserialize_with = "params::text")]
    pub sweep: Option<String>,
    #[serde(default, deserialize_with = "params::whole")]
    pub pits: Option<usize>,
    #[serde(default, deserialize_with = "params::whole")]
    pub seeds: Option<u32>,
}

/// `GET /api/v1/tables`'s answer.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Tables {
    pub game: GameName,
    /// The game's kinds in the table directory.
    pub present: Vec<Present>,
    /// The variant to show.
    pub show: Choice,
    /// A sentence when `show` is not the variant asked, or when no tables answer the game.
    pub note: Option<String>,
    /// The `granary build` command that builds the tables, where one is advised.
    pub build: Option<String>,
}

/// A kind of tables present.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Present {
    /// The kind's name, e.g. `oware-6-awari`.
    pub name: String,
    pub rules: &'static str,
    pub pits: usize,
    /// The largest `n` with layers `0..=n` all present.
    pub complete_up_to: u32,
}

/// A variant of a two-row game: rule set, pits a side, seeds a pit at the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Choice {
    pub rules: &'static str,
    pub pits: usize,
    pub seeds: u32,
}

impl Choice {
    fn describe(self, game: GameName) -> String {
        let seed = if self.seeds == 1 { "seed" } else { "seeds" };
        format!(
            "{game} {} with {} pits and {} {seed} a pit",
            self.rules, self.pits, self.seeds
        )
    }
}

async fn tables(
    Shared(state): Shared<Arc<State>>,
    Params(asked): Params<TablesParams>,
) -> Result<Json<Tables>, ApiError> {
    let game = params::game(asked.game.as_deref()).map_err(ApiError::bad)?;
    if game == GameName::Bao {
        return Err(ApiError::bad(
            "bao has no tables: its moves come from its engine",
        ));
    }
    let setup = Setup {
        pits: asked.pits,
        seeds: asked.seeds,
        rules: asked.rules,
        sweep: asked.sweep,
        ..Setup::default()
    };
    // The variant asked, checked as any request's (a bad rule set or size is a 400).
    let asked_game = setup.mancala(game, None)?;
    let pits = asked_game.variant.pits;
    let mut asked_rules = None;
    for rules in rule_sets(game) {
        if kind(game, &setup, rules, pits)? == asked_game.kind() {
            asked_rules = Some(rules);
        }
    }
    let asked = Choice {
        rules: asked_rules.ok_or_else(|| internal("the rule set asked is not in the catalogue"))?,
        pits,
        seeds: u32::from(asked_game.variant.seeds),
    };
    let present = present(&state.tablebase, game, &setup)?;
    let searched = granary::plan::searched_above_tables(asked_game.variant.game);
    let (show, note, build) = match choose(searched, asked, &present) {
        Pick::Asked => (asked, None, None),
        Pick::Other(show, up_to) => {
            let note = if searched {
                format!(
                    "This server has no {game} {} tables of {pits} pits; showing {}, whose \
                     tables go up to {up_to} seeds.",
                    asked.rules, show.rules
                )
            } else {
                format!(
                    "This server has no tables that answer {}; showing {}, which its tables \
                     answer (they go up to {up_to} seeds).",
                    asked.describe(game),
                    show.describe(game)
                )
            };
            (show, Some(note), None)
        }
        Pick::Build => {
            // What this machine can do about it (never a build beyond its disk): the library's
            // advice, and the build command where it advises one.
            let advice = state.tablebase.advice(&asked_game);
            let command = state.tablebase.advised_build(&asked_game);
            let dir = if command.is_some() {
                " (adding `--dir` with the directory the server serves)"
            } else {
                ""
            };
            let note = format!(
                "This server has no tables that answer {}: {advice}{dir}.",
                asked.describe(game)
            );
            (asked, Some(note), command)
        }
    };
    Ok(Json(Tables {
        game,
        present,
        show,
        note,
        build,
    }))
}

/// The game's rule sets, the default first.
fn rule_sets(game: GameName) -> Vec<&'static str> {
    granary::game::options()
        .into_iter()
        .find(|o| o.game == game && o.key() == "rules")
        .map(|o| o.values)
        .unwrap_or_default()
}

/// The kind of tables of `game` under `setup` with `rules` and `pits` ([`Setup::table_kind`]).
fn kind(
    game: GameName,
    setup: &Setup,
    rules: &str,
    pits: usize,
) -> Result<granary::TableKind, ApiError> {
    Ok(Setup {
        pits: Some(pits),
        rules: Some(rules.into()),
        ..setup.clone()
    }
    .table_kind(game)?)
}

/// The kinds of `game` in the table directory, of every rule set and size (Kalah: with `setup`'s
/// sweep), with their layers complete.
fn present(
    tablebase: &granary::Tablebase,
    game: GameName,
    setup: &Setup,
) -> Result<Vec<Present>, ApiError> {
    let max_pits = granary::game::catalogue()
        .into_iter()
        .find(|g| g.game == game)
        .and_then(|g| g.pits)
        .and_then(|p| p.max)
        .unwrap_or(0) as usize;
    let mut out = Vec::new();
    for rules in rule_sets(game) {
        for pits in 1..=max_pits {
            let kind = kind(game, setup, rules, pits)?;
            if let Some(up_to) = tablebase.complete_up_to(kind) {
                out.push(Present {
                    name: kind.name(),
                    rules,
                    pits,
                    complete_up_to: up_to,
                });
            }
        }
    }
    Ok(out)
}

/// What to show for `asked`.
#[derive(Debug, PartialEq, Eq)]
enum Pick {
    /// As asked.
    Asked,
    /// Another variant, whose tables go up to this many seeds.
    Other(Choice, u32),
    /// As asked, with the command that builds its tables (a game answered from tables alone,
    /// when no tables present answer any of its variants).
    Build,
}

/// The variant to show for `asked`, given the tables `present`, where the game's positions
/// beyond its tables are `searched` ([`granary::plan::searched_above_tables`]) or not.
fn choose(searched: bool, asked: Choice, present: &[Present]) -> Pick {
    // The rule set asked first, then the pits asked, then the nearest pits.
    let mut order: Vec<&Present> = present.iter().collect();
    order.sort_by_key(|t| (t.rules != asked.rules, t.pits.abs_diff(asked.pits), t.pits));
    if searched {
        let at_pits = order.iter().find(|t| t.pits == asked.pits);
        return match at_pits {
            Some(t) if t.rules != asked.rules => Pick::Other(
                Choice {
                    rules: t.rules,
                    ..asked
                },
                t.complete_up_to,
            ),
            _ => Pick::Asked,
        };
    }
    for t in order {
        let most = t.complete_up_to / (2 * t.pits as u32);
        if most == 0 {
            continue;
        }
        let show = Choice {
            rules: t.rules,
            pits: t.pits,
            seeds: most.min(asked.seeds.max(1)),
        };
        return if show == asked {
            Pick::Asked
        } else {
            Pick::Other(show, t.complete_up_to)
        };
    }
    Pick::Build
}

#[cfg(test)]
mod tests {
    use super::*;

    fn present(rules: &'static str, pits: usize, up_to: u32) -> Present {
        Present {
            name: format!("oware-{pits}-{rules}"),
            rules,
            pits,
            complete_up_to: up_to,
        }
    }

    const ABAPA_6_4: Choice = Choice {
        rules: "abapa",
        pits: 6,
        seeds: 4,
    };

    /// Whether the library searches `game`'s positions beyond its tables.
    fn searched(game: GameName) -> bool {
        let kind = Setup::default().table_kind(game).unwrap();
        granary::plan::searched_above_tables(kind.game)
    }

    #[test]
    fn oware_shows_a_variant_whose_tables_answer_its_start() {
        let oware = searched(GameName::Oware);
        assert!(!oware);
        // Nothing present: the command to build.
        assert_eq!(choose(oware, ABAPA_6_4, &[]), Pick::Build);
        // Awari tables to 16 at 6 pits: awari, one seed a pit (12 on the board).
        let awari16 = [present("awari", 6, 16)];
        assert_eq!(
            choose(oware, ABAPA_6_4, &awari16),
            Pick::Other(
                Choice {
                    rules: "awari",
                    pits: 6,
                    seeds: 1
                },
                16
            )
        );
        // The rule set asked is kept where its tables answer some start, at other pits if need be.
        let both = [present("awari", 6, 48), present("abapa", 4, 8)];
        assert_eq!(
            choose(oware, ABAPA_6_4, &both),
            Pick::Other(
                Choice {
                    rules: "abapa",
                    pits: 4,
                    seeds: 1
                },
                8
            )
        );
        // Tables that answer the variant asked: as asked.
        let full = [present("abapa", 6, 48)];
        assert_eq!(choose(oware, ABAPA_6_4, &full), Pick::Asked);
        // Tables too small for any start (6 pits need 12 seeds): the command to build.
        assert_eq!(
            choose(oware, ABAPA_6_4, &[present("abapa", 6, 11)]),
            Pick::Build
        );
    }

    #[test]
    fn kalah_changes_only_its_rule_set_to_one_with_tables_at_its_pits() {
        let kalah = searched(GameName::Kalah);
        assert!(kalah);
        let asked = Choice {
            rules: "empty",
            pits: 6,
            seeds: 4,
        };
        assert_eq!(choose(kalah, asked, &[]), Pick::Asked);
        // Tables at other pits only: searched as asked.
        assert_eq!(
            choose(kalah, asked, &[present("standard", 4, 12)]),
            Pick::Asked
        );
        assert_eq!(
            choose(kalah, asked, &[present("standard", 6, 20)]),
            Pick::Other(
                Choice {
                    rules: "standard",
                    ..asked
                },
                20
            )
        );
        assert_eq!(
            choose(
                kalah,
                asked,
                &[present("standard", 6, 30), present("empty", 6, 12)]
            ),
            Pick::Asked
        );
    }
}
