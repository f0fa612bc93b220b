// @ts-check
// Small DOM helpers every page uses: an element with a class and text, a button, the line a
// form shows its error on.

/**
 * A new element of `tag` with a class and text.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {string} [cls]
 * @param {string} [text]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** A `type="button"` button that calls `onClick`. @param {string} text @param {(() => void) | null} onClick */
export function button(text, onClick, cls = "") {
  const b = el("button", cls, text);
  b.type = "button";
  if (onClick) b.addEventListener("click", onClick);
  return b;
}

/** A list to choose from: `id`, and an option per [value, label]. @param {string} id
 * @param {[string, string][]} options */
export function choice(id, options) {
  const s = el("select");
  s.id = id;
  for (const [value, label] of options) {
    const o = el("option", "", label);
    o.value = value;
    s.append(o);
  }
  return s;
}

/** A labelled field: `control` under its label, an optional help line the control is described
 * by. @param {string} label @param {HTMLElement} control @param {string} [help] */
export function field(label, control, help) {
  const box = el("div", "field");
  const l = el("label", "", label);
  l.htmlFor = control.id;
  box.append(l, control);
  if (help) {
    const p = el("p", "help", help);
    p.id = control.id + "-help";
    control.setAttribute("aria-describedby", p.id);
    box.append(p);
  }
  return box;
}

/** The (empty) line under a form where its error appears, read out when it changes. @param {string} id */
export function errorLine(id) {
  const p = el("p", "form-error");
  p.id = id;
  p.setAttribute("role", "alert");
  return p;
}

/** A rating as people read it (docs/client.md): 1500 + 40 × the ordinal (μ − 3σ, what ranks),
 * whole points, so a new player is at 1500. @param {{ordinal: number}} r */
export const displayed = (r) => Math.round(1500 + 40 * r.ordinal);
