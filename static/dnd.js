// Input on the table: drag and drop (pointer events, so mouse, pen and touch), tap-to-pick then
// tap-to-place, the keyboard, and double-click / right-click to play a card to the only centre
// stack it fits. Every move it makes is one of view.legal_moves, sent unchanged.
// Listeners sit on `host`, which outlives the table DOM that renders into it.

import { cardName } from "./cards.js";
import { autoMove, findCard, movesFor, pileName } from "./moves.js";

const DRAG_START = 6; // px a pointer must travel before a press becomes a drag

export class TableInput {
  /**
   * host: the element the table renders into.
   * hooks: { view() -> current view, send(move) -> bool, announce(text), peek(pileName) }
   */
  constructor(host, hooks) {
    this.host = host;
    this.hooks = hooks;
    this.picked = null; // {card, from, moves}
    this.press = null; // pointer press that may become a drag
    this.drag = null; // {ghost, dx, dy}
    this.suppressClick = false;
    host.addEventListener("pointerdown", (e) => this.onPointerDown(e));
    host.addEventListener("pointermove", (e) => this.onPointerMove(e));
    host.addEventListener("pointerup", (e) => this.onPointerUp(e));
    host.addEventListener("pointercancel", () => this.endDrag(false));
    host.addEventListener("click", (e) => this.onClick(e));
    host.addEventListener("dblclick", (e) => this.onAuto(e));
    host.addEventListener("contextmenu", (e) => this.onAuto(e));
    host.addEventListener("keydown", (e) => this.onKey(e));
  }

  get view() {
    return this.hooks.view();
  }

  /** Forget the selection (call after each new render: the old DOM is gone). */
  reset() {
    this.picked = null;
    this.endDrag(false);
  }

  // ---- picking and placing -------------------------------------------------------------

  pick(cardEl, { focusTarget = false, quiet = false } = {}) {
    const view = this.view;
    const card = Number(cardEl.dataset.card);
    const from = cardEl.dataset.from;
    const moves = movesFor(view, card, from).filter((m) => m.to);
    this.clearMarks();
    if (!moves.length) {
      this.picked = null;
      if (!quiet) this.hooks.announce(this.whyNot(cardEl));
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
      const where = [...new Set(moves.map((m) => pileName(view, m.to, view.you)))].join(", ");
      this.hooks.announce(`${cardName(this.cardOf(cardEl))} picked. It can go to ${where}. Arrow keys choose, Enter places, Escape cancels.`);
    }
    if (focusTarget && targets[0]) targets[0].focus();
    return true;
  }

  whyNot(cardEl) {
    const v = this.view;
    if (v.status !== "playing") return "The hand is over.";
    if (v.turn !== v.you) return "It is not your turn.";
    return `${cardName(this.cardOf(cardEl))} cannot move now.`;
  }

  cardOf(cardEl) {
    return findCard(this.view, Number(cardEl.dataset.card));
  }

  targetEls() {
    if (!this.picked) return [];
    const tos = new Set(this.picked.moves.map((m) => m.to));
    return [...this.host.querySelectorAll("[data-pile]")].filter((e) => tos.has(e.dataset.pile));
  }

  /** Place the picked card on `pileEl` if that is a legal move; true when a move was sent. */
  place(pileEl) {
    if (!this.picked || !pileEl) return false;
    const move = this.picked.moves.find((m) => m.to === pileEl.dataset.pile);
    if (!move) return false;
    return this.sendMove(move);
  }

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
      e.removeAttribute("role");
    }
    this.host.classList.remove("picking");
  }

  /** Light the move a hint suggests: its card picked, its target marked. */
  showHint(move) {
    const from = move.from || "hand";
    const cardEl = [...this.host.querySelectorAll(".card[data-from]")].find(
      (e) => e.dataset.from === from && (move.card === undefined || Number(e.dataset.card) === move.card));
    for (const e of this.host.querySelectorAll(".hint")) e.classList.remove("hint");
    if (cardEl) {
      cardEl.classList.add("hint");
      this.pick(cardEl, { quiet: true });
    }
    if (move.to) {
      const t = this.host.querySelector(`[data-pile="${move.to}"]`);
      if (t) t.classList.add("hint");
    }
  }

  // ---- pointer: drag and drop, taps -------------------------------------------------------

  onPointerDown(e) {
    if (e.button !== 0) return;
    const card = e.target.closest(".card.movable[data-from]");
    if (!card) return;
    this.press = { el: card, x: e.clientX, y: e.clientY, id: e.pointerId };
  }

  onPointerMove(e) {
    const p = this.press;
    if (!p || e.pointerId !== p.id) return;
    if (!this.drag) {
      if (Math.hypot(e.clientX - p.x, e.clientY - p.y) < DRAG_START) return;
      if (!this.pick(p.el, { quiet: true })) { this.press = null; return; }
      const r = p.el.getBoundingClientRect();
      const ghost = p.el.cloneNode(true);
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

  onPointerUp(e) {
    const p = this.press;
    this.press = null;
    if (!p || e.pointerId !== p.id || !this.drag) return;
    this.suppressClick = true;
    setTimeout(() => { this.suppressClick = false; }, 0);
    const over = this.pileAt(e.clientX, e.clientY);
    this.endDrag(true);
    if (!(over && this.place(over))) this.cancel();
  }

  endDrag() {
    if (this.drag) {
      this.drag.ghost.remove();
      this.drag = null;
    }
    for (const x of this.host.querySelectorAll(".dragging")) x.classList.remove("dragging");
  }

  pileAt(x, y) {
    const hit = document.elementFromPoint(x, y);
    return hit ? hit.closest("[data-pile]") : null;
  }

  onClick(e) {
    if (this.suppressClick) { e.preventDefault(); return; }
    const peek = e.target.closest("[data-peek]");
    if (peek) { this.hooks.peek(peek.dataset.peek); return; }
    const keyboard = e.detail === 0; // a button pressed with Enter or Space
    const pile = e.target.closest("[data-pile]");
    if (this.picked && pile && pile.classList.contains("target")) {
      this.place(pile);
      return;
    }
    const card = e.target.closest(".card[data-from]");
    if (card) {
      if (this.picked && this.picked.el === card) { this.cancel(keyboard); return; }
      this.pick(card, { focusTarget: keyboard });
      return;
    }
    if (this.picked) this.cancel();
  }

  onAuto(e) {
    const card = e.target.closest(".card[data-from]");
    if (!card) return;
    e.preventDefault();
    const view = this.view;
    const moves = movesFor(view, Number(card.dataset.card), card.dataset.from);
    const move = autoMove(view, moves);
    if (move) this.sendMove(move);
    else if (moves.length) this.pick(card);
    else this.hooks.announce(this.whyNot(card));
  }

  // ---- keyboard ---------------------------------------------------------------------------

  onKey(e) {
    if (e.target.closest("input, textarea, select")) return;
    if (e.key === "Escape" && this.picked) {
      e.preventDefault();
      this.hooks.announce("Cancelled.");
      this.cancel(true);
      return;
    }
    const pile = e.target.closest("[data-pile].target");
    if (pile && (e.key === "Enter" || e.key === " ") && e.target === pile) {
      e.preventDefault();
      this.place(pile);
      return;
    }
    if (e.key.startsWith("Arrow")) {
      const forward = e.key === "ArrowRight" || e.key === "ArrowDown";
      const list = this.picked ? this.targetEls() : [...this.host.querySelectorAll("button.card")];
      const at = list.indexOf(e.target.closest(this.picked ? "[data-pile]" : "button.card"));
      if (list.length && (at >= 0 || this.picked)) {
        e.preventDefault();
        list[(at + (forward ? 1 : -1) + list.length) % list.length].focus();
      }
    }
  }

  /** Keyboard shortcuts from anywhere on the page: 1–9 pick a hand card, P the pay-off top. */
  shortcut(key) {
    const v = this.view;
    if (v.you === null || v.you === undefined) return false;
    let card = null;
    if (/^[1-9]$/.test(key)) card = this.host.querySelector(`.hand-row [data-key="${key}"]`);
    else if (key === "p" || key === "P") card = this.host.querySelector(`[data-pile="payoff:${v.you}"] .card[data-from]`);
    if (!card) return false;
    card.focus();
    this.pick(card, { focusTarget: true });
    return true;
  }
}
