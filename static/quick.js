// @ts-check
// "Play a bot now": a short game against a Normal bot, one click from the home page. The home
// page creates the room and marks it in sessionStorage; the room page then sits, adds the bot
// and starts, one step per room update.

import * as api from "./api.js";
import { button, el, errorLine } from "./dom.js";

/** @typedef {import("./types.js").ClientMessage} ClientMessage */
/** @typedef {import("./types.js").Room} Room */
/** @typedef {{navigate: (path: string) => void, seed: string | null}} QuickCtx */

const QUICK_KEY = "spite.quick";

/** "Play a bot now": a short game against a Normal bot, one click from the home page. The room
 * is created here; the room page sits, adds the bot and starts (sessionStorage marks the room).
 * @param {QuickCtx} ctx */
export function quickStart(ctx) {
  const box = el("div", "quick-start");
  const go = button("Play a bot now", null, "primary big");
  go.id = "quick-bot";
  const err = errorLine("quick-error");
  box.append(go, el("span", "muted", " A short game (pay-off piles of 13) against a Normal bot."), err);
  go.addEventListener("click", async () => {
    go.disabled = true;
    try {
      /** @type {import("./types.js").ConfigureFields} */
      const spec = { preset: "short", options: {}, seats: 2, turn_seconds: null, hints: true };
      const room = await api.createRoom(ctx.seed ? { ...spec, seed: ctx.seed } : spec);
      sessionStorage.setItem(QUICK_KEY, room.code);
      ctx.navigate("/r/" + encodeURIComponent(room.code));
    } catch (ex) {
      err.textContent = ex.message;
      go.disabled = false;
    }
  });
  return box;
}


/** The next step of a quick start in `room` for the player `me`, if this browser started one
 * there: sit, add a Normal bot, start.
 * @param {Room} room @param {string} me @param {(msg: ClientMessage) => boolean} send */
export function quickStep(room, me, send) {
  if (sessionStorage.getItem(QUICK_KEY) !== room.code) return;
  if (room.status !== "waiting" || room.host !== me) { sessionStorage.removeItem(QUICK_KEY); return; }
  const mine = room.seats.find((s) => s.player_id === me);
  const empty = room.seats.find((s) => s.player_id === null && !s.bot);
  if (!mine) send({ type: "sit", seat: empty ? empty.seat : 0 });
  else if (empty) send({ type: "add_bot", seat: empty.seat, level: "normal" });
  else {
    sessionStorage.removeItem(QUICK_KEY);
    send({ type: "start" });
  }
}
