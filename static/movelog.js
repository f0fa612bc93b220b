// @ts-check
// The move log: who played which card, from where, to where, over the last few turns (moves the
// server made for a player marked), and the ids of the cards moved in the latest turn.

import { el } from "./dom.js";
import { more, rankLetter, t } from "./i18n.js";
import { playerName } from "./moves.js";

/** @typedef {import("./types.js").Card} Card */
/** @typedef {import("./types.js").GameEvent} GameEvent */
/** @typedef {import("./types.js").Pile} Pile */
/** @typedef {import("./moves.js").Named} Named */
/** A line of the log; `card`: the card its move moved (a take-back names it); `undone`: taken back.
 * @typedef {{seat: number | null, text: string, auto: string | null, turn: number, card?: string, undone?: boolean}} LogLine */

const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };

/** "5♥", "K♣ (wild)", "Joker". @param {Card} c */
export const shortCard = (c) => {
  if (c.rank === "JOKER") return rankLetter("JOKER");
  const s = `${rankLetter(c.rank)}${SUIT[c.suit]}`;
  return c.wild ? t("cd.wild", { card: s }) : s;
};

/** A pile in few words, seen from the mover. @param {Named} named @param {Pile} pile @param {number} mover @param {number | null} me */
function place(named, pile, mover, me) {
  const [kind, a, b] = pile.split(":");
  if (kind === "hand") return t(mover === me ? "ml.hand_mine" : "ml.hand_theirs");
  const s = Number(a);
  if (kind === "centre") return t("ml.centre", { n: s + 1 });
  const whose = s === me ? "mine" : s === mover ? "theirs" : "of";
  return t(`ml.${kind === "payoff" ? "payoff" : "side"}_${whose}`, { name: playerName(named, s), n: Number(b) + 1 });
}

/** "Bob played 5♥ from their hand to centre 2". @param {Named} named @param {number | null} me
 * @param {{kind: string, seat: number, card: Card | null, from?: Pile, to?: Pile}} m */
export function moveWords(named, me, m, server = false) {
  if (m.kind === "forfeit") return t("ml.forfeit", { name: playerName(named, m.seat) });
  const card = m.card ? shortCard(m.card) : t("ml.a_card");
  const at = (/** @type {Pile} */ p) => (p ? place(named, p, m.seat, me) : "");
  const kind = ["play", "discard", "move_side", "load"].includes(m.kind) ? m.kind
    : m.kind === "take_back" ? (m.card ? "take_back" : "take_back_last") : "end_turn";
  const key = server ? `ml.srv_${kind}` : `ml.${kind}${m.seat === me ? "_you" : ""}`;
  return t(key, { name: playerName(named, m.seat), card, from: at(m.from), to: at(m.to) });
}

/** "While you were away, the server played 5♥ from your hand to centre 2 (time ran out); ...":
 * the moves of `versions` (made for your seat) in the log's `entries`, or null if none.
 * @param {Named & {you: number | null}} view @param {{v: number, events: GameEvent[]}[]} entries @param {number[]} versions */
export function awayText(view, entries, versions) {
  const said = [];
  for (const e of entries) {
    if (!versions.includes(e.v)) continue;
    const by = e.events.find((ev) => ev.type === "autoplay");
    for (const ev of e.events) {
      let words = null;
      if (ev.type === "play" || ev.type === "discard" || ev.type === "move_side" || ev.type === "load") {
        words = moveWords(view, view.you, { ...ev, kind: ev.type, from: ev.type === "discard" ? undefined : ev.from }, true);
      } else if (ev.type === "end_turn") words = t("ml.srv_end_turn");
      if (words) said.push(words + (by && by.type === "autoplay" && by.by === "clock" ? ` (${t("ml.timeout")})` : ""));
    }
  }
  return said.length ? t("ml.away", { list: said.join("; ") }) : null;
}

/** @type {Record<string, string>} */
const BY = { clock: "ml.by_clock", absent: "ml.by_absent" };

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
    this.el.setAttribute("aria-label", t("ml.recent"));
    this.list = el("ol", "move-lines");
    this.el.append(el("h2", "", t("ml.moves")), this.list);
  }

  /** The log of the whole hand from the server (`log`, on each connect), instead of what was here.
   * @param {Named & {you: number | null}} view @param {{v: number, events: GameEvent[]}[]} entries */
  rebuild(view, entries) {
    this.lines = [];
    this.mover = null;
    this.auto = null;
    this.recent = new Set();
    for (const e of entries) this.add(view, e.events, false);
    this.draw();
  }

  /** @param {Named & {you: number | null}} view @param {GameEvent[]} events */
  add(view, events, draw = true) {
    for (const ev of events) {
      if (ev.type === "deal") { this.lines = []; this.recent = new Set(); this.mover = null; this.push(null, t("ml.dealt")); }
      else if (ev.type === "autoplay") { this.startTurn(ev.seat); this.auto = ev.by; }
      else if (ev.type === "turn" || ev.type === "end_turn") this.auto = null;
      else if (ev.type === "complete") this.push(null, t("ml.complete", { n: ev.slot + 1 }));
      else if (ev.type === "forfeit") this.push(ev.seat, t("ml.forfeit", { name: playerName(view, ev.seat) }));
      else if (ev.type === "resign") more().then(() => { this.push(ev.seat, t("ml.resign", { name: playerName(view, ev.seat) })); this.draw(); });
      else if (ev.type === "take_back") this.takeBack(view, ev.seat);
      else if (ev.type === "play" || ev.type === "discard" || ev.type === "move_side" || ev.type === "load") {
        this.startTurn(ev.seat);
        this.recent.add(ev.card.id);
        this.push(ev.seat, moveWords(view, view.you, { ...ev, kind: ev.type, from: ev.type === "discard" ? undefined : ev.from }),
          shortCard(ev.card));
      }
    }
    if (draw) this.draw();
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
    const key = `ml.${undone ? "take_back" : "take_back_last"}${seat === view.you ? "_you" : ""}`;
    this.push(seat, t(key, { name: playerName(view, seat), card: undone ? undone.card : "" }));
  }

  /** Keep the last four turns. @param {number | null} seat @param {string} text @param {string} [card] */
  push(seat, text, card) {
    this.lines.push({ seat, text, auto: seat === null ? null : this.auto, turn: this.turn, card });
    this.lines = this.lines.filter((l) => l.turn > this.turn - 4).slice(-14);
  }

  /** The newest line, for the status bar. */
  last() {
    const l = this.lines[this.lines.length - 1];
    return l ? l.text + (l.auto ? ` (${t(BY[l.auto])})` : "") : "";
  }

  draw() {
    this.list.textContent = "";
    for (const l of this.lines) {
      const li = el("li", l.turn === this.turn ? "now" : "");
      if (l.undone) {
        li.classList.add("undone");
        li.append(el("s", "", l.text), el("span", "sr-only", ` (${t("ml.taken_back")})`));
      } else li.append(l.text);
      if (l.auto) li.append(" ", el("span", "by-server", t(BY[l.auto])));
      this.list.append(li);
    }
    this.el.hidden = !this.lines.length;
    this.list.scrollTop = this.list.scrollHeight; // the newest move in sight
  }
}
