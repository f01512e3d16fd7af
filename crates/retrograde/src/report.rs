//! What a build reports as it goes: the observer a front end implements, and what building one
//! layer did.

use std::path::PathBuf;

use granary_tables::TableKind;

use crate::peers::Traffic;
use crate::sweep::SweepReport;

/// What a build reports as it goes. Every method has an empty default; `()` observes nothing.
/// Methods are called from rayon's worker threads, hence `Sync`; they should return quickly.
pub trait BuildObserver: Sync {
    /// Layer `seeds` of `kind`, of `positions` positions, is about to be built.
    fn layer_started(&self, kind: TableKind, seeds: u32, positions: u64) {
        let _ = (kind, seeds, positions);
    }
    /// Another `positions` positions of the current layer's first pass are done.
    fn advanced(&self, positions: u64) {
        let _ = positions;
    }
    /// The current layer entered phase `t` of its retrograde analysis (values of magnitude `t`).
    fn phase(&self, t: u32) {
        let _ = t;
    }
    /// A layer was built, or found already built (`report.seconds` is `None`).
    fn layer_done(&self, report: &LayerReport) {
        let _ = report;
    }
}

impl BuildObserver for () {}

/// What building (or finding) one layer did.
#[derive(Clone, Debug)]
pub struct LayerReport {
    pub seeds: u32,
    pub positions: u64,
    /// `None` if the layer was already built.
    pub seconds: Option<f64>,
    pub path: PathBuf,
    /// What crossed between the ranks of a distributed build (`None` for one process).
    pub traffic: Option<Traffic>,
    /// How the first pass read the lower layers in tiles (`None`: at random).
    pub sweep: Option<SweepReport>,
    /// The file's bytes before and after it was compressed (`None`: left as it was).
    pub compressed: Option<(u64, u64)>,
    /// The phase a stopped build of this layer was resumed at, from its checkpoint.
    pub resumed: Option<u32>,
}
