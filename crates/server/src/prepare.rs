//! The tables a review of the page's default game needs, built in the background as the server
//! starts ([`start`]), their progress in `GET /api/v1/variants` (`preparing`) and on the page.
//!
//! A Kalah(6,4) review searches every position above the tables. Over layers `0..=17` (what
//! `granary solve kalah` builds) a ply takes about 10 s on 2 cores; over `0..=24` a 34-ply game
//! takes about 7 s in all (`docs/benchmarks.md`). So `granary serve` builds Kalah(6)'s layers
//! up to [`REVIEW_SEEDS`], both capture rules (the page's `empty` and `standard`), the default
//! first: about 1.2 GB and a minute on 2 cores each. Requests are answered meanwhile from the
//! layers complete so far: a layer appears whole (written beside, then renamed) and is opened
//! when first read. A build the disk or memory cannot hold is not started, and says why.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use granary::{Event, GameName, Setup};
use serde::Serialize;

use crate::State;

/// The layers built for reviews of the page's default game: Kalah(6)'s up to this many seeds.
pub const REVIEW_SEEDS: u32 = 24;

/// What the background build has done: `null` in JSON where the server builds nothing.
#[derive(Clone, Debug, Serialize)]
pub struct Status {
    /// `building`, `ready` (every kind built), or `failed` (with `message`).
    pub state: &'static str,
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

/// The layer being built.
#[derive(Clone, Debug, Serialize)]
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
        if status.state == "building" {
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

/// The tables built: Kalah(6) of the page's capture rules, the default (`empty`) first.
fn kinds() -> Vec<granary::TableKind> {
    ["empty", "standard"]
        .into_iter()
        .filter_map(|rules| {
            Setup {
                rules: Some(rules.into()),
                ..Setup::default()
            }
            .mancala(GameName::Kalah, None)
            .ok()
            .map(|game| game.kind())
        })
        .collect()
}

/// Starts building, on a thread of its own, Kalah(6)'s layers `0..=seeds` of both capture rules
/// (the default first) where they are missing; `state.preparing` follows it. The thread, if one
/// was started.
pub fn start(state: &Arc<State>, seeds: u32) -> Option<std::thread::JoinHandle<()>> {
    let kinds = kinds();
    let missing = kinds.iter().any(|&kind| {
        state
            .tablebase
            .complete_up_to(kind)
            .is_none_or(|n| n < seeds)
    });
    if !missing {
        return None;
    }
    *state
        .preparing
        .status
        .lock()
        .unwrap_or_else(PoisonError::into_inner) = Some((
        Status {
            state: "building",
            tables: kinds.iter().map(|k| k.name()).collect(),
            seeds,
            layer: None,
            seconds: 0.0,
            message: None,
        },
        Instant::now(),
    ));
    let shared = Arc::clone(state);
    let spawned = std::thread::Builder::new()
        .name("granary-prepare".into())
        .spawn(move || {
            let preparing = &shared.preparing;
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
            for kind in kinds {
                if let Err(e) =
                    granary::build(&shared.tablebase, kind, seeds, None, None, &observer)
                {
                    let message = crate::error::ApiError::from(granary::Error::from(e))
                        .within(shared.tablebase.root())
                        .message;
                    preparing.update(|status, began| {
                        status.state = "failed";
                        status.layer = None;
                        status.seconds = began.elapsed().as_secs_f64();
                        status.message = Some(message);
                    });
                    return;
                }
            }
            preparing.update(|status, began| {
                status.state = "ready";
                status.layer = None;
                status.seconds = began.elapsed().as_secs_f64();
            });
        });
    match spawned {
        Ok(thread) => Some(thread),
        Err(e) => {
            state.preparing.update(|status, _| {
                status.state = "failed";
                status.message = Some(format!("cannot start a thread to build: {e}"));
            });
            None
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
        let thread = start(&state, 6).expect("missing tables are built");
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
        assert_eq!((ready.state, ready.layer.is_none()), ("ready", true));
        for kind in kinds() {
            assert_eq!(
                state.tablebase.complete_up_to(kind),
                Some(6),
                "{}",
                kind.name()
            );
        }
        // Present already: nothing to build.
        assert!(start(&state, 6).is_none());
    }
}
