// granary's page. The position lives in the address bar (game, rules, pits, seeds, position, and
// `last`, the move that led to it). Kalah and Oware: every legal move is a pit button and a row
// of the move list (best first), both carrying data-move (the pit) and data-value (the library's
// value: the net of the seeds left, for the player to move); the colour is the final result.
// Bao: the moves with the engine's evaluation, and a proven result where there is one. The board
// and the legal moves are drawn at once (from `show`, data-board="1"); the values (or the
// engine's evaluations) follow when the server has them (data-ready="1").
"use strict";

const $ = (id) => document.getElementById(id);
let catalogue = null;
let undoStack = []; // earlier {position, last}, for undo
let current = null; // what is drawn: {game, shown, answer, hint, list}
let generation = 0; // bumped by every render; a stale render stops

function params() {
  return new URLSearchParams(location.search);
}

function setParams(p, push) {
  const url = location.pathname + "?" + p.toString();
  if (push) history.pushState(null, "", url); else history.replaceState(null, "", url);
}

class ApiError extends Error {
  constructor(message, status, retryAfter) {
    super(message);
    this.status = status;
    this.retryAfter = retryAfter;
  }
}

async function api(path, p) {
  const response = await fetch(path + "?" + p.toString());
  let body = null;
  try { body = await response.json(); } catch (e) { body = {}; }
  if (!response.ok) {
    throw new ApiError(body.error || response.statusText, response.status,
      Number(response.headers.get("Retry-After")) || 1);
  }
  return body;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function gameParams() {
  const p = params();
  const out = new URLSearchParams();
  for (const key of ["game", "rules", "pits", "seeds", "position"]) {
    if (p.get(key)) out.set(key, p.get(key));
  }
  if (!out.get("game")) out.set("game", "kalah");
  if (out.get("game") === "bao") { out.delete("pits"); out.delete("seeds"); }
  return out;
}

function status(text, error) {
  $("status").textContent = text;
  $("status").className = error ? "error" : "";
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
    e.addEventListener("click", () => play(move, name));
  }
  e.dataset.pit = name;
  e.append(el("span", "name", name), el("span", "seeds", String(seeds)));
  if (extra.small !== undefined) e.append(el("small", "", extra.small));
  return e;
}

// The query, asked again while the server is still searching (503 with Retry-After).
async function queryWithPatience(p, gen) {
  for (let tries = 0; ; tries++) {
    try {
      return await api("/api/v1/query", p);
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 503 || tries > 60 || gen !== generation) throw e;
      $("verdict").textContent = e.message + " …";
      await sleep(1000 * Math.min(e.retryAfter, 5));
      if (gen !== generation) throw e;
    }
  }
}

// Kalah and Oware: the board and its legal moves at once, then the values when the query ends.
async function renderTwoRow(p, gen) {
  const shown = await api("/api/v1/show", p);
  if (gen !== generation) return null;
  current = drawTwoRow(shown, null, null);
  let answer = null, failure = null;
  if (!shown.over) {
    try {
      answer = await queryWithPatience(p, gen);
    } catch (e) {
      failure = e;
    }
  }
  if (gen !== generation) return null;
  return drawTwoRow(shown, answer, failure);
}

// North's row on top (N_m .. N1 left to right), South's below (S1 .. S_m); North's store on the
// left, South's on the right. With no answer (yet) the legal moves are buttons without values.
function drawTwoRow(shown, answer, failure) {
  const m = shown.pits.length / 2;
  const south = shown.pits.slice(0, m), north = shown.pits.slice(m);
  const mover = shown.to_move;
  const letter = mover === "south" ? "S" : "N";
  const byPit = new Map((answer ? answer.moves : []).map((mv) => [mv.move, mv]));
  const last = params().get("last") || "";
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
    b.addEventListener("click", () => play(String(mv.move), letter + mv.move));
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
      b.addEventListener("click", () => goTo(step.position, name));
      pv.append(b);
    });
    if (answer.pv_end === "cycle") pv.append(el("span", "", "then endless play"));
  }
  $("proven").textContent = "";
  $("last").textContent = last ? `Last move: ${last}.` : "";
  return { game: params().get("game") || "kalah", shown, answer, list: list.map((mv) => [String(mv.move), letter + mv.move]) };
}

// Bao: the board and its legal moves' names at once, then the engine's evaluations.
async function renderBao(p, gen) {
  const shown = await api("/api/v1/show", p);
  if (gen !== generation) return null;
  current = drawBao(shown, null, null);
  let hint = null, failure = null;
  if (!shown.over) {
    const q = new URLSearchParams(p);
    q.delete("game");
    try {
      hint = await api("/api/v1/bao/hint", q);
    } catch (e) {
      failure = e;
    }
  }
  if (gen !== generation) return null;
  return drawBao(shown, hint, failure);
}

// Four rows as Bao's notation writes them (North's back b8..b1, North's front a8..a1, South's
// front A1..A8, South's back B1..B8), the moves with the engine's evaluation once it has them.
function drawBao(shown, hint, failure) {
  const last = params().get("last") || "";
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
  document.body.dataset.board = "1";
  const stage = shown.stage === "namua" ? "namua: seeds still in hand" : "mtaji: no seeds in hand";
  status(`${shown.rules}. ` + (shown.over ? "The game is over." : `${capital(shown.to_move)} to move (${stage}).`) +
    (shown.takasia ? ` Takasia: ${shown.takasia} may not be lifted.` : ""));
  $("verdict").textContent = shown.over
    ? `Game over: ${shown.to_move} has ${shown.end}; ${shown.winner} wins.`
    : hint || failure ? "" : "Asking the engine …";
  if (failure) status(failure.message, true);
  // Until the engine answers, the legal moves without evaluations, in the order show gives.
  const moves = hint ? hint.moves : (shown.over ? [] : shown.legal_moves.map((move) => ({ move, score: null })));
  $("moves").className = "bao";
  $("moves-title").hidden = moves.length === 0;
  $("moves").replaceChildren(...moves.map((mv, i) => {
    const b = el("button", "move bao" + (i === 0 && hint ? " best" : ""));
    b.type = "button";
    b.dataset.move = mv.move;
    b.dataset.value = "";
    b.append(el("span", "mv", mv.move), el("span", "eval", mv.score === null ? "…" : signed(mv.score)));
    b.title = mv.score === null ? `play ${mv.move}`
      : `${mv.move}: the engine's 3-ply evaluation for ${shown.to_move}, ${signed(mv.score)} seeds`;
    b.addEventListener("click", () => play(mv.move, mv.move));
    return b;
  }));
  $("pv").replaceChildren();
  const proven = hint && hint.proven;
  $("proven").textContent = proven
    ? `Proven: from this start ${capital(proven.winner)} wins` +
      (proven.move ? `, first move ${proven.move}` : "") + ` (${proven.how}).`
    : "";
  $("last").textContent = last ? `Last move: ${last}.` : "";
  return { game: "bao", shown, answer: null, hint, list: hint ? moves.map((mv) => [mv.move, mv.move]) : [] };
}

// On a fresh visit (no game in the address) a start the server cannot answer gives way to a
// smaller Kalah it can.
const FALLBACKS = [["6", "3"], ["4", "4"], ["4", "3"], ["3", "3"]];

async function fallBack(gen) {
  for (const [pits, seeds] of FALLBACKS) {
    const p = new URLSearchParams({ game: "kalah", pits, seeds });
    try {
      await api("/api/v1/query", p);
    } catch (e) {
      if (e instanceof ApiError && e.status === 422) continue;
    }
    if (gen !== generation) return false;
    setParams(p, false);
    return true;
  }
  return false;
}

async function render() {
  const gen = ++generation;
  const p = gameParams();
  fillPickers();
  const input = $("position-text");
  const typed = input.value; // what the person had typed when this render began
  document.body.dataset.ready = "0";
  document.body.dataset.board = "0";
  status("…");
  try {
    if (p.get("game") === "bao") {
      current = await renderBao(p, gen) || current;
    } else {
      current = await renderTwoRow(p, gen) || current;
      const fresh = !params().get("game") && !params().get("position");
      if (fresh && current && !current.answer && !current.shown.over && await fallBack(gen)) {
        const note = $("status").textContent;
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
    }
  }
  if (gen === generation) {
    // The box shows the position drawn, unless the person is typing or has typed since.
    const untouched = document.activeElement !== input && input.value === typed;
    if (untouched && current && current.shown) input.value = current.shown.position;
    document.body.dataset.ready = "1";
  }
}

function goTo(position, last) {
  const p = params();
  undoStack.push({ position: p.get("position") || "", last: p.get("last") || "" });
  p.set("position", position);
  if (last) p.set("last", last); else p.delete("last");
  setParams(p, true);
  return render();
}

async function play(move, name) {
  const p = gameParams();
  let next = null;
  const known = current && current.answer && current.answer.moves.find((mv) => String(mv.move) === move);
  if (known) {
    next = known.position;
  } else {
    const q = new URLSearchParams(p);
    q.set("moves", move);
    try {
      next = (await api("/api/v1/show", q)).position;
    } catch (e) {
      status(e.message, true);
      return;
    }
  }
  await goTo(next, name);
}

function undo() {
  if (!undoStack.length) return;
  const previous = undoStack.pop();
  const p = params();
  if (previous.position) p.set("position", previous.position); else p.delete("position");
  if (previous.last) p.set("last", previous.last); else p.delete("last");
  setParams(p, true);
  render();
}

function playBest() {
  if (current && current.list && current.list.length) {
    const [move, name] = current.list[0];
    play(move, name);
  }
}

async function engineMove() {
  const p = gameParams();
  p.delete("game");
  p.set("ms", "500");
  try {
    const mv = await api("/api/v1/bao/move", p);
    await play(mv.move, mv.move);
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
  undoStack = [];
  setParams(p, true);
  $("note").textContent = "";
  return render();
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
  undoStack = [];
  setParams(p, true);
  $("note").textContent = pick && pick.note ? pick.note : "";
  return render();
}

// A typed position: checked by the server first, so that a mistyped one keeps the person's text
// in the box and says in one line what is wrong with it.
async function goToTyped() {
  const input = $("position-text");
  const text = input.value.trim();
  if (!text) return;
  const q = gameParams();
  q.set("position", text);
  let shown;
  try {
    shown = await api("/api/v1/show", q);
  } catch (e) {
    status(e.message, true);
    return;
  }
  input.blur();
  await goTo(shown.position, "");
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
  window.addEventListener("popstate", render);
  await render();
}

main();
