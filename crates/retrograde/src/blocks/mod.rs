//! A layer built in blocks of its index range, so that the builder's own memory stays within a
//! budget however large the layer.
//!
//! # What lives where
//! ```text
//!   work bytes (1 byte a       the only state touched at random: a position's count of moves,
//!   position)                  its flags and, once resolved, its value (`crate::phases`).
//!                              One block: anonymous memory (huge pages); several blocks: all
//!                              in a scratch file, mapped, one block in use at a time
//!                              (file-backed pages, as the values)
//!   values (1 byte)            best exits, written by the first pass and read in order into
//!                              the lists of exits by phase that the phases' scans read
//!                              (`crate::phases`); the layer's file is written once, in order,
//!                              from the work bytes after the last phase. Anonymous memory
//!                              (huge pages) where they fit the budget
//!                              ([`crate::memory::MemoryPlan::values_in_memory`]), else a
//!                              mapped scratch file (file-backed pages: the kernel writes them
//!                              back and drops them, and reads them again in order)
//!   messages                   for parents in other blocks: a buffer in memory, spilled to a
//!                              scratch file per block when it outgrows its share
//! ```
//!
//! A position resolved in block `b` informs its parents (the retrograde analysis of
//! [`crate::phases`]): those in `b` at once, those in another block `c` by a *message* to `c`,
//! applied when `c` is next in use. A message is one `u32`: the parent's offset in its block and,
//! in the top bit, whether the child was lost (the parent is then won). A phase visits every
//! block once to find the positions its exits resolve, then again each block that has messages,
//! until none has: the values a phase assigns do not depend on the order in which parents learn
//! of their children, so the bytes are the same for every budget (and thread count).
//!
//! With a single block (no budget, or a layer that fits) there are no files and no messages:
//! the work bytes stay in memory for the whole build.
//!
//! # Memory
//! What each part takes of a budget, and when, is [`crate::memory`]'s: blocks of three quarters
//! of it, a message buffer of an eighth (up to twice that with the slack of growing buffers),
//! stacks of a sixteenth. Beside the budget, the buffers of fixed size (a thread's
//! [`LOCAL_MESSAGES`] messages and un-move batches, 256 KiB to read or write a scratch file) are
//! a constant of about a megabyte, and the lists' counts (two bytes a piece of [`crate::PIECE`]
//! positions a phase: 30 MB at awari layer 36).
//!
//! # Modules
//! - `plan`: the cut of a layer into blocks ([`BlockPlan`]), and the messages a thread gathers
//!   before it hands them to the outbox ([`LOCAL_MESSAGES`]).
//! - `scratch`: the scratch directory and its files' errors ([`ScratchError`]).
//! - `work`: the work bytes, one block in memory or every block in a mapped file.
//! - `values`: the values of the layer (a rank's share) being built ([`LayerValues`]).
//! - `outbox`: the messages to parents in other blocks.

mod outbox;
mod plan;
mod scratch;
mod values;
mod work;

pub(crate) use outbox::{LOST, Outbox};
pub use plan::{BlockPlan, LOCAL_MESSAGES, REGION, TLB_REACH};
pub(crate) use plan::{MAX_BLOCK, region};
pub(crate) use scratch::Scratch;
pub use scratch::ScratchError;
pub(crate) use values::LayerValues;
pub(crate) use work::{WorkBytes, WorkError};
