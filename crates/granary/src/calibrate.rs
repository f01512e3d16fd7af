//! Measuring the machine for the planner (`granary calibrate`): a short Kalah build, a short
//! Oware build, a copy of tables into memory and a short Kalah search, each set against what the
//! default cost model estimates for it, give a [`CostModel`] for this machine.

use std::path::PathBuf;
use std::time::Instant;

use granary_rules::{Capture, Game, OwareRules, Sweep};
use granary_tables::TableKind;
use serde::Serialize;

use crate::error::{Error, SolveError};
use crate::game::{GameName, Setup};
use crate::machine::Machine;
use crate::observer::Observer;
use crate::plan::{CostModel, TableChoice, kalah_search_seconds};
use crate::solve::Settings;
use crate::tablebase::Tablebase;

/// Kalah layers the calibration builds and searches over (6 pits, standard capture): 0..=18,
/// 56 million positions, a few seconds.
pub const KALAH_LAYERS: u32 = 18;
/// Oware (6 pits, awari) layers the calibration builds: 0..=14, about 10 million positions.
pub const OWARE_LAYERS: u32 = 14;

/// One measurement against the default model's estimate of it.
#[derive(Clone, Debug, Serialize)]
pub struct Measured {
    /// What was timed, in words.
    pub what: String,
    pub seconds: f64,
    /// What the default model estimates for it.
    pub estimated: f64,
}

/// The model measured, and the measurements it comes from.
#[derive(Clone, Debug, Serialize)]
pub struct Calibration {
    pub model: CostModel,
    pub measured: Vec<Measured>,
    /// Seconds the whole calibration took.
    pub seconds: f64,
}

/// Measures this machine ([`KALAH_LAYERS`], [`OWARE_LAYERS`], Kalah(6,4) standard over the
/// Kalah layers) in a scratch directory under the system's temporary directory (removed after),
/// on `threads` threads (default: one per core), and returns the model. Save it with
/// [`CostModel::save`] where the planner finds it ([`CostModel::default_path`]).
///
/// # Errors
/// A build or search that fails (no disk or memory for the scratch tables).
pub fn calibrate(threads: Option<usize>, observer: &dyn Observer) -> Result<Calibration, Error> {
    let started = Instant::now();
    let scratch = Scratch::new()?;
    let tablebase = Tablebase::new(&scratch.0);
    let machine = Machine::detect(&scratch.0);
    let cores = threads.unwrap_or(machine.cores).max(1);
    let defaults = CostModel::default();
    let mut model = defaults.clone();
    let mut measured = Vec::new();

    let kalah = TableKind {
        game: Game::Kalah {
            capture: Capture::Standard,
            sweep: Sweep::Owner,
        },
        pits: 6,
    };
    let report = crate::build::build(&tablebase, kalah, KALAH_LAYERS, threads, None, observer)?;
    let estimated = defaults.build_seconds(kalah, 0, KALAH_LAYERS, cores);
    let factor = estimated / report.seconds.max(1e-3);
    for tier in &mut model.kalah_rate {
        tier.1 *= factor;
    }
    measured.push(Measured {
        what: format!("build {} layers 0..={KALAH_LAYERS}", kalah.name()),
        seconds: report.seconds,
        estimated,
    });

    let oware = TableKind {
        game: Game::Oware {
            rules: OwareRules::Awari,
        },
        pits: 6,
    };
    let report = crate::build::build(&tablebase, oware, OWARE_LAYERS, threads, None, observer)?;
    let estimated = defaults.build_seconds(oware, 0, OWARE_LAYERS, cores);
    model.oware_rate *= estimated / report.seconds.max(1e-3);
    measured.push(Measured {
        what: format!("build {} layers 0..={OWARE_LAYERS}", oware.name()),
        seconds: report.seconds,
        estimated,
    });

    let set = tablebase.tables(kalah);
    let copy = Instant::now();
    let mut bytes = 0;
    for n in 0..=KALAH_LAYERS {
        let layer = set.layer(n).map_err(SolveError::from)?;
        bytes += layer.len();
        // The copy is what is timed; a machine that cannot copy keeps the default rate.
        if layer.resident().is_err() {
            bytes = 0;
            break;
        }
    }
    let seconds = copy.elapsed().as_secs_f64();
    if bytes > 0 {
        model.copy_rate = bytes as f64 / seconds.max(1e-3);
        measured.push(Measured {
            what: format!("copy {bytes} bytes of layers into memory"),
            seconds,
            estimated: defaults.copy_seconds(bytes),
        });
    }

    let game = Setup {
        rules: Some("standard".into()),
        ..Setup::default()
    }
    .mancala(GameName::Kalah, None)?;
    // Planned with the defaults, whatever model is saved (it may be the one being replaced).
    let settings = Settings {
        tables: TableChoice::Seeds(KALAH_LAYERS),
        threads,
        cost_model: Some(CostModel::default()),
        ..Settings::default()
    };
    let report = crate::solve::solve(&tablebase, &game, &settings, &())?;
    let estimated = kalah_search_seconds(kalah, 48, KALAH_LAYERS, cores);
    model.search_scale = report.seconds.max(1e-3) / estimated;
    measured.push(Measured {
        what: format!("search Kalah(6,4) standard over layers 0..={KALAH_LAYERS}"),
        seconds: report.seconds,
        estimated,
    });

    model.source = format!("calibrated {} on {cores} threads", today());
    Ok(Calibration {
        model,
        measured,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// A scratch directory, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Result<Scratch, Error> {
        let dir = std::env::temp_dir().join(format!("granary-calibrate-{}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|source| Error::Io {
            path: dir.clone(),
            source,
        })?;
        Ok(Scratch(dir))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Today's date (UTC), `YYYY-MM-DD`.
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    // Days to a civil date (Howard Hinnant's algorithm).
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn today_is_a_date() {
        let t = super::today();
        assert_eq!(t.len(), 10);
        assert!(t.starts_with("20"), "{t}");
    }
}
