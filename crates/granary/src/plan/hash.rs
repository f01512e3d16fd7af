//! The search's hash table: its size by the planner's estimate of the search, measured
//! (`docs/benchmarks.md`). A larger table saves nodes but costs its first touch of every page (the
//! kernel zeroes them) and dearer probes, which a short search does not earn back.

/// The search's hash table, MiB, for a short search (and for the searches of queries). A larger
/// table saves nodes but costs its first touch of every page (the kernel zeroes them) and dearer
/// probes, which a short search does not earn back (measured: docs/benchmarks.md).
pub const DEFAULT_HASH_MIB: usize = 64;

/// The hash table, MiB, of a search estimated at [`MEDIUM_HASH_FROM_SECONDS`] or more, below
/// [`LARGE_HASH_FROM_SECONDS`]: shorter searches do not earn back the first touch of the extra
/// pages (measured: docs/benchmarks.md).
pub const MEDIUM_HASH_MIB: usize = 128;

/// The planner's estimate of a search, seconds, from which it takes [`MEDIUM_HASH_MIB`].
pub const MEDIUM_HASH_FROM_SECONDS: f64 = 4.0;

/// The hash table, MiB, of a search estimated at [`LARGE_HASH_FROM_SECONDS`] or more (see
/// [`default_hash_mib`]); what a plan's memory limits set aside for it (measured:
/// docs/benchmarks.md).
pub const LARGE_HASH_MIB: usize = 256;

/// The planner's estimate of a search, seconds, from which it takes [`LARGE_HASH_MIB`].
pub const LARGE_HASH_FROM_SECONDS: f64 = 8.0;

/// The hash tables, MiB, of long searches: from an estimated search of `.0` seconds, `.1` MiB,
/// when the memory left beside the tables holds it (else [`LARGE_HASH_MIB`]). Beyond 2 GiB the
/// nodes saved no longer pay for the dearer probes and the first touch of the pages (measured:
/// docs/benchmarks.md).
pub const LONG_HASH_MIB: [(f64, usize); 2] = [(60.0, 1024), (180.0, 2048)];

/// The hash table a search estimated at `search` seconds gets when its caller chose none and
/// memory is plentiful (a plan takes less where its tables leave less room).
#[must_use]
pub fn default_hash_mib(search: Option<f64>) -> usize {
    let s = search.unwrap_or(0.0);
    match LONG_HASH_MIB.iter().rev().find(|&&(from, _)| s >= from) {
        Some(&(_, mib)) => mib,
        None if s >= LARGE_HASH_FROM_SECONDS => LARGE_HASH_MIB,
        None if s >= MEDIUM_HASH_FROM_SECONDS => MEDIUM_HASH_MIB,
        None => DEFAULT_HASH_MIB,
    }
}
