//! Exact values of Kalah and Oware positions: tables planned, found or built, then read (Oware) or
//! searched over (Kalah, MTD(f)).

use std::sync::Arc;
use std::time::Instant;

use granary_rules::notation::format_position;
use granary_rules::{Engine, Game, Kalah, Position, Rules, Variant};
use granary_search::solver::{RootMove, Worth};
use granary_search::{Progress, Solution, Solve};
use granary_tables::TableSet;
use granary_tables::probe::{move_value, position_value, principal_variation};
use serde::Serialize;

use crate::error::{BuildError, Error, SolveError};
use crate::game::Mancala;
use crate::journal::{JournalSettings, JournalSummary};
use crate::machine::Machine;
use crate::observer::{Event, Observer};
use crate::outcome::{PV_LIMIT, Seeds, final_stores, result_word};
use crate::plan::{TableChoice, TablePlan, plan_solve};
use crate::tablebase::Tablebase;

/// How to solve: tables, hash table, threads, a journal.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// Which tables (default: the planner's choice).
    pub tables: TableChoice,
    /// Transposition table, MiB (default: by the estimated search time and the memory).
    pub hash_mib: Option<usize>,
    /// Worker threads (default: one per core).
    pub threads: Option<usize>,
    /// Every root move's exact value, not only the best move's.
    pub all_moves: bool,
    /// Check the data checksums of the tables used before using them (reads every byte).
    pub verify: bool,
    /// Keep the solve's proven bounds in a journal, and resume from it (Kalah).
    pub journal: Option<JournalSettings>,
    /// Seconds between a search's progress reports and journal flushes (default
    /// [`crate::journal::TICK_SECONDS`]).
    pub tick_seconds: Option<f64>,
    /// Copy the tables into the search's own memory (`Some(true)`) or keep them mapped
    /// (`Some(false)`); default: the planner's choice ([`TablePlan::resident`]).
    pub in_memory: Option<bool>,
    /// The cost model to plan with (default: the one saved by `granary calibrate`, else the
    /// defaults: [`crate::plan::CostModel::load`]).
    pub cost_model: Option<crate::plan::CostModel>,
}

/// Tables ready for a variant: planned, and built where missing.
#[derive(Debug)]
pub struct Prepared {
    pub plan: TablePlan,
    pub set: Arc<TableSet>,
    pub variant: Variant,
    /// Seconds spent planning and building.
    pub seconds: f64,
}

/// The tables a solve of positions of `seeds` seeds of `variant` would use on this machine, and
/// what it would build: nothing is built or opened.
///
/// # Errors
/// Too many seeds, or tables that do not fit the machine (or, for Oware, would take longer than a
/// solve builds by itself).
pub fn plan(
    tablebase: &Tablebase,
    variant: Variant,
    seeds: u32,
    settings: &Settings,
) -> Result<TablePlan, SolveError> {
    if crate::plan::search_answers(seeds).is_err() {
        return Err(SolveError::TooManySeeds {
            seeds,
            limit: crate::plan::SEARCH_MAX_SEEDS,
        });
    }
    let kind = crate::table_kind(variant);
    let machine = Machine::detect(tablebase.root());
    let model = match &settings.cost_model {
        Some(model) => model.clone(),
        None => crate::plan::CostModel::load()?,
    };
    plan_solve(
        kind,
        seeds,
        tablebase.complete_up_to(kind),
        settings.tables,
        settings.hash_mib,
        &machine,
        &model,
    )
    .map_err(SolveError::from)
}

/// Plans the tables for positions of `seeds` seeds of `variant` ([`plan`]), reports the plan,
/// and builds what is missing.
///
/// # Errors
/// As [`plan`], or a failed build.
pub fn prepare(
    tablebase: &Tablebase,
    variant: Variant,
    seeds: u32,
    settings: &Settings,
    observer: &dyn Observer,
) -> Result<Prepared, Error> {
    let started = Instant::now();
    let mut plan = plan(tablebase, variant, seeds, settings)?;
    if let Some(held) = settings.in_memory {
        plan.resident = held && plan.horizon.is_some();
    }
    observer.event(Event::Planned(&plan));
    let kind = plan.kind;
    if let Some(h) = plan.horizon
        && plan.build_positions > 0
    {
        crate::build::build(tablebase, kind, h, settings.threads, None, observer)?;
    }
    if let Some(h) = plan.horizon
        && settings.verify
    {
        tablebase.verify_checksums(kind, h)?;
    }
    Ok(Prepared {
        set: tablebase.tables(kind),
        plan,
        variant,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// Perfect play from prepared tables: a search over them (Kalah) or the tables alone (Oware).
#[derive(Debug)]
pub enum Oracle<'t> {
    Search(Box<dyn Solve + 't>),
    Tables(&'t TableSet, Engine),
}

impl<'t> Oracle<'t> {
    /// The oracle for `prepared`'s variant; opens the layers it uses.
    ///
    /// # Errors
    /// A missing or bad layer.
    pub fn new(prepared: &'t Prepared) -> Result<Oracle<'t>, SolveError> {
        let kind = prepared.set.kind();
        Ok(match kind.game {
            Game::Kalah { capture, sweep } => {
                let rules = Kalah::new(kind.pits, capture, sweep);
                let tables = prepared.plan.horizon.map(|h| (&*prepared.set, h));
                Oracle::Search(granary_search::kalah_solver(
                    &rules,
                    tables,
                    prepared.plan.hash_mib,
                    prepared.plan.resident,
                )?)
            }
            Game::Oware { .. } => Oracle::Tables(&prepared.set, kind.engine()),
        })
    }

    /// Makes `cancel` the request that stops this oracle's searches
    /// ([`granary_search::Solver::set_cancel`]); an oracle that reads tables answers at once
    /// and has none to stop.
    pub fn set_cancel(&mut self, cancel: crate::Cancel) {
        if let Oracle::Search(solver) = self {
            solver.set_cancel(cancel);
        }
    }

    /// Solves `pos`: its value, root moves (all exact with `all_moves`), a principal variation.
    ///
    /// # Errors
    /// A missing or bad layer (Oware).
    pub fn solve(
        &self,
        pos: &Position,
        all_moves: bool,
        observer: &dyn Observer,
    ) -> Result<Solution, SolveError> {
        match self {
            Oracle::Search(solver) => Ok(solver.solve_reporting(pos, all_moves, &mut |step| {
                observer.event(match step {
                    Progress::Bounds {
                        lane,
                        lower,
                        upper,
                        nodes,
                        seconds,
                    } => Event::Bounds {
                        pit: lane + 1,
                        lower,
                        upper,
                        nodes,
                        seconds,
                    },
                    Progress::Settled {
                        root_move,
                        nodes,
                        seconds,
                    } => Event::Settled {
                        pit: root_move.lane + 1,
                        worth: root_move.worth,
                        nodes,
                        seconds,
                    },
                });
            })?),
            Oracle::Tables(set, engine) => from_tables(set, engine, pos),
        }
    }

    /// Records this oracle's searches in `opened`'s journal and loads its bounds; the number of
    /// positions loaded. Oware oracles read tables and keep no journal.
    ///
    /// # Errors
    /// A journal whose records no position of the game can have.
    pub(crate) fn attach(
        &mut self,
        opened: &crate::journal::Opened,
    ) -> Result<usize, granary_search::JournalError> {
        match self {
            Oracle::Search(solver) => {
                let loaded = solver.load_journal(&opened.contents)?;
                solver.set_journal(opened.journal.clone(), opened.min_nodes);
                Ok(loaded)
            }
            Oracle::Tables(..) => Ok(0),
        }
    }

    /// Every legal move's exact value for the player to move.
    ///
    /// # Errors
    /// A missing or bad layer (Oware).
    pub fn move_values(&self, pos: &Position) -> Result<Vec<ExactMove>, SolveError> {
        Ok(exact_moves(&self.solve(pos, true, &())?))
    }
}

/// A legal move and its exact value for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExactMove {
    pub lane: usize,
    pub value: i32,
}

/// The moves of a solve made with every move exact (`all_moves`), with their values.
pub(crate) fn exact_moves(solution: &Solution) -> Vec<ExactMove> {
    solution
        .moves
        .iter()
        .filter_map(|r| {
            // A solve of every move gives each exactly: none is left out.
            debug_assert!(
                r.worth.exact().is_some(),
                "a bound in a solve of every move"
            );
            r.worth.exact().map(|value| ExactMove {
                lane: r.lane,
                value,
            })
        })
        .collect()
}

/// A solution read from complete tables: every root move exact, the best moves to the end or
/// into a cycle.
fn from_tables<R: Rules>(
    set: &TableSet,
    rules: &R,
    pos: &Position,
) -> Result<Solution, SolveError> {
    let started = Instant::now();
    let value = position_value(set, rules, pos)?;
    let mut moves = Vec::new();
    for lane in rules.legal_moves(pos).iter() {
        moves.push(RootMove {
            lane,
            worth: Worth::Exact(move_value(set, rules, pos, lane)?),
        });
    }
    let (pv, _) = principal_variation(set, rules, *pos, PV_LIMIT)?;
    Ok(Solution {
        value,
        moves,
        pv,
        nodes: 0,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// A root move in a report, and what it is worth: exact, or (a solve without `all_moves`) at
/// most a bound. In JSON `{"move": 3, "value": 8}` when exact, `{"move": 3, "upper": 8}` when
/// a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RootValue {
    #[serde(rename = "move")]
    pub pit: usize,
    #[serde(flatten, serialize_with = "crate::worth::fields")]
    pub worth: Worth,
}

/// A solved position.
#[derive(Clone, Debug, Serialize)]
pub struct SolveReport {
    /// E.g. `Kalah(6,4) capture=empty sweep=owner`.
    pub variant: String,
    pub position: String,
    pub to_move: &'static str,
    /// The net score of the seeds on the board for the player to move.
    pub value: i32,
    /// Final stores `[south, north]` under perfect play.
    #[serde(rename = "final")]
    pub final_stores: [Seeds; 2],
    /// `win`, `draw` or `loss` for the player to move.
    pub result: &'static str,
    pub moves: Vec<RootValue>,
    /// Pits of the moves known best.
    pub best: Vec<usize>,
    /// A principal variation (pits).
    pub pv: Vec<usize>,
    pub nodes: u64,
    /// Search seconds.
    pub seconds: f64,
    /// Planning and building seconds.
    pub table_seconds: f64,
    /// `kalah-6-empty-owner layers 0..=16`, or `none`.
    pub tables: String,
    pub plan: TablePlan,
    /// The solve's journal, if it kept one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub journal: Option<JournalSummary>,
    /// What each rank of a distributed solve did (`cluster::solve`); empty for one process.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ranks: Vec<RankFigures>,
}

/// What one rank of a distributed solve did: rank 0 the top of the search (its nodes are the
/// solve's less the workers'), the others their jobs.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct RankFigures {
    pub rank: usize,
    /// Jobs searched to their end, and jobs given up (a brother failed high first).
    pub jobs: u64,
    pub given_up: u64,
    /// Nodes searched (a worker: of the jobs it finished).
    pub nodes: u64,
    /// Seconds with a job, and waiting for one (workers).
    pub busy_seconds: f64,
    pub idle_seconds: f64,
}

impl SolveReport {
    /// South's final lead (negative: North's).
    #[must_use]
    pub fn south_lead(&self) -> Seeds {
        Seeds(self.final_stores[0].0 - self.final_stores[1].0)
    }
}

/// Solves a Kalah or Oware position: plans and prepares tables (reporting the plan and the build
/// to `observer`), then searches or reads them.
///
/// # Errors
/// Bad settings, tables that do not fit or cannot be built or read.
pub fn solve(
    tablebase: &Tablebase,
    game: &Mancala,
    settings: &Settings,
    observer: &dyn Observer,
) -> Result<SolveReport, Error> {
    solve_farmed(tablebase, game, settings, observer, None)
}

/// [`solve`], with the subtrees of a Kalah search of at most `margin` seeds above the tables
/// handed to `remote`'s workers ([`granary_search::Solver::set_remote`]): the ranks of an MPI
/// job (`cluster::solve`). Values do not depend on it.
///
/// # Errors
/// As [`solve`].
pub fn solve_farmed(
    tablebase: &Tablebase,
    game: &Mancala,
    settings: &Settings,
    observer: &dyn Observer,
    remote: Option<(Arc<dyn granary_search::Remote>, u32)>,
) -> Result<SolveReport, Error> {
    let variant = game.variant;
    let pos = game.position;
    let seeds = pos.board.seeds(variant.pits);
    let pool = granary_retrograde::thread_pool(settings.threads).map_err(BuildError::from)?;
    pool.install(|| -> Result<SolveReport, Error> {
        let opened = match &settings.journal {
            Some(j) => Some(crate::journal::open(game, j)?),
            None => None,
        };
        if let Some(opened) = &opened
            && let Some(solution) =
                crate::journal::answer(game, &opened.contents, settings.all_moves)?
        {
            let none = Settings {
                tables: TableChoice::None,
                ..settings.clone()
            };
            let mut plan = plan(tablebase, variant, seeds, &none)?;
            plan.reason = "the journal's finished solve answers it".into();
            let mut r = report(&plan, variant, 0.0, &pos, &solution);
            r.journal = Some(opened.summary(0, true));
            return Ok(r);
        }
        let prepared = prepare(tablebase, variant, seeds, settings, observer)?;
        let mut oracle = Oracle::new(&prepared)?;
        if let (Oracle::Search(solver), Some((remote, margin))) = (&mut oracle, remote) {
            solver.set_remote(remote, margin);
        }
        let loaded = match &opened {
            Some(o) => oracle.attach(o).map_err(SolveError::from)?,
            None => 0,
        };
        let solution = match &oracle {
            Oracle::Search(solver) => crate::journal::with_ticks(
                solver.as_ref(),
                settings
                    .tick_seconds
                    .unwrap_or(crate::journal::TICK_SECONDS)
                    .max(0.01),
                opened.as_ref().map(|o| &*o.journal),
                observer,
                || oracle.solve(&pos, settings.all_moves, observer),
            )?,
            Oracle::Tables(..) => oracle.solve(&pos, settings.all_moves, observer)?,
        };
        let mut r = report(&prepared.plan, variant, prepared.seconds, &pos, &solution);
        r.journal = opened.map(|o| o.summary(loaded, false));
        Ok(r)
    })
}

fn report(
    plan: &TablePlan,
    variant: Variant,
    table_seconds: f64,
    pos: &Position,
    s: &Solution,
) -> SolveReport {
    let pits = variant.pits;
    let final_stores = final_stores(pos, pits, s.value);
    SolveReport {
        variant: variant.to_string(),
        position: format_position(pos, pits),
        to_move: pos.to_move.name(),
        value: s.value,
        final_stores,
        result: result_word(pos, final_stores),
        moves: s
            .moves
            .iter()
            .map(|r| RootValue {
                pit: r.lane + 1,
                worth: r.worth,
            })
            .collect(),
        best: s
            .moves
            .iter()
            .filter(|r| r.worth == Worth::Exact(s.value))
            .map(|r| r.lane + 1)
            .collect(),
        pv: s.pv.iter().map(|l| l + 1).collect(),
        nodes: s.nodes,
        seconds: s.seconds,
        table_seconds,
        tables: plan
            .horizon
            .map_or("none".into(), |h| format!("{} layers 0..={h}", plan.tables)),
        plan: plan.clone(),
        journal: None,
        ranks: Vec::new(),
    }
}
