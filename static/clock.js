// @ts-check
// The room's two countdowns on this browser's clock: the turn clock (`state.clock`) and the
// time before the next hand is dealt anyway (`state.next_hand`). Both are kept from the seconds
// remaining, not the server's deadline, so a browser whose clock is off still counts down right.

import { leftText } from "./spans.js";

/** @typedef {import("./types.js").Clock} Clock */
/** @typedef {import("./types.js").View} View */

/** When `seconds` from now is, in ms on this browser's clock (null: no countdown).
 * @param {number | null | undefined} seconds */
export function deadlineIn(seconds) {
  return seconds === null || seconds === undefined ? null : Date.now() + seconds * 1000;
}

/** When the turn clock runs out (null: no clock now). @param {Clock | null} clock */
export function deadlineOf(clock) {
  return clock === null ? null : deadlineIn(clock.remaining);
}

/** "1:07". @param {number} seconds */
function mmss(seconds) {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** The turn clock as shown ("0:42"; from an hour up in words, "23 h 59 min", "2 days 3 h"), or
 * null when no turn clock runs. @param {number | null} deadline @param {View | null} view */
export function clockText(deadline, view) {
  if (!deadline || !view || view.status !== "playing") return null;
  const left = Math.max(0, (deadline - Date.now()) / 1000);
  return left >= 3600 ? leftText(left) : mmss(Math.round(left));
}

/** The seconds left before the next hand is dealt anyway ("0:17"), or null.
 * @param {number | null} deadline @param {View | null} view */
export function countdownText(deadline, view) {
  if (!deadline || !view || view.status !== "hand_over") return null;
  return mmss(Math.max(0, Math.ceil((deadline - Date.now()) / 1000)));
}

/** Bring the shown countdowns up to date (twice a second), without redrawing the table.
 * @param {HTMLElement} stage @param {HTMLElement} results
 * @param {{deadline: number | null, nextDeadline: number | null, view: View | null}} page */
export function tickClocks(stage, results, page) {
  const c = /** @type {HTMLElement | null} */ (stage.querySelector(".clock"));
  const t = clockText(page.deadline, page.view);
  if (c && t) {
    c.textContent = t;
    c.classList.toggle("low", (page.deadline - Date.now()) < 10000);
  }
  const n = /** @type {HTMLElement | null} */ (results.querySelector(".countdown"));
  const left = countdownText(page.nextDeadline, page.view);
  if (n && left) n.textContent = left;
}
