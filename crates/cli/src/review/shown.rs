//! What `granary review` shows while the review runs ([`Shown`], the review's
//! [`granary::Watch`]): the bar of plies reviewed on a terminal, and the text table a row at a
//! time as the plies are answered; and the cancel that Ctrl-C, or a write that fails, sets.

use std::cell::{Cell, RefCell};
use std::io::Write;
use std::time::Duration;

use granary::review::{Ply, Review, Watch};
use granary::{Cancel, ReviewError};
use indicatif::{ProgressBar, ProgressStyle};

use super::table::{row, summary};
use crate::error::{CliError, CliResult};

/// The bar of a review of `plies` plies: plies reviewed and the time taken, its clock kept
/// going while a ply is searched.
pub fn bar(plies: usize) -> ProgressBar {
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

/// What `granary review` shows while the review runs, its [`Watch`]: the bar, and the text
/// table a row at a time as the plies are answered (its header before the first row, its
/// reasons and summaries after the last, [`Shown::summary`]); and the request that stops the
/// review.
#[derive(Debug)]
pub struct Shown<W: Write> {
    /// Set by Ctrl-C ([`super::on_interrupt`]), or by a write to `out` that fails.
    pub cancel: Cancel,
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
    /// Shows the table on `out` where it has a `header` ([`super::table::header`]), the bar
    /// where there is one.
    pub fn new(out: W, header: Option<String>, bar: Option<ProgressBar>) -> Shown<W> {
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
    pub fn finish<T>(&self, review: Result<T, ReviewError>) -> Result<T, CliError> {
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
    pub fn summary(&self, review: &Review) -> CliResult {
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

#[cfg(test)]
mod tests {
    use granary::game::{AnyGame, GameMove};
    use granary::{GameName, Mancala, Setup, Tablebase};

    use super::*;
    use crate::review::table::{header, summary, table};
    use crate::review::tables;

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
