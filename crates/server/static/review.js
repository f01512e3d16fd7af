// The page's review pane (Kalah and Oware): a game reviewed against perfect play by
// POST /api/v1/review, either the moves the address holds (from its start, as JSON) or a pasted
// game record (as text/plain; where the answer carries `setup`, the game it describes becomes
// the address). A review not kept from before runs as a job on the server (asked with
// `Prefer: respond-async`): the pane follows it (GET /api/v1/jobs/{id}?since=version, which
// answers as soon as the job changes), shows the plies done of the total and the time taken,
// draws each ply's row and chart point as it comes, and has a button that cancels the job
// (DELETE). Nothing is asked again blind: a refusal is shown as the server words it. It draws
// the value after every ply from South's side as a line (a gap where a ply has no exact value),
// each move that loses seeds marked and each that changes the result marked red; where a ply
// has the engine's estimates instead (`answer: "estimated"`), a hollow point and a dashed line,
// labelled "estimate" and never marked; a row a ply; each side's summary; and the record the
// answer gives, if any. A click on a ply shows the position before it on the board (a history
// entry, as a move is). Values are the mover's net seeds of those on the board, as the API
// gives them.
//
// Test hooks: #review's data-ready ("0" while a review is asked, "1" once its answer or error is
// drawn), data-error ("1" after an error), data-count (answers and errors drawn), data-done and
// data-total (plies reviewed of the game's, while its job runs and after) and data-job (the
// job followed, "" once it has ended); data-ply, data-answer, data-value, data-played,
// data-loss and data-changed on the chart's markers and the table's rows of exact plies (the
// chart's data-value is South's, the row's the mover's), data-estimate, data-estimate-played
// and data-estimated-loss on those of estimated plies (the chart's data-estimate is South's);
// data-points on each polyline (class "estimate" for the engine's). Loaded before app.js, whose
// functions it calls once the page runs.
"use strict";

/** The review drawn: {address (the game and its start, or null), moves (strings), answer}. */
let review = null;
let reviewAsked = 0; // bumped by every request; a stale answer is dropped
let reviewJob = null; // the job followed: {id, asked}

const SVG = "http://www.w3.org/2000/svg";

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
      report = await answerOf(await fetch(`/api/v1/jobs/${report.id}?since=${report.version}`));
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
    await answerOf(await fetch(`/api/v1/jobs/${job.id}`, { method: "DELETE" }));
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
      render();
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
  render();
}

/** The ply the board stands before (the game's length + 1 at its end), or null when the board
 * is not in the game reviewed. */
function plyShown() {
  if (!review.address || reviewKey(params()) !== reviewKey(review.address)) return null;
  const moves = movesOf(params());
  const inGame = moves.length <= review.moves.length && moves.every((m, i) => m === review.moves[i]);
  return inGame ? moves.length + 1 : null;
}

function sideLetter(side) {
  return side === "south" ? "S" : "N";
}

/** `?` for a move that loses seeds, `??` for one that changes the result. */
function mark(ply) {
  return ply.answer !== "exact" ? "" : ply.changed ? "??" : ply.loss > 0 ? "?" : "";
}

function svg(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

/** The engine's estimates of a ply in words: "estimate: best S4 ~+2, played ~+0, loses about 2
 * (depth 12, 0.3 s; not proved)", as the library writes them. */
function estimateWords(ply) {
  const letter = sideLetter(ply.side);
  return `estimate: best ${ply.estimated_best.map((b) => letter + b).join(" ")} ` +
    `~${signed(ply.estimate.value)}, played ~${signed(ply.estimate_played)}, ` +
    (ply.estimated_loss > 0 ? `loses about ${ply.estimated_loss}` : "keeps the estimate") +
    ` (${searchWords(ply.estimate)})`;
}

/** The chart: the value after each ply for South (South's `played` where South moved, North's
 * negated), one polyline a run of exact plies; where the engine estimated a ply, its estimate of
 * the move played the same way, one dashed polyline a run of them; a marker a ply. */
function reviewChart(plies, at, total) {
  const W = 640, H = 190, L = 40, R = 12, T = 14, B = 24;
  const n = Math.max(plies.length, total || 0);
  const forSouth = (ply, v) => (ply.side === "south" ? v : -v);
  const south = (ply) => forSouth(ply, ply.played);
  const guess = (ply) => forSouth(ply, ply.estimate_played);
  const exact = plies.filter((ply) => ply.answer === "exact");
  const estimated = plies.filter((ply) => ply.answer === "estimated");
  const top = Math.max(1, ...exact.map((ply) => Math.abs(south(ply))),
    ...estimated.map((ply) => Math.abs(guess(ply))));
  const x = (k) => L + (n <= 1 ? (W - L - R) / 2 : ((k - 1) * (W - L - R)) / (n - 1));
  const y = (v) => T + ((H - T - B) / 2) * (1 - v / top);
  const round = (v) => Math.round(v * 10) / 10;
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img",
    "aria-label": "the value after each ply for South" });
  chart.append(
    svg("line", { class: "axis", x1: L, x2: W - R, y1: y(0), y2: y(0) }),
    svg("text", { x: L - 4, y: y(top) + 4, "text-anchor": "end" }, signed(top)),
    svg("text", { x: L - 4, y: y(0) + 4, "text-anchor": "end" }, "0"),
    svg("text", { x: L - 4, y: y(-top) + 4, "text-anchor": "end" }, signed(-top)),
    svg("text", { x: x(1), y: H - 6, "text-anchor": "middle" }, "1"),
    svg("text", { x: L + 4, y: T - 3, class: "caption" }, "South ahead ↑  North ahead ↓"),
  );
  if (n > 1) chart.append(svg("text", { x: x(n), y: H - 6, "text-anchor": "middle" }, String(n)));
  if (at !== null && at <= n) {
    chart.append(svg("line", { class: "now", x1: x(at), x2: x(at), y1: T, y2: H - B }));
  }
  for (const [answer, value, cls] of [["exact", south, ""], ["estimated", guess, "estimate"]]) {
    let run = [];
    const flush = () => {
      if (run.length) {
        const line = svg("polyline", { points: run.join(" "), "data-points": run.length });
        if (cls) line.classList.add(cls);
        chart.append(line);
      }
      run = [];
    };
    for (const ply of plies) {
      if (ply.answer === answer) run.push(`${round(x(ply.ply))},${round(y(value(ply)))}`);
      else flush();
    }
    flush();
  }
  for (const ply of plies) {
    const name = sideLetter(ply.side) + ply.move;
    let marker;
    if (ply.answer === "exact") {
      const cls = ply.changed ? "blunder" : ply.loss > 0 ? "mistake" : "point";
      marker = svg("circle", {
        class: cls, cx: round(x(ply.ply)), cy: round(y(south(ply))),
        r: cls === "blunder" ? 6 : cls === "mistake" ? 5 : 3,
        "data-answer": "exact", "data-value": south(ply), "data-played": ply.played,
        "data-loss": ply.loss, "data-changed": ply.changed ? "1" : "0",
      });
      marker.append(svg("title", {}, `ply ${ply.ply}: ${name}, ${signed(south(ply))} for South` +
        (ply.loss > 0 ? `; loses ${ply.loss} ${mark(ply)}` : "")));
    } else if (ply.answer === "estimated") {
      marker = svg("circle", {
        class: "estimate", cx: round(x(ply.ply)), cy: round(y(guess(ply))), r: 4,
        "data-answer": "estimated", "data-estimate": guess(ply),
        "data-estimated-loss": ply.estimated_loss, "data-changed": "0",
      });
      marker.append(svg("title", {}, `ply ${ply.ply}: ${name}, estimate ~${signed(guess(ply))} for ` +
        `South; ${estimateWords(ply)}; no exact value (${ply.reason})`));
    } else {
      marker = svg("rect", {
        class: "beyond", x: round(x(ply.ply) - 3), y: H - B + 3, width: 6, height: 6,
        "data-answer": ply.answer, "data-changed": "0",
      });
      marker.append(svg("title", {}, `ply ${ply.ply}: ${name}, no exact value (${ply.reason})`));
    }
    marker.dataset.ply = String(ply.ply);
    if (ply.ply === at) marker.classList.add("now");
    marker.addEventListener("click", () => showPly(ply.ply));
    chart.append(marker);
  }
  return chart;
}

/** A row a ply: its values; for a ply beyond reach the engine's estimates in words (never in the
 * value columns, never marked) and why there is no exact value, or only why. */
function reviewRow(ply, at) {
  const tr = el("tr", ply.answer === "estimated" ? "estimated" : ply.answer !== "exact" ? "beyond"
    : ply.changed ? "blunder" : ply.loss > 0 ? "mistake" : "");
  if (ply.ply === at) tr.classList.add("now");
  tr.dataset.ply = String(ply.ply);
  tr.dataset.answer = ply.answer;
  const letter = sideLetter(ply.side);
  const button = el("button", "ply", String(ply.ply));
  button.type = "button";
  button.title = `show the position before ply ${ply.ply}`;
  const first = el("td");
  first.append(button);
  tr.append(first, el("td", "", capital(ply.side)), el("td", "mv", letter + ply.move));
  if (ply.answer === "exact") {
    tr.dataset.value = String(ply.value);
    tr.dataset.played = String(ply.played);
    tr.dataset.loss = String(ply.loss);
    tr.dataset.changed = ply.changed ? "1" : "0";
    tr.append(el("td", "num", signed(ply.value)), el("td", "num", signed(ply.played)),
      el("td", "mv", ply.best.map((b) => letter + b).join(" ")), el("td", "num lost", String(ply.loss)),
      el("td", "mark", mark(ply)),
      el("td", "", ply.changed ? `${ply.result} → ${ply.result_after}` : ply.result));
  } else if (ply.answer === "estimated") {
    tr.dataset.changed = "0";
    tr.dataset.estimate = String(ply.estimate.value);
    tr.dataset.estimatePlayed = String(ply.estimate_played);
    tr.dataset.estimatedLoss = String(ply.estimated_loss);
    const td = el("td", "estimate", `${estimateWords(ply)}; no exact value: ${ply.reason}`);
    td.colSpan = 6;
    tr.append(td);
  } else {
    tr.dataset.changed = "0";
    const td = el("td", "reason", `no exact value: ${ply.reason}`);
    td.colSpan = 6;
    tr.append(td);
  }
  tr.addEventListener("click", () => showPly(ply.ply));
  return tr;
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

/** Minutes and seconds, for a person. */
function duration(seconds) {
  const s = Math.round(seconds);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** The line over the review's buttons: the tables a review of this game reads, and the ones
 * the server builds in the background for Kalah(6) reviews (`preparing` of /api/v1/variants). */
function drawReviewTables() {
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

/** While the server builds tables for reviews and searches the openings over them, the line
 * follows it (every 2 s) until it ends. */
async function followPreparing() {
  const busy = (prep) => prep && (prep.state === "building" || prep.state === "searching");
  while (catalogue && busy(catalogue.preparing)) {
    await sleep(2000);
    try {
      const fresh = await api("/api/v1/variants", new URLSearchParams());
      catalogue.tables = fresh.tables;
      catalogue.preparing = fresh.preparing;
    } catch (e) {
      return;
    }
    drawReviewTables();
  }
}

/** The pane as the address and the review stand: hidden for Bao; the review shown while the
 * board is in its game (or when its game is unknown). */
function drawReview() {
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
  $("review-chart").replaceChildren(reviewChart(plies, at, answer.total));
  $("review-rows").replaceChildren(...plies.map((ply) => reviewRow(ply, at)));
  $("review-sides").replaceChildren(...(answer.sides
    ? ["south", "north"].map((name, i) => reviewSide(name, answer.sides[i])) : []));
  reviewAt(plies, at);
  $("review-record-box").hidden = typeof answer.record !== "string";
  $("review-record").textContent = typeof answer.record === "string" ? answer.record : "";
}
