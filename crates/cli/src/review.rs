//! `granary review`: a game's moves against perfect play, a row a move and a summary a side
//! ([`granary::Review`]); the game from the command line or a record (`--record`), and the
//! review written back as a record (`--record-out`). A ply beyond the exact reach has the
//! engine's estimates (`--time` a ply, or `--nodes`), written as estimates and never marked.

use std::cell::{Cell, RefCell};
use std::io::{IsTerminal, Read, Write};
use std::path::Path;
use std::time::Duration;

use granary::estimate::Budget;
use granary::game::{AnyGame, GameMove};
use granary::review::{Ply, Review, Verdict, Watch};
use granary::{Cancel, GameRecord, ReviewError};
use indicatif::{ProgressBar, ProgressStyle};

use crate::args::ReviewArgs;
use crate::error::{CliError, CliResult};

/// `-`: standard input or output.
fn is_std(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Reviews the game; the text table's rows are printed as their plies are answered, under a
/// bar on a terminal, and Ctrl-C stops the review ([`CliError::Interrupted`], the plies done
/// printed, nothing written to `--record-out`, no JSON).
pub fn run(args: &ReviewArgs) -> CliResult {
    let to_stdout = args.record_out.as_deref().is_some_and(is_std);
    if to_stdout && args.json {
        return Err(CliError::Failed(
            "--record-out - and --json both print to stdout: choose one".into(),
        ));
    }
    let record = match (&args.record, args.game) {
        (Some(path), _) => read_record(path)?,
        (None, Some(game)) => {
            let game = game.library();
            let moves: Vec<GameMove> = if game == granary::GameName::Bao {
                args.moves
                    .iter()
                    .map(|m| GameMove::Bao(m.trim().to_string()))
                    .collect()
            } else {
                granary::game::parse_pits(&args.moves)?
                    .into_iter()
                    .map(GameMove::Pit)
                    .collect()
            };
            GameRecord::new(
                game,
                &args.options.setup(args.start.seeds),
                args.start.position.as_deref(),
                &moves,
            )?
        }
        (None, None) => {
            return Err(CliError::Failed(
                "give a game and --moves, or --record".into(),
            ));
        }
    };
    let moves = record.game_moves();
    let estimate = budget(args.time, args.nodes)?;
    let bar = (!args.json && std::io::stderr().is_terminal()).then(|| bar(moves.len()));
    let table = (!args.json && !to_stdout).then(|| header(tables(record.game()).as_deref()));
    let shown = Shown::new(std::io::stdout(), table, bar);
    on_interrupt(shown.cancel.clone())?;
    let review = args.dir.tablebase().review_game(
        record.game(),
        &moves,
        args.search_seconds,
        estimate,
        &shown,
    );
    let review = shown.finish(review)?;
    if let Some(path) = &args.record_out {
        let text = record.with_review(&review).to_string();
        if to_stdout {
            print!("{text}");
        } else {
            write_whole(path, &text)?;
        }
    }
    if args.json {
        println!("{}", serde_json::to_string(&review)?);
    }
    shown.summary(&review)
}

/// The engine's budget a ply beyond the exact reach: `nodes` where given, else `time` seconds
/// (0: none, such a ply has no number).
fn budget(time: f64, nodes: Option<u64>) -> Result<Option<Budget>, CliError> {
    if let Some(nodes) = nodes {
        return Ok(Some(Budget::Nodes(nodes)));
    }
    if time == 0.0 {
        return Ok(None);
    }
    Duration::try_from_secs_f64(time)
        .map(|time| Some(Budget::Time(time)))
        .map_err(|_| CliError::Failed(format!("--time {time}: too long a time a ply")))
}

/// On Ctrl-C (SIGINT), `cancel` is set: the review stops within a subtree of its search. A
/// second Ctrl-C ends the process at once, with exit code 130.
fn on_interrupt(cancel: Cancel) -> CliResult {
    ctrlc::set_handler(move || {
        if cancel.is_cancelled() {
            std::process::exit(130);
        }
        cancel.cancel();
    })
    .map_err(|e| CliError::Failed(format!("cannot catch Ctrl-C: {e}")))
}

/// The bar of a review of `plies` plies: plies reviewed and the time taken, its clock kept
/// going while a ply is searched.
fn bar(plies: usize) -> ProgressBar {
    let bar = ProgressBar::new(plies as u64);
    bar.set_style(
        ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} plies {elapsed_precise}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar.set_prefix("review");
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

/// The tables' kind a review of `game` names ([`Review::tables`]): none for Bao, which has no
/// tables.
fn tables(game: &AnyGame) -> Option<String> {
    match game {
        AnyGame::Mancala(mancala) => Some(mancala.kind().name()),
        AnyGame::Bao(..) => None,
    }
}

/// What `granary review` shows while the review runs, its [`Watch`]: the bar, and the text
/// table a row at a time as the plies are answered (its header before the first row, its
/// reasons and summaries after the last, [`Shown::summary`]); and the request that stops the
/// review.
#[derive(Debug)]
struct Shown<W: Write> {
    /// Set by Ctrl-C ([`on_interrupt`]), or by a write to `out` that fails.
    cancel: Cancel,
    /// Plies reviewed of the game's, on stderr.
    bar: Option<ProgressBar>,
    /// The text table's header, where the table is the output (not JSON, not the record).
    header: Option<String>,
    /// Where the table goes.
    out: RefCell<W>,
    /// Whether the header is written.
    started: Cell<bool>,
    /// The first write to `out` that failed: the review is cancelled and this is its error.
    failed: RefCell<Option<std::io::Error>>,
}

impl<W: Write> Shown<W> {
    /// Shows the table on `out` where it has a `header` ([`header`]), the bar where there is
    /// one.
    fn new(out: W, header: Option<String>, bar: Option<ProgressBar>) -> Shown<W> {
        Shown {
            cancel: Cancel::new(),
            bar,
            header,
            out: RefCell::new(out),
            started: Cell::new(false),
            failed: RefCell::new(None),
        }
    }

    /// Writes `text` to `out` whole, with the bar out of the way; a failure is kept, and
    /// cancels the review.
    fn print(&self, text: &str) {
        if self.failed.borrow().is_some() {
            return;
        }
        let write = || {
            let mut out = self.out.borrow_mut();
            out.write_all(text.as_bytes()).and_then(|()| out.flush())
        };
        let written = match &self.bar {
            Some(bar) => bar.suspend(write),
            None => write(),
        };
        if let Err(e) = written {
            *self.failed.borrow_mut() = Some(e);
            self.cancel.cancel();
        }
    }

    /// The table's header, once, before anything else of it.
    fn start(&self) {
        if let Some(header) = &self.header
            && !self.started.replace(true)
        {
            self.print(header);
        }
    }

    /// The review's end: the bar goes; a failed write is the error, a cancelled review an
    /// interruption that says how far it went.
    fn finish(&self, review: Result<Review, ReviewError>) -> Result<Review, CliError> {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
        self.failure()?;
        review.map_err(|e| match e {
            ReviewError::Cancelled { ply, done, total } => CliError::Interrupted(format!(
                "review cancelled at ply {ply}: {done} of {total} plies reviewed"
            )),
            e => e.into(),
        })
    }

    /// The end of the table, for the whole `review`: its reasons and summaries (and its header,
    /// for a game of no moves).
    fn summary(&self, review: &Review) -> CliResult {
        if self.header.is_some() {
            self.start();
            self.print(&summary(review));
        }
        self.failure()
    }

    /// The write to `out` that failed, if one did.
    fn failure(&self) -> CliResult {
        match self.failed.borrow_mut().take() {
            Some(e) => Err(CliError::Failed(format!("standard output: {e}"))),
            None => Ok(()),
        }
    }
}

impl<W: Write> Watch for Shown<W> {
    fn cancel(&self) -> Option<&Cancel> {
        Some(&self.cancel)
    }

    fn ply(&self, ply: &Ply, _total: usize) {
        if self.header.is_some() {
            self.start();
            self.print(&row(ply));
        }
        if let Some(bar) = &self.bar {
            bar.inc(1);
        }
    }
}

/// The record at `path` (`-`: standard input), read and checked.
fn read_record(path: &Path) -> Result<GameRecord, CliError> {
    let (name, text) = if is_std(path) {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text).map_err(|e| {
            CliError::Failed(format!("--record -: cannot read standard input: {e}"))
        })?;
        ("standard input".to_string(), text)
    } else {
        let text = std::fs::read_to_string(path)
            .map_err(|e| CliError::Failed(format!("--record {}: {e}", path.display())))?;
        (path.display().to_string(), text)
    };
    GameRecord::read(&text).map_err(|e| CliError::Failed(format!("{name}: {e}")))
}

/// Writes `text` to `path` whole or not at all: into a new file beside it, synced to the disk,
/// then renamed over it.
fn write_whole(path: &Path, text: &str) -> Result<(), CliError> {
    let fail =
        |e: std::io::Error| CliError::Failed(format!("--record-out {}: {e}", path.display()));
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let mut new = tempfile::Builder::new();
    // An ordinary file, as `std::fs::write` makes one: read and write for all, less the umask
    // (a temporary file's default is the owner's only).
    #[cfg(unix)]
    new.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let mut tmp = new.tempfile_in(dir).map_err(fail)?;
    tmp.write_all(text.as_bytes()).map_err(fail)?;
    tmp.as_file().sync_all().map_err(fail)?;
    tmp.persist(path).map_err(|e| fail(e.error))?;
    Ok(())
}

/// The review as a person reads it: the header, a row a ply, then the summary ([`summary`]);
/// what [`Shown`] prints a piece at a time.
#[cfg(test)]
fn table(review: &Review) -> String {
    let mut out = header(review.tables.as_deref());
    for ply in &review.plies {
        out += &row(ply);
    }
    out + &summary(review)
}

/// The table's header: where values come from (the tables' kind, none for a game without
/// tables), and the columns.
fn header(tables: Option<&str>) -> String {
    let source = match tables {
        Some(tables) => format!(
            "{tables}: values are the mover's net seeds of those on the board, under perfect play\n"
        ),
        None => "no tables for this game: no exact values\n".to_string(),
    };
    source + "ply  side   move  value  played  best         loss\n"
}

/// A ply's row: its values, `?` where it gave seeds away, `??` where it changed the result;
/// the engine's estimates in words where it has those instead (never marked); `beyond` where
/// it has neither.
fn row(ply: &Ply) -> String {
    let head = format!(
        "{:>3}  {:<5}  {:>4}",
        ply.ply,
        ply.side.name(),
        ply.mv.to_string()
    );
    match &ply.verdict {
        Verdict::Exact(e) => {
            let best: Vec<String> = e.best.iter().map(ToString::to_string).collect();
            let mark = match (e.changed, e.loss > 0) {
                (true, _) => format!("  ?? {} to {}", e.result, e.result_after),
                (false, true) => "  ?".to_string(),
                (false, false) => String::new(),
            };
            format!(
                "{head}  {:>+5}  {:>+6}  {:<11}  {:>4}{mark}\n",
                e.value,
                e.played,
                best.join(","),
                e.loss
            )
        }
        Verdict::Estimated(e) => format!("{head}  {e}\n"),
        Verdict::Beyond { .. } => format!("{head}  beyond: no exact value\n"),
    }
}

/// The table's end: the reasons of the rows without a value (estimated or not), each once, and
/// each side's summary.
fn summary(review: &Review) -> String {
    let mut reasons: Vec<&str> = Vec::new();
    for ply in &review.plies {
        if let Some(reason) = ply.verdict.reason()
            && !reasons.contains(&reason)
        {
            reasons.push(reason);
        }
    }
    let mut out = String::new();
    for reason in reasons {
        out += &format!("beyond: {reason}\n");
    }
    for (name, side) in ["south", "north"].iter().zip(&review.sides) {
        out += &format!("{name}: {side}\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use granary::{GameName, Mancala, Setup, Tablebase};

    use super::*;

    /// A Kalah(4,3) game with mistakes, and the whole game's tables (to 24 seeds) built into a
    /// new directory, which lasts as long as the first of the three.
    fn kalah() -> (tempfile::TempDir, Tablebase, AnyGame, Vec<GameMove>) {
        let dir = tempfile::tempdir().unwrap();
        let tablebase = Tablebase::new(dir.path());
        let setup = Setup {
            pits: Some(4),
            seeds: Some(3),
            ..Setup::default()
        };
        let game: Mancala = setup.mancala(GameName::Kalah, None).unwrap();
        granary::build(&tablebase, game.kind(), 24, Some(2), None, &()).unwrap();
        let moves = [1, 2, 3, 4, 1, 2, 3, 4].map(GameMove::Pit).to_vec();
        (dir, tablebase, AnyGame::Mancala(game), moves)
    }

    /// The text table as `granary review` prints it, into memory, without a bar.
    fn shown(game: &AnyGame) -> Shown<Vec<u8>> {
        Shown::new(Vec::new(), Some(header(tables(game).as_deref())), None)
    }

    /// What a [`Shown`] printed.
    fn printed(shown: Shown<Vec<u8>>) -> String {
        String::from_utf8(shown.out.into_inner()).unwrap()
    }

    /// What `shown` has printed so far.
    fn printed_so_far(shown: &Shown<Vec<u8>>) -> String {
        String::from_utf8(shown.out.borrow().clone()).unwrap()
    }

    /// Watches as `shown` does, and cancels the review from inside the report of ply `after`,
    /// as a Ctrl-C while the next ply is answered does.
    struct StopAfter<'a> {
        shown: &'a Shown<Vec<u8>>,
        after: usize,
    }

    impl Watch for StopAfter<'_> {
        fn cancel(&self) -> Option<&Cancel> {
            self.shown.cancel()
        }

        fn ply(&self, ply: &Ply, total: usize) {
            self.shown.ply(ply, total);
            if ply.ply == self.after {
                self.shown.cancel.cancel();
            }
        }
    }

    /// A standard output whose reader has gone.
    #[derive(Debug)]
    struct Closed;

    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn the_rows_printed_as_the_plies_come_and_the_summary_make_the_whole_table() {
        let (_dir, tablebase, game, moves) = kalah();
        let shown = shown(&game);
        let review = tablebase.review_game(&game, &moves, 0.0, None, &shown);
        let review = shown.finish(review).unwrap();
        let rows = printed_so_far(&shown);
        shown.summary(&review).unwrap();
        assert_eq!(
            review,
            tablebase
                .review_game(&game, &moves, 0.0, None, &())
                .unwrap()
        );
        let text = printed(shown);
        assert_eq!(text, table(&review));
        // Before the summary: the header's two lines and a row a ply, in order.
        let lines: Vec<&str> = rows.lines().collect();
        assert_eq!(lines.len(), 2 + moves.len(), "{rows}");
        for (i, line) in lines[2..].iter().enumerate() {
            assert!(line.starts_with(&format!("{:>3}  ", i + 1)), "{rows}");
        }
        assert!(text.ends_with(&summary(&review)), "{text}");
        assert!(
            text.lines()
                .rev()
                .take(2)
                .all(|l| l.starts_with("south: ") ^ l.starts_with("north: ")),
            "{text}"
        );
    }

    #[test]
    fn a_review_cancelled_after_its_first_ply_has_printed_that_row_and_says_how_far_it_went() {
        let (_dir, tablebase, game, moves) = kalah();
        let shown = shown(&game);
        let watch = StopAfter {
            shown: &shown,
            after: 1,
        };
        let review = tablebase.review_game(&game, &moves, 0.0, None, &watch);
        assert!(
            matches!(
                review,
                Err(ReviewError::Cancelled {
                    ply: 2,
                    done: 1,
                    total: 8
                })
            ),
            "{review:?}"
        );
        let err = shown.finish(review).unwrap_err();
        assert!(matches!(err, CliError::Interrupted(_)), "{err:?}");
        assert_eq!(
            err.line(),
            "granary: review cancelled at ply 2: 1 of 8 plies reviewed"
        );
        assert_eq!(err.exit_code(), std::process::ExitCode::from(130));
        let whole = table(
            &tablebase
                .review_game(&game, &moves, 0.0, None, &())
                .unwrap(),
        );
        let first: String = whole.split_inclusive('\n').take(3).collect();
        assert_eq!(printed(shown), first);
    }

    #[test]
    fn a_row_that_cannot_be_printed_stops_the_review_with_the_write_error() {
        let (_dir, tablebase, game, moves) = kalah();
        let shown = Shown::new(Closed, Some(header(tables(&game).as_deref())), None);
        let review = tablebase.review_game(&game, &moves, 0.0, None, &shown);
        assert!(
            matches!(review, Err(ReviewError::Cancelled { ply: 2, .. })),
            "{review:?}"
        );
        let err = shown.finish(review).unwrap_err();
        assert!(
            matches!(&err, CliError::Failed(m) if m.starts_with("standard output: ")),
            "{err:?}"
        );
    }
}
