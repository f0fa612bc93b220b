// @ts-check
// Away from the page: a "your turn" digest by email, when the server sends mail
// (GET /api/players/me/email answers 404 `email_disabled` when it does not: then the panel has
// no email part), and a vacation that stops your turn-based deadlines (PUT/DELETE
// /api/players/me/vacation). Both are for account holders: a guest is told what an account
// would give, and offered neither.

import * as api from "./api.js";
import { button, el } from "./dom.js";
import { date, more, t } from "./i18n.js";

await more(); // the panel's words are in the later part of the catalogue

/** @typedef {{email: string | null, confirmed: boolean, digest_minutes: number}} Email */
/** @typedef {{until: string | null, days_left: number}} Vacation */

/** @param {unknown} ex */
const why = (ex) => (ex instanceof Error ? ex.message : String(ex));

/** @param {HTMLElement} state @param {Email} e */
function showEmail(state, e) {
  state.textContent = !e.email ? t("pu.email_none")
    : e.confirmed ? t("pu.email_confirmed", { email: e.email, n: e.digest_minutes })
      : t("pu.email_pending", { email: e.email });
}

/** The email part, or null when this server sends no mail. @returns {Promise<HTMLElement | null>} */
async function emailPart() {
  /** @type {Email} */
  let now;
  try {
    now = /** @type {Email} */ (await api.get("/api/players/me/email"));
  } catch (ex) {
    if (ex instanceof api.ApiError && ex.status === 404) return null;
    throw ex;
  }
  const part = el("div", "away-email");
  const state = el("p", "email-state");
  state.id = "email-state";
  state.setAttribute("aria-live", "polite");
  const label = el("label", "", t("pu.email_label"));
  const input = /** @type {HTMLInputElement} */ (el("input"));
  input.type = "email";
  input.id = "email-input";
  input.autocomplete = "email";
  input.value = now.email || "";
  label.htmlFor = input.id;
  const save = button(t("pu.email_save"), async () => {
    try { showEmail(state, /** @type {Email} */ (await api.request("PUT", "/api/players/me/email", { email: input.value }))); } catch (ex) { state.textContent = why(ex); }
  }, "primary");
  save.id = "email-save";
  const drop = button(t("pu.email_remove"), async () => {
    try { await api.request("DELETE", "/api/players/me/email"); input.value = ""; showEmail(state, { ...now, email: null }); } catch (ex) { state.textContent = why(ex); }
  }, "small");
  drop.id = "email-remove";
  showEmail(state, now);
  part.append(el("h3", "", t("pu.email_title")), el("p", "help", t("pu.email_about")), label, " ", input, " ", save, " ", drop, state);
  return part;
}

/** The state in words; "End it now" only while on vacation (taking one then replaces it).
 * @param {HTMLElement} state @param {HTMLElement} end @param {Vacation} v */
function showVacation(state, end, v) {
  state.textContent = v.until ? t("pu.vac_until", { when: date(v.until, { dateStyle: "medium", timeStyle: "short" }), n: v.days_left })
    : t("pu.vac_none", { n: v.days_left });
  end.hidden = !v.until;
}

async function vacationPart() {
  const part = el("div", "away-vacation");
  const state = el("p", "vacation-state");
  state.id = "vacation-state";
  state.setAttribute("aria-live", "polite");
  const days = /** @type {HTMLInputElement} */ (el("input"));
  days.type = "number";
  days.id = "vacation-days";
  days.min = "1";
  days.value = "7";
  const label = el("label", "", t("pu.vac_days"));
  label.htmlFor = days.id;
  const take = button(t("pu.vac_take"), async () => {
    try { showVacation(state, end, /** @type {Vacation} */ (await api.request("PUT", "/api/players/me/vacation", { days: Number(days.value) }))); } catch (ex) { state.textContent = why(ex); }
  }, "primary");
  take.id = "vacation-take";
  const end = button(t("pu.vac_end"), async () => {
    try { await api.request("DELETE", "/api/players/me/vacation"); showVacation(state, end, /** @type {Vacation} */ (await api.get("/api/players/me/vacation"))); } catch (ex) { state.textContent = why(ex); }
  }, "small");
  end.id = "vacation-end";
  showVacation(state, end, /** @type {Vacation} */ (await api.get("/api/players/me/vacation")));
  part.append(el("h3", "", t("pu.vac_title")), el("p", "help", t("pu.vac_about")), label, " ", days, " ", take, " ", end, state);
  return part;
}

/** The panel: email (when the server sends mail) and vacation; a guest is told what an
 * account would give instead (both are for account holders). */
export async function awayPanel() {
  const box = el("section", "card-panel away-panel");
  box.id = "away-panel";
  box.append(el("h2", "", t("pu.away_title")));
  const me = api.identity();
  if (me && !me.username) {
    const p = el("p", "help away-guest", t("pu.away_guest") + " ");
    const a = el("a", "", t("pu.away_claim"));
    a.id = "away-claim";
    a.href = "/#account";
    p.append(a);
    box.append(p);
    return box;
  }
  const email = await emailPart();
  if (email) box.append(email);
  box.append(await vacationPart());
  return box;
}
