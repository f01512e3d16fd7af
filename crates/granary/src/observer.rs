//! Progress of long work, as events a front end maps to what it shows (bars and lines in the
//! CLI, JSON events in a server). The library itself prints nothing.

use granary_retrograde::LayerReport;
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

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
    /// A layer was built (`report.seconds`) or found already built (`None`). As JSON its
    /// `kind`, `seeds`, `positions`, `seconds`, and `resumed` where a stopped build of it was
    /// resumed; the rest of the report is for people ([`LayerReport::line`]).
    LayerDone {
        kind: &'a str,
        #[serde(flatten, serialize_with = "layer_fields")]
        report: &'a LayerReport,
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

/// Writes what [`Event::LayerDone`] says in JSON of a layer's report, as fields of the event:
/// `seeds`, `positions`, `seconds` (`null`: found built), and `resumed` where there is one.
///
/// # Errors
/// The serializer's.
fn layer_fields<S: Serializer>(report: &&LayerReport, serializer: S) -> Result<S::Ok, S::Error> {
    let mut map = serializer.serialize_map(None)?;
    map.serialize_entry("seeds", &report.seeds)?;
    map.serialize_entry("positions", &report.positions)?;
    map.serialize_entry("seconds", &report.seconds)?;
    if let Some(phase) = report.resumed {
        map.serialize_entry("resumed", &phase)?;
    }
    map.end()
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
    fn layer_done(&self, report: &LayerReport) {
        self.observer.event(Event::LayerDone {
            kind: &self.kind,
            report,
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

    #[test]
    fn a_layer_done_serialises_its_counts_and_not_the_rest_of_its_report() {
        let mut report = LayerReport {
            seeds: 3,
            positions: 10,
            seconds: Some(0.5),
            path: "3.tbl".into(),
            traffic: Some(crate::Traffic::default()),
            sweep: Some(crate::SweepReport::default()),
            compressed: Some((10, 5)),
            resumed: None,
            counts: Some(granary_retrograde::PhaseCounts::default()),
        };
        let json = |report: &LayerReport| {
            serde_json::to_string(&Event::LayerDone {
                kind: "kalah-4-empty-owner",
                report,
            })
            .unwrap()
        };
        assert_eq!(
            json(&report),
            r#"{"event":"layer_done","kind":"kalah-4-empty-owner","seeds":3,"positions":10,"seconds":0.5}"#
        );
        report.resumed = Some(7);
        report.seconds = None;
        assert_eq!(
            json(&report),
            r#"{"event":"layer_done","kind":"kalah-4-empty-owner","seeds":3,"positions":10,"seconds":null,"resumed":7}"#
        );
    }
}
