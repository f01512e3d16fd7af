// The page's play: it draws what the address says (`render`: the board and its legal moves at
// once from `show`, data-board="1"; the values, or the engine's evaluations, once the server has
// them, data-ready="1"), plays the moves clicked or keyed (each a history entry: the back button
// and undo take back one move), and lets granary play a side.
//
// Granary plays a side against the person (Kalah and Oware, "granary plays"): when that side is
// to move after a move, a new game or the choice itself, it plays a best move where the server
// answers exactly (perfect play, said so), else the engine's best (its estimate, labelled),
// searched for the page's engine time a move (`ms`). After an undo or the back button it waits
// ("granary moves" plays for the side to move now). Test hooks: #granary-said's data-count
// (granary's moves so far), data-move (its last), data-perfect ("1" perfect, "0" an estimate)
// and data-error ("1" when it could not move); the page is not data-ready while granary is
// about to move.

import { depth, gameParams, movesOf, params, setParams, startingAt, withMoves } from "./address.js";
import { ApiError, api, queryWithPatience } from "./api.js";
import { drawBao, drawEstimate, drawTwoRow } from "./board.js";
import { catalogue } from "./catalogue.js";
import { $, searchWords, signed, status } from "./dom.js";
import { drawReview } from "./review.js";

let current = null; // what is drawn: {game, shown, answer, hint, estimate, list, moves}
let generation = 0; // bumped by every render; a stale render stops
let granaryAsked = false; // granary was asked to move while a render ran: it moves at its end

/** The verdict line says `text`. */
function verdict(text) {
  $("verdict").textContent = text;
}

/** The engine's time a move from the page's control, ms: 1 to 5000, 1000 when not a number. */
function engineMs() {
  const ms = Math.round(Number($("ms").value));
  return Number.isFinite(ms) && ms > 0 ? Math.min(ms, 5000) : 1000;
}

/** The pickers as the address says. */
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
      answer = await queryWithPatience(q, () => gen === generation, verdict);
    } catch (e) {
      failure = e;
    }
  }
  if (gen !== generation) return null;
  if (answer && answer.estimate) return drawEstimate(shown, answer, last, moves);
  return drawTwoRow(shown, answer, failure, last, moves);
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
export async function render(auto) {
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

/** Granary moves now where the page has drawn its position, else once the render ends:
 * `whoever` for the side to move ("granary moves"), else only if its side is to move. */
function moveNow(whoever) {
  if (document.body.dataset.ready !== "1") {
    if (!whoever) granaryAsked = true;
    return;
  }
  if (whoever ? current && current.shown && !current.shown.over : granaryToMove()) {
    document.body.dataset.ready = "0";
    granaryMove();
  }
}

/** The keys: `u` or Backspace undo, `b` or Enter play the best move (not while typing). */
function key(event) {
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
}

/** A click on the board's or the move list's buttons: the move it carries played, or the
 * position after a step of the principal variation shown. */
function clicked(event) {
  const target = event.target instanceof Element ? event.target : null;
  const step = target && target.closest("button[data-moves]");
  if (step) {
    goMoves(step.dataset.moves.split(","));
    return;
  }
  const move = target && target.closest("button[data-move]");
  if (move) play(move.dataset.move);
}

/** The controls of the play wired: pickers, buttons, board, keys, the back button. */
export function wirePlay() {
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
  for (const id of ["board", "moves", "pv"]) $(id).addEventListener("click", clicked);
  document.addEventListener("keydown", key);
  $("opponent").addEventListener("submit", (event) => event.preventDefault());
  $("plays").addEventListener("change", () => moveNow(false));
  $("granary-move").addEventListener("click", () => moveNow(true));
  window.addEventListener("popstate", () => render(false));
}
