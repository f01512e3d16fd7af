// The address bar holds the whole game: the game and its options, the start position
// (`position`, left out at the variant's own start) and the moves played from it (`moves`, a
// comma list: pits in Kalah and Oware, moves such as A6R in Bao). Every move played is a history
// entry, carrying its depth (how many entries the page pushed before it): the browser's back
// button and undo take back one move, and a link opens the same position.

import { api } from "./api.js";

/** The options an address carries besides the game and its start. */
export const OPTIONS = ["rules", "pits", "seeds", "sweep", "nyumba", "takasia", "tax"];

/** The page's address, as parameters. */
export function params() {
  return new URLSearchParams(location.search);
}

/** The page's own history entries carry their depth: how many entries it pushed before. */
export function depth() {
  return (history.state && history.state.depth) || 0;
}

/** The address `p`: a new history entry if `push`, else in place of the one shown. */
export function setParams(p, push) {
  p.delete("last"); // an older address's move name: the moves say it now
  // Commas and slashes need no escape in a query: left as they are, the address reads as the
  // notation does (moves=3,1,6, position=4,4,4/4,4,4 …).
  const query = p.toString().replace(/%2C/gi, ",").replace(/%2F/gi, "/");
  const url = location.pathname + (query ? "?" + query : "");
  if (push) history.pushState({ depth: depth() + 1 }, "", url);
  else history.replaceState({ depth: depth() }, "", url);
}

/** The moves an address holds, in order. */
export function movesOf(p) {
  const text = p.get("moves");
  return text ? text.split(",").map((m) => m.trim()).filter((m) => m) : [];
}

/** `p` with `moves` (none: no `moves` parameter). */
export function withMoves(p, moves) {
  const q = new URLSearchParams(p);
  if (moves.length) q.set("moves", moves.join(",")); else q.delete("moves");
  return q;
}

/** The game, its options and its start (`position`) from an address (the page's own by default),
 * with the game's default filled in and the options the game does not take left out. */
export function gameParams(from) {
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
export async function startingAt(p, position) {
  const q = gameParams(p);
  q.delete("position");
  if (position && position !== await startOf(q)) q.set("position", position);
  return q;
}
