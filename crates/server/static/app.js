// granary's page: the position lives in the address bar; every legal move is a button carrying
// data-move (the move) and data-value (its value for the player to move; empty if unknown).
"use strict";

const $ = (id) => document.getElementById(id);
let catalogue = null;
let history_ = []; // earlier positions, for undo

function params() {
  return new URLSearchParams(location.search);
}

function setParams(p, push) {
  const url = location.pathname + "?" + p.toString();
  if (push) history.pushState(null, "", url); else history.replaceState(null, "", url);
}

async function api(path, p) {
  const response = await fetch(path + "?" + p.toString());
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

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
}

function cell(cls, text) {
  const el = document.createElement("span");
  el.className = cls;
  el.textContent = text;
  return el;
}

function pitButton(label, move, value, verdict) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "pit" + (verdict ? " " + verdict : "");
  b.dataset.move = move;
  b.dataset.value = value === null ? "" : String(value);
  b.innerHTML = "";
  b.append(document.createTextNode(label));
  if (value !== null) {
    const small = document.createElement("small");
    small.textContent = (value > 0 ? "+" : "") + value;
    b.append(small);
  }
  b.addEventListener("click", () => play(move));
  return b;
}

// Kalah and Oware: North's row on top from its last pit, South's below; stores at the ends.
async function renderTwoRow(p) {
  const shown = await api("/api/v1/show", p);
  let answer = null;
  try {
    answer = shown.over ? null : await api("/api/v1/query", p);
  } catch (e) {
    status(e.message, true);
  }
  const m = shown.pits.length / 2;
  const south = shown.pits.slice(0, m), north = shown.pits.slice(m);
  const mover = shown.to_move;
  const values = new Map((answer ? answer.moves : []).map((mv) => [mv.move, mv]));
  const [ss, ns] = shown.stores;
  const lead = mover === "south" ? ss - ns : ns - ss;
  const row = (side, pits) => {
    const div = document.createElement("div");
    div.className = "row";
    const order = side === "north" ? [...pits.keys()].reverse() : [...pits.keys()];
    for (const i of order) {
      const pit = i + 1;
      if (side === mover && shown.legal_moves.includes(pit)) {
        const mv = values.get(pit);
        const value = mv ? mv.value : null;
        const verdict = value === null ? null : (lead + value > 0 ? "win" : lead + value < 0 ? "loss" : "draw");
        div.append(pitButton(String(pits[i]), String(pit), value, verdict));
      } else {
        div.append(cell("pit", String(pits[i])));
      }
    }
    return div;
  };
  const board = document.createElement("div");
  board.className = "row";
  const rows = document.createElement("div");
  rows.style.display = "grid";
  rows.style.gap = ".3rem";
  rows.append(row("north", north), row("south", south));
  board.append(cell("store", "N " + ns), rows, cell("store", "S " + ss));
  $("board").replaceChildren(board);
  if (shown.over) {
    status(`game over (${shown.end}): South ${shown.final[0]} - North ${shown.final[1]}`);
  } else if (answer) {
    status(`${shown.variant}. ${mover} to move: value ${answer.value > 0 ? "+" : ""}${answer.value}, ` +
      `final ${answer.final[0]}-${answer.final[1]} (${answer.result} for ${mover}; from ${answer.source})`);
  }
  $("moves").textContent = answer ? "moves " + answer.moves.map((mv) => `${mv.move}:${mv.value > 0 ? "+" : ""}${mv.value}`).join(" ") : "";
  $("pv").textContent = answer ? "pv " + answer.pv.join(" ") + (answer.pv_end === "cycle" ? " (then endless play)" : "") : "";
  return { shown, answer };
}

// Bao: four rows (North's back and front, South's front and back), moves as buttons.
async function renderBao(p) {
  const shown = await api("/api/v1/show", p);
  const rows = document.createElement("div");
  rows.style.display = "grid";
  rows.style.gap = ".3rem";
  const line = (pits, reverse) => {
    const div = document.createElement("div");
    div.className = "row";
    const list = reverse ? [...pits].reverse() : pits;
    for (const n of list) div.append(cell("pit", String(n)));
    return div;
  };
  rows.append(line(shown.north.back, true), line(shown.north.front, true),
    line(shown.south.front, false), line(shown.south.back, false));
  const buttons = document.createElement("div");
  buttons.className = "row";
  for (const mv of shown.legal_moves) buttons.append(pitButton(mv, mv, null, null));
  $("board").replaceChildren(rows, buttons);
  status(shown.over
    ? `game over: ${shown.to_move} has ${shown.end}; ${shown.winner} wins`
    : `${shown.rules}. ${shown.to_move} to move (${shown.stage}); hands S ${shown.south.hand} N ${shown.north.hand}`);
  $("moves").textContent = "";
  $("pv").textContent = "";
  return { shown, answer: null };
}

let current = null;

async function render() {
  const p = gameParams();
  fillPickers();
  document.body.dataset.ready = "0";
  status("…");
  try {
    current = p.get("game") === "bao" ? await renderBao(p) : await renderTwoRow(p);
    document.body.dataset.ready = "1";
  } catch (e) {
    status(e.message, true);
    document.body.dataset.ready = "1";
  }
}

async function play(move) {
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
  history_.push(p.get("position") || "");
  const np = params();
  np.set("position", next);
  setParams(np, true);
  await render();
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
  history_ = [];
  setParams(p, true);
  render();
}

async function main() {
  catalogue = await api("/api/v1/variants", new URLSearchParams());
  $("game").addEventListener("change", () => { $("rules").replaceChildren(); newGame(); });
  $("rules").addEventListener("change", newGame);
  $("pits").addEventListener("change", newGame);
  $("seeds").addEventListener("change", newGame);
  $("new").addEventListener("click", newGame);
  $("undo").addEventListener("click", () => {
    if (!history_.length) return;
    const previous = history_.pop();
    const p = params();
    if (previous) p.set("position", previous); else p.delete("position");
    setParams(p, true);
    render();
  });
  $("engine").addEventListener("click", engineMove);
  window.addEventListener("popstate", render);
  await render();
}

main();
