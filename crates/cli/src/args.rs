//! Command-line arguments, and turning the variant arguments into a [`Variant`] and a start.

use clap::{Args, Parser, Subcommand, ValueEnum};
use granary_rules::notation::parse_position;
use granary_rules::{Capture, Game, OptionError, OwareRules, Position, Sweep, Variant};

use crate::error::CliError;

#[derive(Parser, Debug)]
#[command(name = "granary", version, about = "Perfect play for mancala games")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// List every game, its rule options and defaults.
    Variants(VariantsArgs),
    /// Show a position: the start, or --position, after --moves.
    Show(ShowArgs),
    /// Count the move sequences of exactly --depth moves.
    Perft(PerftArgs),
}

#[derive(Args, Debug)]
pub struct VariantsArgs {
    /// One JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The game names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GameName {
    Kalah,
    Oware,
}

/// A game, its options, its size and a position.
#[derive(Args, Debug)]
pub struct VariantArgs {
    /// The game.
    pub game: GameName,
    /// Pits a side, 1 to 8 [default: 6, or the position's].
    #[arg(long)]
    pub pits: Option<usize>,
    /// Seeds a pit at the start [default: 4].
    #[arg(long, default_value_t = 4)]
    pub seeds: u32,
    /// Rule set: kalah `empty` (default) or `standard` capture; oware `abapa` (default) or `awari`.
    #[arg(long)]
    pub rules: Option<String>,
    /// Kalah: who takes the seeds left when a side is empty: `owner` (default) or `emptied`.
    #[arg(long)]
    pub sweep: Option<String>,
    /// Start from this position instead: `S1,..,Sm/N1,..,Nm [SS-NS] [S|N]`.
    #[arg(long, allow_hyphen_values = true)]
    pub position: Option<String>,
}

#[derive(Args, Debug)]
pub struct ShowArgs {
    #[command(flatten)]
    pub variant: VariantArgs,
    /// Moves to play first, as pit numbers: 1,3,2,...
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub moves: Vec<String>,
    /// One JSON object instead of a drawing.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    pub variant: VariantArgs,
    /// Moves a sequence.
    #[arg(long)]
    pub depth: u32,
    /// Split the count by first move.
    #[arg(long)]
    pub divide: bool,
    /// One JSON object: {"depth": D, "nodes": N}.
    #[arg(long)]
    pub json: bool,
}

/// Parses an option's value with the game's names; an unknown one names the flag.
fn choose<T: std::str::FromStr<Err = OptionError> + Copy>(
    flag: &str,
    given: Option<&str>,
    default: T,
) -> Result<T, CliError> {
    given.map_or(Ok(default), |g| {
        g.parse()
            .map_err(|e: OptionError| CliError(format!("{flag} {e}")))
    })
}

impl VariantArgs {
    /// The game with its options.
    pub fn game(&self) -> Result<Game, CliError> {
        let rules = self.rules.as_deref();
        Ok(match self.game {
            GameName::Kalah => Game::Kalah {
                capture: choose("--rules", rules, Capture::ALL[0])?,
                sweep: choose("--sweep", self.sweep.as_deref(), Sweep::ALL[0])?,
            },
            GameName::Oware => {
                if self.sweep.is_some() {
                    return Err(CliError("--sweep is a kalah option; oware has none".into()));
                }
                Game::Oware {
                    rules: choose("--rules", rules, OwareRules::ALL[0])?,
                }
            }
        })
    }

    /// The variant and the position to start from.
    pub fn resolve(&self) -> Result<(Variant, Position), CliError> {
        let game = self.game()?;
        match &self.position {
            None => {
                let variant = Variant::new(game, self.pits.unwrap_or(6), self.seeds)?;
                Ok((variant, variant.start()))
            }
            Some(text) => {
                let (position, pits) = parse_position(text, self.pits)?;
                Ok((Variant::new(game, pits, self.seeds)?, position))
            }
        }
    }
}
