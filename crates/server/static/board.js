// The board as the server shows it, with its legal moves. Kalah and Oware: every legal move is a
// pit button and a row of the move list (best first), both carrying data-move (the pit) and
// data-value (the library's value: the net of the seeds left, for the player to move); the
// colour is the final result; each step of the principal variation is a button carrying
// data-moves (the moves from the start to the position after it). A position beyond what the
// server answers exactly: the engine's estimates, labelled. Bao: the moves with the engine's
// evaluation, and a proven result where there is one. Each drawing sets the body's
// data-position (the position drawn) and data-board="1", and returns what is drawn:
// {game, shown, answer, hint, estimate, list, moves}. The buttons play nothing themselves: the
// page's play side (play.js) hears their clicks.

import { params } from "./address.js";
import { $, capital, el, searchWords, signed, status } from "./dom.js";

// A pit: its name above its seeds; a button when it is a legal move.
function pit(name, seeds, move, extra) {
  const e = el(move === null ? "span" : "button", "pit" + (extra.cls ? " " + extra.cls : ""));
  if (move !== null) {
    e.type = "button";
    e.dataset.move = move;
    e.dataset.value = extra.value === undefined || extra.value === null ? "" : String(extra.value);
    e.title = extra.title || `play ${name}`;
  }
  e.dataset.pit = name;
  e.append(el("span", "name", name), el("span", "seeds", String(seeds)));
  if (extra.small !== undefined) e.append(el("small", "", extra.small));
  return e;
}

// A position beyond what the server answers exactly: the board with its legal moves, the
// engine's estimate in the verdict (labelled, with its depth and time; never a value), and the
// moves best first with the engine's estimates (`~`) or bounds (`≤`), in the move list's
// `estimate` style. The returned state has no `answer`: nothing exact is known.
export function drawEstimate(shown, found, last, moves) {
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
    return b;
  }));
  const line = found.pv.map((pit, i) => (i === 0 ? letter : "") + pit).join(" ");
  $("pv").replaceChildren(el("span", "", found.pv.length ? `The engine's line: ${line}` : ""));
  return { ...drawn, estimate: found };
}

// North's row on top (N_m .. N1 left to right), South's below (S1 .. S_m); North's store on the
// left, South's on the right. With no answer (yet) the legal moves are buttons without values.
// `last` names the move that led here (none: ""); `moves`, the moves played from the start.
export function drawTwoRow(shown, answer, failure, last, moves) {
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
      b.dataset.moves = moves.concat(line).join(",");
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

// Four rows as Bao's notation writes them (North's back b8..b1, North's front a8..a1, South's
// front A1..A8, South's back B1..B8), the moves with the engine's evaluation once it has them.
export function drawBao(shown, hint, failure, moves) {
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
