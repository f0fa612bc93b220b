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

/** Register the worker, subscribe and tell the server. @returns {Promise<string>} what happened */
export async function turnOn() {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") return t("pu.blocked");
  const reg = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  await navigator.serviceWorker.ready;
  const key = /** @type {{public_key: string}} */ (await api.get("/api/push/key")).public_key;
  const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes(key) });
  const json = sub.toJSON();
  await api.post("/api/players/me/push", { endpoint: json.endpoint, keys: json.keys });
  return t("pu.on");
}

/** Unsubscribe this device. */
export async function turnOff() {
  const reg = await navigator.serviceWorker.getRegistration("/");
  const sub = reg ? await reg.pushManager.getSubscription() : null;
  if (sub) {
    await api.request("DELETE", "/api/players/me/push", { endpoint: sub.endpoint });
    await sub.unsubscribe();
  }
  return t("pu.off");
}

/** The panel: what you get, and the button that asks. */
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
  const on = button(t("pu.notify_me"), async () => {
    on.disabled = true;
    try { state.textContent = await turnOn(); } catch (ex) { state.textContent = t("pu.failed", { text: /** @type {Error} */ (ex).message }); } finally { on.disabled = false; }
  }, "primary");
  on.id = "push-on";
  const off = button(t("pu.turn_off"), async () => {
    try { state.textContent = await turnOff(); } catch (ex) { state.textContent = /** @type {Error} */ (ex).message; }
  }, "small");
  off.id = "push-off";
  if (Notification.permission === "granted") state.textContent = t("pu.allowed");
  box.append(on, " ", off, state);
  return box;
}
