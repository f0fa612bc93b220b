// @ts-check
// Results in the room: the end-of-hand or end-of-match panel (with who is ready and the
// countdown between hands), kept on screen as "earlier" until closed when someone else has
// already started the next hand, and focused once when it first appears. The Game over dialog
// closes (Close, Esc) to study the final table, and stays closed on this device for that match
// (localStorage `spite.closed`), with *Show the result* under the table to open it again.
// The Resign button (resign.js) comes with it, off the room's first load.

import { countdownText } from "./clock.js";
import { el } from "./dom.js";
import { drawResign } from "./resign.js";
import { resultPanel } from "./results.js";
import { t } from "./i18n.js";
import { navigate, onLeave } from "./router.js";

const CLOSED = "spite.closed";
const KEEP = 50; // the matches whose closed Game over this device remembers (the latest)

/** The matches whose Game over dialog was closed on this device. @returns {string[]} */
function closedMatches() {
  try {
    const kept = JSON.parse(localStorage.getItem(CLOSED) || "[]");
    return Array.isArray(kept) ? kept.map(String) : [];
  } catch {
    return [];
  }
}

/** Remember (or forget) that `match`'s Game over was closed. @param {string} match @param {boolean} closed */
function keepClosed(match, closed) {
  const ids = closedMatches().filter((id) => id !== match);
  if (closed) ids.push(match);
  try {
    localStorage.setItem(CLOSED, JSON.stringify(ids.slice(-KEEP)));
  } catch {
    // private mode: closed for this page only
  }
}

/** @typedef {import("./types.js").ClientMessage} ClientMessage */
/** @typedef {import("./types.js").View} View */
/**
 * What the result needs from the room page.
 * @typedef {{code: string, me: {id: string}, matchId: string | null, awards: import("./types.js").Awards | null,
 *   nextHand: import("./types.js").NextHandInfo | null, nextDeadline: number | null, room: import("./types.js").Room | null,
 *   send: (msg: ClientMessage) => boolean, mayLeave: () => boolean, toLobby: () => void, draw: () => void,
 *   actions: HTMLElement}} EndingPage
 */

export class Endings {
  /** @param {HTMLElement} slot @param {EndingPage} page */
  constructor(slot, page) {
    this.slot = slot;
    this.page = page;
    /** @type {{view: View, committed: string} | null} a result not yet read, kept over the next hand */
    this.lastResult = null;
    /** @type {string | null} the hand (by deal commitment) whose result was read */
    this.readResult = null;
    /** @type {string | null} the hand whose result was last focused */
    this.resultShown = null;
    /** @type {(() => void) | null} closes the Game over dialog on screen (Esc) */
    this.dismiss = null;
    /** @param {KeyboardEvent} e */
    const esc = (e) => { if (e.key === "Escape" && this.dismiss) { e.preventDefault(); this.dismiss(); } };
    document.addEventListener("keydown", esc);
    onLeave(() => document.removeEventListener("keydown", esc));
  }

  /** Draw what `view` calls for: the Resign button while a hand is played, its result, or the
   * unread result of an earlier hand. @param {View} view */
  draw(view) {
    this.dismiss = null;
    drawResign(this.page.actions, view, (m) => this.page.send(m));
    if (view.result) this.drawResult(view);
    else if (this.lastResult && this.lastResult.view.deal_commitment !== view.deal_commitment) this.drawLastResult();
  }

  /** @param {View} v */
  drawResult(v) {
    const page = this.page;
    const key = v.deal_commitment;
    const committed = sessionStorage.getItem(`spite.commit.${page.code}.${v.hand_number}`) || v.deal_commitment;
    const matchId = page.matchId;
    const done = () => { this.readResult = key; this.lastResult = null; };
    const over = v.status === "match_over" && matchId !== null;
    const dismiss = over ? () => { keepClosed(matchId, true); page.draw(); } : null;
    const me = page.room && v.you !== null ? page.room.rematch?.seats.find((s) => s.seat === v.you) : null;
    if (over && closedMatches().includes(matchId) && !(me && me.answer === "waiting")) { // a rematch offer opens it
      const show = el("button", "small", t("rs.show"));
      show.type = "button";
      show.id = "show-result";
      show.addEventListener("click", () => { keepClosed(matchId, false); this.resultShown = null; page.draw(); });
      const bar = el("div", "result-closed");
      bar.append(show);
      this.slot.append(bar);
      return;
    }
    const panel = resultPanel(v, committed, {
      isPlayer: v.you !== null,
      ready: page.nextHand ? page.nextHand.ready : null,
      countdown: countdownText(page.nextDeadline, v),
      next: () => { done(); page.send({ type: "next_hand" }); },
      rematch: () => { done(); page.send({ type: "rematch" }); },
      decline: () => { page.send({ type: "rematch", accept: false }); },
      offer: page.room ? page.room.rematch || null : null,
      connected: page.room ? page.room.seats.map((s) => s.bot !== null || s.connected) : [],
      home: () => { if (page.mayLeave()) navigate("/"); },
      lobby: v.status === "match_over" ? () => { done(); page.toLobby(); } : null,
      replay: matchId && v.status === "match_over" ? () => navigate("/#replay/" + encodeURIComponent(matchId)) : null,
      awards: page.awards,
      me: page.me.id,
      dismiss,
      daily: page.room ? page.room.daily : null,
    });
    this.dismiss = dismiss;
    this.slot.append(panel);
    // Kept on screen (until closed) if someone else starts the next hand before we have read it.
    if (this.readResult !== key) this.lastResult = { view: v, committed };
    if (this.resultShown !== key) {
      this.resultShown = key;
      const t = /** @type {HTMLElement | null} */ (panel.querySelector("#result-title"));
      if (t) t.focus();
    }
  }

  drawLastResult() {
    const { view, committed } = this.lastResult;
    const panel = resultPanel(view, committed, {
      close: () => { this.lastResult = null; this.page.draw(); },
      home: () => navigate("/"),
      daily: this.page.room ? this.page.room.daily : null,
    });
    panel.classList.add("earlier");
    this.slot.append(panel);
  }
}
