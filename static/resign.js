// @ts-check
// Resign: the button under the table for a seated player while a hand is played, and the
// question it asks first ("Resign this match? Your side loses.") in a modal <dialog> of its own,
// kept over the table's redraws. Loaded with the results (ending.js), never on the room's first
// load; the server decides (docs/protocol.md, "Resign (v1.4)") and refuses what it must.

import { button, el } from "./dom.js";
import { more, t } from "./i18n.js";
import { onLeave } from "./router.js";

/** @typedef {import("./types.js").ClientMessage} ClientMessage */
/** @typedef {import("./types.js").View} View */

await more(); // its words are in the later part of the catalogue

/** @type {HTMLDialogElement | null} the question on screen */
let asking = null;

/** Close the question, if it is open. */
export function closeResign() {
  const d = asking;
  asking = null;
  if (d) { if (d.open) d.close(); d.remove(); }
}

/**
 * Add the Resign button to `box` when `view` allows it (a seated player, a hand being played);
 * otherwise close a question left open (the match ended meanwhile).
 * @param {HTMLElement} box @param {View} view @param {(msg: ClientMessage) => boolean} send
 */
export function drawResign(box, view, send) {
  if (view.status !== "playing" || view.you === null) {
    closeResign();
    return;
  }
  const b = button(t("rs.resign_button"), () => ask(send), "resign");
  b.id = "resign";
  box.append(b);
}

/** Ask before resigning; "Keep playing" (or Esc) is the choice in focus. @param {(msg: ClientMessage) => boolean} send */
function ask(send) {
  closeResign();
  const d = /** @type {HTMLDialogElement} */ (el("dialog", "resign-ask"));
  d.id = "resign-ask";
  const q = el("p", "", t("rs.resign_ask"));
  q.id = "resign-q";
  d.setAttribute("aria-labelledby", "resign-q");
  const yes = button(t("rs.resign_yes"), () => { closeResign(); send({ type: "resign" }); });
  yes.id = "resign-yes";
  const no = button(t("rs.resign_no"), closeResign);
  no.id = "resign-no";
  const row = el("p", "resign-buttons");
  row.append(no, yes);
  d.append(q, row);
  d.addEventListener("close", () => { if (asking === d) closeResign(); }); // Esc closes it too
  document.body.append(d);
  asking = d;
  onLeave(closeResign);
  d.showModal();
  no.focus();
}
