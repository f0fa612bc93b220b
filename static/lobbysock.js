// @ts-check
// The lobby socket (/ws/lobby, protocol.md "The lobby socket"): this browser's channel outside
// rooms, open on every page once the player has an identity. It says hello with the token (never
// in the URL) and the page's language, reconnects with backoff, hands each message to whoever
// listens for its type, and shows invitations (with Join and Decline) and friend requests in a
// toast of its own.

import * as api from "./api.js";
import { button, el } from "./dom.js";
import { currentLang } from "./i18n.js";

/** @typedef {{type: string, [k: string]: any}} LobbyMessage */

/** @type {Map<string, Set<(m: LobbyMessage) => void>>} */
const listeners = new Map();
/** @type {WebSocket | null} */
let ws = null;
let delay = 500;
let started = false;
/** @type {HTMLElement | null} */
let box = null;

/** Listen for lobby messages of `type`; returns the function that stops listening.
 * @param {string} type @param {(m: LobbyMessage) => void} fn */
export function onLobby(type, fn) {
  let set = listeners.get(type);
  if (!set) listeners.set(type, (set = new Set()));
  set.add(fn);
  return () => { set && set.delete(fn); };
}

/** Open the lobby socket (once per page load; again after a change of identity). */
export function startLobby() {
  if (started) return;
  started = true;
  connect();
}

function connect() {
  const me = api.identity();
  if (!me) { started = false; return; }
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const sock = new WebSocket(`${proto}//${location.host}/ws/lobby`);
  ws = sock;
  sock.addEventListener("open", () => {
    sock.send(JSON.stringify({ type: "hello", token: me.token, lang: currentLang() }));
  });
  sock.addEventListener("message", (e) => {
    /** @type {LobbyMessage} */
    let msg;
    try { msg = JSON.parse(String(e.data)); } catch { return; }
    if (msg.type === "welcome") delay = 500;
    show(msg);
    for (const fn of listeners.get(msg.type) || []) fn(msg);
  });
  sock.addEventListener("close", (e) => {
    if (ws !== sock) return;
    ws = null;
    if (e.code === 4401 || e.code === 4429) { started = false; return; }  // no identity here, or too many tabs
    setTimeout(connect, delay + Math.random() * 250);
    delay = Math.min(delay * 2, 15000);
  });
}

function toastBox() {
  if (!box) {
    box = el("div", "lobby-toasts");
    box.id = "lobby-toasts";
    box.setAttribute("role", "status");
    box.setAttribute("aria-live", "polite");
    document.body.append(box);
  }
  return box;
}

/** One toast: `parts` inside, gone after `ms` (0: until dismissed).
 * @param {(string | HTMLElement)[]} parts @param {number} ms */
export function lobbyToast(parts, ms = 8000) {
  const t = el("div", "lobby-toast");
  const close = button("×", () => t.remove(), "small close");
  close.setAttribute("aria-label", "Dismiss");
  t.append(...parts, close);
  toastBox().append(t);
  if (ms) setTimeout(() => t.remove(), ms);
  return t;
}

/** @param {LobbyMessage} msg */
function show(msg) {
  if (msg.type === "invitation") {
    const text = el("span", "", `${msg.from.name} invites you to room ${msg.room}`);
    /** @type {HTMLElement} */
    let t;
    const join = button("Join", async () => {
      try {
        const out = /** @type {{room: string}} */ (await api.post(`/api/invitations/${encodeURIComponent(msg.id)}/accept`));
        t.remove();
        location.assign("/r/" + encodeURIComponent(out.room));
      } catch (e) {
        text.textContent = /** @type {Error} */ (e).message;
      }
    }, "small primary");
    join.classList.add("join-invite");
    const no = button("Decline", () => {
      api.post(`/api/invitations/${encodeURIComponent(msg.id)}/decline`).catch(() => {});
      t.remove();
    }, "small");
    t = lobbyToast([text, join, no], 0);
    t.classList.add("invitation");
  } else if (msg.type === "friend_request") {
    const link = el("a", "", msg.friends ? `${msg.from.name} is now your friend` : `${msg.from.name} asks to be friends`);
    link.href = "/#friends";
    lobbyToast([link], 8000);
  }
}
