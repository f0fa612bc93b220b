// @ts-check
// The room's keyboard: the shortcuts (Ctrl+Z take back, E end the turn, H hint, C chat, ? this
// help, 1-9 and P pick a card) and the help box that lists them.

import { el } from "./dom.js";
import { more, t } from "./i18n.js";
import { endTurnMove, takeBackMove } from "./moves.js";

/** @typedef {import("./types.js").Move} Move */
/** @typedef {import("./types.js").View} View */
/**
 * What a key may act on: the page's view and hint setting, and what it can do.
 * @typedef {{view: View | null, hints: boolean, sendMove: (move: Move) => boolean, askHint: () => void,
 *   focusChat: () => void, toggleHelp: () => void, shortcut: (key: string) => boolean, refuse: (text: string) => void}} KeyTarget
 */

/** The help box the Keys button (or ?) opens. */
export function keysHelp() {
  const box = el("section", "keys-help");
  box.hidden = true;
  const ul = el("ul");
  for (let n = 0; n < 5; n++) ul.append(el("li"));
  more().then(() => {
    for (const [k, li] of [...ul.children].entries()) {
      li.textContent = "";
      // a line is text with keys in [brackets]: "[Tab] moves between your cards"
      for (const [i, part] of t(`ky.${k + 1}`).split(/\[([^\]]+)\]/).entries()) li.append(i % 2 ? el("kbd", "", part) : part);
    }
  });
  box.append(el("h2", "", t("ky.title")), ul);
  return box;
}

/** Why E does not end the turn now, naming the rule. @param {View} view */
export function endRefusal(view) {
  if (view.status !== "playing" || view.you === null || view.turn !== view.you) return t("dn.not_turn");
  if (view.options.side_plays === "many") return t("ky.end_not_yet");
  return t(view.options.must_discard ? "ky.end_by_discard" : "ky.end_by_discard_only");
}

/** @param {EventTarget | null} t */
const typing = (t) => t instanceof Element && !!t.closest("input, textarea, select");

/** Act on one key press in the room. @param {KeyboardEvent} e @param {KeyTarget} page */
export function onRoomKey(e, page) {
  const view = page.view;
  if ((e.ctrlKey || e.metaKey) && !e.altKey && (e.key === "z" || e.key === "Z") && view && !typing(e.target)) {
    const undo = takeBackMove(view);
    if (undo) { e.preventDefault(); page.sendMove(undo); }
    return;
  }
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (typing(e.target)) return;
  if (!view) return;
  const k = e.key;
  if (k === "e" || k === "E") {
    const end = endTurnMove(view);
    e.preventDefault();
    if (end) page.sendMove(end);
    else page.refuse(endRefusal(view));
  } else if ((k === "h" || k === "H") && page.hints && view.turn === view.you) {
    e.preventDefault();
    page.askHint();
  } else if (k === "c" || k === "C") {
    e.preventDefault();
    page.focusChat();
  } else if (k === "?") {
    page.toggleHelp();
  } else if (/^[1-9pP]$/.test(k) && page.shortcut(k)) {
    e.preventDefault();
  }
}
