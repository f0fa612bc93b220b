// @ts-check
// The visible move log: who played which card, where it came from and where it went, the last
// few turns, and the moves the server made for a player marked. Built out of each state's
// events; pure words plus one small DOM panel.

import { el } from "./cards.js";
import { playerName } from "./moves.js";

/** @typedef {import("./types.js").Card} Card */
/** @typedef {import("./types.js").GameEvent} GameEvent */
/** @typedef {import("./types.js").Pile} Pile */
/** @typedef {import("./moves.js").Named} Named */
/**
 * One line of the log: the seat that moved, the words, and whether the server chose the move.
 * @typedef {{seat: number | null, text: string, auto: "clock" | "absent" | null, turn: number}} LogLine
 */

const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };
const KEEP_TURNS = 4; // turns kept on screen

/** "5♥", "K♣ (wild)", "Joker". @param {Card} c */
export function shortCard(c) {
  if (c.rank === "JOKER") return "Joker";
  return `${c.rank}${SUIT[c.suit] || ""}${c.wild ? " (wild)" : ""}`;
}

/** Where a card came from or went, in few words, from the point of view of the mover.
 * @param {Named} named @param {Pile} pile @param {number} mover @param {number | null} me */
export function placeWords(named, pile, mover, me) {
  const [kind, a, b] = pile.split(":");
  if (kind === "hand") return mover === me ? "your hand" : "their hand";
  const owner = Number(a);
  if (kind === "centre") return `centre ${owner + 1}`;
  const whose = owner === mover ? (mover === me ? "your" : "their") : owner === me ? "your" : `${playerName(named, owner)}'s`;
  if (kind === "payoff") return `${whose} pay-off pile`;
  if (kind === "side") return `${whose} side stack ${Number(b) + 1}`;
  return pile;
}

/** "Bob played 5♥ from their hand to centre 2", for a play, discard, move_side or load.
 * @param {Named} named @param {number | null} me
 * @param {{kind: string, seat: number, card: Card | null, from?: Pile, to?: Pile}} m */
export function moveWords(named, me, m) {
  const who = m.seat === me ? "You" : playerName(named, m.seat);
  const card = m.card ? shortCard(m.card) : "a card";
  const from = m.from ? placeWords(named, m.from, m.seat, me) : "";
  const to = m.to ? placeWords(named, m.to, m.seat, me) : "";
  switch (m.kind) {
    case "play": return `${who} played ${card} from ${from} to ${to}`;
    case "discard": return `${who} discarded ${card} to ${to}`;
    case "move_side": return `${who} moved ${card} from ${from} to ${to}`;
    case "load": return `${who} loaded ${card} from ${from} onto ${to}`;
    case "end_turn": return `${who} ended the turn`;
    default: return `${who}: ${m.kind}`;
  }
}

export class MoveLog {
  constructor() {
    /** @type {LogLine[]} */
    this.lines = [];
    this.turn = 0;
    /** @type {number | null} */
    this.mover = null;
    /** @type {"clock" | "absent" | null} */
    this.auto = null;
    /** @type {Set<number>} ids of the cards moved in the latest turn (highlighted on the table) */
    this.recent = new Set();
    this.el = el("section", "move-log");
    this.el.setAttribute("aria-label", "Recent moves");
    this.list = el("ol", "move-lines");
    this.el.append(el("h2", "", "Moves"), this.list);
  }

  /** Add the events of one state. @param {Named & {you: number | null}} view @param {GameEvent[]} events */
  add(view, events) {
    for (const ev of events) {
      if (ev.type === "deal") {
        this.lines = [];
        this.recent = new Set();
        this.mover = null;
        this.push(view, null, "New hand dealt");
        continue;
      }
      if (ev.type === "autoplay") { this.startTurn(ev.seat); this.auto = ev.by; continue; }
      if (ev.type === "turn" || ev.type === "end_turn") { this.auto = null; continue; }
      if (ev.type === "complete") { this.push(view, null, `Centre ${ev.slot + 1} complete`); continue; }
      if (ev.type === "reshuffle") { this.push(view, null, "Stock reshuffled"); continue; }
      if (ev.type === "play" || ev.type === "discard" || ev.type === "move_side" || ev.type === "load") {
        this.startTurn(ev.seat);
        this.recent.add(ev.card.id);
        const from = ev.type === "discard" ? undefined : ev.from;
        this.push(view, ev.seat, moveWords(view, view.you, { kind: ev.type, seat: ev.seat, card: ev.card, from, to: ev.to }));
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

  /** @param {Named} _view @param {number | null} seat @param {string} text */
  push(_view, seat, text) {
    this.lines.push({ seat, text, auto: seat === null ? null : this.auto, turn: this.turn });
    const keep = this.turn - KEEP_TURNS;
    this.lines = this.lines.filter((l) => l.turn > keep).slice(-14);
  }

  /** The newest line, for the table's status bar. */
  last() {
    const l = this.lines[this.lines.length - 1];
    return l ? l.text + (l.auto ? ` (${l.auto === "clock" ? "time ran out: played by the server" : "away: played by the server"})` : "") : "";
  }

  draw() {
    this.list.textContent = "";
    for (const l of this.lines) {
      const li = el("li", l.turn === this.turn ? "now" : "");
      if (l.seat !== null) li.dataset.seat = String(l.seat);
      li.append(l.text);
      if (l.auto) {
        const b = el("span", "by-server", l.auto === "clock" ? "server · time ran out" : "server · away");
        li.append(" ", b);
      }
      this.list.append(li);
    }
    this.el.hidden = !this.lines.length;
  }
}
