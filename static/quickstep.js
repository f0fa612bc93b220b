// @ts-check
// The room's part of "Play a bot now" (quick.js, the home page's button): in a room this browser
// made with it (marked in sessionStorage), sit, add a Normal bot and start, one step per room update.

/** @typedef {import("./types.js").ClientMessage} ClientMessage */
/** @typedef {import("./types.js").Room} Room */

export const QUICK_KEY = "spite.quick";
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
