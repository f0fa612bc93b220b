// @ts-check
// The "pick a name" form, shared by the home page and an invite link's room page (its own module,
// so a room page loads no home page).

import * as api from "./api.js";
import { el, errorLine } from "./dom.js";
import { t } from "./i18n.js";

/** @typedef {import("./types.js").Identity} Identity */

/** "Pick a name" form; calls done(identity) once registered.
 * @param {(me: Identity) => void} done */
export function nameForm(done, intro = t("hm.intro")) {
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
    } catch (ex) {
      err.textContent = ex.message;
    } finally {
      go.disabled = false;
    }
  });
  return form;
}
