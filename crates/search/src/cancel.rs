//! A request to stop a search, shared between whoever may make it (a server's job, a Ctrl-C
//! handler) and the searches that heed it ([`crate::Solver::set_cancel`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

/// A flag that, once set, stays set: every clone is the same request. A search that sees it
/// set gives up, stores nothing half-searched and ends with [`crate::SolverError::Cancelled`].
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A request not made yet.
    #[must_use]
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Asks every search that heeds this request to stop.
    pub fn cancel(&self) {
        self.0.store(true, Relaxed);
    }

    /// Whether the request was made.
    #[must_use]
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Relaxed)
    }

    /// The flag itself, for the searches' stop chain.
    pub(crate) fn flag(&self) -> &AtomicBool {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_is_seen_by_every_clone_and_stays_made() {
        let cancel = Cancel::new();
        let seen = cancel.clone();
        assert!(!seen.is_cancelled());
        cancel.cancel();
        assert!(seen.is_cancelled());
        cancel.cancel();
        assert!(cancel.is_cancelled() && seen.is_cancelled());
    }
}
