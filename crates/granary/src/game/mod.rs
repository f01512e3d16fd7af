//! The games a user can name, and turning what a user wrote into a game and a position.
//!
//! Options arrive as the strings a user typed (`--rules standard`, `?rules=standard`); [`Setup`]
//! checks them against the game and names the option at fault. Kalah and Oware resolve to a
//! [`Variant`](crate::Variant) and a two-row [`Position`](crate::Position); Bao to its
//! [`BaoRules`](crate::BaoRules) and a [`BaoPosition`].
//!
//! - `catalogue`: the games, their rule options and defaults ([`GameName`], [`catalogue()`]);
//! - `setup`: what a user wrote ([`Setup`]) resolved to a game and a position ([`Mancala`],
//!   Bao's rules and a [`BaoPosition`]);
//! - `parse`: lists of moves ([`parse_pits`]) and families of starts ([`parse_family`]) as typed;
//! - `counts`: a position given as numbers ([`Counts`]), checked against the packed board;
//! - `moves`: a move as any game writes it ([`GameMove`]).

mod catalogue;
mod counts;
mod moves;
mod parse;
mod setup;

pub use catalogue::{
    DEFAULT_PITS, DEFAULT_SEEDS, GameInfo, GameName, OptionInfo, Range, Values, catalogue, options,
};
pub use counts::{Counts, CountsError};
pub use moves::GameMove;
pub use parse::{parse_family, parse_pits};
pub use setup::{AnyGame, BaoPosition, Mancala, Setup};
