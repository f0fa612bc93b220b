// @ts-check
// The "pick a name" form, shared by the home page and an invite link's room page (its own module,
// so a room page loads no home page).

import * as api from "./api.js";
import { el, errorLine } from "./dom.js";
import { t } from "./i18n.js";
import { app, onLeave } from "./router.js";

/** @typedef {import("./types.js").Identity} Identity */

/** Once the page drawn after the name shows `next()` (its next useful control), the focus goes
 * there, unless the person has put it somewhere themselves (else it would stay on the body, the
 * form being gone). @param {() => Element | null} next */
function focusNext(next) {
  const go = () => {
    const e = next();
    if (e instanceof HTMLElement && document.activeElement === document.body) e.focus({ preventScroll: true });
    return !!e || document.activeElement !== document.body;
  };
  if (go()) return;
  const watch = new MutationObserver(() => { if (go()) watch.disconnect(); });
  watch.observe(app, { childList: true, subtree: true });
  onLeave(() => watch.disconnect());
}

/** A room's next useful control once the room is drawn: a seat to take, else the chat. */
export const seatOrChat = () => app.querySelector(".lobby, .table") && app.querySelector("[id^=sit-], #chat-input");

/** "Pick a name" form; calls done(identity) once registered, then puts the focus on `next`, the
 * next useful control of the page drawn then (never leaving it on the body).
 * @param {(me: Identity) => void} done @param {() => Element | null} next */
export function nameForm(done, next, intro = t("hm.intro")) {
  const form = el("form", "name-form card-panel");
  form.append(el("h2", "", t("hm.your_name")), el("p", "", intro));
  const label = el("label", "", t("hm.name"));
  const input = el("input");
  input.id = "name-input";
  input.name = "name";
  input.maxLength = 24;
  input.required = true;
  input.setAttribute("autocomplete", "nickname");
  label.htmlFor = input.id;
  const go = el("button", "primary", t("hm.continue"));
  go.type = "submit";
  const err = errorLine("name-error");
  form.append(label, input, go, err);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = input.value.trim();
    if (!name) { err.textContent = t("hm.type_name"); return; }
    go.disabled = true;
    try {
      done(await api.register(name));
      focusNext(next);
    } catch (ex) {
      err.textContent = ex.message;
    } finally {
      go.disabled = false;
    }
  });
  return form;
}
