// @ts-check
// Screen-reader announcements (an ARIA live region) and the words for each game event.

import { list, rankLetter, rankWord, t } from "./i18n.js";
import { moveWords } from "./movelog.js";
import { playerName } from "./moves.js";

/** @typedef {import("./types.js").GameEvent} GameEvent */
/** @typedef {import("./types.js").Result} Result */
/** @typedef {import("./types.js").View} View */

/** @type {HTMLElement | null} */
let region = null;
/** @type {number | undefined} */
let politeTimer;

/** @type {Record<string, string>} */
const SUIT = { "♠": "S", "♥": "H", "♦": "D", "♣": "C" };

/** `text` with its cards said as the table names them: "5♥" (the move log's, a hint's) is read
 * "5 of hearts", "D♠" in German "Pik-Dame". @param {string} text */
export const spoken = (text) => text.replace(/\b(10|[2-9A-Z])([♠♥♦♣])/g, (all, r, s) => {
  const n = [...Array(13).keys()].find((i) => rankLetter(i + 1) === r);
  return n === undefined ? all : t("cd.card", { rank: rankWord(n + 1), suit: t(`cd.${SUIT[s]}`) });
});

/** Say `text` through the live region (polite; `assertive` for errors). Anything said politely
 * (the next move, the next turn) also clears the assertive region: an error read once does not
 * stay there for the rest of the hand. @param {string} text */
export function announce(text, assertive = false) {
  region = region || document.getElementById("announce");
  const urgent = document.getElementById("announce-urgent");
  const target = assertive && urgent ? urgent : region;
  if (!assertive && urgent) urgent.textContent = "";
  if (!target || !text) return;
  // Clear then set, so the same sentence twice is still read.
  target.textContent = "";
  clearTimeout(politeTimer);
  politeTimer = setTimeout(() => { target.textContent = spoken(text); }, 30);
}

const TEAM_LETTER = ["A", "B", "C"];

/** The team all of `seats` play for, or null (no teams, or several). @param {View} view @param {number[]} seats */
export function teamOf(view, seats) {
  const teams = new Set(seats.map((s) => view.players[s].team));
  const [t] = teams;
  return teams.size === 1 && t !== null && t !== undefined ? t : null;
}

/** @param {View} view @param {number} seat */
const who = (view, seat) => (seat === view.you ? t("an.you") : playerName(view, seat));
/** @param {View} view @param {GameEvent & {seat: number}} ev @param {string} kind */
const moved = (view, ev, kind) => `${moveWords(view, view.you, { ...ev, kind, card: "card" in ev ? ev.card : null })}.`;

/** One sentence per event worth hearing, from the receiver's point of view.
 * @param {View} view @param {GameEvent[]} events */
export function describeEvents(view, events) {
  const out = [];
  for (const ev of events) {
    switch (ev.type) {
      case "deal": out.push(t(ev.first === view.you ? "an.deal_you" : "an.deal", { name: playerName(view, ev.first) })); break;
      case "play": case "discard": case "move_side": case "load": out.push(moved(view, ev, ev.type)); break;
      case "complete": out.push(t("an.complete", { n: ev.slot + 1 })); break;
      case "reshuffle": out.push(t("an.reshuffle")); break;
      case "redeal": out.push(t("an.redeal")); break;
      case "take_back": out.push(moved(view, ev, "take_back")); break;
      case "hand_over": out.push(handOverText(view, ev)); break;
      case "autoplay": out.push(t(ev.by === "clock" ? (ev.seat === view.you ? "an.clock_you" : "an.clock") : "an.away",
        { name: playerName(view, ev.seat) })); break;
      case "turn": out.push(ev.seat === view.you ? t("tb.your_turn") : t("an.turn", { name: playerName(view, ev.seat) })); break;
      default: break;
    }
  }
  return out.join(" ");
}

/** Who won a hand, and how. @param {View} view @param {{reason: Result["reason"], winners: number[]}} r */
export function handOverText(view, r) {
  const team = teamOf(view, r.winners);
  const names = r.winners.map((s) => who(view, s));
  if (!names.length) return t(r.reason === "stock_out" ? "an.draw_stock" : "an.draw");
  const joined = team !== null ? t("an.team", { team: TEAM_LETTER[team], names: list(names) }) : list(names);
  return t(`an.won_${r.reason.replace("resign", "forfeit")}`, { names: joined });
}
