//! Bao la kiswahili and Bao la kujifunza, the four-row mancala of East Africa.
//!
//! - [`board`]: pits, rows, the ring each player sows on, and its drawing;
//! - [`rules`]: the rule sets and the options where the sources disagree;
//! - [`position`]: a position (both halves, hands, nyumba ownership, takasia);
//! - [`moves`]: a move and its written form (`A6R`, `b2L`, `A3Ls`);
//! - [`turn`]: playing a turn out (captures, relay sowing, the nyumba, endless moves);
//! - [`starts`]: mtaji capture starts and takasa origins, which both of the next two read;
//! - [`movegen`]: which turns may start (compulsory capture, takasa, tax, takasia);
//! - [`notation`]: the written form of a position;
//! - [`perft`]: move-path counts;
//! - [`prove`]: a proof search for forced wins within a depth;
//! - [`pns`]: proof-number search, best-first, for deeper proofs;
//! - [`engine`]: an alpha-beta player with an evaluation, for play under a time limit.
//!
//! The rules, each with its source, are in `docs/rules/bao.md`.

pub mod board;
pub mod engine;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod pns;
pub mod position;
pub mod prove;
pub mod rules;
pub mod starts;
pub mod turn;

pub use movegen::{Moves, generate, legal_moves};
pub use moves::{Move, MoveText, Toward};
pub use position::Position;
pub use rules::{BaoRules, NyumbaRule, Start, TakasiaRule, TaxRule};
