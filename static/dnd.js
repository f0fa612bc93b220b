// @ts-check
// Input on the table: drag and drop (pointer events, so mouse, pen and touch), tap-to-pick then
// tap-to-place, the keyboard, and double-click / right-click to play a card to the only centre
// stack it fits. Every move it makes is one of view.legal_moves, sent unchanged.
// Listeners sit on `host`, which outlives the table DOM that renders into it.

import { cardName } from "./cards.js";
import { list, t } from "./i18n.js";
import { autoMove, findCard, movesFor, pileName, sourceOf } from "./moves.js";

/** @typedef {import("./types.js").Move} Move */
/** @typedef {import("./types.js").Pile} Pile */
/** @typedef {import("./types.js").View} View */
/** @typedef {import("./moves.js").Placing} Placing */
/**
 * What the input needs from its page: the current view, a way to send a move (false when it
 * could not be sent), to announce a sentence, and to open or close a spread pile.
 * `refuse` shows that a card the player tried to move cannot move (a short message on screen).
 * @typedef {{view: () => View, send: (move: Move) => boolean, announce: (text: string) => void, peek: (pile: Pile) => void,
 *   refuse?: (text: string) => void}} InputHooks
 */

const DRAG_START = 6; // px a pointer must travel before a press becomes a drag

/** The element an event happened on (every listener here sits on elements). @param {Event} e */
const at = (e) => /** @type {Element} */ (e.target);
/** The card or pile element nearest `e`'s target that matches `selector`. @param {Event} e @param {string} selector */
const near = (e, selector) => /** @type {HTMLElement | null} */ (at(e).closest(selector));

export class TableInput {
  /**
   * @param {HTMLElement} host  the element the table renders into
   * @param {InputHooks} hooks
   */
  constructor(host, hooks) {
    this.host = host;
    this.hooks = hooks;
    /** @type {{card: number, from: Pile, moves: Placing[], el: HTMLElement} | null} */
    this.picked = null;
    /** @type {{el: HTMLElement, x: number, y: number, id: number} | null} a pointer press that may become a drag */
    this.press = null;
    /** @type {{ghost: HTMLElement, dx: number, dy: number} | null} */
    this.drag = null;
    this.suppressClick = false;
    /** @type {object | null} the last "why can it not go to the centre?" asked by a double-click */
    this.why = null;
    host.addEventListener("pointerdown", (e) => this.onPointerDown(e));
    host.addEventListener("pointermove", (e) => this.onPointerMove(e));
    host.addEventListener("pointerup", (e) => this.onPointerUp(e));
    host.addEventListener("pointercancel", () => this.endDrag());
    host.addEventListener("click", (e) => this.onClick(e));
    host.addEventListener("dblclick", (e) => this.onAuto(e));
    host.addEventListener("contextmenu", (e) => this.onAuto(e));
    host.addEventListener("keydown", (e) => this.onKey(e));
  }

  get view() {
    return this.hooks.view();
  }

  /** Call after each new render (the old DOM is gone): the selection is forgotten, unless the
   * new render shows the same view version (`same`: a presence or clock redraw), where the same
   * card is picked again. @param {boolean} [same] */
  reset(same = false) {
    const p = this.picked;
    this.picked = null;
    this.endDrag();
    const el = same && p && this.host.querySelector(`.card[data-card="${p.card}"][data-from="${p.from}"]`);
    if (el) this.pick(/** @type {HTMLElement} */ (el), { quiet: true });
  }

  // ---- picking and placing -------------------------------------------------------------

  /** @param {HTMLElement} cardEl @param {{focusTarget?: boolean, quiet?: boolean}} [how] */
  pick(cardEl, { focusTarget = false, quiet = false } = {}) {
    const view = this.view;
    const card = Number(cardEl.dataset.card);
    const from = cardEl.dataset.from;
    const moves = movesFor(view, card, from);
    this.clearMarks();
    if (!moves.length) {
      this.picked = null;
      if (!quiet) this.refuse(cardEl);
      return false;
    }
    this.picked = { card, from, moves, el: cardEl };
    cardEl.classList.add("picked");
    cardEl.setAttribute("aria-pressed", "true");
    const targets = this.targetEls();
    for (const t of targets) {
      t.classList.add("target");
      t.tabIndex = 0;
      t.setAttribute("role", "button");
    }
    this.host.classList.add("picking");
    if (!quiet) {
      const where = list([...new Set(moves.map((m) => pileName(view, m.to, view.you)))], true);
      this.hooks.announce(t("dn.picked", { card: cardName(this.cardOf(cardEl)), where }));
    }
    if (focusTarget && targets[0]) targets[0].focus();
    return true;
  }

  /** Ask the server why `cardEl` cannot go to the centre: a play to "centre" (no stack) is never
   * legal, and its refusal names the rule (protocol.md, "Why a card cannot move"). `politely`:
   * the answer is a calm notice (`why` is that question, for the page to tell its answer).
   * @param {HTMLElement} cardEl */
  ask(cardEl, politely = false) {
    const q = { kind: "play", card: Number(cardEl.dataset.card), from: String(cardEl.dataset.from), to: "centre" };
    this.why = politely ? q : null;
    this.hooks.send(/** @type {Move} */ (q));
  }

  /** Say, and show, that `cardEl` cannot move: the card shakes and a message appears (a calm one
   * when `politely`). @param {HTMLElement} cardEl */
  refuse(cardEl, politely = false) {
    const v = this.view;
    if (v.status === "playing" && v.turn === v.you) this.ask(cardEl, politely);
    else {
      const why = t(v.status !== "playing" ? "tb.hand_over" : "dn.not_turn");
      this.hooks.announce(why);
      if (this.hooks.refuse) this.hooks.refuse(why);
    }
    cardEl.classList.remove("refused");
    void cardEl.offsetWidth; // restart the animation
    cardEl.classList.add("refused");
  }

  /** The picked card dropped or tapped on a place it may not go: the move is sent as it is, and
   * the server's refusal names the rule ("a 5 cannot go on a stack that needs a 3"). True when sent.
   * @param {HTMLElement | null} pileEl */
  tryThere(pileEl) {
    const p = this.picked, to = pileEl && pileEl.dataset.pile;
    if (!p || !to || to === p.from || pileEl.classList.contains("target")) return false;
    if (to.startsWith("centre:")) return this.sendMove({ kind: "play", card: p.card, from: p.from, to }) || true;
    if (to.startsWith(`side:${this.view.you}:`) && p.from === "hand") return this.sendMove({ kind: "discard", card: p.card, to }) || true;
    return false;
  }

  /** @param {HTMLElement} cardEl */
  cardOf(cardEl) {
    return findCard(this.view, Number(cardEl.dataset.card));
  }

  /** @returns {HTMLElement[]} */
  targetEls() {
    if (!this.picked) return [];
    const tos = new Set(this.picked.moves.map((m) => m.to));
    return [...this.piles()].filter((e) => tos.has(e.dataset.pile));
  }

  piles() {
    return /** @type {NodeListOf<HTMLElement>} */ (this.host.querySelectorAll("[data-pile]"));
  }

  /** Place the picked card on `pileEl` if that is a legal move; true when a move was sent.
   * @param {HTMLElement | null} pileEl */
  place(pileEl) {
    if (!this.picked || !pileEl) return false;
    const move = this.picked.moves.find((m) => m.to === pileEl.dataset.pile);
    if (!move) return false;
    return this.sendMove(move);
  }

  /** @param {Move} move */
  sendMove(move) {
    const ok = this.hooks.send(move);
    this.cancel(false);
    return ok;
  }

  cancel(focusBack = false) {
    const el = this.picked && this.picked.el;
    this.picked = null;
    this.clearMarks();
    if (focusBack && el && el.isConnected) el.focus();
  }

  clearMarks() {
    for (const e of this.host.querySelectorAll(".picked")) {
      e.classList.remove("picked");
      e.removeAttribute("aria-pressed");
    }
    for (const e of this.host.querySelectorAll(".target, .over")) {
      e.classList.remove("target", "over");
      e.removeAttribute("tabindex");
      e.setAttribute("role", "group"); // a pile again (table.js)
    }
    this.host.classList.remove("picking");
  }

  /** Light the move a hint suggests: its card picked, its target marked (nothing for end_turn).
   * @param {Move} move */
  showHint(move) {
    for (const e of this.host.querySelectorAll(".hint")) e.classList.remove("hint");
    if (move.kind === "end_turn" || move.kind === "take_back") return;
    const from = sourceOf(move);
    const cards = /** @type {NodeListOf<HTMLElement>} */ (this.host.querySelectorAll(".card[data-from]"));
    // A move_side names no card: it takes the top of its side stack, the only card drawn there.
    const cardEl = [...cards].find((e) => e.dataset.from === from && (move.kind === "move_side" || Number(e.dataset.card) === move.card));
    if (cardEl) {
      cardEl.classList.add("hint");
      this.pick(cardEl, { quiet: true });
      cardEl.focus(); // Enter now plays it where the hint says (onClick)
    }
    const t = this.host.querySelector(`[data-pile="${move.to}"]`);
    if (t) t.classList.add("hint");
  }

  // ---- pointer: drag and drop, taps -------------------------------------------------------

  /** @param {PointerEvent} e */
  onPointerDown(e) {
    if (e.button !== 0) return;
    const card = near(e, ".card.movable[data-from]");
    if (!card) return;
    this.press = { el: card, x: e.clientX, y: e.clientY, id: e.pointerId };
  }

  /** @param {PointerEvent} e */
  onPointerMove(e) {
    const p = this.press;
    if (!p || e.pointerId !== p.id) return;
    if (!this.drag) {
      if (Math.hypot(e.clientX - p.x, e.clientY - p.y) < DRAG_START) return;
      if (!this.pick(p.el, { quiet: true })) { this.press = null; return; }
      const r = p.el.getBoundingClientRect();
      const ghost = /** @type {HTMLElement} */ (p.el.cloneNode(true));
      ghost.classList.add("ghost");
      ghost.removeAttribute("id");
      ghost.setAttribute("aria-hidden", "true");
      Object.assign(ghost.style, { width: r.width + "px", height: r.height + "px" });
      document.body.append(ghost);
      this.drag = { ghost, dx: p.x - r.left, dy: p.y - r.top };
      p.el.classList.add("dragging");
      try { this.host.setPointerCapture(e.pointerId); } catch { /* released already */ }
    }
    e.preventDefault();
    const d = this.drag;
    d.ghost.style.transform = `translate(${e.clientX - d.dx}px, ${e.clientY - d.dy}px)`;
    const over = this.pileAt(e.clientX, e.clientY);
    for (const x of this.host.querySelectorAll(".over")) if (x !== over) x.classList.remove("over");
    if (over && over.classList.contains("target")) over.classList.add("over");
  }

  /** @param {PointerEvent} e */
  onPointerUp(e) {
    const p = this.press;
    this.press = null;
    if (!p || e.pointerId !== p.id || !this.drag) return;
    this.suppressClick = true;
    setTimeout(() => { this.suppressClick = false; }, 0);
    const over = this.pileAt(e.clientX, e.clientY);
    this.endDrag();
    if (!(over && (this.place(over) || this.tryThere(over)))) this.cancel();
  }

  endDrag() {
    if (this.drag) {
      this.drag.ghost.remove();
      this.drag = null;
    }
    for (const x of this.host.querySelectorAll(".dragging")) x.classList.remove("dragging");
  }

  /** @param {number} x @param {number} y */
  pileAt(x, y) {
    const hit = document.elementFromPoint(x, y);
    return hit ? /** @type {HTMLElement | null} */ (hit.closest("[data-pile]")) : null;
  }

  /** @param {MouseEvent} e */
  onClick(e) {
    if (this.suppressClick) { e.preventDefault(); return; }
    const peek = near(e, "[data-peek]");
    if (peek) { this.hooks.peek(peek.dataset.peek); return; }
    const keyboard = e.detail === 0; // a button pressed with Enter or Space
    const pile = near(e, "[data-pile]");
    const card = near(e, ".card[data-from]");
    if (this.picked && pile && (this.place(pile) || (!card && this.tryThere(pile)))) return;
    if (card) {
      if (this.picked && this.picked.el === card) {
        // Enter on a card a hint picked places it where the hint says; else it cancels the pick
        const hinted = keyboard && this.host.querySelector(".pile.hint.target");
        if (!(hinted && this.place(/** @type {HTMLElement} */ (hinted)))) this.cancel(keyboard);
        return;
      }
      this.pick(card, { focusTarget: keyboard });
      return;
    }
    if (this.picked) this.cancel();
  }

  /** @param {MouseEvent} e */
  onAuto(e) {
    const card = near(e, ".card[data-from]");
    if (!card) return;
    e.preventDefault();
    const view = this.view;
    const moves = movesFor(view, Number(card.dataset.card), card.dataset.from);
    const move = autoMove(view, moves);
    if (move) this.sendMove(move);
    else if (!moves.length) this.refuse(card, true);
    else if (this.pick(card) && !moves.some((m) => m.kind === "play")) this.ask(card, true); // why not the centre
  }

  // ---- keyboard ---------------------------------------------------------------------------

  /** @param {KeyboardEvent} e */
  onKey(e) {
    if (near(e, "input, textarea, select")) return;
    if (e.key === "Escape" && this.picked) {
      e.preventDefault();
      this.hooks.announce(t("dn.cancelled"));
      this.cancel(true);
      return;
    }
    const pile = near(e, "[data-pile].target");
    if (pile && (e.key === "Enter" || e.key === " ") && e.target === pile) {
      e.preventDefault();
      this.place(pile);
      return;
    }
    if (e.key.startsWith("Arrow")) {
      const forward = e.key === "ArrowRight" || e.key === "ArrowDown";
      const list = this.picked ? this.targetEls() : [...this.host.querySelectorAll("button.card")];
      const i = list.indexOf(near(e, this.picked ? "[data-pile]" : "button.card"));
      if (list.length && (i >= 0 || this.picked)) {
        e.preventDefault();
        /** @type {HTMLElement} */ (list[(i + (forward ? 1 : -1) + list.length) % list.length]).focus();
      }
    }
  }

  /** Keyboard shortcuts from anywhere on the page: 1–9 pick a hand card, P the pay-off top.
   * @param {string} key */
  shortcut(key) {
    const v = this.view;
    if (v.you === null) return false;
    /** @type {HTMLElement | null} */
    let card = null;
    if (/^[1-9]$/.test(key)) card = this.host.querySelector(`.hand-row [data-key="${key}"]`);
    else if (key === "p" || key === "P") card = this.host.querySelector(`[data-pile="payoff:${v.you}"] .card[data-from]`);
    if (!card) return false;
    card.focus();
    this.pick(card, { focusTarget: true });
    return true;
  }
}
