//! Which tables a task needs: their layers, size on disk and in memory, and an estimate of the
//! time to build them, chosen from the game, the machine and what is already present.
//!
//! # Policy
//! **Kalah** is solved by search over tables up to a horizon `H` (seeds on the board). Tables
//! already present cost nothing; missing layers cost their build time. The planner picks the `H`
//! that minimises the estimated build time plus the estimated search time, among those whose
//! layers fit the free disk (less a margin) and, all together, the page cache (the memory
//! available, less the search's hash table). Present tables beyond that `H` are used too, up to
//! what fits memory: they make the search cheaper at no cost.
//!
//! **Oware** positions repeat, so it is solved from tables up to every seed on the board; the plan
//! only checks that they fit, and builds them on the fly when the build is estimated to take at
//! most [`AUTO_BUILD_SECONDS`]; longer builds are left to an explicit `granary build`.
//!
//! # Estimates
//! Build time: each layer's positions over a measured rate ([`KALAH_RATE`] by layer size,
//! [`OWARE_RATE`]; 2 cores, scaled by cores). Search time: a log-linear model fitted to measured
//! Kalah solves on this project's 2-core machine (`docs/search.md`, "Planning"):
//! `log2 T = A(m) + B(m) (s - 60) - C(s) (H - 24)` for `s` seeds in play on `m` pits a side, `C(s)`
//! the search's gain per seed of horizon (larger for larger games), plus an offset for empty
//! capture. It is within a factor of two of the measurements it was fitted to; it only has to
//! rank horizons, not predict to the second. Those measurements end at 60 seeds in play on 6
//! pits ([`FITTED_SEARCHES`], [`within_measured_range`]): beyond them the model extrapolates, and
//! its figure still ranks horizons but is no time to expect. A plan there promises no search
//! time ([`TablePlan::search_measured`]), [`reach`] searches nothing there, and the evidence a
//! front end can give is what a journal of the solve has searched so far
//! ([`crate::journal::journal_evidence`]).
//!
//! # Beyond the tables
//! What is answered of a position the tables present do not hold ([`reach`]: a Kalah search
//! within a time limit the caller sets, else nothing), and what a user can do about it
//! ([`advice`]: never a build beyond the free disk).

use granary_rules::Game;
use granary_tables::TableKind;
use serde::Serialize;

mod advice;
mod cost;
mod hash;
mod reach;

pub use crate::error::{CostModelError, PlanError};

pub use advice::{advice, advised_build};
pub use cost::{
    CostModel, FITTED_SEARCHES, FittedSearch, KALAH_RATE, LARGEST_FITTED, OWARE_RATE,
    RESIDENT_COPY_RATE, SearchEstimate, kalah_search_seconds, measured_range,
    within_measured_range,
};
pub use hash::{
    DEFAULT_HASH_MIB, LARGE_HASH_FROM_SECONDS, LARGE_HASH_MIB, LONG_HASH_MIB,
    MEDIUM_HASH_FROM_SECONDS, MEDIUM_HASH_MIB, default_hash_mib,
};
pub use reach::{
    Beyond, DEFAULT_SEARCH_SECONDS, Reach, SEARCH_MAX_SEEDS, reach, search_answers,
    searched_above_tables,
};

use crate::machine::Machine;
use crate::tablebase::{build_command, layer_bytes, layer_positions};
use crate::units::{human_bytes, human_seconds};

/// Longest table build a solve starts by itself, seconds.
pub const AUTO_BUILD_SECONDS: f64 = 1800.0;
/// Disk left free after a build: 1 GiB, or 2% of what is free, whichever is more.
const DISK_MARGIN: u64 = 1 << 30;
/// Memory kept free beyond tables and hash: 1 GiB.
const MEMORY_MARGIN: u64 = 1 << 30;
/// The memory a build may take for itself (`granary build --memory`'s default): three quarters
/// of what the machine has available. A layer whose work does not fit is built in blocks.
#[must_use]
pub fn build_memory(machine: &Machine) -> u64 {
    machine.available_memory / 4 * 3
}

/// How a solve should pick its tables.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TableChoice {
    /// The planner decides (the default).
    #[default]
    Auto,
    /// Layers `0..=n`, built if missing.
    Seeds(u32),
    /// No tables: search alone (Kalah only).
    None,
}

/// The tables a solve will use.
#[derive(Clone, Debug, Serialize)]
pub struct TablePlan {
    /// The kind's name, e.g. `kalah-6-standard-owner`.
    pub tables: String,
    #[serde(skip)]
    pub kind: TableKind,
    /// Seeds on the board of the position to solve.
    pub seeds_in_play: u32,
    /// Layers `0..=horizon` are used; `None`: no tables.
    pub horizon: Option<u32>,
    /// Layers `0..=n` present before any build.
    pub present_up_to: Option<u32>,
    /// Positions to build (missing layers up to the horizon).
    pub build_positions: u64,
    /// Bytes the build adds to the disk.
    pub build_bytes: u64,
    /// Bytes of all layers used (what the page cache should hold).
    pub table_bytes: u64,
    /// Estimated build time, seconds.
    pub build_seconds: f64,
    /// Estimated search time, seconds, where it is a time to expect: a Kalah search within the
    /// cost model's measured range. `None` for Oware, which reads tables only, and for a search
    /// beyond that range ([`TablePlan::search_measured`]), which is promised no time.
    pub search_seconds: Option<f64>,
    /// Whether the search lies within the cost model's measured range ([`SearchEstimate`];
    /// `None` for Oware). Beyond it, the model's figure chose the horizon and the hash table, and
    /// is not given.
    pub search_measured: Option<bool>,
    /// Hash table size for the search, MiB.
    pub hash_mib: usize,
    /// Whether the search copies the layers into memory with huge pages first (a long search:
    /// its random probes then miss the TLB far less; see [`RESIDENT_COPY_RATE`]).
    pub resident: bool,
    /// Why this horizon, in words.
    pub reason: String,
    /// The cost model the estimates come from ([`CostModel::source`]).
    pub model: String,
}

impl TablePlan {
    /// One line: what is used, what is built, how long, and why; for a search beyond the cost
    /// model's measured range, that no search time is promised.
    #[must_use]
    pub fn describe(&self) -> String {
        let Some(h) = self.horizon else {
            return format!("tables: none ({})", self.reason);
        };
        let build = if self.build_positions == 0 {
            "all present".to_string()
        } else {
            format!(
                "building {} positions ({} on disk, about {})",
                self.build_positions,
                human_bytes(self.build_bytes),
                human_seconds(self.build_seconds)
            )
        };
        let search = match (self.search_seconds, self.search_measured) {
            (Some(s), _) => format!(
                ", search about {} with a {} MiB hash table",
                human_seconds(s),
                self.hash_mib
            ),
            (None, Some(false)) => format!(", search with a {} MiB hash table", self.hash_mib),
            (None, _) => String::new(),
        };
        let unmeasured = if self.search_measured == Some(false) {
            format!(
                "; no search time is promised: the search lies beyond the measured range of the \
                 cost model ({})",
                measured_range()
            )
        } else {
            String::new()
        };
        let held = if self.resident {
            ", held in memory"
        } else {
            ""
        };
        let model = if self.model == "defaults" {
            String::new()
        } else {
            format!(" [cost model: {}]", self.model)
        };
        format!(
            "tables: {} layers 0..={h} ({}{held}; {build}{search}): {}{unmeasured}{model}",
            self.tables,
            human_bytes(self.table_bytes),
            self.reason
        )
    }
}

/// Bytes of layers `from..=to`.
fn layers_bytes(kind: TableKind, from: u32, to: u32) -> u64 {
    (from..=to)
        .map(|n| layer_bytes(kind, n))
        .fold(0, u64::saturating_add)
}

/// Layers smaller than this stay mapped whatever the search's length: a copy costs a system
/// call and the first touch of its pages, which tiny layers do not earn back (measured:
/// docs/benchmarks.md).
pub const RESIDENT_MIN_BYTES: u64 = 16 << 20;

/// Memory a search that copies its layers into its own memory leaves to the rest of the machine
/// (a `cargo build`, an editor, the system): an anonymous copy cannot be given back, so a long
/// solve beside other work must not take the last of it.
pub const HEADROOM: u64 = 4 << 30;

/// Whether a search estimated at `search` seconds over `bytes` of layers should copy them into
/// memory first: layers of at least [`RESIDENT_MIN_BYTES`] whose copy would take at most a fifth
/// of the search (what holding the layers saves: docs/benchmarks.md).
fn resident(model: &CostModel, search: Option<f64>, bytes: u64) -> bool {
    search.is_some_and(|s| bytes >= RESIDENT_MIN_BYTES && model.copy_seconds(bytes) * 5.0 <= s)
}

/// What the plan may use of the machine.
struct Limits {
    disk: u64,
    memory: u64,
}

impl Limits {
    fn of(machine: &Machine, hash_mib: usize) -> Limits {
        let margin = DISK_MARGIN.max(machine.free_disk / 50);
        Limits {
            disk: machine.free_disk.saturating_sub(margin),
            memory: machine
                .available_memory
                .saturating_sub((hash_mib as u64).saturating_mul(1 << 20))
                .saturating_sub(MEMORY_MARGIN),
        }
    }
}

/// What a plan is made for: the tables' kind, the position's seeds, what is present, the machine,
/// the caller's hash size if it chose one.
struct Planner<'m> {
    kind: TableKind,
    seeds: u32,
    present: Option<u32>,
    machine: &'m Machine,
    hash_mib: Option<usize>,
    model: &'m CostModel,
}

impl Planner<'_> {
    /// What a Kalah plan may use of the machine: limits checked against the caller's hash table,
    /// else [`LARGE_HASH_MIB`] (a plan takes more, [`LONG_HASH_MIB`], only where its tables leave room:
    /// more tables are worth more than more hash; see [`Planner::hash_mib`]).
    fn limits(&self) -> Limits {
        Limits::of(self.machine, self.hash_mib.unwrap_or(LARGE_HASH_MIB))
    }

    /// The hash table of a search estimated at `search` seconds over `table_bytes` of layers:
    /// the caller's, else [`default_hash_mib`] within the memory the tables leave (never below
    /// what [`Planner::limits`] set aside).
    fn hash_mib(&self, search: Option<f64>, table_bytes: u64) -> usize {
        self.hash_mib.unwrap_or_else(|| {
            let room = Limits::of(self.machine, 0)
                .memory
                .saturating_sub(table_bytes)
                >> 20;
            let wanted = default_hash_mib(search);
            if wanted as u64 <= room {
                wanted
            } else {
                wanted.min(LARGE_HASH_MIB)
            }
        })
    }

    /// The first layer missing.
    fn first_missing(&self) -> u32 {
        self.present.map_or(0, |p| p + 1)
    }

    /// Estimated seconds to build what is missing of layers `0..=h`.
    fn build_seconds(&self, h: u32) -> f64 {
        self.model
            .build_seconds(self.kind, self.first_missing(), h, self.machine.cores)
    }

    /// The estimate of the search over layers `0..=h`.
    fn search(&self, h: u32) -> SearchEstimate {
        self.model
            .search(self.kind, self.seeds, h, self.machine.cores)
    }

    /// The plan with layers `0..=h` (none if `None`), whose search is estimated at `estimate`
    /// (none for Oware): the estimate's figure sizes the hash table and decides the copy into
    /// memory, and is given as a time only within the measured range.
    fn plan(&self, h: Option<u32>, estimate: Option<SearchEstimate>, reason: String) -> TablePlan {
        let search = estimate.map(|e| e.seconds);
        let from = self.first_missing();
        let (positions, bytes) = match h {
            Some(h) if h >= from => (
                (from..=h).map(|n| layer_positions(self.kind, n)).sum(),
                layers_bytes(self.kind, from, h),
            ),
            _ => (0, 0),
        };
        TablePlan {
            tables: self.kind.name(),
            kind: self.kind,
            seeds_in_play: self.seeds,
            horizon: h,
            present_up_to: self.present,
            build_positions: positions,
            build_bytes: bytes,
            table_bytes: h.map_or(0, |h| layers_bytes(self.kind, 0, h)),
            build_seconds: h.map_or(0.0, |h| self.build_seconds(h)),
            search_seconds: estimate.and_then(SearchEstimate::expected),
            search_measured: estimate.map(|e| e.measured),
            hash_mib: self.hash_mib(search, h.map_or(0, |h| layers_bytes(self.kind, 0, h))),
            resident: self.resident(search, h.map_or(0, |h| layers_bytes(self.kind, 0, h))),
            reason,
            model: self.model.source.clone(),
        }
    }

    /// Whether a search estimated at `search` seconds over `bytes` of layers holds them in its
    /// own memory: where the copy pays ([`resident`]) and the copy, the hash table and
    /// [`HEADROOM`] fit the available memory. Otherwise the layers stay mapped, and the page
    /// cache that holds them gives pages back when the machine needs them: slower, never killed.
    fn resident(&self, search: Option<f64>, bytes: u64) -> bool {
        let hash = (self.hash_mib(search, bytes) as u64).saturating_mul(1 << 20);
        resident(self.model, search, bytes)
            && bytes.saturating_add(hash).saturating_add(HEADROOM) <= self.machine.available_memory
    }

    /// Whether layers `0..=h` fit a search over them: what is missing the free disk
    /// ([`Planner::fits_disk`]), all of them the memory (a search probes them at random).
    fn fits(&self, h: u32, limits: &Limits) -> Result<(), PlanError> {
        self.fits_disk(h, limits)?;
        let total = layers_bytes(self.kind, 0, h);
        if total > limits.memory {
            return Err(PlanError::Memory {
                tables: self.kind.name(),
                seeds: h,
                needed: total,
                available: limits.memory,
            });
        }
        Ok(())
    }

    /// Whether what is missing of layers `0..=h` fits the free disk.
    fn fits_disk(&self, h: u32, limits: &Limits) -> Result<(), PlanError> {
        let name = self.kind.name();
        let missing = if h >= self.first_missing() {
            layers_bytes(self.kind, self.first_missing(), h)
        } else {
            0
        };
        if missing > limits.disk {
            return Err(PlanError::Disk {
                tables: name,
                seeds: h,
                needed: missing,
                free: limits.disk,
            });
        }
        Ok(())
    }

    /// Oware: every layer up to the seeds on the board.
    fn oware(&self) -> Result<TablePlan, PlanError> {
        let (kind, seeds, machine) = (self.kind, self.seeds, self.machine);
        let p = self.plan(
            Some(seeds),
            None,
            "oware is solved from tables up to every seed on the board".into(),
        );
        // The tables alone answer (a probe of the position and of each move's child, and the
        // line of play): the layers stay mapped, however large, and need only the disk.
        self.fits_disk(seeds, &Limits::of(machine, 0))?;
        // The builder holds a work byte a position of the largest layer at random, and its
        // values (best exits) where they fit, else in a scratch file read in order: at
        // least a byte a position, two where the memory allows.
        let needed = layer_positions(kind, seeds);
        if p.build_positions > 0 && needed > machine.available_memory {
            return Err(PlanError::BuildMemory {
                tables: kind.name(),
                seeds,
                needed,
                available: machine.available_memory,
            });
        }
        if p.build_seconds > AUTO_BUILD_SECONDS {
            return Err(PlanError::LongBuild {
                seeds,
                positions: p.build_positions,
                seconds: p.build_seconds,
                command: build_command(kind, seeds),
            });
        }
        Ok(p)
    }

    /// Kalah, the planner's choice: the horizon of least estimated build + search time among
    /// those that fit, or the largest present if larger.
    fn kalah_auto(&self) -> Result<TablePlan, PlanError> {
        let cap = self.seeds.min(granary_index::MAX_LAYER_SEEDS);
        let limits = self.limits();
        let mut best: Option<(f64, u32)> = None;
        let mut stopped = None;
        for h in 0..=cap {
            if let Err(why) = self.fits(h, &limits) {
                stopped = Some(why);
                break;
            }
            let total = self.build_seconds(h) + self.search(h).seconds;
            // Ties (within 1%) go to the larger horizon: it serves later solves.
            if best.is_none_or(|(t, _)| total <= t * 1.01) {
                best = Some((total, h));
            }
        }
        let Some((total, mut h)) = best else {
            // Horizon 0 is always tried: no choice means it did not fit, and `stopped` says why.
            let Some(why) = stopped else {
                unreachable!("horizon 0 was tried")
            };
            return Err(why);
        };
        // Beyond the measured range the total is no time to expect: the choice is said, not it.
        let mut reason = if self.search(h).measured {
            format!(
                "least estimated build + search time ({})",
                human_seconds(total)
            )
        } else {
            "least estimated build + search time, the search's estimate extrapolated".into()
        };
        // Present tables beyond the choice cost nothing and cut the search.
        if let Some(p) = self.present.map(|p| p.min(cap))
            && p > h
            && self.fits(p, &limits).is_ok()
        {
            h = p;
            reason = "the largest tables present".into();
        } else if let Some(why) = stopped.filter(|_| self.fits(h + 1, &limits).is_err()) {
            // The choice is the largest that fits: say what stopped it.
            reason = format!("{reason}; larger: {why}");
        }
        Ok(self.plan(Some(h), Some(self.search(h)), reason))
    }
}

/// The plan for solving a position of `seeds` seeds of `kind`, with layers `0..=present` already
/// present, on `machine`, whose speed `model` gives.
///
/// Kalah: see the module's doc. Oware: layers up to `seeds` (`choice` must not be `None`).
/// `hash_mib`: the caller's hash size, if it chose one.
///
/// # Errors
/// [`PlanError`] when the tables asked for or needed do not
/// fit the machine or would take longer than a solve builds by itself.
pub fn plan_solve(
    kind: TableKind,
    seeds: u32,
    present: Option<u32>,
    choice: TableChoice,
    hash_mib: Option<usize>,
    machine: &Machine,
    model: &CostModel,
) -> Result<TablePlan, PlanError> {
    let limit = granary_index::MAX_LAYER_SEEDS;
    let planner = Planner {
        kind,
        seeds,
        present,
        machine,
        hash_mib,
        model,
    };
    match (kind.game, choice) {
        (Game::Oware { .. }, TableChoice::None) => Err(PlanError::OwareWithoutTables),
        (Game::Oware { .. }, _) if seeds > limit => Err(PlanError::TooManySeeds { seeds, limit }),
        (Game::Oware { .. }, _) => planner.oware(),
        (Game::Kalah { .. }, TableChoice::None) => {
            Ok(planner.plan(None, None, "asked for no tables".into()))
        }
        (Game::Kalah { .. }, TableChoice::Seeds(n)) => {
            let h = n.min(seeds.min(limit));
            planner.fits(h, &planner.limits())?;
            Ok(planner.plan(
                Some(h),
                Some(planner.search(h)),
                format!("asked for {n} seeds"),
            ))
        }
        (Game::Kalah { .. }, TableChoice::Auto) => planner.kalah_auto(),
    }
}

#[cfg(test)]
mod tests;
