//! Kalah positions the tables do not cover: searched over the tables present where the library's
//! rule of what is answered beyond the tables sends them ([`granary::plan::reach`], with the
//! server's limit [`crate::Config::search_seconds`]), refused with a plain sentence otherwise, and
//! the answers kept in a small bounded cache.
//!
//! One search of a position runs at a time: a request for a position already being searched
//! waits for that search. A search that outlasts its request's time goes on and keeps its
//! answer, so that asking again gets it at once (the request is answered with a job that
//! follows the search meanwhile, [`crate::query`]).

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use granary::plan::{CostModel, Reach};
use granary::{Mancala, Query};
use tokio::sync::watch;

use crate::error::ApiError;
use crate::kept::Kept;

/// What a search ends with, shared by every request waiting for it.
pub type Outcome = Result<Arc<Query>, ApiError>;

/// Told a search's outcome as it ends, on the search's thread ([`Searches::follow`]).
pub type Follower = Box<dyn FnOnce(&Outcome) + Send>;

/// A search running: the channel its waiters hear, and those to tell as it ends.
struct Running {
    receiver: watch::Receiver<Option<Outcome>>,
    followers: Vec<Follower>,
}

impl std::fmt::Debug for Running {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "a search followed by {}", self.followers.len())
    }
}

/// The searches of one server: answers kept, searches running.
#[derive(Debug)]
pub struct Searches {
    cache: Mutex<Kept<Arc<Query>>>,
    running: Mutex<HashMap<String, Running>>,
    /// Searches started since the server began.
    started: AtomicUsize,
    model: CostModel,
    cores: usize,
    /// The most estimated seconds a search may take.
    pub limit: f64,
}

/// What to do with a Kalah position the tables do not cover.
#[derive(Debug)]
pub enum Plan {
    /// Answered before.
    Kept(Arc<Query>),
    /// Being searched: wait for it.
    Running(watch::Receiver<Option<Outcome>>),
    /// Search it (this request leads; others join).
    Start(Leader),
}

/// The right to run a search, with the channel its waiters hear.
#[derive(Debug)]
pub struct Leader {
    pub key: String,
    pub estimate: f64,
    pub horizon: Option<u32>,
    sender: watch::Sender<Option<Outcome>>,
    pub receiver: watch::Receiver<Option<Outcome>>,
}

impl Leader {
    /// Receivers of the search's outcome now, besides the leader's own: the searches map's and
    /// one for each request or job waiting.
    #[must_use]
    pub fn waiters(&self) -> usize {
        self.sender.receiver_count() - 1
    }
}

impl Searches {
    /// `capacity` answers kept; searches estimated (by `model`, on `cores` cores) to take at most
    /// `limit` seconds.
    #[must_use]
    pub fn new(capacity: usize, limit: f64, model: CostModel, cores: usize) -> Searches {
        Searches {
            cache: Mutex::new(Kept::new(capacity)),
            running: Mutex::new(HashMap::new()),
            started: AtomicUsize::new(0),
            model,
            cores: cores.max(1),
            limit,
        }
    }

    /// The cache's key of `game`'s position.
    #[must_use]
    pub fn key(game: &Mancala) -> String {
        let kind = game.kind();
        format!(
            "{} {}",
            kind.name(),
            granary::format_position(&game.position, kind.pits)
        )
    }

    /// The answer kept for `key`, if any.
    pub fn kept(&self, key: &str) -> Option<Arc<Query>> {
        self.cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(key)
    }

    /// How `game`'s position is answered with layers `0..=present` present: the library's rule
    /// ([`granary::plan::reach`]) with this server's cost model, cores and search limit.
    #[must_use]
    pub fn reach(&self, game: &Mancala, present: Option<u32>) -> Reach {
        let kind = game.kind();
        let seeds = game.position.board.seeds(kind.pits);
        granary::plan::reach(kind, seeds, present, self.limit, &self.model, self.cores)
    }

    /// Keeps `answer`, found for `game`'s position by other work (a review's search).
    pub fn keep(&self, game: &Mancala, answer: Arc<Query>) {
        self.cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(Searches::key(game), answer);
    }

    /// Kept, running, or to be started by the caller, for a position [`Searches::reach`] sends
    /// to a search over layers `0..=present`, estimated at `estimate` seconds.
    pub fn plan(&self, game: &Mancala, present: Option<u32>, estimate: f64) -> Plan {
        let key = Searches::key(game);
        if let Some(answer) = self.kept(&key) {
            return Plan::Kept(answer);
        }
        let mut running = self.running.lock().unwrap_or_else(PoisonError::into_inner);
        // A search whose leader is gone without an outcome (its thread never started) is
        // started again.
        if let Some(search) = running.get(&key)
            && search.receiver.has_changed().is_ok()
        {
            return Plan::Running(search.receiver.clone());
        }
        // Checked again under the lock: a search may have ended since.
        if let Some(answer) = self.kept(&key) {
            return Plan::Kept(answer);
        }
        let (sender, receiver) = watch::channel(None);
        running.insert(
            key.clone(),
            Running {
                receiver: receiver.clone(),
                followers: Vec::new(),
            },
        );
        self.started.fetch_add(1, Ordering::Relaxed);
        Plan::Start(Leader {
            key,
            estimate,
            horizon: present,
            sender,
            receiver,
        })
    }

    /// The search of `key` running now, if any: its waiters' channel.
    pub fn running(&self, key: &str) -> Option<watch::Receiver<Option<Outcome>>> {
        self.running
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(key)
            .map(|search| &search.receiver)
            .filter(|receiver| receiver.has_changed().is_ok())
            .cloned()
    }

    /// Has `follower` told the outcome of the search of `key` as it ends, on the search's
    /// thread, whatever runtime asked. No search of `key` running (it has ended, or its leader
    /// is gone): the follower is handed back.
    ///
    /// # Errors
    /// The follower, when no search of `key` is running.
    pub fn follow(&self, key: &str, follower: Follower) -> Result<(), Follower> {
        let mut running = self.running.lock().unwrap_or_else(PoisonError::into_inner);
        match running.get_mut(key) {
            Some(search) if search.receiver.has_changed().is_ok() => {
                search.followers.push(follower);
                Ok(())
            }
            _ => Err(follower),
        }
    }

    /// Runs `leader`'s search of `game` on this thread and ends it ([`Searches::finish`]): its
    /// answer kept, or its error (a panic is an internal error), told to every waiter.
    pub fn run(&self, tablebase: &granary::Tablebase, game: &Mancala, leader: Leader) {
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            search(tablebase, game, leader.horizon, leader.estimate)
        }));
        let outcome = match outcome {
            Ok(Ok(query)) => Ok(Arc::new(query)),
            Ok(Err(e)) => Err(ApiError::from(e).within(tablebase.root())),
            Err(_) => Err(crate::error::internal("internal error while searching")),
        };
        self.finish(leader, outcome);
    }

    /// Ends `leader`'s search with `outcome`: kept if an answer, then every waiter and
    /// follower told.
    pub fn finish(&self, leader: Leader, outcome: Outcome) {
        if let Ok(answer) = &outcome {
            self.cache
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .insert(leader.key.clone(), Arc::clone(answer));
        }
        let followers = self
            .running
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&leader.key)
            .map(|search| search.followers)
            .unwrap_or_default();
        leader.sender.send_replace(Some(outcome.clone()));
        for follower in followers {
            follower(&outcome);
        }
    }

    /// Searches started since the server began (a kept answer starts none).
    #[must_use]
    pub fn started_count(&self) -> usize {
        self.started.load(Ordering::Relaxed)
    }

    /// Answers kept now.
    #[must_use]
    pub fn kept_count(&self) -> usize {
        self.cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }
}

/// Searches `game`'s position over layers `0..=horizon` present (nothing is built), every move
/// exact, with a hash table sized for a search of `estimate` seconds: the answer as the tables
/// would give it, `source` `search` ([`granary::Tablebase::search`]).
///
/// # Errors
/// Tables that cannot be read.
pub fn search(
    tablebase: &granary::Tablebase,
    game: &Mancala,
    horizon: Option<u32>,
    estimate: f64,
) -> Result<Query, granary::Error> {
    let hash_mib = granary::plan::default_hash_mib(Some(estimate));
    tablebase.search(game, horizon, hash_mib, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_follower_is_told_the_outcome_as_the_search_ends_or_handed_back_when_none_runs() {
        let searches = Searches::new(4, 60.0, CostModel::default(), 1);
        let game = granary::Setup::default()
            .mancala(granary::GameName::Kalah, None)
            .unwrap();
        let key = Searches::key(&game);
        let (told, heard) = std::sync::mpsc::channel();
        let follower = |told: std::sync::mpsc::Sender<String>| -> Follower {
            Box::new(move |outcome: &Outcome| {
                let _ = told.send(format!("{:?}", outcome.as_ref().map(|q| q.value)));
            })
        };
        // No search of the position: handed back, and never told.
        assert!(searches.follow(&key, follower(told.clone())).is_err());
        let Plan::Start(leader) = searches.plan(&game, None, 1.0) else {
            panic!("a new search");
        };
        assert!(searches.follow(&key, follower(told.clone())).is_ok());
        assert!(heard.try_recv().is_err(), "told before the search ended");
        let err = ApiError::new(axum::http::StatusCode::INTERNAL_SERVER_ERROR, "damaged");
        searches.finish(leader, Err(err));
        assert!(heard.try_recv().unwrap().contains("damaged"));
        // Ended: handed back again.
        assert!(searches.follow(&key, follower(told)).is_err());
        assert!(heard.try_recv().is_err());
    }
}
