// The page's review pane (Kalah and Oware): a game reviewed against perfect play by
// POST /api/v1/review, either the moves the address holds (from its start, as JSON) or a pasted
// game record (as text/plain; where the answer carries `setup`, the game it describes becomes
// the address). A review not kept from before runs as a job on the server (asked with
// `Prefer: respond-async`): the pane follows it (GET /api/v1/jobs/{id}?since=version, which
// answers as soon as the job changes), shows the plies done of the total and the time taken,
// draws each ply's row and chart point as it comes (chart.js), and has a button that cancels
// the job (DELETE). Nothing is asked again blind: a refusal is shown as the server words it.
// It draws each side's summary and the record the answer gives, if any; a click on a ply shows
// the position before it on the board (a history entry, as a move is). Over its buttons, a
// line says which tables a review of the game reads, and what the server builds for reviews.
//
// Test hooks: #review's data-ready ("0" while a review is asked, "1" once its answer or error is
// drawn), data-error ("1" after an error), data-count (answers and errors drawn), data-done and
// data-total (plies reviewed of the game's, while its job runs and after) and data-job (the
// job followed, "" once it has ended); the chart's and the rows' are chart.js's.

import { OPTIONS, gameParams, movesOf, params, setParams, startingAt, withMoves } from "./address.js";
import { ApiError, answerOf, cancelJob, nextReport } from "./api.js";
import { catalogue } from "./catalogue.js";
import { estimateWords, mark, reviewChart, reviewRow } from "./chart.js";
import { $, capital, duration, el, sideLetter, signed } from "./dom.js";

/** The review drawn: {address (the game and its start, or null), moves (strings), answer}. */
let review = null;
let reviewAsked = 0; // bumped by every request; a stale answer is dropped
let reviewJob = null; // the job followed: {id, asked}
let redraw = () => {}; // draws the page after the pane changed its address (`wireReview`)

/** The game and start an address names, as a string to compare. */
function reviewKey(p) {
  return gameParams(p).toString();
}

function reviewMessage(text, error) {
  $("review-status").textContent = text;
  $("review-status").className = error ? "error" : "";
}

/** Marks the pane busy (synchronously, so a test sees "0" once its click returns). */
function reviewBusy() {
  const pane = $("review");
  pane.dataset.ready = "0";
  pane.dataset.error = "0";
  reviewMessage("Reviewing the game against perfect play …", false);
  return ++reviewAsked;
}

function reviewDone(error) {
  const pane = $("review");
  pane.dataset.error = error ? "1" : "0";
  pane.dataset.count = String(Number(pane.dataset.count || 0) + 1);
  pane.dataset.ready = "1";
}

/** Shows a job's progress: plies done of the total, and the seconds it has taken. */
function reviewProgress(report) {
  const pane = $("review");
  pane.dataset.done = String(report.done);
  pane.dataset.total = String(report.total);
  $("review-progress").hidden = false;
  $("review-bar").max = Math.max(1, report.total);
  $("review-bar").value = report.done;
  const seconds = `${report.seconds.toFixed(1)} s`;
  $("review-done").textContent = report.state === "queued"
    ? `waiting for a free search slot (${seconds})`
    : `${report.done} of ${report.total} pl${report.total === 1 ? "y" : "ies"} reviewed, ${seconds}`;
}

function reviewFollowed(job) {
  reviewJob = job;
  $("review").dataset.job = job ? job.id : "";
  $("review-cancel").hidden = !job;
  if (!job) $("review-progress").hidden = true;
}

/** The review's answer for `body` (of content type `type`): at once if the server keeps it, else
 * its job followed to its end, `partial(report)` told each time plies are added. */
async function postReview(body, type, asked, partial) {
  const response = await fetch("/api/v1/review", {
    method: "POST", headers: { "Content-Type": type, "Prefer": "respond-async" }, body,
  });
  if (response.status !== 202) return answerOf(response);
  let report = await answerOf(response);
  const job = { id: report.id, asked };
  reviewFollowed(job);
  try {
    for (;;) {
      if (asked !== reviewAsked || reviewJob !== job) return null;
      reviewProgress(report);
      if (report.plies.length) partial(report);
      if (report.state === "done") return report.result;
      if (report.state === "failed") throw new ApiError(report.error, report.status || 500, 1);
      if (report.state === "cancelled") {
        throw new ApiError(`The review was ${report.error || "cancelled"}, after ` +
          `${report.done} of ${report.total} plies.`, 0, 1);
      }
      report = await nextReport(report);
    }
  } finally {
    if (reviewJob === job) reviewFollowed(null);
  }
}

/** "Cancel": the job followed is cancelled on the server, its rows so far kept. */
async function cancelReview() {
  const job = reviewJob;
  if (!job) return;
  $("review-cancel").disabled = true;
  try {
    await cancelJob(job.id);
  } catch (e) {
    reviewMessage(e.message, true);
  } finally {
    $("review-cancel").disabled = false;
  }
}

/** A job's plies so far, drawn as a review of the whole game (its chart spans every ply). */
function partialReview(address, moves) {
  return (report) => {
    review = { address, moves, answer: { plies: report.plies, total: report.total, partial: true } };
    drawReview();
  };
}

/** "Review the game": the moves the address holds, from its start. */
async function reviewGame() {
  const asked = reviewBusy();
  const address = gameParams();
  const moves = movesOf(params());
  if (address.get("game") === "bao") {
    reviewMessage("Bao has no tables to review a game with.", true);
    reviewDone(true);
    return;
  }
  if (!moves.length) {
    reviewMessage("No moves to review: play a move first (the review is of the moves played from the start).", true);
    reviewDone(true);
    return;
  }
  const body = { game: address.get("game") };
  for (const key of [...OPTIONS, "position"]) {
    if (address.get(key)) body[key] = address.get(key);
  }
  body.moves = moves.map(Number);
  try {
    const answer = await postReview(JSON.stringify(body), "application/json", asked,
      partialReview(address, moves));
    if (asked !== reviewAsked || answer === null) return;
    review = { address, moves, answer };
    reviewMessage("", false);
    drawReview();
    reviewDone(false);
  } catch (e) {
    if (asked !== reviewAsked) return;
    reviewMessage(e.message, true);
    reviewDone(true);
  }
}

/** The address and moves of the game an answer's `setup` describes (its options flat, as the
 * JSON request takes them, or under `options`). */
async function setupAddress(setup) {
  const flat = Object.assign({}, setup.options || {}, setup);
  const p = new URLSearchParams({ game: String(flat.game) });
  for (const key of OPTIONS) {
    const v = flat[key];
    if (v !== undefined && v !== null && typeof v !== "object") p.set(key, String(v));
  }
  const address = await startingAt(p, flat.position ? String(flat.position) : "");
  const moves = Array.isArray(flat.moves) ? flat.moves.map(String)
    : movesOf(new URLSearchParams({ moves: flat.moves ? String(flat.moves) : "" }));
  return { address, moves };
}

/** "Review this record": the pasted text as it is, its game then shown on the board. */
async function reviewRecord() {
  const asked = reviewBusy();
  const text = $("record-text").value;
  if (!text.trim()) {
    reviewMessage("Paste a game record first.", true);
    reviewDone(true);
    return;
  }
  try {
    const answer = await postReview(text, "text/plain; charset=utf-8", asked, (report) => {
      review = { address: null, moves: null, answer: { plies: report.plies, total: report.total, partial: true } };
      drawReview();
    });
    if (asked !== reviewAsked || answer === null) return;
    let game = { address: null, moves: null };
    if (answer.setup) {
      game = await setupAddress(answer.setup);
      if (asked !== reviewAsked) return;
    }
    review = { address: game.address, moves: game.moves, answer };
    reviewMessage(game.address ? "" : "The answer does not say which game it reviewed: its plies cannot be shown on the board.", false);
    if (game.address) {
      setParams(withMoves(game.address, game.moves), true);
      redraw();
    }
    drawReview();
    reviewDone(false);
  } catch (e) {
    if (asked !== reviewAsked) return;
    reviewMessage(e.message, true);
    reviewDone(true);
  }
}

/** Shows the position before ply `k` of the game reviewed. */
function showPly(k) {
  if (!review || !review.address) return;
  setParams(withMoves(review.address, review.moves.slice(0, k - 1)), true);
  redraw();
}

/** The ply the board stands before (the game's length + 1 at its end), or null when the board
 * is not in the game reviewed. */
function plyShown() {
  if (!review.address || reviewKey(params()) !== reviewKey(review.address)) return null;
  const moves = movesOf(params());
  const inGame = moves.length <= review.moves.length && moves.every((m, i) => m === review.moves[i]);
  return inGame ? moves.length + 1 : null;
}

/** One side's summary in a sentence. */
function reviewSide(name, s) {
  const p = el("p", "summary");
  p.dataset.side = name;
  for (const key of ["played", "exact", "kept", "lost"]) p.dataset[key] = String(s[key]);
  const without = s.played - s.exact;
  p.textContent = `${capital(name)}: ${s.played} move${s.played === 1 ? "" : "s"}` +
    (without ? `, ${without} without an exact value` : "") +
    `; ${s.kept} of ${s.exact} kept the value; ${s.lost} seed${s.lost === 1 ? "" : "s"} lost in all; ` +
    (s.first_change ? `the result first changed at ply ${s.first_change}.` : "the result never changed.") +
    (s.estimated ? ` The engine's estimates of ${s.estimated} move${s.estimated === 1 ? "" : "s"}: ` +
      `about ${s.estimated_lost} seed${s.estimated_lost === 1 ? "" : "s"} lost (not proved).` : "");
  return p;
}

/** Where the board stands in the game reviewed, in a line. */
function reviewAt(plies, at) {
  const p = $("review-at");
  if (at === null) {
    p.textContent = review.address ? "The board is not in the game reviewed." : "";
    delete p.dataset.ply;
    return;
  }
  p.dataset.ply = String(at);
  const ply = plies[at - 1];
  if (!ply) {
    p.textContent = `The end of the game reviewed (after ply ${plies.length}).`;
    return;
  }
  const name = sideLetter(ply.side) + ply.move;
  p.textContent = ply.answer === "exact"
    ? `Before ply ${at}: ${capital(ply.side)} played ${name}, value ${signed(ply.played)} against ` +
      `${signed(ply.value)} for the best (${ply.best.map((b) => sideLetter(ply.side) + b).join(" ")}); ` +
      `loss ${ply.loss}${mark(ply) ? " " + mark(ply) : ""}.`
    : ply.answer === "estimated"
      ? `Before ply ${at}: ${capital(ply.side)} played ${name}; no exact value (${ply.reason}); ` +
        `the engine's ${estimateWords(ply)}.`
      : `Before ply ${at}: ${capital(ply.side)} played ${name}; no exact value: ${ply.reason}.`;
}

/** The line over the review's buttons: the tables a review of this game reads, and the ones
 * the server builds in the background for Kalah(6) reviews (`preparing` of /api/v1/variants). */
export function drawReviewTables() {
  const line = $("review-tables");
  const p = gameParams();
  if (!catalogue || p.get("game") === "bao") {
    line.textContent = "";
    return;
  }
  const game = p.get("game");
  const name = game === "kalah"
    ? `kalah-${p.get("pits") || 6}-${p.get("rules") || "empty"}-${p.get("sweep") || "owner"}`
    : `oware-${p.get("pits") || 6}-${p.get("rules") || "abapa"}`;
  const kind = catalogue.tables.find((t) => t.name === name);
  const upTo = kind && kind.complete_up_to !== null ? kind.complete_up_to : null;
  let text = upTo === null
    ? `No ${name} tables on the server: ${game === "kalah" ? "a review searches every position" : "a review has no exact values, only the engine's estimates"}.`
    : `A review reads the ${name} tables (layers 0 to ${upTo}; positions with more seeds are ` +
      `${game === "kalah" ? "searched over them" : "estimated by the engine, not proved"}).`;
  const prep = catalogue.preparing;
  if (prep && prep.tables.includes(name)) {
    line.dataset.preparing = prep.state;
    if (prep.state === "building") {
      const layer = prep.layer ? ` (now ${prep.layer.kind}, layer ${prep.layer.seeds} of ${prep.seeds})` : "";
      text += ` The server is building tables to ${prep.seeds} seeds for fast reviews${layer}, ` +
        `${duration(prep.seconds)} so far: a Kalah(6,4) review then takes seconds, not minutes.`;
    } else if (prep.state === "searching") {
      text += ` The server is searching the opening positions over its tables to ${prep.seeds} ` +
        `seeds (${duration(prep.seconds)} so far): a review's first row then comes at once.`;
    } else if (prep.state === "failed") {
      text += ` Tables for fast reviews could not be built: ${prep.message}`;
    }
  } else {
    delete line.dataset.preparing;
    if (game === "kalah" && name.startsWith("kalah-6-") && (upTo === null || upTo < 24)) {
      text += ` Tables to 24 seeds (\`granary build kalah --rules ${p.get("rules") || "empty"} ` +
        `--max-seeds 24\`, 1.2 GB, a minute on 2 cores) make a 40-ply review take seconds, not minutes.`;
    }
  }
  line.textContent = text;
}

/** The pane as the address and the review stand: hidden for Bao; the review shown while the
 * board is in its game (or when its game is unknown). */
export function drawReview() {
  $("review").hidden = gameParams().get("game") === "bao";
  drawReviewTables();
  const result = $("review-result");
  const shown = review !== null && (review.address === null || reviewKey(params()) === reviewKey(review.address));
  result.hidden = !shown;
  if (!shown) return;
  const answer = review.answer;
  const plies = answer.plies;
  const at = plyShown();
  $("review-title").textContent = answer.partial
    ? `${plies.length} of ${answer.total} plies reviewed so far …`
    : `${plies.length} pl${plies.length === 1 ? "y" : "ies"} reviewed` +
      (answer.tables ? ` (tables ${answer.tables})` : "") + ".";
  $("review-chart").replaceChildren(reviewChart(plies, at, answer.total, showPly));
  $("review-rows").replaceChildren(...plies.map((ply) => reviewRow(ply, at, showPly)));
  $("review-sides").replaceChildren(...(answer.sides
    ? ["south", "north"].map((name, i) => reviewSide(name, answer.sides[i])) : []));
  reviewAt(plies, at);
  $("review-record-box").hidden = typeof answer.record !== "string";
  $("review-record").textContent = typeof answer.record === "string" ? answer.record : "";
}

/** The pane's buttons wired; `render` draws the page once the pane has changed its address. */
export function wireReview(render) {
  redraw = render;
  $("review-game").addEventListener("click", reviewGame);
  $("review-paste").addEventListener("click", reviewRecord);
  $("review-cancel").addEventListener("click", cancelReview);
}
