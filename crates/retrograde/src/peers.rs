//! The processes of a distributed build, as the builder sees them: a rank among `size`, and the
//! collective operations the build needs (exchange, any, sum, min, max, broadcast, barrier).
//! One process alone is [`Solo`]; the MPI ranks of `granary build` under `mpirun` are another
//! implementation (the `mpi` feature of the `granary` library), so that this crate needs no MPI.
//!
//! # The distributed build
//! ```text
//!   layer n's index range   | rank 0's blocks | rank 1's blocks | ... | rank N-1's blocks |
//!                            contiguous slices of whole blocks (crate::blocks::BlockPlan)
//! ```
//! Every rank solves the positions of its slice by the phases of [`crate::phases`]: it scans
//! its own blocks, and a resolved position's parents in another rank's block become messages
//! (the same `u32` messages as between blocks of one process), sent after each sweep in one
//! [`Peers::exchange`]; a phase ends when no rank has messages left ([`Peers::any`]). Ranks
//! share no memory. Each holds a slice of every finished lower layer and asks the others for
//! the exits it does not hold, in rounds of the first pass (`owners`); where a rank's
//! share of the lower layers exceeds a quarter of its budget, each rank reads them all instead,
//! in tiles ([`crate::sweep`]). Ranks write their slices of the layer file through a filesystem
//! every rank sees (see [`crate::build`]). The values do not depend on the order in which
//! parents learn of their children, so the files are byte-identical for any number of ranks.
//!
//! Every call is collective: every rank makes the same calls in the same order. A rank that
//! fails returns its error; the caller must then end the whole job (`MPI_Abort`), since the
//! other ranks wait for it in their next collective call.

/// The ranks of a distributed build. Methods are called from one thread at a time.
pub trait Peers: Sync {
    /// This process's rank, in `0..size()`.
    fn rank(&self) -> usize;
    /// How many ranks.
    fn size(&self) -> usize;
    /// How many ranks run on this machine and share its memory (1 unless told).
    fn local_size(&self) -> usize {
        1
    }
    /// Sends `outgoing[r]` to rank `r` (every rank passes `size()` buffers) and returns what
    /// every rank sent to this one, in rank order.
    fn exchange(&self, outgoing: &[Vec<u32>]) -> Vec<u32>;
    /// Whether any rank passed `true`.
    fn any(&self, local: bool) -> bool;
    /// The sum of what every rank passed.
    fn sum(&self, local: u64) -> u64;
    /// The least of what every rank passed.
    fn min(&self, local: u64) -> u64;
    /// The greatest of what every rank passed.
    fn max(&self, local: u64) -> u64 {
        u64::MAX - self.min(u64::MAX - local)
    }
    /// What rank 0 passed, on every rank.
    fn broadcast(&self, local: u64) -> u64 {
        self.sum(if self.rank() == 0 { local } else { 0 })
    }
    /// Waits until every rank has called it.
    fn barrier(&self);
}

/// One process alone: rank 0 of 1.
#[derive(Clone, Copy, Debug, Default)]
pub struct Solo;

impl Peers for Solo {
    fn rank(&self) -> usize {
        0
    }
    fn size(&self) -> usize {
        1
    }
    fn exchange(&self, outgoing: &[Vec<u32>]) -> Vec<u32> {
        outgoing.concat()
    }
    fn any(&self, local: bool) -> bool {
        local
    }
    fn sum(&self, local: u64) -> u64 {
        local
    }
    fn min(&self, local: u64) -> u64 {
        local
    }
    fn barrier(&self) {}
}

/// What crossed between the ranks while a layer was built.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Traffic {
    /// Messages sent to other ranks (one a parent informed), by every rank.
    pub messages: u64,
    /// Bytes sent to other ranks (messages, lookups, answers and their framing), by every rank.
    pub bytes: u64,
    /// Entries of lower layers asked of the ranks that hold them, by every rank (the first
    /// pass, `owners`).
    pub lookups: u64,
    /// Exchanges (collective rounds of messages or lookups).
    pub exchanges: u64,
    /// Seconds rank 0 spent in exchanges and agreements, waiting for the others included.
    pub seconds: f64,
}
