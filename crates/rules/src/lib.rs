//! Rules of the two-row mancala games Kalah(m,n) and Oware(m,n).
//!
//! - [`board`]: the packed board, every pit a byte lane of one `u128` seen from the mover;
//! - [`sowing`]: sowing shared by all games, a table-driven SWAR add;
//! - [`kalah`] and [`oware`]: what each game adds (captures, extra moves, legality, the end);
//! - [`pits`]: the pit count read at run time or a constant a search or builder is compiled for;
//! - [`position`], [`rules`]: the packed position and the [`Rules`] trait search and tables use;
//! - [`variant`]: a game with its options and sizes, as the command line names it;
//! - [`notation`]: the written form `S1,...,Sm/N1,...,Nm [SS-NS] [S|N]`;
//! - [`reference`](mod@reference): a plain, slow implementation that tests hold the packed one to;
//! - [`perft`]: move-path counting.
//!
//! Moves are lanes `0..m` here (pit numbers `1..m` on the command line), counted from the mover's
//! first pit in sowing order.

pub mod board;
pub mod kalah;
pub mod notation;
pub mod oware;
pub mod perft;
pub mod pits;
pub mod position;
pub mod record;
pub mod reference;
pub mod rules;
pub mod side;
pub mod sowing;
pub mod variant;

pub use board::Board;
pub use kalah::{Capture, Kalah, Sweep};
pub use oware::{Oware, OwareRules};
pub use pits::{AnyPits, ConstPits, PitCount};
pub use position::{Position, exit_value, undo_exit};
pub use record::{GameEnd, MoveError, Record, Status};
pub use rules::{End, MoveSet, Outcome, Rules};
pub use side::Side;
pub use variant::{
    Engine, Game, OptionError, PitsError, RulesVisitor, Variant, VariantError, checked_pits,
};
