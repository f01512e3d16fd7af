//! The cost model: what the planner knows of a machine's speed, as one value ([`CostModel`]).
//!
//! Build time is each layer's positions over a build rate (Kalah by layer size, Oware one
//! rate); search time is a log-linear model of Kalah searches
//! ([`kalah_search_seconds`], fitted to measured solves: [`FITTED_SEARCHES`]) times a machine
//! factor; copying tables into memory runs at a copy rate. A search estimate says whether it
//! lies within the range of the searches the model was fitted on ([`SearchEstimate`],
//! [`within_measured_range`]): beyond it, the figure ranks horizons and sizes a hash table, and
//! is no time to expect. The defaults are this module's constants, measured on the
//! 2-core machines the project is developed on; `granary calibrate` measures the machine it runs
//! on (a short build and a short search) and saves a model that the planner then uses
//! ([`CostModel::load`]).

use std::path::{Path, PathBuf};

use granary_rules::{Capture, Game};
use granary_tables::TableKind;
use serde::{Deserialize, Serialize};

use crate::error::CostModelError;
use crate::tablebase::layer_positions;

/// Kalah table build rates on 2 cores, positions a second, by layer size, in the units of the
/// search-time model (the machine its measurements came from: docs/benchmarks.md).
pub const KALAH_RATE: [(u64, f64); 3] = [
    (30_000_000, 10.5e6),
    (500_000_000, 9.8e6),
    (u64::MAX, 10.1e6),
];
/// Oware table build rate on 2 cores, positions a second (measured: docs/benchmarks.md).
pub const OWARE_RATE: f64 = 3.5e6;
/// Bytes a second the search copies its layers into memory at ([`crate::TablePlan::resident`]),
/// a cautious figure below those measured (docs/benchmarks.md).
pub const RESIDENT_COPY_RATE: f64 = 0.5e9;

/// A search the search-time model was fitted on: Kalah of `pits` pits a side and `capture`, a
/// position of `seeds` seeds in play searched over tables `0..=horizon` in `seconds` on 2 cores
/// (docs/benchmarks.md, the search-model points and the solves they came from).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FittedSearch {
    pub pits: usize,
    pub capture: Capture,
    pub seeds: u32,
    pub horizon: u32,
    pub seconds: f64,
}

impl FittedSearch {
    const fn new(pits: usize, capture: Capture, seeds: u32, horizon: u32, seconds: f64) -> Self {
        FittedSearch {
            pits,
            capture,
            seeds,
            horizon,
            seconds,
        }
    }
}

/// The searches [`kalah_search_seconds`] was fitted on: Kalah(6,4) (48 seeds) over 16- to
/// 20-seed tables, Kalah(6,5) (60 seeds) over 20- to 28-seed tables, Kalah(5,6) (60 seeds) over
/// 24-seed tables. The model is within a factor of two of each.
pub const FITTED_SEARCHES: [FittedSearch; 12] = [
    FittedSearch::new(6, Capture::Standard, 48, 16, 18.7),
    FittedSearch::new(6, Capture::Standard, 48, 17, 15.0),
    FittedSearch::new(6, Capture::Standard, 48, 18, 12.4),
    FittedSearch::new(6, Capture::Standard, 48, 19, 9.4),
    FittedSearch::new(6, Capture::Standard, 48, 20, 6.8),
    FittedSearch::new(6, Capture::Empty, 48, 16, 8.0),
    LARGEST_FITTED,
    FittedSearch::new(6, Capture::Standard, 60, 28, 355.0),
    FittedSearch::new(6, Capture::Empty, 60, 20, 2085.0),
    FittedSearch::new(6, Capture::Empty, 60, 28, 139.0),
    FittedSearch::new(5, Capture::Standard, 60, 24, 569.0),
    FittedSearch::new(5, Capture::Empty, 60, 24, 431.0),
];

/// The largest of [`FITTED_SEARCHES`], the edge of the measured range: Kalah(6,5) standard, 60
/// seeds in play over 24-seed tables, 2,438 s.
pub const LARGEST_FITTED: FittedSearch = FittedSearch::new(6, Capture::Standard, 60, 24, 2438.0);

/// Whether a Kalah search of a position of `seeds` seeds in play of `kind` lies within the range
/// of the searches the model was fitted on: no more seeds in play than [`LARGEST_FITTED`]'s (60),
/// on a board whose layer of those seeds holds no more positions than that search's (6 pits, 60
/// seeds): every board of up to 6 pits; 7 pits up to 44 seeds, 8 pits up to 35. A smaller game
/// searches in less time than the largest fitted; a larger one is an extrapolation: a search of
/// Kalah(6,6) (72 seeds) has run six times the model's figure without bounding one root move.
///
/// The horizon is not judged: the fitted searches used tables of 16 to 28 seeds, and a search
/// within the range over smaller tables (Kalah(6,4) with none, say) is estimated by the same fit.
#[must_use]
pub fn within_measured_range(kind: TableKind, seeds: u32) -> bool {
    let largest = TableKind {
        pits: LARGEST_FITTED.pits,
        ..kind
    };
    seeds <= LARGEST_FITTED.seeds
        && layer_positions(kind, seeds) <= layer_positions(largest, LARGEST_FITTED.seeds)
}

/// The measured range in words, for a sentence that says a search lies beyond it: `measured up
/// to 60 seeds on 6 pits, with 24-seed tables`.
#[must_use]
pub fn measured_range() -> String {
    format!(
        "measured up to {} seeds on {} pits, with {}-seed tables",
        LARGEST_FITTED.seeds, LARGEST_FITTED.pits, LARGEST_FITTED.horizon
    )
}

/// A Kalah search's estimated time, and whether the search lies within the range the model was
/// measured on ([`within_measured_range`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchEstimate {
    /// The model's figure, seconds: within the measured range a time to expect (within a factor
    /// of two of the fitted searches); beyond it, a figure that ranks horizons and sizes a hash
    /// table, and may be a thousand times short.
    pub seconds: f64,
    /// Whether the search lies within the measured range.
    pub measured: bool,
}

impl SearchEstimate {
    /// The time to expect: the figure within the measured range, `None` beyond it (no time is
    /// promised there).
    #[must_use]
    pub fn expected(self) -> Option<f64> {
        self.measured.then_some(self.seconds)
    }
}

/// What the planner knows of a machine's speed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CostModel {
    /// Kalah build rates on 2 cores, by layer size: layers of fewer than `.0` positions build
    /// at `.1` positions a second ([`KALAH_RATE`]).
    pub kalah_rate: [(u64, f64); 3],
    /// Oware build rate on 2 cores, positions a second ([`OWARE_RATE`]).
    pub oware_rate: f64,
    /// The search-time model's estimates ([`kalah_search_seconds`]) are multiplied by this
    /// (1: the machine the model was fitted on).
    pub search_scale: f64,
    /// Bytes a second a search copies its layers into memory at ([`RESIDENT_COPY_RATE`]).
    pub copy_rate: f64,
    /// Where the model comes from, in words: `defaults`, or when and where it was calibrated.
    pub source: String,
}

impl Default for CostModel {
    fn default() -> CostModel {
        CostModel {
            kalah_rate: KALAH_RATE,
            oware_rate: OWARE_RATE,
            search_scale: 1.0,
            copy_rate: RESIDENT_COPY_RATE,
            source: "defaults".into(),
        }
    }
}

impl CostModel {
    /// Where the planner looks for a calibrated model: `$GRANARY_COST_MODEL`, else
    /// `$XDG_CONFIG_HOME/granary/cost-model.json`, else `$HOME/.config/granary/cost-model.json`.
    #[must_use]
    pub fn default_path() -> Option<PathBuf> {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        if let Some(path) = var("GRANARY_COST_MODEL") {
            return Some(PathBuf::from(path));
        }
        let config = var("XDG_CONFIG_HOME")
            .map(PathBuf::from)
            .or_else(|| var("HOME").map(|home| Path::new(&home).join(".config")))?;
        Some(config.join("granary").join("cost-model.json"))
    }

    /// The model the planner uses: the one saved at [`CostModel::default_path`] if there is
    /// one, else the defaults.
    ///
    /// # Errors
    /// A saved model that cannot be read or parsed (the message says to calibrate again).
    pub fn load() -> Result<CostModel, CostModelError> {
        match Self::default_path() {
            Some(path) if path.is_file() => Self::read(&path),
            _ => Ok(CostModel::default()),
        }
    }

    /// The model saved at `path`.
    ///
    /// # Errors
    /// As [`CostModel::load`].
    pub fn read(path: &Path) -> Result<CostModel, CostModelError> {
        let text = std::fs::read_to_string(path).map_err(|source| CostModelError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Self::parse(path, &text)
    }

    /// The model a saved file's text `text` holds (the parser of [`CostModel::read`]; `path`
    /// only names the file in errors): its JSON, every rate and scale a positive number.
    /// Public for the fuzz targets.
    ///
    /// # Errors
    /// [`CostModelError::Bad`], saying what is wrong.
    #[doc(hidden)]
    pub fn parse(path: &Path, text: &str) -> Result<CostModel, CostModelError> {
        let bad = |reason: String| CostModelError::Bad {
            path: path.to_path_buf(),
            reason,
        };
        let model: CostModel = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
        let rates = model.kalah_rate.iter().map(|r| r.1);
        let positive = [model.oware_rate, model.search_scale, model.copy_rate]
            .into_iter()
            .chain(rates)
            .all(|x| x.is_finite() && x > 0.0);
        if !positive {
            return Err(bad("a rate or scale that is not a positive number".into()));
        }
        Ok(model)
    }

    /// The model as its file holds it ([`CostModel::read`] reads it back): pretty JSON and a
    /// line break. Whoever saves it writes the file whole (`granary calibrate`).
    #[must_use]
    pub fn file_text(&self) -> String {
        serde_json::to_string_pretty(self).expect("a cost model serialises") + "\n"
    }

    /// Estimated seconds to build layers `from..=to` of `kind` on `cores` cores (rates scale
    /// with cores, up to 16).
    #[must_use]
    pub fn build_seconds(&self, kind: TableKind, from: u32, to: u32, cores: usize) -> f64 {
        let scale = (cores.max(1) as f64 / 2.0).min(8.0);
        (from..=to)
            .map(|n| {
                let positions = layer_positions(kind, n);
                let rate = match kind.game {
                    Game::Kalah { .. } => self
                        .kalah_rate
                        .iter()
                        .find(|&&(below, _)| positions < below)
                        .map_or(self.kalah_rate[2].1, |&(_, r)| r),
                    Game::Oware { .. } => self.oware_rate,
                };
                positions as f64 / (rate * scale)
            })
            .sum()
    }

    /// The model's figure for a search of a Kalah position of `seeds` seeds with tables to
    /// `horizon` on `cores` cores, seconds: [`kalah_search_seconds`] times
    /// [`CostModel::search_scale`]. A time to expect only within the measured range: see
    /// [`CostModel::search`].
    #[must_use]
    pub fn search_seconds(&self, kind: TableKind, seeds: u32, horizon: u32, cores: usize) -> f64 {
        kalah_search_seconds(kind, seeds, horizon, cores) * self.search_scale
    }

    /// The estimate of a search of a Kalah position of `seeds` seeds with tables to `horizon`
    /// on `cores` cores: [`CostModel::search_seconds`], and whether it lies within the measured
    /// range (a position the tables hold needs no search, and is).
    #[must_use]
    pub fn search(
        &self,
        kind: TableKind,
        seeds: u32,
        horizon: u32,
        cores: usize,
    ) -> SearchEstimate {
        SearchEstimate {
            seconds: self.search_seconds(kind, seeds, horizon, cores),
            measured: horizon >= seeds || within_measured_range(kind, seeds),
        }
    }

    /// Estimated seconds to copy `bytes` of layers into memory.
    #[must_use]
    pub fn copy_seconds(&self, bytes: u64) -> f64 {
        bytes as f64 / self.copy_rate
    }
}

/// Estimated seconds to search a Kalah position of `seeds` seeds with tables to `horizon`, on
/// `cores` cores, on the machine the model was fitted on (`crate::plan`'s documentation): fitted
/// on [`FITTED_SEARCHES`], and an extrapolation beyond them ([`within_measured_range`]).
#[must_use]
pub fn kalah_search_seconds(kind: TableKind, seeds: u32, horizon: u32, cores: usize) -> f64 {
    let standard = matches!(
        kind.game,
        Game::Kalah {
            capture: Capture::Standard,
            ..
        }
    );
    if horizon >= seeds {
        return 0.0;
    }
    let m = kind.pits as f64;
    let s = f64::from(seeds);
    // log2 of the seconds at 60 seeds in play with 24-seed tables (6 pits: 2,438 s measured;
    // 5 pits: 569 s), and the growth per seed in play, per pit count.
    let anchor = 11.25 + 2.1 * (m - 6.0);
    let growth = (0.82 + 0.25 * (m - 6.0)).clamp(0.3, 1.3);
    // What a seed of horizon saves grows with the game (6 pits: 0.37 at 48 seeds, 0.63 at 60).
    let gain = (0.37 + 0.022 * (s - 48.0)).clamp(0.25, 0.8);
    // Empty capture searches faster: 2.3x at Kalah(6,4) (16-seed tables), 3.7x at Kalah(6,5)
    // (28-seed tables: 139 s vs 514 s); little on 5 pits.
    let offset = match (standard, kind.pits >= 6) {
        (true, _) => 0.0,
        (false, true) => -1.2 - 0.06 * (s - 48.0).max(0.0),
        (false, false) => -0.4,
    };
    let log2 = anchor + offset + growth * (s - 60.0) - gain * (f64::from(horizon) - 24.0);
    2f64.powf(log2.min(60.0)) * 2.0 / cores.max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by fuzzing: a rate read a little off the number written (2130077777777776.75 for
    /// 2130077777777777), so that the model saved from it read back as another.
    const ROUGH_FLOAT: &[u8] = br#"{"kalah_rate":[[
3,2130077777777777 ],[0,9],[5,1]],"oware_rate":6,"search_scale": 0.4,"copy_rate":1,"source":""}"#;

    #[test]
    fn a_saved_model_reads_back_the_same() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cost-model.json");
        let text = std::str::from_utf8(ROUGH_FLOAT).unwrap();
        let model = CostModel::parse(&path, text).unwrap();
        assert_eq!(model.kalah_rate[0], (3, 2_130_077_777_777_777.0));
        for model in [model, CostModel::default()] {
            std::fs::write(&path, model.file_text()).unwrap();
            assert_eq!(CostModel::read(&path).unwrap(), model);
        }
    }

    #[test]
    fn the_model_is_within_a_factor_of_two_of_the_searches_it_was_fitted_on() {
        for f in FITTED_SEARCHES {
            let kind = TableKind {
                game: Game::Kalah {
                    capture: f.capture,
                    sweep: granary_rules::Sweep::Owner,
                },
                pits: f.pits,
            };
            let model = kalah_search_seconds(kind, f.seeds, f.horizon, 2);
            assert!(
                (0.5..=2.0).contains(&(model / f.seconds)),
                "{f:?}: the model says {model:.1} s"
            );
            assert!(within_measured_range(kind, f.seeds), "{f:?}");
            assert!(f.seeds <= LARGEST_FITTED.seeds && f.pits <= LARGEST_FITTED.pits);
            assert!(f.seconds <= LARGEST_FITTED.seconds, "{f:?}");
        }
        assert!(FITTED_SEARCHES.contains(&LARGEST_FITTED));
    }

    #[test]
    fn the_range_ends_at_the_largest_game_measured() {
        let kalah = |pits| TableKind {
            game: Game::Kalah {
                capture: Capture::Empty,
                sweep: granary_rules::Sweep::Owner,
            },
            pits,
        };
        for (pits, last) in [(3, 60), (5, 60), (6, 60), (7, 44), (8, 35)] {
            assert!(within_measured_range(kalah(pits), last), "{pits} pits");
            assert!(!within_measured_range(kalah(pits), last + 1), "{pits} pits");
        }
        assert_eq!(
            measured_range(),
            "measured up to 60 seeds on 6 pits, with 24-seed tables"
        );
        // Kalah(6,6) over 32-seed tables: the model's figure, but no time to expect.
        let model = CostModel::default();
        let estimate = model.search(kalah(6), 72, 32, 2);
        assert!(!estimate.measured && estimate.seconds > 0.0);
        assert_eq!(estimate.expected(), None);
        // A position the tables hold is no extrapolation.
        assert!(model.search(kalah(6), 72, 72, 2).measured);
        let inside = model.search(kalah(6), 60, 28, 2);
        assert_eq!(inside.expected(), Some(inside.seconds));
    }

    #[test]
    fn rates_that_are_not_positive_numbers_are_refused() {
        let path = Path::new("cost-model.json");
        let text = String::from_utf8(ROUGH_FLOAT.to_vec()).unwrap();
        for (from, to) in [
            ("\"oware_rate\":6", "\"oware_rate\":0"),
            ("[0,9]", "[0,-9]"),
        ] {
            let err = CostModel::parse(path, &text.replace(from, to)).unwrap_err();
            assert!(err.to_string().contains("not a positive number"), "{err}");
        }
        let err = CostModel::parse(path, "{}").unwrap_err();
        assert!(matches!(err, CostModelError::Bad { .. }), "{err}");
    }
}
