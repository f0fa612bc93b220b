// @ts-check
// The lobby socket (/ws/lobby, protocol.md "The lobby socket"): this browser's channel outside
// rooms, open on every page once the player has an identity. It says hello with the token (never
// in the URL) and the page's language, reconnects with backoff, hands each message to whoever
// listens for its type, and shows invitations (with Join and Decline) and friend requests in a
// toast of its own; a request that arrives quietly (the player chose `quiet_requests`) only
// updates a count of requests waiting, which names nobody and links to the Friends page. A
// tournament's table ready for the player (`tournament`) is a toast with the link to its room.

import * as api from "./api.js";
import { button, el } from "./dom.js";
import { currentLang, more, t } from "./i18n.js";

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
    void show(msg);
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

/** One toast (once the later part of the catalogue is in): `parts` inside, gone after `ms` (0: until dismissed).
 * @param {(string | HTMLElement)[]} parts @param {number} ms */
function lobbyToast(parts, ms = 8000) {
  const toast = el("div", "lobby-toast");
  const close = button("×", () => toast.remove(), "small close");
  close.setAttribute("aria-label", t("fa.dismiss"));
  toast.append(...parts, close);
  toastBox().append(toast);
  if (ms) setTimeout(() => toast.remove(), ms);
  return toast;
}

/** A toast for an invitation or a friend request, in the page's language (its words are in the
 * later part of the catalogue: fetched with the first toast). @param {LobbyMessage} msg */
async function show(msg) {
  if (msg.type === "friend_requests") { await quietCount(msg.waiting); return; }
  if (msg.type === "tournament") { await tableReady(msg); return; }
  if (msg.type !== "invitation" && msg.type !== "friend_request") return;
  await more();
  if (msg.type === "invitation") {
    const text = el("span", "", t("fa.invites_you", { name: msg.from.name, room: msg.room }));
    /** @type {HTMLElement} */
    let toast;
    const join = button(t("fa.join"), async () => {
      try {
        const out = /** @type {{room: string}} */ (await api.post(`/api/invitations/${encodeURIComponent(msg.id)}/accept`));
        toast.remove();
        location.assign("/r/" + encodeURIComponent(out.room));
      } catch (e) {
        text.textContent = /** @type {Error} */ (e).message;
      }
    }, "small primary");
    join.classList.add("join-invite");
    const no = button(t("fa.decline"), () => {
      api.post(`/api/invitations/${encodeURIComponent(msg.id)}/decline`).catch(() => {});
      toast.remove();
    }, "small");
    toast = lobbyToast([text, join, no], 0);
    toast.classList.add("invitation");
  } else {
    const link = el("a", "", t(msg.friends ? "fa.now_friends" : "fa.asks_friends", { name: msg.from.name }));
    link.href = "/#friends";
    lobbyToast([link], 8000);
  }
}

/** The count of friend requests waiting, in place of their toasts: one link, updated, never a
 * name. @param {number} n */
async function quietCount(n) {
  await more();
  let link = /** @type {HTMLAnchorElement | null} */ (document.getElementById("requests-waiting"));
  if (!link) {
    link = el("a", "lobby-toast quiet-count");
    link.id = "requests-waiting";
    link.href = "/#friends";
    link.addEventListener("click", () => link && link.remove());
    toastBox().append(link);
  }
  link.textContent = t("fa.requests_waiting", { n });
}

/** "Your table in <tournament>, round N, is ready", with the link to the room: kept until
 * dismissed or followed (the toasts' box is a polite live region, so it is read out).
 * @param {LobbyMessage} msg */
async function tableReady(msg) {
  if (location.pathname === "/r/" + encodeURIComponent(msg.room)) return;  // there already
  const [, name] = await Promise.all([more(), api.get(`/api/tournaments/${encodeURIComponent(msg.id)}`)
    .then((tn) => String(/** @type {{name: string}} */ (tn).name || ""), () => "")]);
  const where = name || t("tn.your_tournament");
  const text = el("span", "", t("tn.table_ready", { tournament: where, round: msg.round }));
  const go = el("a", "button small primary", t("tn.go_to_room"));
  go.href = "/r/" + encodeURIComponent(msg.room);
  const toast = lobbyToast([text, " ", go], 0);
  toast.classList.add("table-ready");
  go.addEventListener("click", () => toast.remove());
}
