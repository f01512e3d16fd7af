// A game's review drawn ply by ply: the chart of the value after every ply from South's side
// (a line, with a gap where a ply has no exact value; each move marked as the library marks it,
// `?` one that loses seeds, `??` in red one that changes the result), where a ply has the
// engine's estimates instead (`answer: "estimated"`) a hollow point and a dashed line, labelled
// "estimate" and never marked; and the table's row of each ply. A click on a ply's marker or
// row is handed on (`onPly`, with the ply's number). Values are the mover's net seeds of those
// on the board, as the API gives them.
//
// Test hooks: data-ply, data-answer, data-value, data-played, data-loss and data-changed on the
// chart's markers and the table's rows of exact plies (the chart's data-value is South's, the
// row's the mover's), data-estimate, data-estimate-played and data-estimated-loss on those of
// estimated plies (the chart's data-estimate is South's); data-points on each polyline (class
// "estimate" for the engine's).

import { capital, el, searchWords, sideLetter, signed, svg } from "./dom.js";

/** An exact ply's mark as the library gives it (`mark`): `??` for a move that changes the
 * result, `?` for one that loses seeds, else none (""); an estimated ply never has one. */
export function mark(ply) {
  return ply.answer === "exact" && ply.mark ? ply.mark : "";
}

/** The class of an exact ply's marker and row, by its mark. */
function marked(ply) {
  return { "??": "blunder", "?": "mistake" }[mark(ply)] || "";
}

/** The engine's estimates of a ply in words: "estimate: best S4 ~+2, played ~+0, loses about 2
 * (depth 12, 0.3 s; not proved)", as the library writes them. */
export function estimateWords(ply) {
  const letter = sideLetter(ply.side);
  return `estimate: best ${ply.estimated_best.map((b) => letter + b).join(" ")} ` +
    `~${signed(ply.estimate.value)}, played ~${signed(ply.estimate_played)}, ` +
    (ply.estimated_loss > 0 ? `loses about ${ply.estimated_loss}` : "keeps the estimate") +
    ` (${searchWords(ply.estimate)})`;
}

/** The chart: the value after each ply for South (South's `played` where South moved, North's
 * negated), one polyline a run of exact plies; where the engine estimated a ply, its estimate of
 * the move played the same way, one dashed polyline a run of them; a marker a ply. */
export function reviewChart(plies, at, total, onPly) {
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
      const cls = marked(ply) || "point";
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
    marker.addEventListener("click", () => onPly(ply.ply));
    chart.append(marker);
  }
  return chart;
}

/** A row a ply: its values; for a ply beyond reach the engine's estimates in words (never in the
 * value columns, never marked) and why there is no exact value, or only why. */
export function reviewRow(ply, at, onPly) {
  const tr = el("tr", ply.answer === "estimated" ? "estimated" : ply.answer !== "exact" ? "beyond"
    : marked(ply));
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
  tr.addEventListener("click", () => onPly(ply.ply));
  return tr;
}
