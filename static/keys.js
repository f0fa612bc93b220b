// @ts-check
// The room's keyboard: the shortcuts (Ctrl+Z take back, E end the turn, H hint, C chat, ? this
// help, 1-9 and P pick a card) and the help box that lists them (Close, or Esc, closes it).
// Loaded beside the room's socket (room.js), not with the first page: chrome.js holds the empty
// box and the Keys button, this module fills the box the first time it opens.

import { button, el } from "./dom.js";
import { more, t } from "./i18n.js";
import { endTurnMove, takeBackMove } from "./moves.js";

/** @typedef {import("./types.js").Move} Move */
/** @typedef {import("./types.js").View} View */
/**
 * What a key may act on: the page's view and hint setting, and what it can do.
 * @typedef {{view: View | null, hints: boolean, sendMove: (move: Move) => boolean, askHint: () => void,
 *   focusChat: () => void, toggleHelp: () => void, shortcut: (key: string) => boolean, refuse: (text: string) => void}} KeyTarget
 */

/** The help box on screen and its Keys button (the room page's, set when it first opens).
 * @type {{box: HTMLElement, button: HTMLElement} | null} */
let help = null;

/** Fill the help box: its title, a line per key (text with keys in [brackets]) and Close; the
 * words are in the catalogue's later part. @param {HTMLElement} box */
function fill(box) {
  const h = el("h2");
  const ul = el("ul");
  const close = button("", () => showHelp(box, help.button, false), "small");
  close.id = "keys-close";
  box.append(h, ul, close);
  more().then(() => {
    h.textContent = t("ky.title");
    for (let k = 1; k <= 6; k++) {
      const li = el("li");
      // "[Tab] moves between your cards"
      for (const [i, part] of t(`ky.${k}`).split(/\[([^\]]+)\]/).entries()) li.append(i % 2 ? el("kbd", "", part) : part);
      ul.append(li);
    }
    close.textContent = t("rs.close");
  });
}

/** Open or close (`open`; by default the other way round) the help box `box` of the Keys button
 * `opener`. Closing it from inside puts the focus back on the Keys button (or, where that is
 * not shown, on the first card of the hand), never on the page's body.
 * @param {HTMLElement} box @param {HTMLElement} opener @param {boolean} [open] */
export function showHelp(box, opener, open = box.hidden) {
  help = { box, button: opener };
  if (!box.firstChild) fill(box);
  const inside = box.contains(document.activeElement);
  box.hidden = !open;
  opener.setAttribute("aria-expanded", String(open));
  if (!open && inside) {
    opener.focus();
    if (document.activeElement !== opener) /** @type {HTMLElement | null} */ (document.querySelector(".hand-row button.card"))?.focus();
  }
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
  const k = e.key;
  if (k === "Escape" && help && !help.box.hidden && help.box.isConnected) showHelp(help.box, help.button, false);
  else if (k === "?") page.toggleHelp();
  if (!view) return;
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
  } else if (/^[1-9pP]$/.test(k) && page.shortcut(k)) {
    e.preventDefault();
  }
}
