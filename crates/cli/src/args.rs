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
    /// Build endgame tables: layers 0..=--max-seeds that are missing.
    Build(BuildArgs),
    /// Perfect play in a position from the tables.
    Query(QueryArgs),
    /// Check every table file: header, checksum, values, a sample against its children.
    Verify(VerifyArgs),
    /// What tables are built: layers, sizes, value counts.
    Info(InfoArgs),
    /// Solve a position (default: the start) exactly: value, final score, moves, a principal variation.
    Solve(SolveArgs),
    /// Play against perfect play in the terminal (hint, undo, quit).
    Play(PlayArgs),
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
    Bao,
}

/// A game and its rule options.
#[derive(Args, Debug)]
pub struct GameArgs {
    /// The game.
    pub game: GameName,
    /// Pits a side, 1 to 8 [default: 6, or the position's].
    #[arg(long)]
    pub pits: Option<usize>,
    /// Rule set: kalah `empty` (default) or `standard` capture; oware `abapa` (default) or `awari`;
    /// bao `kiswahili` (default), `kujifunza` or `malawi`.
    #[arg(long)]
    pub rules: Option<String>,
    /// Kalah: who takes the seeds left when a side is empty: `owner` (default) or `emptied`.
    #[arg(long)]
    pub sweep: Option<String>,
    /// Bao: when the nyumba stops being special: `emptied` (default), `below6` or `namua`.
    #[arg(long)]
    pub nyumba: Option<String>,
    /// Bao: takasia `kiba` (default) or `off`.
    #[arg(long)]
    pub takasia: Option<String>,
    /// Bao: when the nyumba may be taxed: `last-resort` (default) or `always`.
    #[arg(long)]
    pub tax: Option<String>,
}

/// A game, its options, its size and a position.
#[derive(Args, Debug)]
pub struct VariantArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Seeds a pit at the start (kalah, oware).
    #[arg(long, default_value_t = 4)]
    pub seeds: u32,
    /// Start from this position instead: `S1,..,Sm/N1,..,Nm [SS-NS] [S|N]` (bao: see docs/notation.md).
    #[arg(long, allow_hyphen_values = true)]
    pub position: Option<String>,
}

/// Where tables live.
#[derive(Args, Debug)]
pub struct DirArgs {
    /// Table directory [default: $GRANARY_TABLES, else data/tables].
    #[arg(long)]
    pub dir: Option<std::path::PathBuf>,
}

impl DirArgs {
    /// The directory: `--dir`, else `$GRANARY_TABLES`, else `data/tables`.
    pub fn resolve(&self) -> std::path::PathBuf {
        self.dir
            .clone()
            .or_else(|| std::env::var_os("GRANARY_TABLES").map(Into::into))
            .unwrap_or_else(|| "data/tables".into())
    }
}

#[derive(Args, Debug)]
pub struct BuildArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Build layers 0..=N (seeds on the board).
    #[arg(long)]
    pub max_seeds: u32,
    #[command(flatten)]
    pub dir: DirArgs,
    /// Worker threads [default: one per core].
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress bars or per-layer lines.
    #[arg(long)]
    pub quiet: bool,
}

#[derive(Args, Debug)]
pub struct QueryArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// The position: `S1,..,Sm/N1,..,Nm [SS-NS] [S|N]`.
    #[arg(allow_hyphen_values = true)]
    pub position: String,
    #[command(flatten)]
    pub dir: DirArgs,
    /// One JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub variant: VariantArgs,
    /// Give every first move's exact value (otherwise only the best move's is exact).
    #[arg(long)]
    pub all_moves: bool,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 512)]
    pub hash: usize,
    /// Kalah: use (and build if missing) tables up to this many seeds on the board [default: by board size].
    #[arg(long)]
    pub table_seeds: Option<u32>,
    /// Solve a family of start positions instead, e.g. `1..6x1..5` (pits 1 to 6, seeds 1 to 5), and print a table.
    #[arg(long, value_name = "PITSxSEEDS")]
    pub family: Option<String>,
    #[command(flatten)]
    pub dir: DirArgs,
    /// Worker threads [default: one per core].
    #[arg(long)]
    pub threads: Option<usize>,
    /// Bao: a full-width proof search for a win or loss within this many moves (plies),
    /// instead of the proof-number search.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Bao: the proof-number search's budget of tree nodes (no depth limit) [default: 2000000].
    #[arg(long, value_name = "NODES")]
    pub pns: Option<usize>,
    /// One JSON object (a list with --family).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub variant: VariantArgs,
    /// The side you play: south (moves first) or north.
    #[arg(long, default_value = "south")]
    pub side: String,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 512)]
    pub hash: usize,
    /// Kalah: tables up to this many seeds on the board [default: by board size].
    #[arg(long)]
    pub table_seeds: Option<u32>,
    /// Bao: the engine's thinking time a move, in seconds [default: 1].
    #[arg(long)]
    pub time: Option<f64>,
    #[command(flatten)]
    pub dir: DirArgs,
}

#[derive(Args, Debug)]
pub struct VerifyArgs {
    #[command(flatten)]
    pub dir: DirArgs,
    /// Entries re-checked against their children in each layer.
    #[arg(long, default_value_t = 20_000)]
    pub sample: u64,
}

#[derive(Args, Debug)]
pub struct InfoArgs {
    #[command(flatten)]
    pub dir: DirArgs,
    /// Print every layer's full value histogram.
    #[arg(long)]
    pub histogram: bool,
}

#[derive(Args, Debug)]
pub struct ShowArgs {
    #[command(flatten)]
    pub variant: VariantArgs,
    /// Moves to play first, as pit numbers: 1,3,2,... (bao: A6R,a3L,...)
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

impl GameArgs {
    /// The game with its options.
    pub fn game(&self) -> Result<Game, CliError> {
        if self.nyumba.is_some() || self.takasia.is_some() || self.tax.is_some() {
            return Err(CliError(
                "--nyumba, --takasia and --tax are bao options".into(),
            ));
        }
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
            GameName::Bao => {
                return Err(CliError(
                    "bao has no endgame tables; its commands are show, perft, solve and play"
                        .into(),
                ));
            }
        })
    }

    /// The position `text` and its pits a side (which must match `--pits` if given).
    pub fn position(&self, text: &str) -> Result<(Position, usize), CliError> {
        Ok(parse_position(text, self.pits)?)
    }
}

impl PlayArgs {
    /// The side the person plays, from `--side`.
    pub fn human(&self) -> Result<granary_rules::Side, CliError> {
        match self.side.as_str() {
            "south" | "s" | "S" => Ok(granary_rules::Side::South),
            "north" | "n" | "N" => Ok(granary_rules::Side::North),
            other => Err(CliError(format!("--side '{other}': use south or north"))),
        }
    }
}

impl VariantArgs {
    /// The variant and the position to start from.
    pub fn resolve(&self) -> Result<(Variant, Position), CliError> {
        let game = self.game.game()?;
        match &self.position {
            None => {
                let variant = Variant::new(game, self.game.pits.unwrap_or(6), self.seeds)?;
                Ok((variant, variant.start()))
            }
            Some(text) => {
                let (position, pits) = self.game.position(text)?;
                Ok((Variant::new(game, pits, self.seeds)?, position))
            }
        }
    }
}
