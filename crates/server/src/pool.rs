//! A bounded pool of work kept off the async runtime: a number of slots, a bounded queue of
//! requests waiting for one, and where the work runs. The server has two ([`crate::State`]):
//! searches (Kalah searches beyond the tables, the Bao engine), each on a thread of its own, and
//! small work (positions shown, answers read from the tables) on tokio's blocking pool. Neither
//! takes the other's slots, queue or threads, so a small request never waits behind a search.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::time::Duration;

use axum::http::StatusCode;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, oneshot};
use tokio::time::Instant;

use crate::error::{ApiError, internal, late};

/// Where a pool's work runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threads {
    /// tokio's blocking pool: short work.
    Blocking,
    /// A thread of its own, with this name, for each piece of work: long work, which holds its
    /// thread for its whole length.
    Own(&'static str),
}

/// What a piece of work ends with: its value, or the panic that ended it.
pub type Ended<T> = oneshot::Receiver<std::thread::Result<T>>;

/// Slots, a queue, and threads.
#[derive(Debug)]
pub struct Pool {
    slots: Arc<Semaphore>,
    /// Requests waiting for a slot now.
    waiting: AtomicUsize,
    max_queue: usize,
    threads: Threads,
}

impl Pool {
    /// `slots` pieces of work at once (at least one), `max_queue` requests waiting for a slot.
    #[must_use]
    pub fn new(slots: usize, max_queue: usize, threads: Threads) -> Pool {
        Pool {
            slots: Arc::new(Semaphore::new(slots.max(1))),
            waiting: AtomicUsize::new(0),
            max_queue,
            threads,
        }
    }

    /// Slots free now.
    #[must_use]
    pub fn free(&self) -> usize {
        self.slots.available_permits()
    }

    /// A slot if one is free now; it is held until dropped.
    #[must_use]
    pub fn try_slot(&self) -> Option<OwnedSemaphorePermit> {
        Arc::clone(&self.slots).try_acquire_owned().ok()
    }

    /// A slot, waiting in the queue until `deadline` at most (`timeout` names the limit in the
    /// answer).
    ///
    /// # Errors
    /// 503 with `Retry-After`: the queue is full, or the time runs out.
    pub async fn slot(
        &self,
        deadline: Instant,
        timeout: Duration,
    ) -> Result<OwnedSemaphorePermit, ApiError> {
        if let Some(slot) = self.try_slot() {
            return Ok(slot);
        }
        if self.waiting.fetch_add(1, SeqCst) >= self.max_queue {
            self.waiting.fetch_sub(1, SeqCst);
            return Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "too many requests are waiting; try again shortly",
            ));
        }
        let acquired =
            tokio::time::timeout_at(deadline, Arc::clone(&self.slots).acquire_owned()).await;
        self.waiting.fetch_sub(1, SeqCst);
        match acquired {
            Ok(Ok(slot)) => Ok(slot),
            Ok(Err(_)) => Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server is shutting down",
            )),
            Err(_) => Err(late(timeout)),
        }
    }

    /// A slot, however long it takes (a job's, which waits as queued and is bounded by the
    /// jobs a server holds, not by this pool's queue); `None` if the server is shutting down.
    pub async fn queued_slot(&self) -> Option<OwnedSemaphorePermit> {
        Arc::clone(&self.slots).acquire_owned().await.ok()
    }

    /// Starts `work`, which holds `slot` until it ends (even once nobody awaits its value).
    ///
    /// # Errors
    /// 500: no thread could be started for it.
    pub fn spawn<T: Send + 'static>(
        &self,
        slot: OwnedSemaphorePermit,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<Ended<T>, ApiError> {
        let (sender, receiver) = oneshot::channel();
        let job = move || {
            let ended = std::panic::catch_unwind(AssertUnwindSafe(work));
            // Free before the value is told, so that whoever hears it finds the slot free.
            drop(slot);
            let _ = sender.send(ended);
        };
        match self.threads {
            Threads::Blocking => {
                tokio::task::spawn_blocking(job);
            }
            Threads::Own(name) => {
                std::thread::Builder::new()
                    .name(name.into())
                    .spawn(job)
                    .map_err(|e| internal(format!("cannot start a thread to answer: {e}")))?;
            }
        }
        Ok(receiver)
    }

    /// `work`'s value once a slot is free, within `timeout` from now, queueing included.
    ///
    /// # Errors
    /// 503 with `Retry-After`: the queue is full or the time runs out (the work goes on to its
    /// end, holding its slot); 500 if the work panics.
    pub async fn run<T: Send + 'static>(
        &self,
        timeout: Duration,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let deadline = Instant::now() + timeout;
        let slot = self.slot(deadline, timeout).await?;
        let ended = self.spawn(slot, work)?;
        match tokio::time::timeout_at(deadline, ended).await {
            Err(_) => Err(late(timeout)),
            Ok(Ok(Ok(value))) => Ok(value),
            Ok(_) => Err(internal("internal error while answering")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap()
    }

    #[test]
    fn a_full_pool_queues_up_to_its_bound_and_then_answers_503() {
        runtime().block_on(async {
            let pool = Pool::new(1, 1, Threads::Own("test"));
            let held = pool.try_slot().unwrap();
            assert_eq!(pool.free(), 0);
            // One waits (and times out); a second finds the queue full at once.
            let waiting = pool.slot(Instant::now() + Duration::from_millis(300), Duration::ZERO);
            let (first, second) = tokio::join!(waiting, async {
                tokio::time::sleep(Duration::from_millis(50)).await;
                pool.slot(Instant::now() + Duration::from_secs(5), Duration::ZERO)
                    .await
            });
            let (first, second) = (first.unwrap_err(), second.unwrap_err());
            assert_eq!(first.status, StatusCode::SERVICE_UNAVAILABLE);
            assert!(first.message.contains("takes longer"), "{}", first.message);
            assert!(second.message.contains("waiting"), "{}", second.message);
            drop(held);
            assert_eq!(pool.run(Duration::from_secs(5), || 7).await.unwrap(), 7);
            assert_eq!(pool.free(), 1);
        });
    }

    #[test]
    fn work_runs_on_the_pools_threads_and_a_panic_is_500() {
        runtime().block_on(async {
            let own = Pool::new(2, 0, Threads::Own("granary-test-search"));
            let name = own
                .run(Duration::from_secs(5), || {
                    std::thread::current().name().map(String::from)
                })
                .await
                .unwrap();
            assert_eq!(name.as_deref(), Some("granary-test-search"));
            let blocking = Pool::new(1, 0, Threads::Blocking);
            let name = blocking
                .run(Duration::from_secs(5), || {
                    std::thread::current().name().map(String::from)
                })
                .await
                .unwrap();
            assert_ne!(name.as_deref(), Some("granary-test-search"));
            let err = blocking
                .run(Duration::from_secs(5), || -> u8 { panic!("deliberate") })
                .await
                .unwrap_err();
            assert_eq!(err.status, StatusCode::INTERNAL_SERVER_ERROR);
            // The panicking work gave its slot back.
            assert_eq!(blocking.free(), 1);
        });
    }

    #[test]
    fn work_past_its_time_goes_on_holding_its_slot() {
        runtime().block_on(async {
            let pool = Pool::new(1, 4, Threads::Own("test"));
            let (tx, rx) = std::sync::mpsc::channel::<()>();
            let err = pool
                .run(Duration::from_millis(50), move || rx.recv())
                .await
                .unwrap_err();
            assert!(err.message.contains("takes longer"), "{}", err.message);
            assert_eq!(pool.free(), 0, "the work still holds its slot");
            tx.send(()).unwrap();
            let started = std::time::Instant::now();
            while pool.free() == 0 {
                assert!(started.elapsed() < Duration::from_secs(5));
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        });
    }
}
