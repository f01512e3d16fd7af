//! The tables a review of the page's default game needs, built in the background as the server
//! starts ([`start`]), then the page's opening positions searched over them; their progress in
//! `GET /api/v1/variants` (`preparing`) and on the page.
//!
//! A Kalah(6,4) review searches every position above the tables. Over layers `0..=17` (what
//! `granary solve kalah` builds) a ply takes about 10 s on 2 cores; over `0..=24` a 34-ply game
//! takes about 7 s in all (`docs/benchmarks.md`). So `granary serve` builds Kalah(6)'s layers
//! up to [`REVIEW_SEEDS`], both capture rules (the page's `empty` and `standard`), the default
//! first: about 1.2 GB and a minute on 2 cores each. Requests are answered meanwhile from the
//! layers complete so far: a layer appears whole (written beside, then renamed) and is opened
//! when first read. A build the disk or memory cannot hold is not started, and says why.
//!
//! Every game on the page begins at the same position, and its search is a review's longest
//! (the most seeds above the tables). So once the tables are complete, the opening position of
//! each of the page's capture rules is searched (where [`granary::plan::reach`] sends it to a
//! search within the server's limit) and its answer kept: a review's first ply, and a query of
//! the opening, are then answered at once. A review or query that asks for it meanwhile waits
//! for that search instead of repeating it ([`crate::search::Searches::running`]).

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use granary::{Event, GameName, Setup};
use serde::Serialize;

use crate::State;

/// The layers built for reviews of the page's default game: Kalah(6)'s up to this many seeds.
pub const REVIEW_SEEDS: u32 = 24;

/// What the background build has done: `null` in JSON where the server builds nothing.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct Status {
    /// How far the work is.
    pub state: Stage,
    /// The kinds built, in order, each up to `seeds`.
    pub tables: Vec<String>,
    pub seeds: u32,
    /// The layer being built: its kind, seeds and positions.
    pub layer: Option<Building>,
    /// Seconds since the build began (until it ended).
    pub seconds: f64,
    /// Why the build stopped (`failed`).
    pub message: Option<String>,
}

/// How far the background work is (in JSON, its name in lower case).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// Building the tables.
    Building,
    /// Searching the page's opening positions over the tables built.
    Searching,
    /// Done.
    Ready,
    /// Stopped (the status's `message` says why).
    Failed,
}

/// The layer being built.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct Building {
    pub kind: String,
    pub seeds: u32,
    pub positions: u64,
}

/// The background build's status, shared with the requests.
#[derive(Debug, Default)]
pub struct Preparation {
    status: Mutex<Option<(Status, Instant)>>,
}

impl Preparation {
    /// The status now (`None`: nothing is built in the background).
    #[must_use]
    pub fn status(&self) -> Option<Status> {
        let guard = self.status.lock().unwrap_or_else(PoisonError::into_inner);
        let (status, began) = guard.as_ref()?;
        let mut status = status.clone();
        if matches!(status.state, Stage::Building | Stage::Searching) {
            status.seconds = began.elapsed().as_secs_f64();
        }
        Some(status)
    }

    fn update(&self, change: impl FnOnce(&mut Status, Instant)) {
        let mut guard = self.status.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((status, began)) = guard.as_mut() {
            change(status, *began);
        }
    }
}

/// The page's opening positions: Kalah(6,4) under each of the page's capture rules, the default
/// (`empty`) first.
fn openings() -> Vec<granary::Mancala> {
    ["empty", "standard"]
        .into_iter()
        .filter_map(|rules| {
            Setup {
                rules: Some(rules.into()),
                ..Setup::default()
            }
            .mancala(GameName::Kalah, None)
            .ok()
        })
        .collect()
}

/// The tables built: Kalah(6) of the page's capture rules, the default (`empty`) first.
fn kinds() -> Vec<granary::TableKind> {
    openings().iter().map(granary::Mancala::kind).collect()
}

/// Starts, on a thread of its own: with `seeds`, building Kalah(6)'s layers `0..=seeds` of both
/// capture rules (the default first) where they are missing, `state.preparing` following it;
/// then, with or without, searching the page's opening positions over the tables present. The
/// thread, if one could be started.
pub fn start(state: &Arc<State>, seeds: Option<u32>) -> Option<std::thread::JoinHandle<()>> {
    let kinds = kinds();
    if let Some(seeds) = seeds {
        let missing = kinds.iter().any(|&kind| {
            state
                .tablebase
                .complete_up_to(kind)
                .is_none_or(|n| n < seeds)
        });
        *state
            .preparing
            .status
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some((
            Status {
                state: if missing {
                    Stage::Building
                } else {
                    Stage::Searching
                },
                tables: kinds.iter().map(|k| k.name()).collect(),
                seeds,
                layer: None,
                seconds: 0.0,
                message: None,
            },
            Instant::now(),
        ));
    }
    let shared = Arc::clone(state);
    let spawned = std::thread::Builder::new()
        .name("granary-prepare".into())
        .spawn(move || {
            if let Some(seeds) = seeds
                && !build(&shared, seeds)
            {
                return;
            }
            search_openings(&shared);
            shared.preparing.update(|status, began| {
                status.state = Stage::Ready;
                status.seconds = began.elapsed().as_secs_f64();
            });
        });
    match spawned {
        Ok(thread) => Some(thread),
        Err(e) => {
            state.preparing.update(|status, _| {
                status.state = Stage::Failed;
                status.message = Some(format!("cannot start a thread to build: {e}"));
            });
            None
        }
    }
}

/// Builds the missing layers `0..=seeds` of [`kinds`], `state.preparing` following: whether
/// every one is complete (else the status says why not).
fn build(state: &State, seeds: u32) -> bool {
    let preparing = &state.preparing;
    let observer = |event: Event<'_>| {
        if let Event::LayerStarted {
            kind,
            seeds,
            positions,
        } = event
        {
            preparing.update(|status, _| {
                status.layer = Some(Building {
                    kind: kind.into(),
                    seeds,
                    positions,
                });
            });
        }
    };
    for kind in kinds() {
        let missing = state
            .tablebase
            .complete_up_to(kind)
            .is_none_or(|n| n < seeds);
        if !missing {
            continue;
        }
        if let Err(e) = granary::build(&state.tablebase, kind, seeds, None, None, &observer) {
            let message = crate::error::ApiError::from(granary::Error::from(e))
                .within(state.tablebase.root())
                .message;
            preparing.update(|status, began| {
                status.state = Stage::Failed;
                status.layer = None;
                status.seconds = began.elapsed().as_secs_f64();
                status.message = Some(message);
            });
            return false;
        }
    }
    preparing.update(|status, _| {
        status.state = Stage::Searching;
        status.layer = None;
    });
    true
}

/// Searches each of the page's opening positions that the tables present do not cover and that
/// [`granary::plan::reach`] sends to a search within the server's limit, and keeps its answer;
/// one searched already, or being searched, is left to that search.
fn search_openings(state: &State) {
    for game in openings() {
        let present = state.tablebase.complete_up_to(game.kind());
        let granary::plan::Reach::Search { seconds, .. } = state.solved.reach(&game, present)
        else {
            continue;
        };
        if let crate::search::Plan::Start(leader) = state.solved.plan(&game, present, seconds) {
            state.solved.run(&state.tablebase, &game, leader);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_capture_rules_are_built_to_the_seeds_asked_and_their_status_follows() {
        let dir = tempfile::tempdir().unwrap();
        let state = crate::state(&crate::Config::new(dir.path().to_path_buf()));
        assert!(state.preparing.status().is_none(), "nothing asked");
        let thread = start(&state, Some(6)).expect("missing tables are built");
        let building = state.preparing.status().unwrap();
        assert_eq!(
            (building.tables.as_slice(), building.seeds),
            (
                &[
                    "kalah-6-empty-owner".to_string(),
                    "kalah-6-standard-owner".into()
                ][..],
                6
            )
        );
        thread.join().unwrap();
        let ready = state.preparing.status().unwrap();
        assert_eq!((ready.state, ready.layer.is_none()), (Stage::Ready, true));
        for kind in kinds() {
            assert_eq!(
                state.tablebase.complete_up_to(kind),
                Some(6),
                "{}",
                kind.name()
            );
        }
        // Present already: nothing to build, and the openings (searched beyond 6 seeds: only
        // where the cost model expects it within the limit) looked at again.
        start(&state, Some(6)).unwrap().join().unwrap();
        assert_eq!(state.preparing.status().unwrap().state, Stage::Ready);
    }
}
