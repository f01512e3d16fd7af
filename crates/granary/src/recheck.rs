//! A journal's records proved again from scratch: the check anyone can run on a long solve's
//! journal (`granary solve ... --journal FILE --recheck N`).

use std::path::PathBuf;
use std::time::Instant;

use granary_rules::notation::format_position;
use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::SplitMix64;
use serde::Serialize;

use crate::error::{Error, SolveError};
use crate::game::Mancala;
use crate::journal::{binding, kalah_rules};
use crate::observer::Observer;
use crate::solve::{Settings, prepare};
use crate::tablebase::Tablebase;

/// One journal record checked from scratch.
#[derive(Clone, Debug, Serialize)]
pub struct Rechecked {
    /// The record's position (South to move, empty stores: its value does not depend on them).
    pub position: String,
    pub seeds: u32,
    pub lower: i32,
    pub upper: i32,
    /// The bounds hold.
    pub holds: bool,
    pub nodes: u64,
    pub seconds: f64,
}

/// Which journal records a re-check proves again.
#[derive(Clone, Debug)]
pub struct Recheck {
    pub journal: PathBuf,
    /// How many positions.
    pub count: usize,
    /// The seed of their random choice.
    pub seed: u64,
}

/// Re-proves `pick.count` of the journal's records for `game`, chosen at random by `pick.seed`
/// among its positions and checked deepest in the game (fewest seeds) first, each by a fresh solver with
/// no journal and a new transposition table over the tables a solve of `game` would use
/// (planned, and built if missing, as [`crate::solve()`] does). Each check is reported to
/// `on_checked` as it ends.
///
/// # Errors
/// A journal that cannot be read or belongs to another solve, tables that cannot be had.
pub fn recheck(
    tablebase: &Tablebase,
    game: &Mancala,
    settings: &Settings,
    pick: &Recheck,
    observer: &dyn Observer,
    on_checked: &mut (dyn FnMut(&Rechecked) + Send),
) -> Result<Vec<Rechecked>, Error> {
    let rules = kalah_rules(game)?;
    let (count, seed) = (pick.count, pick.seed);
    let contents =
        granary_search::journal::read(&pick.journal, &binding(game)).map_err(SolveError::from)?;
    let mut positions: Vec<_> = contents.merged().into_iter().collect();
    positions.sort_by_key(|&(board, _)| board.0);
    let mut picked = pick_some(positions, count, seed);
    let pits = game.variant.pits;
    picked.sort_by_key(|&(board, _)| (board.seeds(pits), board.0));
    let seeds = game.position.board.seeds(pits);
    let pool = granary_retrograde::thread_pool(settings.threads)
        .map_err(crate::error::BuildError::from)?;
    pool.install(|| {
        let prepared = prepare(tablebase, game.variant, seeds, settings, observer)?;
        let tables = prepared.plan.horizon.map(|h| (&*prepared.set, h));
        let mut out = Vec::new();
        for (board, (lower, upper, _)) in picked {
            let started = Instant::now();
            let solver =
                granary_search::kalah_solver(&rules, tables, prepared.plan.hash_mib, false)
                    .map_err(SolveError::from)?;
            let (lower, upper) = (i32::from(lower), i32::from(upper));
            let (holds, nodes) = solver.check_bound(board, lower, upper);
            let checked = Rechecked {
                position: format_position(&granary_rules::Position::of_board(board), pits),
                seeds: board.seeds(pits),
                lower,
                upper,
                holds,
                nodes,
                seconds: started.elapsed().as_secs_f64(),
            };
            on_checked(&checked);
            out.push(checked);
        }
        Ok(out)
    })
}

/// `count` of `positions` (all, if fewer) chosen at random by `seed`: each the one at a
/// SplitMix64 draw modulo the positions left, swapped out.
fn pick_some<T>(mut positions: Vec<T>, count: usize, seed: u64) -> Vec<T> {
    let mut rng = SplitMix64::seed_from_u64(seed);
    let mut picked = Vec::new();
    while picked.len() < count && !positions.is_empty() {
        let i = (rng.next_u64() % positions.len() as u64) as usize;
        picked.push(positions.swap_remove(i));
    }
    picked
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The picks a seed gives stay what they were: SplitMix64's own sequence (seed 0 draws
    /// 0xe220a8397b1dcdaf first, as its reference implementation does).
    #[test]
    fn a_seed_picks_as_splitmix64_draws() {
        let mut rng = SplitMix64::seed_from_u64(0);
        let first: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
        assert_eq!(
            first,
            [
                0xe220_a839_7b1d_cdaf,
                0x6e78_9e6a_a1b9_65f4,
                0x06c4_5d18_8009_454f
            ]
        );
        // 10 positions, seed 7: the draws modulo 10, 9, 8 pick these.
        assert_eq!(pick_some((0..10).collect(), 3, 7), [7, 6, 2]);
        assert_eq!(pick_some((0..2).collect(), 5, 7).len(), 2);
    }
}
