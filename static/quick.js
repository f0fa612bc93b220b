// @ts-check
// "Play a bot now": a short game against a Normal bot, one click from the home page. The home
// page creates the room and marks it in sessionStorage; the room page then sits, adds the bot
// and starts, one step per room update (quickstep.js, the room's part).

import * as api from "./api.js";
import { button, el, errorLine } from "./dom.js";
import { t } from "./i18n.js";

/** @typedef {{navigate: (path: string) => void, seed: string | null}} QuickCtx */

import { QUICK_KEY } from "./quickstep.js";

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
