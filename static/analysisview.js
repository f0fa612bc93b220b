// @ts-check
// The analysis board's drawing (no requests): a move in words ("Play 5♥ from your hand to
// centre 2"), the best lines with their chances ("62 %"), the legal moves as buttons, the
// what-if moves tried so far, and the position on the table, read-only (table.js).

import { el } from "./dom.js";
import { list, num, t } from "./i18n.js";
import { shortCard } from "./movelog.js";
import { findCard, pileName, playerName } from "./moves.js";
import { renderTable } from "./table.js";

/** @typedef {import("./types.js").View} View */
/** @typedef {import("./types.js").Move} Move */
/** @typedef {import("./types.js").AnalysisAnswer} AnalysisAnswer */
/** @typedef {{kind: string, card?: number, from?: string, to?: string}} WireMove */

/** The board's route for a position (and a move to mark on it): what the replay's "Analyse" and
 * the review's "Open in the board" link to. @param {string} id @param {number} v @param {number} seat
 * @param {WireMove | null} [best] */
export const boardHref = (id, v, seat, best = null) =>
  `#analysis/${encodeURIComponent(id)}/${v}/${seat}${best ? `/${encodeURIComponent(JSON.stringify(best))}` : ""}`;

/** The same move? (the wire's fields, in any order) @param {WireMove | null | undefined} a @param {WireMove | null | undefined} b */
export const sameMove = (a, b) => !!a && !!b && a.kind === b.kind && a.card === b.card && a.from === b.from && a.to === b.to;

/** A chance to win as a whole per cent, in the reader's language ("62 %"). @param {number} x */
export const percent = (x) => num(x, { style: "percent", maximumFractionDigits: 0 });

/** A move of the view's seat in words, said as an instruction. @param {View} view @param {WireMove} m */
export function moveText(view, m) {
  const me = view.you;
  const card = m.card !== undefined ? findCard(view, m.card) : null;
  const words = card ? shortCard(card) : t("ml.a_card");
  const at = (/** @type {string | undefined} */ p) => (p ? pileName(view, /** @type {import("./types.js").Pile} */ (p), me) : "");
  const kind = ["play", "discard", "move_side", "load"].includes(m.kind) ? m.kind : "end_turn";
  return t(`ab.${kind}`, { card: words, from: at(m.from), to: at(m.to) });
}

/** Why an answer has no lines, in words (or ""). @param {AnalysisAnswer} a */
export function noLinesText(a) {
  const view = /** @type {View} */ (a.position);
  if (a.reason === "not_your_turn") return t("ab.not_your_turn", { name: playerName(view, a.seat) });
  if (a.reason === "hand_over") return t("ab.hand_over");
  if (a.reason === "match_over") return t("ab.match_over");
  return "";
}

/** A move's button: its words (and a note), `onTry(move)` on click. @param {View} view @param {WireMove} m
 * @param {(m: WireMove) => void} onTry @param {string} [extra] */
function moveButton(view, m, onTry, extra = "") {
  const b = el("button", "ab-move", moveText(view, m));
  b.type = "button";
  b.dataset.move = JSON.stringify(m);
  if (extra) b.append(el("span", "ab-extra", extra));
  b.addEventListener("click", () => onTry(m));
  return b;
}

/** The best lines, best first, each a button that tries it, its chance beside it.
 * @param {AnalysisAnswer} a @param {(m: WireMove) => void} onTry @param {WireMove | null} suggested */
export function linesList(a, onTry, suggested) {
  const view = /** @type {View} */ (a.position);
  const box = el("section", "ab-lines");
  box.setAttribute("aria-labelledby", "ab-lines-title");
  const head = el("h2", "", t("ab.lines"));
  head.id = "ab-lines-title";
  box.append(head);
  if (!a.lines.length) {
    box.append(el("p", "ab-none", noLinesText(a)));
    return box;
  }
  const ol = el("ol", "ab-line-list");
  ol.id = "ab-lines";
  for (const line of a.lines) {
    const li = el("li", "ab-line");
    const mine = sameMove(line.move, suggested);
    if (mine) li.classList.add("ab-suggested");
    const b = moveButton(view, line.move, onTry, mine ? ` (${t("ab.suggested")})` : "");
    const pct = el("span", "ab-chance", percent(line.chance));
    pct.title = t("ab.chance", { pct: percent(line.chance) });
    const bar = el("span", "ab-bar");
    bar.style.width = `${Math.round(100 * line.chance)}%`;
    bar.setAttribute("aria-hidden", "true");
    li.append(b, pct, bar);
    b.setAttribute("aria-label", `${moveText(view, line.move)}: ${t("ab.chance", { pct: percent(line.chance) })}`);
    ol.append(li);
  }
  box.append(ol);
  return box;
}

/** Every legal move of the position, as buttons. @param {AnalysisAnswer} a @param {(m: WireMove) => void} onTry
 * @param {WireMove | null} suggested */
export function movesList(a, onTry, suggested) {
  const view = /** @type {View} */ (a.position);
  const box = el("section", "ab-try");
  box.setAttribute("aria-labelledby", "ab-try-title");
  const head = el("h2", "", t("ab.try"));
  head.id = "ab-try-title";
  box.append(head);
  box.hidden = !a.legal_moves.length; // nothing to try: the lines' box says why
  const ul = el("ul", "ab-move-list");
  ul.id = "ab-moves";
  for (const m of a.legal_moves) {
    const li = el("li");
    const mine = sameMove(m, suggested);
    if (mine) li.classList.add("ab-suggested");
    li.append(moveButton(view, m, onTry, mine ? ` (${t("ab.suggested")})` : ""));
    ul.append(li);
  }
  box.append(ul);
  return box;
}

/** "What if: …" for the what-if moves tried, each said on the position it was tried on.
 * @param {{view: View, move: WireMove}[]} steps */
export function trailText(steps) {
  if (!steps.length) return t("ab.as_played");
  return t("ab.tried", { moves: list(steps.map((s) => moveText(s.view, s.move))) });
}

/** The position on the table, read-only; `mark`: a move drawn on it (its card and target pile).
 * @param {View} view @param {WireMove | null} mark */
export function table(view, mark) {
  const drawn = renderTable(view);
  for (const c of drawn.querySelectorAll(".card")) c.removeAttribute("tabindex");
  if (mark) {
    if (mark.card !== undefined) for (const c of drawn.querySelectorAll(`.card[data-card="${mark.card}"]`)) c.classList.add("review-best");
    if (mark.to) for (const p of drawn.querySelectorAll(`[data-pile="${mark.to}"]`)) p.classList.add("review-target");
  }
  return drawn;
}
