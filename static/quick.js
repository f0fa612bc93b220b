// @ts-check
// "Play a bot now": a short game against a Normal bot, one click from the home page. The home
// page creates the room and marks it in sessionStorage; the room page then sits, adds the bot
// and starts, one step per room update.

import * as api from "./api.js";
import { button, el, errorLine } from "./dom.js";
import { t } from "./i18n.js";

/** @typedef {import("./types.js").ClientMessage} ClientMessage */
/** @typedef {import("./types.js").Room} Room */
/** @typedef {{navigate: (path: string) => void, seed: string | null}} QuickCtx */

const QUICK_KEY = "spite.quick";

/** "Play a bot now": a short game against a Normal bot, one click from the home page. The room
 * is created here; the room page sits, adds the bot and starts (sessionStorage marks the room).
 * @param {QuickCtx} ctx */
export function quickStart(ctx) {
  const box = el("div", "quick-start");
  const go = button(t("qk.play_bot"), null, "primary big");
  go.id = "quick-bot";
  const err = errorLine("quick-error");
  box.append(go, el("span", "muted", " " + t("qk.about")), err);
  go.addEventListener("click", async () => {
    go.disabled = true;
    try {
      /** @type {import("./types.js").ConfigureFields & {sit: boolean}} the host sits at once */
      const spec = { preset: "short", options: {}, seats: 2, turn_seconds: null, hints: true, sit: true };
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


/** The step last sent ("CODE:sit", ...): the room object comes twice on connect (in `welcome`,
 * then as `room`), and a step must not be sent again before the room shows it done. */
let sent = "";

/** The next step of a quick start in `room` for the player `me`, if this browser started one
 * there: sit, add a Normal bot, start (each once).
 * @param {Room} room @param {string} me @param {(msg: ClientMessage) => boolean} send */
export function quickStep(room, me, send) {
  if (sessionStorage.getItem(QUICK_KEY) !== room.code) return;
  if (room.status !== "waiting" || room.host !== me) { sessionStorage.removeItem(QUICK_KEY); return; }
  const mine = room.seats.find((s) => s.player_id === me);
  const empty = room.seats.find((s) => s.player_id === null && !s.bot);
  /** @type {ClientMessage} */
  const msg = !mine ? { type: "sit", seat: empty ? empty.seat : 0 }
    : empty ? { type: "add_bot", seat: empty.seat, level: "normal" } : { type: "start" };
  const key = `${room.code}:${msg.type}`;
  if (key === sent) return;
  sent = key;
  if (msg.type === "start") sessionStorage.removeItem(QUICK_KEY);
  send(msg);
}
