// @ts-check
// "Invite a friend" in a room (protocol.md, invitations), and "Add friend" / "Block" on a profile.
// In a room: your friends, online first, each with
// an Invite button; the friend gets a toast with Join on their lobby socket (and a push where
// they subscribed). Refusals (not in the room, a block, too many) show the server's sentence.

import * as api from "./api.js";
import { button, el } from "./dom.js";
import { more, t } from "./i18n.js";

await more(); // the invitations' words are in the later part of the catalogue

/** @typedef {{player_id: string, name: string, status: string, online: boolean}} Friend */

/** The Invite button and its list, for room `code`. @param {string} code */
export function inviteFriends(code) {
  const box = el("div", "invite-friends");
  const open = button(t("iv.invite_friend"), () => void toggle(), "small");
  open.id = "invite-friend";
  open.setAttribute("aria-expanded", "false");
  const list = el("ul", "invite-list");
  list.hidden = true;
  const note = el("p", "muted small");
  note.setAttribute("role", "status");
  box.append(open, list, note);

  async function toggle() {
    const show = list.hidden;
    list.hidden = !show;
    open.setAttribute("aria-expanded", String(show));
    if (!show) return;
    list.textContent = "";
    note.textContent = "";
    try {
      const out = /** @type {{items: Friend[]}} */ (await api.get("/api/players/me/friends"));
      const friends = out.items.filter((f) => f.status === "friends").sort((a, b) => Number(b.online) - Number(a.online));
      if (!friends.length) {
        note.textContent = t("iv.no_friends");
        return;
      }
      for (const f of friends) {
        const li = el("li", "friend-row");
        li.append(el("span", "name", f.name), el("span", "conn " + (f.online ? "on" : "off"), t(f.online ? "tb.online" : "iv.offline")));
        const send = button(t("iv.invite"), async () => {
          send.disabled = true;
          try {
            await api.post(`/api/rooms/${encodeURIComponent(code)}/invitations`, { player_id: f.player_id });
            note.textContent = t("iv.sent", { name: f.name });
            send.textContent = t("iv.invited");
          } catch (e) {
            note.textContent = /** @type {Error} */ (e).message;
            send.disabled = false;
          }
        }, "small primary");
        li.append(send);
        list.append(li);
      }
    } catch (e) {
      note.textContent = /** @type {Error} */ (e).message;
    }
  }
  return box;
}

/** Ask `id` to be friends (or accept their request); the sentence saying which happened, from
 * the server's answer (`Prefer: return=representation`: `{"status": "requested" | "friends", "name"}`).
 * @param {string} id @param {string} name their name as the page knows it (the answer's comes first) */
export async function befriend(id, name) {
  const out = /** @type {{status?: string, name?: string} | null} */ (await api.request("PUT",
    `/api/players/me/friends/${encodeURIComponent(id)}`, undefined, { Prefer: "return=representation" }));
  return t(out && out.status === "friends" ? "iv.now_friends" : "iv.requested", { name: (out && out.name) || name });
}

/** "Add friend" and "Block" for a player's profile. @param {string} id @param {string} name */
export function befriendButtons(id, name) {
  const box = el("p", "befriend");
  const note = el("span", "muted small");
  note.setAttribute("role", "status");
  const path = (/** @type {string} */ kind) => `/api/players/me/${kind}/${encodeURIComponent(id)}`;
  const add = button(t("iv.add_friend"), async () => {
    try {
      note.textContent = await befriend(id, name);
      add.disabled = true;
    } catch (e) {
      note.textContent = /** @type {Error} */ (e).message;
    }
  }, "small primary");
  add.id = "add-friend";
  const block = button(t("iv.block"), async () => {
    try {
      await api.request("PUT", path("blocks"));
      note.textContent = t("iv.blocked", { name });
      block.disabled = true;
      add.disabled = true;
    } catch (e) {
      note.textContent = /** @type {Error} */ (e).message;
    }
  }, "small");
  box.append(add, " ", block, " ", note);
  return box;
}
