//! The MPI ranks of a distributed build and solve (feature `mpi`, over the system's MPI
//! library, e.g. Debian's OpenMPI): `mpirun -np N granary build ...` gives each process a
//! `Cluster` (`ranks.rs`), the `Peers` that [`crate::build::build_on`] shares the layers among;
//! `mpirun -np N granary solve ...` runs `solve`: rank 0 searches the top of the tree and the
//! other ranks the jobs it hands out (`jobs.rs`: the messages; `wire.rs`: a job as the words it
//! travels in, built with or without the feature so that its tests run in every build;
//! `solve.rs`: the flow).
//!
//! What the ranks assume: a table directory on a filesystem every rank sees (NFS, Lustre, or a
//! local disk for ranks on one machine): lower layers are read from it, and each rank writes its
//! part of a layer file with positioned writes (see `granary_tables::SharedLayer`). Nothing
//! else is shared: the cross-rank work travels in `MPI_Alltoallv` exchanges.
//!
//! Faults: a rank that meets an error prints it and ends the job with `Cluster::abort`; a rank
//! that dies is noticed by `mpirun`, which ends the others. Either way no layer is left
//! half-written under its final name, and the same command resumes the layer it was building
//! from that layer's last checkpoint when every rank has one at the same phase
//! (`granary_retrograde`'s `resume`), else from the layer's start.

#[cfg(feature = "mpi")]
mod jobs;
#[cfg(feature = "mpi")]
mod ranks;
#[cfg(feature = "mpi")]
mod solve;
mod wire;

#[cfg(feature = "mpi")]
pub use ranks::{Cluster, ClusterError};
#[cfg(feature = "mpi")]
pub use solve::solve;
