//! Command-line arguments as clap reads them: the subcommands and their flags, whose doc
//! comments are the help text. What the flags mean to the library is in `settings`.

mod settings;

use clap::{Args, Parser, Subcommand, ValueEnum};

use settings::{parse_count, parse_size, parse_size_or_none};

#[derive(Parser, Debug)]
#[command(
    name = "granary",
    version,
    about = "Perfect play for mancala games",
    arg_required_else_help = true
)]
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
    /// Perfect play in a position from the tables (or a search over them); beyond that, the
    /// engine's estimate, labelled as one.
    Query(QueryArgs),
    /// Review a game move by move against perfect play: each move's value, the best moves, the
    /// seeds each move gave away, and where the result changed.
    Review(ReviewArgs),
    /// Check every table file: header, checksum, values, a sample against its children.
    Verify(VerifyArgs),
    /// Compress a variant's finished layers in place (table format version 3, or 2: blocks read
    /// at random); layers compressed already are left as they are.
    Compress(CompressArgs),
    /// What tables are built: layers, sizes, value counts.
    Info(InfoArgs),
    /// Solve a position (default: the start) exactly: value, final score, moves, a principal variation.
    Solve(SolveArgs),
    /// Play against perfect play in the terminal (hint, undo, quit).
    Play(PlayArgs),
    /// Serve perfect play on the web: a JSON API under /api/v1/ and an interactive page at /.
    Serve(ServeArgs),
    /// Measure this machine (a short build and a short search: 20 s to 2 minutes on 2 cores)
    /// and save the cost model the planner estimates with.
    Calibrate(CalibrateArgs),
    /// Print the completion script of a shell for granary, e.g. `granary completions bash >
    /// ~/.local/share/bash-completion/completions/granary`.
    Completions(CompletionsArgs),
    /// Print granary's man page (roff), e.g. `granary man | man -l -`.
    Man,
}

#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell.
    pub shell: clap_complete::Shell,
}

#[derive(Args, Debug)]
pub struct CalibrateArgs {
    /// Where to save the model [default: $GRANARY_COST_MODEL, else
    /// $XDG_CONFIG_HOME/granary/cost-model.json, else ~/.config/granary/cost-model.json, where
    /// the planner looks].
    #[arg(long, value_name = "FILE")]
    pub output: Option<std::path::PathBuf>,
    /// Worker threads [default: one per core].
    #[arg(long)]
    pub threads: Option<usize>,
    /// One JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on (loopback by default; another address is your choice to expose it).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub bind: std::net::SocketAddr,
    #[command(flatten)]
    pub dir: DirArgs,
    /// Searches answered at once; more wait in a queue (503 when it is full) [default: one per core].
    #[arg(long)]
    pub max_searches: Option<usize>,
    /// Seconds a request may work before it is answered 503.
    #[arg(long, default_value_t = 10.0)]
    pub timeout: f64,
    /// Build Kalah(6)'s layers up to this many seeds, both capture rules, in the background
    /// where they are missing, for fast reviews on the page (24: 2.4 GB, about two minutes on 2
    /// cores); 0 builds nothing. Either way the page's opening positions are then searched over
    /// the tables present, where that is within `--search-seconds`, and their answers kept.
    #[arg(long, default_value_t = granary_server::prepare::REVIEW_SEEDS)]
    pub prepare: u32,
    /// A Kalah position above the tables is searched when the cost model expects the search to
    /// take at most this many seconds; longer ones are refused.
    #[arg(long, default_value_t = 60.0)]
    pub search_seconds: f64,
    /// Memory for the values of layers with filled don't-cares (Oware's compressed tables),
    /// e.g. `2G` (K, M, G, T: powers of 1024; `0` holds none): rebuilt from the lowest layers
    /// up in the background as serving begins, and read directly after, by their own lookups
    /// and by the layers above, which settle values from them (about 1.2 GB holds awari's
    /// layers 0..=24, and keeps every lookup of 0..=30 within 10 µs at the 99th percentile;
    /// 5.0 GB holds 0..=28) [default: a quarter of the available memory].
    #[arg(long, value_parser = parse_size_or_none)]
    pub filled_memory: Option<u64>,
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
    #[command(flatten)]
    pub options: RuleArgs,
}

/// A game's rule options.
#[derive(Args, Debug)]
pub struct RuleArgs {
    /// Pits a side, 1 to 8 [default: 6, or the position's].
    #[arg(long, allow_hyphen_values = true, value_parser = parse_count::<usize>)]
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
    #[command(flatten)]
    pub start: StartArgs,
}

/// The size of a game's start and the position to start from.
#[derive(Args, Debug)]
pub struct StartArgs {
    /// Seeds a pit at the start (kalah, oware) [default: 4].
    #[arg(long, allow_hyphen_values = true, value_parser = parse_count::<u32>)]
    pub seeds: Option<u32>,
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

/// Which tables a solve uses and how much memory its search takes.
#[derive(Args, Debug)]
pub struct TableArgs {
    /// Kalah: use (and build if missing) tables up to this many seeds on the board
    /// [default: the largest present, or what the planner picks for the game and the machine].
    #[arg(long, conflicts_with = "no_tables", allow_hyphen_values = true, value_parser = parse_count::<u32>)]
    pub table_seeds: Option<u32>,
    /// Kalah: search without tables.
    #[arg(long)]
    pub no_tables: bool,
    /// Transposition table size in MiB [default: by the planner's estimate of the search, 64
    /// below 4 s, 128 from 4 s, 256 from 8 s, 1024 from 1 min and 2048 from 3 min where memory
    /// beside the tables allows (a short search does not earn back a larger table's first
    /// touch)].
    #[arg(long)]
    pub hash: Option<usize>,
    /// Check the tables' data checksums before use (reads every byte; opening reads headers).
    #[arg(long)]
    pub verify: bool,
    /// Kalah: copy the tables into the search's own memory (`true`: fewer TLB misses) or keep
    /// them mapped (`false`: the page cache can give them back to other programs) [default: the
    /// planner's choice, which copies them where 4 GiB stay free beside the copy and the hash].
    #[arg(long, value_name = "true|false")]
    pub tables_in_memory: Option<bool>,
}

#[derive(Args, Debug)]
pub struct BuildArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Build layers 0..=N (seeds on the board).
    #[arg(long, allow_hyphen_values = true, value_parser = parse_count::<u32>)]
    pub max_seeds: u32,
    #[command(flatten)]
    pub dir: DirArgs,
    /// Worker threads [default: one per core].
    #[arg(long)]
    pub threads: Option<usize>,
    /// Memory the builder may take, e.g. `64M`, `4G` (K, M, G, T: powers of 1024); a layer that
    /// does not fit is built in blocks, with scratch files beside it, to the same bytes
    /// [default: three quarters of the available memory].
    #[arg(long, value_parser = parse_size)]
    pub memory: Option<u64>,
    /// Write each layer compressed (table format 3, the same bytes as `granary compress` with
    /// its defaults) straight from the builder's memory, and compress the uncompressed layers
    /// already there: no layer is ever whole on disk (the ranks of `mpirun` write the layer
    /// being built whole, then compress it).
    #[arg(long)]
    pub compress: bool,
    /// Seconds between checkpoints of a layer built by phases (awari, abapa, large Kalah): a
    /// build stopped in the middle of a layer and run again resumes from its last checkpoint
    /// (`<layer>.tbl.work/r<rank>-<first>.resume`, one a rank; resumed with the same ranks,
    /// budget and threads) [default: 600].
    #[arg(long, value_name = "SECONDS")]
    pub checkpoint_every: Option<u64>,
    /// Save no checkpoint: a build stopped in the middle of a layer starts that layer over, and
    /// the disk needs no room for them (two bytes a position of the largest layer, twice).
    #[arg(long, conflicts_with = "checkpoint_every")]
    pub no_checkpoints: bool,
    /// Where stderr is not a terminal (a log), a line when a phase of a layer starts, at most
    /// one every this many seconds: the layer, the phase and the time so far (a terminal shows
    /// them in the progress bar) [default: 60].
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, value_parser = parse_interval)]
    pub progress_every: Option<std::time::Duration>,
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
    /// Check the data checksums of the layers read first (reads every byte of them; the
    /// tables alone answer).
    #[arg(long)]
    pub verify: bool,
    /// A Kalah position above the tables is searched over them when the cost model expects the
    /// search to take at most this many seconds (0: the tables alone answer).
    #[arg(long, default_value_t = granary::plan::DEFAULT_SEARCH_SECONDS, value_parser = parse_seconds)]
    pub search_seconds: f64,
    /// A position beyond what is answered exactly gets the engine's estimate, searched for this
    /// many seconds, labelled as an estimate (0: no estimate; such a position is an error).
    #[arg(long, default_value_t = granary::estimate::DEFAULT_TIME.as_secs_f64(), value_parser = parse_seconds)]
    pub time: f64,
    /// One JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct ReviewArgs {
    /// The game (or --record, whose tags name it).
    #[arg(required_unless_present = "record")]
    pub game: Option<GameName>,
    #[command(flatten)]
    pub options: RuleArgs,
    #[command(flatten)]
    pub start: StartArgs,
    /// The game's moves from the start (or --position): pit numbers 3,1,6,... (bao: A6R,b2L,...).
    /// A side that moves again (Kalah's extra turn) has its moves one after the other.
    #[arg(
        long,
        value_delimiter = ',',
        allow_hyphen_values = true,
        requires = "game"
    )]
    pub moves: Vec<String>,
    /// A game record to review instead (docs/notation.md, "Game records"), `-` for stdin: its
    /// tags name the game, its options and its start.
    #[arg(long, value_name = "FILE", conflicts_with_all = [
        "game", "moves", "pits", "rules", "sweep", "nyumba", "takasia", "tax", "seeds", "position",
    ])]
    pub record: Option<std::path::PathBuf>,
    /// Write the game back as a record with the review in its comments: each move's value, the
    /// move's value, the loss and the best moves, marked `?` or `??`; `-` for stdout (instead
    /// of the table).
    #[arg(long, value_name = "FILE")]
    pub record_out: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub dir: DirArgs,
    /// A Kalah position above the tables is searched over them when the cost model expects the
    /// search to take at most this many seconds (0: the tables alone answer); a position
    /// answered by neither is reported as beyond, with no value.
    #[arg(long, default_value_t = granary::plan::DEFAULT_SEARCH_SECONDS, value_parser = parse_seconds)]
    pub search_seconds: f64,
    /// A ply beyond what is answered exactly gets the engine's estimates (of the position, of
    /// the move played, and the estimated loss), searched for this many seconds a ply,
    /// labelled as estimates and never marked (0: none; such a ply is beyond, with no number).
    #[arg(long, default_value_t = granary::review::ESTIMATE_TIME.as_secs_f64(), value_parser = parse_seconds)]
    pub time: f64,
    /// The engine's budget a ply in nodes instead of --time: the same estimates on every run.
    #[arg(long, conflicts_with = "time", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// One JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// A number of seconds, finite and not negative.
fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("{s:?}: not a number of seconds (0 or more)")),
    }
}

/// A time between two progress lines: seconds above 0.
fn parse_interval(s: &str) -> Result<std::time::Duration, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(std::time::Duration::from_secs_f64(v)),
        _ => Err(format!("{s:?}: not a number of seconds above 0")),
    }
}

#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub variant: VariantArgs,
    /// Give every first move's exact value. Otherwise only a best move's value is exact and
    /// the others are bounds: `3:<=+10` says move 3 is worth at most +10, no more than the best
    /// (in JSON `{"move":3,"upper":10}`, where an exact move has `"value"`).
    #[arg(long)]
    pub all_moves: bool,
    #[command(flatten)]
    pub tables: TableArgs,
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
    /// Only say which tables the solve would use and build, and why; build and search nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// One JSON object (a list with --family).
    #[arg(long)]
    pub json: bool,
    /// Kalah: keep what the solve proves in this journal file, and resume from it: run the
    /// same command again after a stop and the solve continues; a finished journal answers at
    /// once, with no tables.
    #[arg(long, value_name = "FILE")]
    pub journal: Option<std::path::PathBuf>,
    /// Record every search of at least this many nodes in the journal [default: 8388608].
    #[arg(long, value_name = "NODES", requires = "journal")]
    pub journal_min_nodes: Option<u64>,
    /// Instead of solving, prove N of the journal's records again from scratch (chosen at
    /// random, fewest seeds first; a fresh hash table and no journal each) and fail if any does
    /// not hold.
    #[arg(long, value_name = "N", requires = "journal")]
    pub recheck: Option<usize>,
    /// Kalah: a progress line (nodes, nodes/s, the journal's size) every this many seconds of
    /// search, and the journal flushed to the disk [default: 60].
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, value_parser = parse_interval)]
    pub progress_every: Option<std::time::Duration>,
    /// The seed of --recheck's random choice [default: from the clock, printed].
    #[arg(long, value_name = "SEED", requires = "recheck")]
    pub recheck_seed: Option<u64>,
    /// Under mpirun: positions of at most this many seeds above the tables are the jobs rank 0
    /// hands the other ranks [default: 6 seeds below the position's; more than 4].
    #[arg(long, value_name = "SEEDS", value_parser = clap::value_parser!(u32).range(5..=64))]
    pub job_margin: Option<u32>,
}

#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub variant: VariantArgs,
    /// The side you play: south (moves first) or north.
    #[arg(long, default_value = "south")]
    pub side: String,
    #[command(flatten)]
    pub tables: TableArgs,
    /// The engine's time a move, in seconds, more than 0 and at most 3600 [default: 1]. Kalah
    /// and Oware: for the positions beyond the exact reach (the tables present and the searches
    /// over them the cost model expects within a minute), where granary plays the engine's
    /// moves, labelled as estimates; it plays perfectly wherever the position is within that
    /// reach. Bao: the engine's thinking time for every move.
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
    /// Memory for the values of layers with filled don't-cares, held as each is checked for
    /// the layers above, whose every read rebuilds values from them, e.g. `8G` (K, M, G, T:
    /// powers of 1024): the lowest layers first [default: half the available memory].
    #[arg(long, value_parser = parse_size)]
    pub memory: Option<u64>,
}

#[derive(Args, Debug)]
pub struct CompressArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub dir: DirArgs,
    /// The table format written: 3 (Huffman codes in small blocks, read at random in about a
    /// microsecond) or 2 (zstd blocks).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u16).range(2..=3))]
    pub format: u16,
    /// Entries a block, a power of two: 64 to 64K for format 3, 1K to 16M for format 2, e.g.
    /// `64K` [default: 256 for format 3, 64K for format 2].
    #[arg(long, value_parser = parse_block_size)]
    pub block_size: Option<u32>,
    /// Format 3's don't-cares (entries whose value a move into a lower layer gives): `filled`
    /// stores what codes best there and rebuilds the value from the layers below at every read;
    /// `stored` stores every value [default: filled for oware, stored for kalah].
    #[arg(long, value_enum)]
    pub dont_cares: Option<DontCares>,
    /// The zstd level of format 2, 1 to 22 [default: 1: as small as higher levels on these
    /// tables, and the fastest].
    #[arg(long, value_parser = clap::value_parser!(i32).range(1..=22))]
    pub level: Option<i32>,
    /// Worker threads [default: one per core].
    #[arg(long, value_parser = parse_count::<usize>)]
    pub threads: Option<usize>,
}

/// What format 3 stores at a don't-care (`--dont-cares`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DontCares {
    Filled,
    Stored,
}

/// A block size: digits with an optional unit (K or M, powers of 1024), a power of two from 64
/// to 16M (each format checks its own range).
fn parse_block_size(text: &str) -> Result<u32, String> {
    let upper = text.trim().to_ascii_uppercase();
    let digits = upper.trim_end_matches("IB").trim_end_matches('B');
    let (number, shift) = match digits.chars().last() {
        Some('K') => (&digits[..digits.len() - 1], 10),
        Some('M') => (&digits[..digits.len() - 1], 20),
        _ => (digits, 0),
    };
    let bytes = number
        .trim()
        .parse::<u32>()
        .ok()
        .and_then(|n| n.checked_mul(1 << shift))
        .ok_or_else(|| format!("`{text}` is not a block size: digits and a unit, e.g. 64K"))?;
    let (min, max) = (
        granary::compress::MIN_CODED_BLOCK_ENTRIES,
        granary::compress::MAX_BLOCK_ENTRIES,
    );
    if !bytes.is_power_of_two() || !(min..=max).contains(&bytes) {
        return Err(format!(
            "`{text}`: a block size is a power of two from 64 to 16M"
        ));
    }
    Ok(bytes)
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
