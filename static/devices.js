// @ts-check
// The account page's security part, for an account holder (loaded when the page is drawn):
// changing the password (the current one and the new one; `PUT /api/account/password`, which
// signs every other device out) and the devices signed in (`GET /api/sessions`: the browser and
// system, when each signed in and was last used, this device marked), each other one with Sign out (`DELETE
// /api/sessions/{id}`), and Sign out all other devices (each of them, the same way).

import * as api from "./api.js";
import { button, el, errorLine } from "./dom.js";
import { date, more, t } from "./i18n.js";
import { when } from "./history.js";

await more(); // the account page's words are in the later part of the catalogue

/** @typedef {{id: string, created_at: string, used_at: string, current: boolean, browser?: string | null, system?: string | null}} SessionOut */

/** "Chrome on Android": the browser and system the server read when the device signed in.
 * @param {SessionOut} s */
const deviceName = (s) => s.browser && s.system ? t("acc.device", { browser: s.browser, system: s.system })
  : s.system ? t("acc.device_system", { system: s.system }) : s.browser || t("acc.device_unknown");

/** A labelled password input. @param {string} id @param {string} text @param {string} auto */
function passwordField(id, text, auto) {
  const label = el("label", "", text);
  const input = el("input");
  input.id = input.name = id;
  input.type = "password";
  input.required = true;
  input.maxLength = 256;
  input.setAttribute("autocomplete", auto);
  label.htmlFor = id;
  return { label, input };
}

/** The form that changes the password. @param {() => void} changed called once it is changed */
function passwordForm(changed) {
  const form = el("form", "card-panel account-form");
  form.id = "password-form";
  const old = passwordField("password-old", t("acc.password_old"), "current-password");
  const neu = passwordField("password-new", t("acc.password_new"), "new-password");
  neu.input.minLength = 8;
  const go = el("button", "primary", t("acc.password_change"));
  go.type = "submit";
  go.id = "password-submit";
  const err = errorLine("password-error");
  const done = el("p", "muted");
  done.id = "password-done";
  done.setAttribute("role", "status");
  form.append(el("h2", "", t("acc.password_title")), el("p", "muted", t("acc.password_about")),
    old.label, old.input, neu.label, neu.input, go, err, done);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    err.textContent = done.textContent = "";
    go.disabled = true;
    try {
      await api.request("PUT", "/api/account/password", { old_password: old.input.value, new_password: neu.input.value });
      old.input.value = neu.input.value = "";
      done.textContent = t("acc.password_done");
      changed();
    } catch (ex) {
      err.textContent = /** @type {Error} */ (ex).message;
    } finally {
      go.disabled = false;
    }
  });
  return form;
}

/** One device. @param {SessionOut} s @param {() => Promise<void>} redraw @param {HTMLElement} err */
function deviceRow(s, redraw, err) {
  const li = el("li", "device-row" + (s.current ? " current" : ""));
  li.dataset.session = s.id;
  const what = el("span", "device-when", t("acc.device_when", { signed: when(s.created_at),
    used: date(s.used_at, { dateStyle: "medium" }) }));
  li.append(el("strong", "device-name", deviceName(s)), " · ", what);
  if (s.current) li.append(" ", el("span", "badge", t("acc.this_device")));
  else {
    const out = button(t("acc.device_out"), async () => {
      out.disabled = true;
      try {
        await api.request("DELETE", `/api/sessions/${encodeURIComponent(s.id)}`);
      } catch (ex) {
        err.textContent = /** @type {Error} */ (ex).message;
      }
      await redraw();
    }, "small");
    li.append(" ", out);
  }
  return li;
}

/** The devices signed in to this account. */
function devicesPanel() {
  const box = el("section", "card-panel devices");
  box.id = "devices";
  const list = el("ul", "device-list");
  const err = errorLine("devices-error");
  const done = el("p", "muted");
  done.id = "devices-done";
  done.setAttribute("role", "status");
  /** @type {SessionOut[]} */
  let others = [];
  const all = button(t("acc.devices_out"), async () => {
    all.disabled = true;
    err.textContent = done.textContent = "";
    try {
      for (const s of others) await api.request("DELETE", `/api/sessions/${encodeURIComponent(s.id)}`);
      done.textContent = t("acc.devices_out_done");
    } catch (ex) {
      err.textContent = /** @type {Error} */ (ex).message;
    }
    all.disabled = false;
    await redraw();
  }, "small");
  all.id = "devices-out";
  all.hidden = true;
  box.append(el("h2", "", t("acc.devices")), el("p", "muted", t("acc.devices_about")), list, all, err, done);
  async function redraw() {
    try {
      const got = /** @type {{items: SessionOut[]}} */ (await api.get("/api/sessions"));
      list.textContent = "";
      for (const s of got.items) list.append(deviceRow(s, redraw, err));
      others = got.items.filter((s) => !s.current);
      all.hidden = !others.length;  // only when there is another device to sign out
    } catch (ex) {
      err.textContent = /** @type {Error} */ (ex).message;
    }
  }
  void redraw();
  return { box, redraw };
}

/** The password form and the devices, side by side on a wide screen. */
export function securityPart() {
  const grid = el("div", "home-grid");
  const devices = devicesPanel();
  grid.append(passwordForm(() => void devices.redraw()), devices.box);
  return grid;
}
