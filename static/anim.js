// @ts-check
// Short animations for plays, draws and completed stacks (FLIP: remember where each card was,
// render, then slide it from there). Nothing moves under prefers-reduced-motion.

/** @typedef {import("./types.js").GameEvent} GameEvent */
/** Where cards and piles were: card id -> box, pile name (or "hand-of:S") -> box.
 * @typedef {{cards: Map<string, DOMRect>, piles: Map<string, DOMRect>}} Snapshot */

const MS = 220;
const reduced = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

/** @param {HTMLElement} host */
const faces = (host) => /** @type {NodeListOf<HTMLElement>} */ (host.querySelectorAll(".card.face[data-card]:not(.spread .card)"));

/** Where every visible card and pile is now. @param {HTMLElement} host @returns {Snapshot} */
export function snapshot(host) {
  const cards = new Map();
  for (const e of faces(host)) cards.set(e.dataset.card, e.getBoundingClientRect());
  const piles = new Map();
  const places = /** @type {NodeListOf<HTMLElement>} */ (host.querySelectorAll("[data-pile], .player[data-seat] .hand-count"));
  for (const e of places) {
    const key = e.dataset.pile || "hand-of:" + /** @type {HTMLElement} */ (e.closest(".player")).dataset.seat;
    piles.set(key, e.getBoundingClientRect());
  }
  return { cards, piles };
}

/** @param {Element} e @param {DOMRect} from */
function slide(e, from) {
  const to = e.getBoundingClientRect();
  const dx = from.left - to.left;
  const dy = from.top - to.top;
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
  e.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }],
    { duration: MS, easing: "cubic-bezier(.2,.7,.3,1)" });
}

/** Animate from `before` (a snapshot) to what `host` shows now, guided by the state's events.
 * @param {HTMLElement} host @param {Snapshot | null} before @param {GameEvent[]} events */
export function animate(host, before, events) {
  if (!before || reduced()) return;
  /** @type {Map<string, DOMRect>} */
  const origin = new Map(); // card id -> where it came from, for cards not on screen before
  for (const ev of events) {
    if (ev.type === "play" || ev.type === "discard" || ev.type === "load" || ev.type === "move_side") {
      const from = ev.type !== "discard" && ev.from !== "hand" ? ev.from : "hand-of:" + ev.seat;
      origin.set(String(ev.card.id), before.piles.get(from));
    }
  }
  for (const e of faces(host)) {
    const id = e.dataset.card;
    const was = before.cards.get(id);
    if (was) { slide(e, was); continue; }
    const from = origin.get(id) || (e.dataset.from === "hand" ? before.piles.get("stock") : null);
    if (from) slide(e, from);
    else e.animate([{ opacity: 0 }, { opacity: 1 }], { duration: MS });
  }
  for (const ev of events) {
    if (ev.type !== "complete") continue;
    const slot = host.querySelector(`[data-pile="centre:${ev.slot}"]`);
    if (slot) {
      slot.animate([{ boxShadow: "0 0 0 6px var(--gold)" }, { boxShadow: "0 0 0 0 transparent" }],
        { duration: MS * 4, easing: "ease-out" });
    }
  }
}
