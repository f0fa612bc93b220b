// @ts-check
// The buttons under the table (Undo, End turn, Hint), the line a hint's reason is shown on, and
// the one-line reminder of how a turn ends under the room's rules.

import { button, el } from "./dom.js";
import { t } from "./i18n.js";
import { endTurnMove, takeBackMove } from "./moves.js";

/** @typedef {import("./types.js").Move} Move */
/** @typedef {import("./types.js").View} View */

/**
 * Fill `box` with the actions `view` allows; returns the hint line.
 * @param {HTMLElement} box @param {View} view
 * @param {{hints: boolean, sendMove: (move: Move) => boolean, askHint: () => void}} page
 */
export function drawActions(box, view, page) {
  const myTurn = view.status === "playing" && view.you !== null && view.turn === view.you;
  const undo = takeBackMove(view);
  if (undo) {
    const b = button(t("ac.undo"), () => page.sendMove(undo));
    b.id = "undo";
    b.title = t("ac.undo_title");
    box.append(b);
  }
  const end = endTurnMove(view);
  if (end) {
    const b = button(t("ac.end_turn"), () => page.sendMove(end));
    b.id = "end-turn";
    box.append(b);
  }
  if (myTurn && page.hints) {
    const b = button(t("ac.hint"), () => page.askHint());
    b.id = "hint-button";
    box.append(b);
  }
  const hintLine = el("p", "hint-line");
  hintLine.setAttribute("aria-live", "off");
  box.append(hintLine);
  if (myTurn && view.legal_moves.length) {
    box.append(el("p", "muted how", view.options.side_plays === "many"
      ? t(end ? "ac.how_many" : "ac.how_many_after")
      : view.options.must_discard
        ? t("ac.how_one")
        : t(end ? "ac.how_free" : "ac.how_free_side")));
  }
  return hintLine;
}
