//! A Kalah solver compiled for its board: 6 pits a side (every published Kalah result, and the
//! tables the planner builds) with the pit count a constant, any other board with it read at
//! run time ([`granary_rules::pits`]; what the constant saves: docs/benchmarks.md).

use std::fmt::Debug;
use std::sync::Arc;

use granary_rules::pits::COMPILED_PITS;
use granary_rules::{Kalah, Position, Rules};
use granary_tables::TableSet;

use crate::journal::{Contents, Journal};
use crate::solver::{Progress, Solution, Solver, SolverError};

/// What a front end asks of a solver, whatever its rules' type.
pub trait Solve: Send + Sync + Debug {
    /// [`Solver::solve_reporting`].
    ///
    /// # Errors
    /// As [`Solver::solve`].
    fn solve_reporting(
        &self,
        pos: &Position,
        all_moves: bool,
        report: &mut dyn FnMut(Progress<'_>),
    ) -> Result<Solution, SolverError>;
    /// [`Solver::set_journal`].
    fn set_journal(&mut self, journal: Arc<Journal>, min_nodes: u64);
    /// [`Solver::load_journal`].
    ///
    /// # Errors
    /// As [`Solver::load_journal`].
    fn load_journal(&self, contents: &Contents) -> Result<usize, crate::JournalError>;
    /// [`Solver::answer_from_journal`].
    fn answer_from_journal(
        &self,
        pos: &Position,
        contents: &Contents,
        all_moves: bool,
    ) -> Option<Solution>;
    /// [`Solver::check_bound`].
    fn check_bound(&self, board: granary_rules::Board, lower: i32, upper: i32) -> (bool, u64);
    /// [`Solver::live_nodes`].
    fn live_nodes(&self) -> u64;
    /// [`Solver::set_cancel`].
    fn set_cancel(&mut self, cancel: crate::Cancel);
    /// [`Solver::set_remote`].
    fn set_remote(&mut self, remote: Arc<dyn crate::Remote>, job_margin: u32);
    /// [`Solver::job`].
    fn job(
        &self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        cancel: &std::sync::atomic::AtomicBool,
    ) -> Option<(i32, u64)>;
}

impl<R: Rules + Send + Sync + Debug> Solve for Solver<'_, R> {
    fn solve_reporting(
        &self,
        pos: &Position,
        all_moves: bool,
        report: &mut dyn FnMut(Progress<'_>),
    ) -> Result<Solution, SolverError> {
        Solver::solve_reporting(self, pos, all_moves, report)
    }
    fn set_journal(&mut self, journal: Arc<Journal>, min_nodes: u64) {
        Solver::set_journal(self, journal, min_nodes);
    }
    fn load_journal(&self, contents: &Contents) -> Result<usize, crate::JournalError> {
        Solver::load_journal(self, contents)
    }
    fn answer_from_journal(
        &self,
        pos: &Position,
        contents: &Contents,
        all_moves: bool,
    ) -> Option<Solution> {
        Solver::answer_from_journal(self, pos, contents, all_moves)
    }
    fn check_bound(&self, board: granary_rules::Board, lower: i32, upper: i32) -> (bool, u64) {
        Solver::check_bound(self, board, lower, upper)
    }
    fn live_nodes(&self) -> u64 {
        Solver::live_nodes(self)
    }
    fn set_cancel(&mut self, cancel: crate::Cancel) {
        Solver::set_cancel(self, cancel);
    }
    fn set_remote(&mut self, remote: Arc<dyn crate::Remote>, job_margin: u32) {
        Solver::set_remote(self, remote, job_margin);
    }
    fn job(
        &self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        cancel: &std::sync::atomic::AtomicBool,
    ) -> Option<(i32, u64)> {
        Solver::job(self, pos, alpha, beta, cancel)
    }
}

/// A solver for `rules` ([`Solver::new`]); with `resident`, its table layers copied into memory
/// ([`Solver::resident`]).
///
/// # Errors
/// If a table layer is missing or bad, or the transposition table's memory cannot be had.
pub fn kalah_solver<'t>(
    rules: &Kalah,
    tables: Option<(&'t TableSet, u32)>,
    hash_mb: usize,
    resident: bool,
) -> Result<Box<dyn Solve + 't>, SolverError> {
    fn boxed<'t, R: Rules + Send + Sync + Debug + 't>(
        solver: Solver<'t, R>,
        resident: bool,
    ) -> Box<dyn Solve + 't> {
        Box::new(if resident { solver.resident() } else { solver })
    }
    Ok(match rules.with_const_pits::<COMPILED_PITS>() {
        Some(six) => boxed(Solver::new(six, tables, hash_mb)?, resident),
        None => boxed(Solver::new(rules.clone(), tables, hash_mb)?, resident),
    })
}
