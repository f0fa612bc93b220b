// @ts-check
// Keeping the keyboard focus across a redraw of the table: remember what had it, put it back on
// the same card, pile or button if that is still there.

/** What to refocus after a re-render: the same card, pile or button if it still exists.
 * @param {Element | null} e */
export function focusKeyOf(e) {
  if (!(e instanceof HTMLElement) || e === document.body) return null;
  if (e.dataset && e.dataset.card) return `[data-card="${e.dataset.card}"][data-from]`;
  if (e.dataset && e.dataset.pile) return `[data-pile="${e.dataset.pile}"]`;
  if (e.id) return "#" + CSS.escape(e.id);
  return null;
}

/** After a re-render: focus on the same card or pile if it is still there (and not a place a
 * card was just put), else on the result when one is shown, else on your hand.
 * @param {HTMLElement} root @param {string | null} key @param {HTMLElement} result */
export function restoreFocus(root, key, result) {
  const now = document.activeElement;
  if (now && now !== document.body) return; // focus was not lost with the old DOM
  const placed = key && /^\[data-pile="(centre|side)/.test(key); // a target: the card has gone there
  /** @type {HTMLElement | null} */
  const same = key && !placed ? root.querySelector(key) || result.querySelector(key) : null;
  /** @type {HTMLElement | null} */
  const e = same || result.querySelector(".result .actions button.primary, #result-title")
    || (key || root.querySelector(".me") ? root.querySelector(".hand-row button.card") : null);
  if (e) e.focus({ preventScroll: true });
}
