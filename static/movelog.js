// @ts-check
// The move log: who played which card, from where, to where, over the last few turns (moves the
// server made for a player marked), and the ids of the cards moved in the latest turn.

import { el } from "./dom.js";
import { playerName } from "./moves.js";

/** @typedef {import("./types.js").Card} Card */
/** @typedef {import("./types.js").GameEvent} GameEvent */
/** @typedef {import("./types.js").Pile} Pile */
/** @typedef {import("./moves.js").Named} Named */
/** A line of the log; `card`: the card its move moved (a take-back names it); `undone`: taken back.
 * @typedef {{seat: number | null, text: string, auto: string | null, turn: number, card?: string, undone?: boolean}} LogLine */

const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };

/** "5♥", "K♣ (wild)", "Joker". @param {Card} c */
export const shortCard = (c) => (c.rank === "JOKER" ? "Joker" : `${c.rank}${SUIT[c.suit]}${c.wild ? " (wild)" : ""}`);

/** A pile in few words, seen from the mover. @param {Named} named @param {Pile} pile @param {number} mover @param {number | null} me */
function place(named, pile, mover, me) {
  const [kind, a, b] = pile.split(":");
  if (kind === "hand") return mover === me ? "your hand" : "their hand";
  const s = Number(a);
  if (kind === "centre") return `centre ${s + 1}`;
  const whose = s === me ? "your" : s === mover ? "their" : `${playerName(named, s)}'s`;
  return kind === "payoff" ? `${whose} pay-off pile` : `${whose} side stack ${Number(b) + 1}`;
}

/** "Bob played 5♥ from their hand to centre 2". @param {Named} named @param {number | null} me
 * @param {{kind: string, seat: number, card: Card | null, from?: Pile, to?: Pile}} m */
export function moveWords(named, me, m) {
  const who = m.seat === me ? "You" : playerName(named, m.seat);
  const card = m.card ? shortCard(m.card) : "a card";
  const at = (/** @type {Pile} */ p) => place(named, p, m.seat, me);
  if (m.kind === "play") return `${who} played ${card} from ${at(m.from)} to ${at(m.to)}`;
  if (m.kind === "discard") return `${who} discarded ${card} to ${at(m.to)}`;
  if (m.kind === "move_side") return `${who} moved ${card} from ${at(m.from)} to ${at(m.to)}`;
  if (m.kind === "load") return `${who} loaded ${card} from ${at(m.from)} onto ${at(m.to)}`;
  if (m.kind === "take_back") return `${who} took back ${m.card ? card : "the last move"}`;
  return `${who} ended the turn`;
}

/** @type {Record<string, string>} */
const BY = { clock: "server · time ran out", absent: "server · away" };

export class MoveLog {
  constructor() {
    /** @type {LogLine[]} */
    this.lines = [];
    this.turn = 0;
    /** @type {number | null} */
    this.mover = null;
    /** @type {string | null} */
    this.auto = null;
    /** @type {Set<number>} */
    this.recent = new Set();
    this.el = el("section", "move-log");
    this.el.setAttribute("aria-label", "Recent moves");
    this.list = el("ol", "move-lines");
    this.el.append(el("h2", "", "Moves"), this.list);
  }

  /** @param {Named & {you: number | null}} view @param {GameEvent[]} events */
  add(view, events) {
    for (const ev of events) {
      if (ev.type === "deal") { this.lines = []; this.recent = new Set(); this.mover = null; this.push(null, "New hand dealt"); }
      else if (ev.type === "autoplay") { this.startTurn(ev.seat); this.auto = ev.by; }
      else if (ev.type === "turn" || ev.type === "end_turn") this.auto = null;
      else if (ev.type === "complete") this.push(null, `Centre ${ev.slot + 1} complete`);
      else if (ev.type === "take_back") this.takeBack(view, ev.seat);
      else if (ev.type === "play" || ev.type === "discard" || ev.type === "move_side" || ev.type === "load") {
        this.startTurn(ev.seat);
        this.recent.add(ev.card.id);
        this.push(ev.seat, moveWords(view, view.you, { ...ev, kind: ev.type, from: ev.type === "discard" ? undefined : ev.from }),
          shortCard(ev.card));
      }
    }
    this.draw();
  }

  /** @param {number} seat */
  startTurn(seat) {
    if (this.mover === seat) return;
    this.mover = seat;
    this.turn += 1;
    this.auto = null;
    this.recent = new Set();
  }

  /** `seat` took back its last move: that line is struck out, and the take-back said with its card.
   * @param {Named & {you: number | null}} view @param {number} seat */
  takeBack(view, seat) {
    const undone = [...this.lines].reverse().find((l) => l.seat === seat && l.card && !l.undone);
    if (undone) undone.undone = true;
    this.startTurn(seat);
    this.recent = new Set();
    const who = seat === view.you ? "You" : playerName(view, seat);
    this.push(seat, `${who} took back ${undone ? undone.card : "the last move"}`);
  }

  /** Keep the last four turns. @param {number | null} seat @param {string} text @param {string} [card] */
  push(seat, text, card) {
    this.lines.push({ seat, text, auto: seat === null ? null : this.auto, turn: this.turn, card });
    this.lines = this.lines.filter((l) => l.turn > this.turn - 4).slice(-14);
  }

  /** The newest line, for the status bar. */
  last() {
    const l = this.lines[this.lines.length - 1];
    return l ? l.text + (l.auto ? ` (${BY[l.auto]})` : "") : "";
  }

  draw() {
    this.list.textContent = "";
    for (const l of this.lines) {
      const li = el("li", l.turn === this.turn ? "now" : "");
      if (l.undone) {
        li.classList.add("undone");
        li.append(el("s", "", l.text), el("span", "sr-only", " (taken back)"));
      } else li.append(l.text);
      if (l.auto) li.append(" ", el("span", "by-server", BY[l.auto]));
      this.list.append(li);
    }
    this.el.hidden = !this.lines.length;
    this.list.scrollTop = this.list.scrollHeight; // the newest move in sight
  }
}
