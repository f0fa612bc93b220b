// Screen-reader announcements (an ARIA live region) and the words for each game event.

import { cardName } from "./cards.js";
import { pileName, playerName } from "./moves.js";

let region = null;
let politeTimer = null;

/** Say `text` through the live region (polite; `assertive` for errors). */
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

const who = (view, seat) => (seat === view.you ? "You" : playerName(view, seat));

/** One sentence per event worth hearing, from the receiver's point of view. */
export function describeEvents(view, events) {
  const out = [];
  for (const ev of events || []) {
    const w = who(view, ev.seat);
    switch (ev.type) {
      case "deal": out.push(`New hand dealt. ${who(view, ev.first)} ${ev.first === view.you ? "go" : "goes"} first.`); break;
      case "play": out.push(`${w} played ${cardName(ev.card)} from ${ev.from && ev.from !== "hand" ? pileName(view, ev.from, view.you) : "hand"} to ${pileName(view, ev.to, view.you)}.`); break;
      case "discard": out.push(`${w} discarded ${cardName(ev.card)} to ${pileName(view, ev.to, view.you)}.`); break;
      case "move_side": out.push(`${w} moved ${cardName(ev.card)} to ${pileName(view, ev.to, view.you)}.`); break;
      case "load": out.push(`${w} loaded ${cardName(ev.card)} onto ${pileName(view, ev.to, view.you)}.`); break;
      case "complete": out.push(`Centre stack ${ev.slot + 1} is complete.`); break;
      case "reshuffle": out.push("The stock was reshuffled."); break;
      case "redeal": out.push("Stalemate: the cards were redealt."); break;
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

export function handOverText(view, r) {
  const names = (r.winners || []).map((s) => who(view, s));
  const reason = { payoff_out: "went out", stock_out: "won as the stock ran out", stalemate: "won the stalemate" }[r.reason] || "won";
  if (!names.length) return r.reason === "stock_out" ? "The stock ran out: the hand is a draw." : "The hand is a draw.";
  return `${names.join(" and ")} ${reason}.`;
}
