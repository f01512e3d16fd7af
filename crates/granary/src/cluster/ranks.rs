//! This process's place among the ranks of an MPI job ([`Cluster`]): MPI started at the
//! threading level the ranks need, and the [`Peers`] a distributed build shares its layers
//! through (`MPI_Alltoallv` exchanges and reductions).

use mpi::Count;
use mpi::collective::SystemOperation;
use mpi::datatype::{Partition, PartitionMut};
use mpi::environment::{Threading, Universe};
use mpi::topology::{Communicator, SimpleCommunicator};
use mpi::traits::*;

use granary_retrograde::Peers;

/// Elements sent to one rank in one `MPI_Alltoallv` (its counts are C `int`s).
const CHUNK: usize = 1 << 26;

/// This process's place among the ranks of an MPI job.
pub struct Cluster {
    world: SimpleCommunicator,
    /// Ranks on this machine (they share its memory).
    local: usize,
    /// Finalizes MPI when dropped (after `world`).
    _universe: Universe,
}

impl std::fmt::Debug for Cluster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cluster")
            .field("rank", &self.world.rank())
            .field("size", &self.world.size())
            .field("local", &self.local)
            .finish()
    }
}

// SAFETY: MPI is initialized with `MPI_THREAD_SERIALIZED` or better (checked in `init`), under
// which any thread may call MPI as long as no two do at once; the builder calls a `Cluster` from
// one thread at a time (`Peers`' contract), a distributed solve from one thread a rank (the
// dispatcher's on rank 0, the main thread on a worker: `jobs.rs`), and the communicator handles
// are plain values that the MPI library, not this process's memory, gives meaning to.
unsafe impl Sync for Cluster {}
// SAFETY: as for `Sync`: the handles may be used from whichever single thread calls.
unsafe impl Send for Cluster {}

/// Why MPI could not start.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    #[error("MPI could not be initialized (or was already)")]
    Init,
    #[error(
        "the MPI library does not allow calls from several threads one at a time (MPI_THREAD_SERIALIZED)"
    )]
    Threading,
}

impl Cluster {
    /// Initializes MPI (a process started without `mpirun` is a job of one rank).
    ///
    /// # Errors
    /// If MPI cannot start, or its threading level is below `MPI_THREAD_SERIALIZED`.
    pub fn init() -> Result<Cluster, ClusterError> {
        let (universe, threading) =
            mpi::initialize_with_threading(Threading::Serialized).ok_or(ClusterError::Init)?;
        if threading < Threading::Serialized {
            return Err(ClusterError::Threading);
        }
        let world = universe.world();
        let local = world.split_shared(world.rank()).size() as usize;
        Ok(Cluster {
            world,
            local,
            _universe: universe,
        })
    }

    /// Ends every rank of the job with exit code `code` (after an error on this one).
    pub fn abort(&self, code: i32) -> ! {
        self.world.abort(code)
    }

    /// The ranks' communicator (the jobs of a distributed solve).
    pub(super) fn world(&self) -> &SimpleCommunicator {
        &self.world
    }
}

impl Peers for Cluster {
    fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    fn size(&self) -> usize {
        self.world.size() as usize
    }

    fn local_size(&self) -> usize {
        self.local
    }

    fn exchange(&self, outgoing: &[Vec<u32>]) -> Vec<u32> {
        let n = self.size();
        assert_eq!(outgoing.len(), n, "one buffer a rank");
        // Rounds of at most CHUNK elements a destination, as many as the longest buffer needs.
        let mine = outgoing.iter().map(|v| v.len().div_ceil(CHUNK)).max();
        let mut rounds = 0u64;
        self.world.all_reduce_into(
            &(mine.unwrap_or(0) as u64),
            &mut rounds,
            SystemOperation::max(),
        );
        let mut incoming: Vec<Vec<u32>> = vec![Vec::new(); n];
        for round in 0..rounds as usize {
            let pieces: Vec<&[u32]> = outgoing
                .iter()
                .map(|v| {
                    let start = (round * CHUNK).min(v.len());
                    &v[start..(start + CHUNK).min(v.len())]
                })
                .collect();
            let send_counts: Vec<Count> = pieces.iter().map(|p| p.len() as Count).collect();
            let mut recv_counts = vec![0 as Count; n];
            self.world
                .all_to_all_into(&send_counts[..], &mut recv_counts[..]);
            let send: Vec<u32> = pieces.concat();
            let send_displs = displacements(&send_counts);
            let recv_displs = displacements(&recv_counts);
            let total: usize = recv_counts.iter().map(|&c| c as usize).sum();
            let mut recv = vec![0u32; total];
            {
                let sent = Partition::new(&send[..], &send_counts[..], &send_displs[..]);
                let mut received =
                    PartitionMut::new(&mut recv[..], &recv_counts[..], &recv_displs[..]);
                self.world.all_to_all_varcount_into(&sent, &mut received);
            }
            for (from, into) in incoming.iter_mut().enumerate() {
                let start = recv_displs[from] as usize;
                into.extend_from_slice(&recv[start..start + recv_counts[from] as usize]);
            }
        }
        incoming.concat()
    }

    fn any(&self, local: bool) -> bool {
        let mut any = 0u8;
        self.world
            .all_reduce_into(&u8::from(local), &mut any, SystemOperation::max());
        any != 0
    }

    fn sum(&self, local: u64) -> u64 {
        let mut sum = 0u64;
        self.world
            .all_reduce_into(&local, &mut sum, SystemOperation::sum());
        sum
    }

    fn min(&self, local: u64) -> u64 {
        let mut min = 0u64;
        self.world
            .all_reduce_into(&local, &mut min, SystemOperation::min());
        min
    }

    fn barrier(&self) {
        self.world.barrier();
    }
}

/// Where each count's elements start in a buffer that holds them one after another.
fn displacements(counts: &[Count]) -> Vec<Count> {
    counts
        .iter()
        .scan(0, |at, &c| {
            let start = *at;
            *at += c;
            Some(start)
        })
        .collect()
}
