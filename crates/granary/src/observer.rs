//! Progress of long work, as events a front end maps to what it shows (bars and lines in the
//! CLI, JSON events in a server). The library itself prints nothing.

use serde::Serialize;

use crate::plan::TablePlan;

/// One step of long work. As JSON (`Serialize`), an object whose `event` field names the
/// variant in snake case (`planned`, `layer_started`, `bounds`, ...) beside the variant's
/// fields (a plan's fields for `planned`).
#[derive(Clone, Copy, Debug, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
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
    /// The checkpoint of a stopped build of layer `seeds` was refused (`why`, naming the file:
    /// damaged, torn, another layer's): the layer starts over.
    Restarted { seeds: u32, why: &'a str },
    /// A checkpoint of layer `seeds` was saved: a build stopped from now on resumes at phase
    /// `next`.
    Checkpointed { seeds: u32, next: u32 },
    /// The current layer entered phase `t` of its retrograde analysis.
    Phase { t: u32 },
    /// A layer was built (`seconds`) or found already built (`None`); `traffic`: what crossed
    /// between the ranks of a distributed build.
    LayerDone {
        kind: &'a str,
        seeds: u32,
        positions: u64,
        seconds: Option<f64>,
        #[serde(skip)]
        traffic: Option<crate::Traffic>,
        /// How the first pass read the lower layers in tiles (`None`: at random).
        #[serde(skip)]
        sweep: Option<crate::SweepReport>,
        /// The file's bytes before and after it was compressed (`None`: left as it was).
        #[serde(skip)]
        compressed: Option<(u64, u64)>,
        /// The phase a stopped build of the layer was resumed at.
        #[serde(skip_serializing_if = "Option::is_none")]
        resumed: Option<u32>,
        /// What the phases did, counted (`None`: not built by phases).
        #[serde(skip)]
        counts: Option<granary_retrograde::PhaseCounts>,
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
    /// Root move `pit` is settled: its exact value, or a bound (no better than the best so
    /// far); in JSON `value` or `upper` ([`crate::worth`]).
    Settled {
        pit: usize,
        #[serde(flatten, serialize_with = "crate::worth::fields")]
        worth: crate::Worth,
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
    fn restarted(&self, seeds: u32, why: &str) {
        self.observer.event(Event::Restarted { seeds, why });
    }
    fn checkpointed(&self, seeds: u32, next: u32) {
        self.observer.event(Event::Checkpointed { seeds, next });
    }
    fn layer_done(&self, r: &granary_retrograde::LayerReport) {
        self.observer.event(Event::LayerDone {
            kind: &self.kind,
            seeds: r.seeds,
            positions: r.positions,
            seconds: r.seconds,
            traffic: r.traffic,
            sweep: r.sweep,
            compressed: r.compressed,
            resumed: r.resumed,
            counts: r.counts,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_serialise_with_their_kind() {
        let plan = crate::plan::plan_solve(
            crate::table_kind(
                granary_rules::Variant::new(
                    granary_rules::Game::Kalah {
                        capture: granary_rules::Capture::Empty,
                        sweep: granary_rules::Sweep::Owner,
                    },
                    4,
                    3,
                )
                .unwrap(),
            ),
            24,
            None,
            crate::plan::TableChoice::Seeds(8),
            None,
            &crate::Machine {
                memory: 1 << 34,
                available_memory: 1 << 34,
                free_disk: 1 << 40,
                cores: 2,
            },
            &crate::plan::CostModel::default(),
        )
        .unwrap();
        let events = [
            Event::Planned(&plan),
            Event::LayerStarted {
                kind: "kalah-4-empty-owner",
                seeds: 3,
                positions: 10,
            },
            Event::Bounds {
                pit: 2,
                lower: -4,
                upper: 8,
                nodes: 99,
                seconds: 0.5,
            },
            Event::Tick {
                seconds: 60.0,
                nodes: 1,
                journal: Some((160, 1)),
            },
        ];
        let kinds: Vec<String> = events
            .iter()
            .map(|e| {
                serde_json::to_value(e).unwrap()["event"]
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect();
        assert_eq!(kinds, ["planned", "layer_started", "bounds", "tick"]);
        let planned = serde_json::to_value(events[0]).unwrap();
        assert_eq!(planned["horizon"], 8);
        assert_eq!(serde_json::to_value(events[2]).unwrap()["upper"], 8);
    }
}
