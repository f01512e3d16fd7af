//! Progress of long work, as events a front end maps to what it shows (bars and lines in the
//! CLI, JSON events in a server). The library itself prints nothing.

use crate::plan::TablePlan;

/// One step of long work.
#[derive(Clone, Copy, Debug)]
pub enum Event<'a> {
    /// Tables were planned for a solve: what is used, what will be built, and why.
    Planned(&'a TablePlan),
    /// A layer of `positions` positions is about to be built.
    LayerStarted {
        kind: &'a str,
        seeds: u32,
        positions: u64,
    },
    /// Another `positions` positions of the current layer's first pass are done.
    Advanced { positions: u64 },
    /// The current layer entered phase `t` of its retrograde analysis.
    Phase { t: u32 },
    /// A layer was built (`seconds`) or found already built (`None`); `traffic`: what crossed
    /// between the ranks of a distributed build.
    LayerDone {
        kind: &'a str,
        seeds: u32,
        positions: u64,
        seconds: Option<f64>,
        traffic: Option<crate::Traffic>,
    },
    /// A pass of MTD(f) on root move `pit`: its value lies in `lower..=upper`. `nodes` and
    /// `seconds` count from the start of the search.
    Bounds {
        pit: usize,
        lower: i32,
        upper: i32,
        nodes: u64,
        seconds: f64,
    },
    /// Root move `pit` is settled: exactly `value`, or (`exact` false) no better than it.
    Settled {
        pit: usize,
        value: i32,
        exact: bool,
        nodes: u64,
        seconds: f64,
    },
    /// A long search's periodic report: `seconds` since it started, about `nodes` searched,
    /// and the journal's bytes and records if it keeps one.
    Tick {
        seconds: f64,
        nodes: u64,
        journal: Option<(u64, u64)>,
    },
    /// Bao's depth-limited proof search finished depth `depth` with `verdict` (`win in 5`...).
    Depth {
        depth: u32,
        verdict: &'a str,
        seconds: f64,
    },
}

/// Receives [`Event`]s. Called from worker threads, hence `Sync`; it should return quickly.
pub trait Observer: Sync {
    fn event(&self, event: Event<'_>);
}

/// Observes nothing.
impl Observer for () {
    fn event(&self, _: Event<'_>) {}
}

/// Any `Fn(Event)` closure is an observer.
impl<F: Fn(Event<'_>) + Sync> Observer for F {
    fn event(&self, event: Event<'_>) {
        self(event);
    }
}

/// The retrograde builder's reports, as events, for the tables named `kind`.
pub(crate) struct BuildEvents<'o> {
    pub observer: &'o dyn Observer,
    pub kind: String,
}

impl granary_retrograde::BuildObserver for BuildEvents<'_> {
    fn layer_started(&self, _: granary_tables::TableKind, seeds: u32, positions: u64) {
        self.observer.event(Event::LayerStarted {
            kind: &self.kind,
            seeds,
            positions,
        });
    }
    fn advanced(&self, positions: u64) {
        self.observer.event(Event::Advanced { positions });
    }
    fn phase(&self, t: u32) {
        self.observer.event(Event::Phase { t });
    }
    fn layer_done(&self, r: &granary_retrograde::LayerReport) {
        self.observer.event(Event::LayerDone {
            kind: &self.kind,
            seeds: r.seeds,
            positions: r.positions,
            seconds: r.seconds,
            traffic: r.traffic,
        });
    }
}
