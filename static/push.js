// @ts-check
// "Tell me when it is my turn": Web Push. Nothing is asked of the browser until the player
// clicks the button, and the panel says first what they will get. The click asks for
// permission, registers the service worker (/sw.js), subscribes with the server's VAPID key
// (GET /api/push/key) and gives the subscription to the server (POST /api/players/me/push).

import * as api from "./api.js";
import { button, el } from "./dom.js";
import { more, t } from "./i18n.js";

await more(); // the panel's words are in the later part of the catalogue

/** @param {string} b64 */
function bytes(b64) {
  const s = atob(b64.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (b64.length % 4)) % 4));
  const out = new Uint8Array(new ArrayBuffer(s.length));
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

export function supported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

/** Each step's failure as a sentence from the catalogue: what failed and what to do (never the
 * browser's own words). @param {string} key @param {Record<string, string>} [params] */
const failed = (key, params) => new Error(t(key, params));

/** This device's subscription, if it has one. */
export async function current() {
  const reg = await navigator.serviceWorker.getRegistration("/");
  return reg ? reg.pushManager.getSubscription() : null;
}

/** Register the worker, subscribe and tell the server. Resolves with what happened; rejects
 * with an Error whose message says, in the player's words, which step failed and what to do.
 * @returns {Promise<string>} */
export async function turnOn() {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") return t("pu.blocked");
  /** @type {ServiceWorkerRegistration} */
  let reg;
  try {
    reg = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    await navigator.serviceWorker.ready;
  } catch {
    throw failed("pu.fail_worker");
  }
  /** @type {string} */
  let key;
  try {
    key = /** @type {{public_key: string}} */ (await api.get("/api/push/key")).public_key;
  } catch (ex) {
    throw failed("pu.fail_server", { text: /** @type {Error} */ (ex).message });
  }
  /** @type {PushSubscription} */
  let sub;
  try {
    sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes(key) });
  } catch {  // permission taken back meanwhile, or else the browser's push service refused or is missing
    throw failed(Notification.permission === "granted" ? "pu.fail_service" : "pu.blocked");
  }
  const json = sub.toJSON();
  try {
    await api.post("/api/players/me/push", { endpoint: json.endpoint, keys: json.keys });
  } catch (ex) {
    await sub.unsubscribe().catch(() => false);  // not kept by the server: not on here either
    throw failed("pu.fail_server", { text: /** @type {Error} */ (ex).message });
  }
  return t("pu.on");
}

/** Unsubscribe this device. */
export async function turnOff() {
  const sub = await current();
  if (sub) {
    await api.request("DELETE", "/api/players/me/push", { endpoint: sub.endpoint });
    await sub.unsubscribe();
  }
  return t("pu.off");
}

/** The panel: what you get, and the one button that applies: *Notify me* while this device is
 * not subscribed, *Turn off* while it is. */
export function pushPanel() {
  const box = el("section", "card-panel push-panel");
  box.id = "push-panel";
  box.append(el("h2", "", t("pu.title")));
  box.append(el("p", "help", t("pu.about")));
  const state = el("p", "push-state");
  state.id = "push-state";
  state.setAttribute("aria-live", "polite");
  if (!supported()) {
    state.textContent = t("pu.unsupported");
    box.append(state);
    return box;
  }
  /** Show the button that applies now. @param {boolean} subscribed */
  const showing = (subscribed) => {
    on.hidden = subscribed || Notification.permission === "denied";
    off.hidden = !subscribed;
  };
  const check = () => current().then((sub) => showing(Boolean(sub)), () => showing(false));
  const on = button(t("pu.notify_me"), async () => {
    on.disabled = true;
    try { state.textContent = await turnOn(); } catch (ex) { state.textContent = /** @type {Error} */ (ex).message; } finally { on.disabled = false; }
    await check();
  }, "primary");
  on.id = "push-on";
  const off = button(t("pu.turn_off"), async () => {
    try { state.textContent = await turnOff(); } catch (ex) { state.textContent = /** @type {Error} */ (ex).message; }
    await check();
  }, "small");
  off.id = "push-off";
  on.hidden = off.hidden = true;  // until this device's subscription is known
  if (Notification.permission === "granted") state.textContent = t("pu.allowed");
  if (Notification.permission === "denied") state.textContent = t("pu.blocked");
  void check().then(() => { if (!off.hidden) state.textContent = t("pu.on"); });
  box.append(on, " ", off, state);
  return box;
}
