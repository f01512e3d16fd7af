//! The page in a real browser: headless Chromium (Debian's `chromium` and `chromium-driver`,
//! installed by `.ci/run`). In Kalah (a Kalah(6) position searched beyond small tables), Oware
//! and Bao it checks the listed moves against the library, clicks the best listed move and checks
//! the new state (the move played and highlighted, the side to move flipped, the list updated);
//! in Kalah also the board and its legal moves drawn while the search waits for a slot, a step of
//! the principal variation, the keys for undo and best move, the position box (a mistyped
//! position keeps its text and says what is wrong), and a phone's width; the game selector's
//! choice of a rule set whose tables are present. In Kalah(3,3) the address holding the game: a
//! game chosen through the API with moves that lose seeds, played by clicks (its moves in the
//! address, back and forward a move each, undo), opened by a link with its moves; the review
//! pane's rows, summaries and chart (a point a ply, South's value, the moves marked as the
//! library marks them) equal to the API's review, a click on a marked ply or a row showing the
//! position before it; a pasted text that is no record answered in a line. In Oware from above
//! its tables, the plies beyond them with the engine's estimates in words and as hollow points
//! on a dashed line, never a value or a mark. Granary plays a side: perfectly within the tables
//! (said so), the engine's move beyond them (labelled an estimate), the game going on.
//!
//! A module a scenario; what they share in [`common`] (the browser, the server), [`page`] (the
//! page as a test reads and drives it) and [`games`] (games chosen through the API).
//!
//! It needs chromedriver and Chromium: without them each test says `NOT RUN` (and fails when `CI`
//! is set); `.ci/run` installs them, and the README's test command runs it with the rest
//! (alone: `cargo test --profile ci -p granary-server --test browser`). Its WebDriver client is
//! a dev-dependency, so the test builds unify the features of one set of dependencies and the
//! granary crates are compiled once for all of them.
//!
//! With `GRANARY_SCREENSHOTS=DIR` it saves `kalah.png`, `oware.png` and `bao.png` there, at a
//! desktop width (`docs/screenshots/` holds them:
//! `GRANARY_SCREENSHOTS=$PWD/docs/screenshots cargo test --profile ci -p granary-server --test browser`).

mod address;
mod common;
mod estimates;
mod games;
mod games_play;
mod jobs;
mod opponent;
mod page;
mod play;
mod review;
