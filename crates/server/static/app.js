// granary's page. The address bar holds the whole game: the game and its options, the start
// position (`position`, left out at the variant's own start) and the moves played from it
// (`moves`, a comma list: pits in Kalah and Oware, moves such as A6R in Bao). Every move played
// is a history entry: the browser's back button and undo take back one move, and a link opens
// the same position (the page replays its moves through /api/v1/show). Kalah and Oware: every
// legal move is a pit button and a row of the move list (best first), both carrying data-move
// (the pit) and data-value (the library's value: the net of the seeds left, for the player to
// move); the colour is the final result. Bao: the moves with the engine's evaluation, and a
// proven result where there is one. The board and the legal moves are drawn at once (from
// `show`, data-board="1", data-position the position drawn); the values (or the engine's
// evaluations) follow when the server has them (data-ready="1"). The review pane is review.js's.
//
// Granary plays a side against the person (Kalah and Oware, "granary plays"): when that side is
// to move after a move, a new game or the choice itself, it plays a best move where the server
// answers exactly (perfect play, said so), else the engine's best (its estimate, labelled),
// searched for the page's engine time a move (`ms`). After an undo or the back button it waits
// ("granary moves" plays for the side to move now). Test hooks: #granary-said's data-count
// (granary's moves so far), data-move (its last), data-perfect ("1" perfect, "0" an estimate)
// and data-error ("1" when it could not move); the page is not data-ready while granary is
// about to move.
"use strict";

const $ = (id) => document.getElementById(id);
let catalogue = null;
let current = null; // what is drawn: {game, shown, answer, hint, list, moves}
let generation = 0; // bumped by every render; a stale render stops
let granaryAsked = false; // granary was asked to move while a render ran: it moves at its end

/** The options an address carries besides the game and its start. */
const OPTIONS = ["rules", "pits", "seeds", "sweep", "nyumba", "takasia", "tax"];

function params() {
  return new URLSearchParams(location.search);
}

/** The page's own history entries carry their depth: how many entries it pushed before. */
function depth() {
  return (history.state && history.state.depth) || 0;
}

function setParams(p, push) {
  p.delete("last"); // an older address's move name: the moves say it now
  // Commas and slashes need no escape in a query: left as they are, the address reads as the
  // notation does (moves=3,1,6, position=4,4,4/4,4,4 …).
  const query = p.toString().replace(/%2C/gi, ",").replace(/%2F/gi, "/");
  const url = location.pathname + (query ? "?" + query : "");
  if (push) history.pushState({ depth: depth() + 1 }, "", url);
  else history.replaceState({ depth: depth() }, "", url);
}

/** The moves an address holds, in order. */
function movesOf(p) {
  const text = p.get("moves");
  return text ? text.split(",").map((m) => m.trim()).filter((m) => m) : [];
}

/** `p` with `moves` (none: no `moves` parameter). */
function withMoves(p, moves) {
  const q = new URLSearchParams(p);
  if (moves.length) q.set("moves", moves.join(",")); else q.delete("moves");
  return q;
}

class ApiError extends Error {
  constructor(message, status, retryAfter) {
    super(message);
    this.status = status;
    this.retryAfter = retryAfter;
  }
}

/** The JSON answer of a response, or an ApiError carrying the server's one-line message. */
async function answerOf(response) {
  let body = null;
  try { body = await response.json(); } catch (e) { body = {}; }
  if (!response.ok) {
    throw new ApiError(body.error || response.statusText, response.status,
      Number(response.headers.get("Retry-After")) || 1);
  }
  return body;
}

async function api(path, p) {
  return answerOf(await fetch(path + "?" + p.toString()));
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The game, its options and its start (`position`) from an address (the page's own by default),
 * with the game's default filled in and the options the game does not take left out. */
function gameParams(from) {
  const p = from || params();
  const out = new URLSearchParams();
  for (const key of ["game", ...OPTIONS, "position"]) {
    if (p.get(key)) out.set(key, p.get(key));
  }
  if (!out.get("game")) out.set("game", "kalah");
  if (out.get("game") === "bao") {
    for (const key of ["pits", "seeds", "sweep"]) out.delete(key);
  } else {
    for (const key of ["nyumba", "takasia", "tax"]) out.delete(key);
  }
  return out;
}

const starts = new Map(); // a variant's options → its start position

/** The start position of the variant `p` names (its position and moves aside). */
async function startOf(p) {
  const q = gameParams(p);
  q.delete("position");
  const key = q.toString();
  if (!starts.has(key)) starts.set(key, (await api("/api/v1/show", q)).position);
  return starts.get(key);
}

/** An address for the game `p` names started at `position`: `position` left out where it is the
 * variant's own start. */
async function startingAt(p, position) {
  const q = gameParams(p);
  q.delete("position");
  if (position && position !== await startOf(q)) q.set("position", position);
  return q;
}

function status(text, error) {
  $("status").textContent = text;
  $("status").className = error ? "error" : "";
}

/** The search behind an engine's estimate, in words: "depth 14, 1.0 s; not proved". */
function searchWords(e) {
  return `depth ${e.depth}, ${e.seconds.toFixed(1)} s; ${e.every_leaf_exact ? "every leaf exact" : "not proved"}`;
}

/** The engine's time a move from the page's control, ms: 1 to 5000, 1000 when not a number. */
function engineMs() {
  const ms = Math.round(Number($("ms").value));
  return Number.isFinite(ms) && ms > 0 ? Math.min(ms, 5000) : 1000;
}

function signed(x) {
  return (x > 0 ? "+" : x < 0 ? "−" : "±") + Math.abs(x);
}

function capital(word) {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function fillPickers() {
  const p = gameParams();
  const game = p.get("game");
  $("game").value = game;
  const info = catalogue.games.find((g) => g.game === game);
  const rules = info.options.rules;
  $("rules").replaceChildren(...rules.values.map((v) => new Option(v, v)));
  $("rules").value = p.get("rules") || rules.default;
  for (const el of document.querySelectorAll(".two-row")) el.hidden = game === "bao";
  $("pits").value = p.get("pits") || 6;
  $("seeds").value = p.get("seeds") || 4;
  $("engine").hidden = game !== "bao";
  $("legend").hidden = game === "bao";
  $("bao-legend").hidden = game !== "bao";
  $("notation-two-row").hidden = game === "bao";
  $("notation-bao").hidden = game !== "bao";
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// A pit: its name above its seeds; a button when it is a legal move.
function pit(name, seeds, move, extra) {
  const e = el(move === null ? "span" : "button", "pit" + (extra.cls ? " " + extra.cls : ""));
  if (move !== null) {
    e.type = "button";
    e.dataset.move = move;
    e.dataset.value = extra.value === undefined || extra.value === null ? "" : String(extra.value);
    e.title = extra.title || `play ${name}`;
    e.addEventListener("click", () => play(move));
  }
  e.dataset.pit = name;
  e.append(el("span", "name", name), el("span", "seeds", String(seeds)));
  if (extra.small !== undefined) e.append(el("small", "", extra.small));
  return e;
}

// The query. One whose search outlasts the request is a job (202 with `Location`): followed
// (`?since=`, the server waiting for a change) until it ends, the verdict line saying what it
// waits for and how long it has waited. A full queue (503) is asked again after `Retry-After`.
async function queryWithPatience(p, gen) {
  const began = Date.now();
  for (let tries = 0; ; tries++) {
    const response = await fetch("/api/v1/query?" + p.toString());
    if (response.status === 202) return followQuery(await answerOf(response), began, gen);
    try {
      return await answerOf(response);
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 503 || tries > 60 || gen !== generation) throw e;
      $("verdict").textContent = `${e.message} (waited ${waitedSince(began)} s so far) …`;
      await sleep(1000 * Math.min(e.retryAfter, 5));
      if (gen !== generation) throw e;
    }
  }
}

/** Whole seconds since `began` (a `Date.now()`). */
function waitedSince(began) {
  return Math.round((Date.now() - began) / 1000);
}

/** A query's job followed to its answer; left (its search goes on, its answer kept) once the
 * board has moved on. */
async function followQuery(report, began, gen) {
  for (;;) {
    if (gen !== generation) throw new ApiError("the board moved on", 0, 1);
    if (report.state === "done") return report.result;
    if (report.state === "failed") throw new ApiError(report.error, report.status || 500, 1);
    if (report.state === "cancelled") throw new ApiError(report.error || "cancelled", 0, 1);
    $("verdict").textContent = `Waiting for ${report.what}: ${waitedSince(began)} s so far …`;
    report = await answerOf(await fetch(`/api/v1/jobs/${report.id}?since=${report.version}`));
  }
}

// Kalah and Oware: the board after `moves` from `p`'s start and its legal moves at once, then
// the values when the query ends. The last move is named from the side that played it (the side
// to move before it: Kalah's extra turn keeps the side).
async function renderTwoRow(p, moves, gen) {
  const [shown, before] = await Promise.all([
    api("/api/v1/show", withMoves(p, moves)),
    moves.length ? api("/api/v1/show", withMoves(p, moves.slice(0, -1))) : null,
  ]);
  if (gen !== generation) return null;
  const last = before ? (before.to_move === "south" ? "S" : "N") + moves[moves.length - 1] : "";
  current = drawTwoRow(shown, null, null, last, moves);
  let answer = null, failure = null;
  if (!shown.over) {
    const q = new URLSearchParams(p);
    q.set("position", shown.position);
    q.set("ms", String(engineMs()));
    try {
      answer = await queryWithPatience(q, gen);
    } catch (e) {
      failure = e;
    }
  }
  if (gen !== generation) return null;
  if (answer && answer.estimate) return drawEstimate(shown, answer, last, moves);
  return drawTwoRow(shown, answer, failure, last, moves);
}

// A position beyond what the server answers exactly: the board with its legal moves, the
// engine's estimate in the verdict (labelled, with its depth and time; never a value), and the
// moves best first with the engine's estimates (`~`) or bounds (`≤`), in the move list's
// `estimate` style. The returned state has no `answer`: nothing exact is known.
function drawEstimate(shown, found, last, moves) {
  const drawn = drawTwoRow(shown, null, null, last, moves);
  const e = found.estimate;
  const mover = shown.to_move;
  $("verdict").textContent = `No exact value here (${found.beyond}). The engine's estimate: ` +
    `${signed(e.value)} for ${mover} (${searchWords(e)}).`;
  const letter = mover === "south" ? "S" : "N";
  const list = [...found.moves].sort((a, b) =>
    (b.move === found.best) - (a.move === found.best) || b.estimate - a.estimate || a.move - b.move);
  $("moves").className = "estimate";
  $("moves-title").hidden = list.length === 0;
  $("moves").replaceChildren(...list.map((mv) => {
    const b = el("button", "move estimate" + (mv.move === found.best ? " best" : ""));
    b.type = "button";
    b.dataset.move = String(mv.move);
    b.dataset.value = "";
    b.dataset.estimate = String(mv.estimate);
    b.dataset.bound = mv.bound;
    const shownEstimate = (mv.bound === "at_most" ? "≤" : "~") + signed(mv.estimate);
    b.append(el("span", "mv", letter + mv.move), el("span", "eval", shownEstimate));
    b.title = `${letter}${mv.move}: the engine's ` +
      (mv.bound === "at_most" ? `bound, at most ${signed(mv.estimate)}` : `estimate, ${signed(mv.estimate)}`) +
      ` net seeds for ${mover}; not proved`;
    b.addEventListener("click", () => play(String(mv.move)));
    return b;
  }));
  const line = found.pv.map((pit, i) => (i === 0 ? letter : "") + pit).join(" ");
  $("pv").replaceChildren(el("span", "", found.pv.length ? `The engine's line: ${line}` : ""));
  return { ...drawn, estimate: found };
}

// North's row on top (N_m .. N1 left to right), South's below (S1 .. S_m); North's store on the
// left, South's on the right. With no answer (yet) the legal moves are buttons without values.
// `last` names the move that led here (none: ""); `moves`, the moves played from the start.
function drawTwoRow(shown, answer, failure, last, moves) {
  const m = shown.pits.length / 2;
  const south = shown.pits.slice(0, m), north = shown.pits.slice(m);
  const mover = shown.to_move;
  const letter = mover === "south" ? "S" : "N";
  const byPit = new Map((answer ? answer.moves : []).map((mv) => [mv.move, mv]));
  const row = (side, pits) => {
    const div = el("div", "row");
    const order = side === "north" ? [...pits.keys()].reverse() : [...pits.keys()];
    const s = side === "south" ? "S" : "N";
    for (const i of order) {
      const name = s + (i + 1);
      const extra = { cls: name === last ? "last" : "" };
      let move = null;
      if (side === mover && shown.legal_moves.includes(i + 1)) {
        move = String(i + 1);
        const mv = byPit.get(i + 1);
        if (mv) {
          extra.cls += " " + mv.result;
          extra.value = mv.value;
          extra.small = signed(mv.margin);
          extra.title = `${name}: ${mv.result}, final ${mv.final[0]}–${mv.final[1]} (South–North)`;
        }
      }
      div.append(pit(name, pits[i], move, extra));
    }
    return div;
  };
  const [ss, ns] = shown.stores;
  const store = (who, n) => {
    const e = el("div", "store");
    e.append(el("span", "name", who + "'s store"), el("span", "seeds", String(n)));
    return e;
  };
  const rows = el("div", "rows");
  rows.append(row("north", north), row("south", south));
  const board = el("div", "board");
  board.append(store("North", ns), rows, store("South", ss));
  const top = el("p", "side", "North: the top row, N1 at the right, sowing right to left" +
    (mover === "north" && !shown.over ? " (to move)" : ""));
  const bottom = el("p", "side", "South: the bottom row, S1 at the left, sowing left to right" +
    (mover === "south" && !shown.over ? " (to move)" : ""));
  $("board").replaceChildren(top, board, bottom);
  document.body.dataset.position = shown.position;
  document.body.dataset.board = "1";

  status(`${shown.variant}. ` + (shown.over ? "The game is over." : `${capital(mover)} to move.`));
  if (shown.over) {
    const [fs, fn] = shown.final;
    const word = fs > fn ? "South wins" : fs < fn ? "North wins" : "a draw";
    $("verdict").textContent = `Game over (${shown.end}): ${word}, South ${fs} – North ${fn}.`;
  } else if (answer) {
    const [fs, fn] = answer.final;
    const word = answer.result === "draw" ? "it is a draw"
      : `${capital(answer.result === "win" ? mover : (mover === "south" ? "north" : "south"))} wins`;
    $("verdict").textContent = `With perfect play ${word}: final score South ${fs} – North ${fn} ` +
      `(margin ${signed(answer.margin)} for ${mover}; ${answer.source === "search" ? "searched beyond the tables" : "from the tables"}).`;
  } else if (failure) {
    $("verdict").textContent = "";
  } else {
    $("verdict").textContent = "Finding the values of the moves …";
  }
  if (failure) status(failure.message, true);

  // The move list, best first.
  $("moves").className = "";
  const list = answer ? [...answer.moves].sort((a, b) => b.value - a.value || a.move - b.move) : [];
  $("moves-title").hidden = list.length === 0;
  $("moves").replaceChildren(...list.map((mv, i) => {
    const b = el("button", `move ${mv.result}` + (i === 0 ? " best" : ""));
    b.type = "button";
    b.dataset.move = String(mv.move);
    b.dataset.value = String(mv.value);
    b.append(el("span", "mv", letter + mv.move), el("span", "res", mv.result),
      el("span", "final", `${mv.final[0]}–${mv.final[1]}`), el("span", "margin", signed(mv.margin)),
      el("span", "net", `net ${signed(mv.value)}`));
    b.title = `${letter}${mv.move}: ${mv.result}; final score South ${mv.final[0]} – North ${mv.final[1]}; ` +
      `margin ${signed(mv.margin)} for ${mover}; net ${signed(mv.value)} of the seeds left`;
    b.addEventListener("click", () => play(String(mv.move)));
    return b;
  }));

  // The principal variation, one button a step.
  const pv = $("pv");
  pv.replaceChildren();
  if (answer && answer.pv_steps && answer.pv_steps.length) {
    pv.append(el("span", "", "Principal variation:"));
    answer.pv_steps.forEach((step, i) => {
      const name = (step.side === "south" ? "S" : "N") + step.move;
      const b = el("button", "step " + step.side, `${i + 1}. ${name}`);
      b.type = "button";
      b.dataset.step = String(i);
      b.title = `show the position after ${name}`;
      const line = answer.pv_steps.slice(0, i + 1).map((s) => String(s.move));
      b.addEventListener("click", () => goMoves(moves.concat(line)));
      pv.append(b);
    });
    if (answer.pv_end === "cycle") pv.append(el("span", "", "then endless play"));
  }
  $("proven").textContent = "";
  $("last").textContent = last ? `Last move: ${last}.` : "";
  return {
    game: params().get("game") || "kalah", shown, answer, moves,
    list: list.map((mv) => [String(mv.move), letter + mv.move]),
  };
}

// Bao: the board after `moves` and its legal moves' names at once, then the engine's evaluations.
async function renderBao(p, moves, gen) {
  const shown = await api("/api/v1/show", withMoves(p, moves));
  if (gen !== generation) return null;
  current = drawBao(shown, null, null, moves);
  let hint = null, failure = null;
  if (!shown.over) {
    const q = new URLSearchParams(p);
    q.delete("game");
    q.set("position", shown.position);
    try {
      hint = await api("/api/v1/bao/hint", q);
    } catch (e) {
      failure = e;
    }
  }
  if (gen !== generation) return null;
  return drawBao(shown, hint, failure, moves);
}

// Four rows as Bao's notation writes them (North's back b8..b1, North's front a8..a1, South's
// front A1..A8, South's back B1..B8), the moves with the engine's evaluation once it has them.
function drawBao(shown, hint, failure, moves) {
  const last = shown.moves_played.length ? shown.moves_played[shown.moves_played.length - 1] : "";
  const lastPit = last.slice(0, 2);
  const lines = [
    ["North's back row", "b", [...shown.north.back].reverse(), true, null],
    ["North's front row", "a", [...shown.north.front].reverse(), true, shown.north.nyumba_owned],
    ["South's front row", "A", shown.south.front, false, shown.south.nyumba_owned],
    ["South's back row", "B", shown.south.back, false, null],
  ];
  const rows = el("div", "rows bao-board");
  for (const [label, letter, pits, reversed, nyumba] of lines) {
    const div = el("div", "row");
    div.append(el("span", "rowname", `${label} (${letter}${reversed ? "8…" + letter + "1" : "1…" + letter + "8"})`));
    pits.forEach((n, i) => {
      const number = reversed ? 8 - i : i + 1;
      const name = letter + number;
      let cls = name === lastPit ? "last" : "";
      if (nyumba && number === 5) cls += " nyumba";
      div.append(pit(name, n, null, { cls }));
    });
    rows.append(div);
  }
  const top = el("p", "side", `North: the top two rows; hand ${shown.north.hand}` +
    (shown.to_move === "north" ? " (to move)" : ""));
  const bottom = el("p", "side", `South: the bottom two rows; hand ${shown.south.hand}` +
    (shown.to_move === "south" ? " (to move)" : ""));
  $("board").replaceChildren(top, rows, bottom);
  document.body.dataset.position = shown.position;
  document.body.dataset.board = "1";
  const stage = shown.stage === "namua" ? "namua: seeds still in hand" : "mtaji: no seeds in hand";
  status(`${shown.rules}. ` + (shown.over ? "The game is over." : `${capital(shown.to_move)} to move (${stage}).`) +
    (shown.takasia ? ` Takasia: ${shown.takasia} may not be lifted.` : ""));
  $("verdict").textContent = shown.over
    ? `Game over: ${shown.to_move} has ${shown.end}; ${shown.winner} wins.`
    : hint || failure ? "" : "Asking the engine …";
  if (failure) status(failure.message, true);
  // Until the engine answers, the legal moves without evaluations, in the order show gives.
  const listed = hint ? hint.moves : (shown.over ? [] : shown.legal_moves.map((move) => ({ move, score: null })));
  $("moves").className = "bao";
  $("moves-title").hidden = listed.length === 0;
  $("moves").replaceChildren(...listed.map((mv, i) => {
    const b = el("button", "move bao" + (i === 0 && hint ? " best" : ""));
    b.type = "button";
    b.dataset.move = mv.move;
    b.dataset.value = "";
    b.append(el("span", "mv", mv.move), el("span", "eval", mv.score === null ? "…" : signed(mv.score)));
    b.title = mv.score === null ? `play ${mv.move}`
      : `${mv.move}: the engine's 3-ply evaluation for ${shown.to_move}, ${signed(mv.score)} seeds`;
    b.addEventListener("click", () => play(mv.move));
    return b;
  }));
  $("pv").replaceChildren();
  const proven = hint && hint.proven;
  $("proven").textContent = proven
    ? `Proven: from this start ${capital(proven.winner)} wins` +
      (proven.move ? `, first move ${proven.move}` : "") + ` (${proven.how}).`
    : "";
  $("last").textContent = last ? `Last move: ${last}.` : "";
  return { game: "bao", shown, answer: null, hint, moves, list: hint ? listed.map((mv) => [mv.move, mv.move]) : [] };
}

// On a fresh visit (no game in the address) a start the server cannot answer gives way to a
// smaller Kalah it can.
const FALLBACKS = [["6", "3"], ["4", "4"], ["4", "3"], ["3", "3"]];

async function fallBack(gen) {
  for (const [pits, seeds] of FALLBACKS) {
    const p = new URLSearchParams({ game: "kalah", pits, seeds });
    try {
      // An estimate is no exact answer: a smaller Kalah may have one.
      if ((await api("/api/v1/query", p)).estimate) continue;
    } catch (e) {
      if (e instanceof ApiError && e.status === 422) continue;
    }
    if (gen !== generation) return false;
    setParams(p, false);
    return true;
  }
  return false;
}

/** Draws what the address says; with `auto`, granary then plays if its side is to move. */
async function render(auto) {
  const gen = ++generation;
  const p = gameParams();
  const moves = movesOf(params());
  fillPickers();
  const input = $("position-text");
  const typed = input.value; // what the person had typed when this render began
  document.body.dataset.ready = "0";
  document.body.dataset.board = "0";
  status("…");
  drawReview();
  try {
    if (p.get("game") === "bao") {
      current = await renderBao(p, moves, gen) || current;
    } else {
      current = await renderTwoRow(p, moves, gen) || current;
      const here = params();
      const fresh = !here.get("game") && !here.get("position") && !here.get("moves");
      if (fresh && current && !current.answer && !current.shown.over && await fallBack(gen)) {
        const note = current.estimate
          ? `it has no exact value here (${current.estimate.beyond}), only the engine's estimate.`
          : $("status").textContent;
        await render();
        status(`The default start is beyond this server: ${note} Showing a smaller Kalah instead.`, false);
        return;
      }
    }
  } catch (e) {
    if (gen === generation) {
      status(e.message, true);
      for (const id of ["board", "moves", "pv"]) $(id).replaceChildren();
      $("verdict").textContent = "";
      $("last").textContent = "";
      delete document.body.dataset.position;
    }
  }
  if (gen === generation) {
    // The box shows the position drawn, unless the person is typing or has typed since.
    const untouched = document.activeElement !== input && input.value === typed;
    if (untouched && current && current.shown) input.value = current.shown.position;
    const asked = granaryAsked;
    granaryAsked = false;
    if ((auto || asked) && granaryToMove()) {
      await granaryMove();
      return;
    }
    document.body.dataset.ready = "1";
  }
}

/** Whether granary's side ("granary plays") is to move in the position drawn. */
function granaryToMove() {
  return Boolean(current && current.game !== "bao" && current.shown && !current.shown.over &&
    $("plays").value === current.shown.to_move);
}

/** Says what granary played, or why it could not move. */
function granarySaid(text, move, perfect) {
  const said = $("granary-said");
  said.textContent = text;
  said.dataset.error = move === null ? "1" : "0";
  if (move !== null) {
    said.dataset.count = String(Number(said.dataset.count || 0) + 1);
    said.dataset.move = move;
    said.dataset.perfect = perfect ? "1" : "0";
  }
}

/** Granary plays the side to move in the position drawn: a best move of the exact answer
 * (perfect play), else the engine's best (an estimate, labelled as one). */
async function granaryMove() {
  const drawn = current;
  if (!drawn || drawn.game === "bao" || !drawn.shown || drawn.shown.over) {
    document.body.dataset.ready = "1";
    return;
  }
  const mover = drawn.shown.to_move;
  const name = (pit) => (mover === "south" ? "S" : "N") + pit;
  const answer = drawn.answer;
  if (answer && answer.best && answer.best.length) {
    const move = String(answer.best[0]);
    const [fs, fn] = answer.final;
    granarySaid(`granary plays ${name(move)}: perfect play (${answer.result} for ${mover}, final ` +
      `score South ${fs} – North ${fn}; ${answer.source === "search" ? "searched beyond the tables" : "from the tables"}).`,
    move, true);
    await play(move);
  } else if (drawn.estimate && drawn.estimate.best) {
    const e = drawn.estimate;
    const move = String(e.best);
    granarySaid(`granary plays ${name(move)}: estimate ${signed(e.estimate.value)} for ${mover} ` +
      `(${searchWords(e.estimate)}); no exact value here (${e.beyond}).`, move, false);
    await play(move);
  } else {
    granarySaid(`granary cannot move here: ${$("status").textContent}`, null, false);
    document.body.dataset.ready = "1";
  }
}

/** Shows the game's position after `moves` from its start: a new history entry; granary then
 * plays if its side is to move. */
function goMoves(moves) {
  setParams(withMoves(params(), moves), true);
  return render(true);
}

/** Plays `move` (a pit, or a Bao move written out) where the page stands. */
function play(move) {
  return goMoves(movesOf(params()).concat([String(move)]));
}

/** Takes back one move: the browser's back where the page pushed the entry it shows (so undo and
 * the back button walk the same way); on an address opened as it is, its last move dropped. */
function undo() {
  if (depth() > 0) {
    history.back();
    return;
  }
  const moves = movesOf(params());
  if (!moves.length) return;
  setParams(withMoves(params(), moves.slice(0, -1)), false);
  render();
}

function playBest() {
  if (current && current.list && current.list.length) {
    play(current.list[0][0]);
  }
}

async function engineMove() {
  const p = gameParams();
  p.delete("game");
  p.set("ms", "500");
  try {
    const mv = await api("/api/v1/bao/move", p);
    await play(mv.move);
  } catch (e) {
    status(e.message, true);
  }
}

function newGame() {
  const p = new URLSearchParams();
  p.set("game", $("game").value);
  p.set("rules", $("rules").value);
  if ($("game").value !== "bao") {
    p.set("pits", $("pits").value);
    p.set("seeds", $("seeds").value);
  }
  setParams(p, true);
  $("note").textContent = "";
  $("granary-said").textContent = "";
  return render(true);
}

// The game selector: the server picks the variant to show, one whose tables it holds where it
// holds any of the game, and says in a sentence what it changed or which tables to build.
async function chooseGame() {
  const game = $("game").value;
  $("rules").replaceChildren();
  if (game === "bao") return newGame();
  const q = new URLSearchParams({ game, pits: $("pits").value, seeds: $("seeds").value });
  let pick = null;
  try {
    pick = await api("/api/v1/tables", q);
  } catch (e) {
    // The pickers' own values are shown, and the page says what is wrong with them.
  }
  const p = new URLSearchParams({ game });
  if (pick) {
    p.set("rules", pick.show.rules);
    p.set("pits", String(pick.show.pits));
    p.set("seeds", String(pick.show.seeds));
  } else {
    p.set("pits", $("pits").value);
    p.set("seeds", $("seeds").value);
  }
  setParams(p, true);
  $("note").textContent = pick && pick.note ? pick.note : "";
  return render(true);
}

// A typed position: checked by the server first, so that a mistyped one keeps the person's text
// in the box and says in one line what is wrong with it.
async function goToTyped() {
  const input = $("position-text");
  const text = input.value.trim();
  if (!text) return;
  const q = gameParams();
  q.set("position", text);
  let address;
  try {
    address = await startingAt(q, (await api("/api/v1/show", q)).position);
  } catch (e) {
    status(e.message, true);
    return;
  }
  input.blur();
  setParams(address, true);
  await render(true);
}

async function main() {
  try {
    catalogue = await api("/api/v1/variants", new URLSearchParams());
  } catch (e) {
    status(e.message, true);
    document.body.dataset.ready = "1";
    return;
  }
  $("game").addEventListener("change", chooseGame);
  $("rules").addEventListener("change", newGame);
  $("pits").addEventListener("change", newGame);
  $("seeds").addEventListener("change", newGame);
  $("new").addEventListener("click", newGame);
  $("undo").addEventListener("click", undo);
  $("engine").addEventListener("click", engineMove);
  $("goto").addEventListener("submit", (event) => {
    event.preventDefault();
    goToTyped();
  });
  document.addEventListener("keydown", (event) => {
    const t = event.target;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
    if (event.key === "u" || event.key === "Backspace") {
      event.preventDefault();
      undo();
    } else if (event.key === "b" || (event.key === "Enter" && !(t && t.tagName === "BUTTON"))) {
      event.preventDefault();
      playBest();
    }
  });
  $("opponent").addEventListener("submit", (event) => event.preventDefault());
  // Granary moves now where the page has drawn its position, else once the render ends.
  const moveNow = (whoever) => {
    if (document.body.dataset.ready !== "1") {
      if (!whoever) granaryAsked = true;
      return;
    }
    if (whoever ? current && current.shown && !current.shown.over : granaryToMove()) {
      document.body.dataset.ready = "0";
      granaryMove();
    }
  };
  $("plays").addEventListener("change", () => moveNow(false));
  $("granary-move").addEventListener("click", () => moveNow(true));
  $("review-game").addEventListener("click", reviewGame);
  $("review-paste").addEventListener("click", reviewRecord);
  $("review-cancel").addEventListener("click", cancelReview);
  followPreparing();
  window.addEventListener("popstate", () => render(false));
  setParams(params(), false); // this entry's depth, kept over a reload
  await render();
}

main();
