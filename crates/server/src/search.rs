//! Kalah positions the tables do not cover: searched over the tables present where the library's
//! rule of what is answered beyond the tables sends them ([`granary::plan::reach`], with the
//! server's limit [`crate::Config::search_seconds`]), refused with a plain sentence otherwise, and
//! the answers kept in a small bounded cache.
//!
//! One search of a position runs at a time: a request for a position already being searched
//! waits for that search. A search that outlasts its request's time goes on and keeps its
//! answer, so that asking again shortly gets it at once (the request is answered 503 with
//! `Retry-After` meanwhile).

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use granary::plan::{CostModel, Reach};
use granary::{Mancala, Query};
use tokio::sync::watch;

use crate::error::ApiError;

/// What a search ends with, shared by every request waiting for it.
pub type Outcome = Result<Arc<Query>, ApiError>;

/// Finished answers, the oldest dropped first once `capacity` are kept.
#[derive(Debug)]
struct Cache {
    capacity: usize,
    answers: HashMap<String, Arc<Query>>,
    order: VecDeque<String>,
}

impl Cache {
    fn get(&self, key: &str) -> Option<Arc<Query>> {
        self.answers.get(key).cloned()
    }

    fn insert(&mut self, key: String, answer: Arc<Query>) {
        if self.capacity == 0 || self.answers.contains_key(&key) {
            return;
        }
        while self.answers.len() >= self.capacity {
            match self.order.pop_front() {
                Some(old) => {
                    self.answers.remove(&old);
                }
                None => break,
            }
        }
        self.order.push_back(key.clone());
        self.answers.insert(key, answer);
    }
}

/// The searches of one server: answers kept, searches running.
#[derive(Debug)]
pub struct Searches {
    cache: Mutex<Cache>,
    running: Mutex<HashMap<String, watch::Receiver<Option<Outcome>>>>,
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

impl Searches {
    /// `capacity` answers kept; searches estimated (by `model`, on `cores` cores) to take at most
    /// `limit` seconds.
    #[must_use]
    pub fn new(capacity: usize, limit: f64, model: CostModel, cores: usize) -> Searches {
        Searches {
            cache: Mutex::new(Cache {
                capacity,
                answers: HashMap::new(),
                order: VecDeque::new(),
            }),
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
        if let Some(receiver) = running.get(&key)
            && receiver.has_changed().is_ok()
        {
            return Plan::Running(receiver.clone());
        }
        // Checked again under the lock: a search may have ended since.
        if let Some(answer) = self.kept(&key) {
            return Plan::Kept(answer);
        }
        let (sender, receiver) = watch::channel(None);
        running.insert(key.clone(), receiver.clone());
        self.started.fetch_add(1, Ordering::Relaxed);
        Plan::Start(Leader {
            key,
            estimate,
            horizon: present,
            sender,
            receiver,
        })
    }

    /// Ends `leader`'s search with `outcome`: kept if an answer, then every waiter told.
    pub fn finish(&self, leader: Leader, outcome: Outcome) {
        if let Ok(answer) = &outcome {
            self.cache
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .insert(leader.key.clone(), Arc::clone(answer));
        }
        self.running
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&leader.key);
        leader.sender.send_replace(Some(outcome));
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
            .answers
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

    fn answer(n: i32) -> Arc<Query> {
        Arc::new(Query {
            tables: "kalah-4-standard-owner".into(),
            position: format!("answer {n}"),
            to_move: "south",
            seeds_on_board: 0,
            value: n,
            final_stores: [granary::Seeds(0), granary::Seeds(0)],
            result: "draw",
            moves: Vec::new(),
            best: Vec::new(),
            pv: Vec::new(),
            pv_end: granary::PvEnd::GameOver,
            source: granary::Source::Search,
        })
    }

    #[test]
    fn the_cache_keeps_at_most_its_capacity_dropping_the_oldest() {
        let mut cache = Cache {
            capacity: 2,
            answers: HashMap::new(),
            order: VecDeque::new(),
        };
        for n in 0..3 {
            cache.insert(format!("k{n}"), answer(n));
        }
        assert_eq!(cache.answers.len(), 2);
        assert!(cache.get("k0").is_none());
        assert_eq!(cache.get("k1").unwrap().value, 1);
        assert_eq!(cache.get("k2").unwrap().value, 2);
        // A key kept already is not added twice.
        cache.insert("k2".into(), answer(9));
        assert_eq!((cache.answers.len(), cache.order.len()), (2, 2));
        assert_eq!(cache.get("k2").unwrap().value, 2);
        let mut none = Cache {
            capacity: 0,
            answers: HashMap::new(),
            order: VecDeque::new(),
        };
        none.insert("k".into(), answer(0));
        assert!(none.get("k").is_none());
    }
}
