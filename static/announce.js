// @ts-check
// Screen-reader announcements (an ARIA live region) and the words for each game event.

import { cardName } from "./cards.js";
import { pileName, playerName } from "./moves.js";

/** @typedef {import("./types.js").GameEvent} GameEvent */
/** @typedef {import("./types.js").Result} Result */
/** @typedef {import("./types.js").View} View */

/** @type {HTMLElement | null} */
let region = null;
/** @type {number | undefined} */
let politeTimer;

/** Say `text` through the live region (polite; `assertive` for errors). @param {string} text */
export function announce(text, assertive = false) {
  region = region || document.getElementById("announce");
  const urgent = document.getElementById("announce-urgent");
  const target = assertive && urgent ? urgent : region;
  if (!target || !text) return;
  // Clear then set, so the same sentence twice is still read.
  target.textContent = "";
  clearTimeout(politeTimer);
  politeTimer = setTimeout(() => { target.textContent = text; }, 30);
}

const TEAM_LETTER = ["A", "B", "C"];

/** The team all of `seats` play for, or null (no teams, or several). @param {View} view @param {number[]} seats */
export function teamOf(view, seats) {
  const teams = new Set(seats.map((s) => view.players[s].team));
  const [t] = teams;
  return teams.size === 1 && t !== null && t !== undefined ? t : null;
}

/** @param {View} view @param {number} seat */
const who = (view, seat) => (seat === view.you ? "You" : playerName(view, seat));

/** One sentence per event worth hearing, from the receiver's point of view.
 * @param {View} view @param {GameEvent[]} events */
export function describeEvents(view, events) {
  const out = [];
  for (const ev of events) {
    switch (ev.type) {
      case "deal": out.push(`New hand dealt. ${who(view, ev.first)} ${ev.first === view.you ? "go" : "goes"} first.`); break;
      case "play": out.push(`${who(view, ev.seat)} played ${cardName(ev.card)} from ${ev.from !== "hand" ? pileName(view, ev.from, view.you) : "hand"} to ${pileName(view, ev.to, view.you)}.`); break;
      case "discard": out.push(`${who(view, ev.seat)} discarded ${cardName(ev.card)} to ${pileName(view, ev.to, view.you)}.`); break;
      case "move_side": out.push(`${who(view, ev.seat)} moved ${cardName(ev.card)} to ${pileName(view, ev.to, view.you)}.`); break;
      case "load": out.push(`${who(view, ev.seat)} loaded ${cardName(ev.card)} onto ${pileName(view, ev.to, view.you)}.`); break;
      case "complete": out.push(`Centre stack ${ev.slot + 1} is complete.`); break;
      case "reshuffle": out.push("The stock was reshuffled."); break;
      case "redeal": out.push("Stalemate: the cards were redealt."); break;
      case "take_back": out.push(`${who(view, ev.seat)} took back ${ev.seat === view.you ? "your" : "their"} last move.`); break;
      case "hand_over": out.push(handOverText(view, ev)); break;
      case "autoplay": out.push(ev.by === "clock"
        ? `Time ran out: the server plays for ${ev.seat === view.you ? "you" : playerName(view, ev.seat)}.`
        : `${playerName(view, ev.seat)} is away: the server plays for them.`); break;
      case "turn": out.push(ev.seat === view.you ? "Your turn." : `${playerName(view, ev.seat)}'s turn.`); break;
      default: break;
    }
  }
  return out.join(" ");
}

/** Who won a hand, and how. @param {View} view @param {{reason: Result["reason"], winners: number[]}} r */
export function handOverText(view, r) {
  const team = teamOf(view, r.winners);
  const names = r.winners.map((s) => who(view, s));
  if (team !== null && names.length) {
    const reason = { payoff_out: "went out", stock_out: "won as the stock ran out", stalemate: "won the stalemate" }[r.reason];
    return `Team ${TEAM_LETTER[team]} (${names.join(" and ")}) ${reason}.`;
  }
  const reason = { payoff_out: "went out", stock_out: "won as the stock ran out", stalemate: "won the stalemate" }[r.reason];
  if (!names.length) return r.reason === "stock_out" ? "The stock ran out: the hand is a draw." : "The hand is a draw.";
  return `${names.join(" and ")} ${reason}.`;
}
