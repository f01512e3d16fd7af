// The page's elements and the words it writes: elements found and made (HTML and SVG), the
// status line, and numbers, sides and searches as a person reads them.

const SVG = "http://www.w3.org/2000/svg";

/** The element with the id `id`. */
export const $ = (id) => document.getElementById(id);

/** A new `tag` element of class `cls`, holding `text` if given. */
export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** A new SVG `tag` element with the attributes `attrs`, holding `text` if given. */
export function svg(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

/** The status line: `text`, in the error style if `error`. */
export function status(text, error) {
  $("status").textContent = text;
  $("status").className = error ? "error" : "";
}

/** A number with its sign: +3, −2, ±0. */
export function signed(x) {
  return (x > 0 ? "+" : x < 0 ? "−" : "±") + Math.abs(x);
}

export function capital(word) {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** A side's letter in the notation: S or N. */
export function sideLetter(side) {
  return side === "south" ? "S" : "N";
}

/** The search behind an engine's estimate, in words: "depth 14, 1.0 s; not proved". */
export function searchWords(e) {
  return `depth ${e.depth}, ${e.seconds.toFixed(1)} s; ${e.every_leaf_exact ? "every leaf exact" : "not proved"}`;
}

/** Minutes and seconds, for a person. */
export function duration(seconds) {
  const s = Math.round(seconds);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}
