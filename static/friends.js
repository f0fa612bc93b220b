// @ts-check
// The Friends page (/#friends): invitations to you (Join, Decline), friends (online, the room
// they are in when you may join it, Remove, Block), requests to you (Accept, Decline), your
// requests, adding a friend by a profile link or player id, and the players you blocked
// (private; Unblock). Kept live by the lobby socket.

import * as api from "./api.js";
import { button, el, errorLine } from "./dom.js";
import { more, t } from "./i18n.js";
import { onLobby, startLobby } from "./lobbysock.js";

await more(); // the page's words are in the later part of the catalogue

/** @typedef {{player_id: string, name: string, status: string, online: boolean, room: string | null}} Friend */

/** @param {string} id */
const enc = (id) => encodeURIComponent(id);

/** The Friends page. @param {{every: (ms: number, fn: () => void) => void}} ctx */
export function friendsPage(ctx) {
  startLobby();
  const page = el("div", "friends-page");
  const h = el("h1", "", t("mn.friends"));
  page.append(h);
  if (!api.identity()) {
    page.append(el("p", "", t("fa.no_name")));
    return page;
  }
  const invites = el("section", "card-panel");
  invites.id = "invitations";
  const list = el("section", "card-panel");
  list.id = "friends";
  const add = addForm(() => void draw());
  const blocked = el("section", "card-panel");
  blocked.id = "blocked";
  const err = errorLine("friends-error");
  page.append(invites, list, quietChoice(err), add, blocked, err);

  /** @param {() => Promise<unknown>} act */
  const doing = (act) => async () => {
    err.textContent = "";
    try { await act(); } catch (e) { err.textContent = /** @type {Error} */ (e).message; }
    await draw();
  };

  async function draw() {
    let friends, inv, blocks;
    try {
      [friends, inv, blocks] = /** @type {[{items: Friend[]}, {items: any[]}, {items: any[]}]} */ (await Promise.all([
        api.get("/api/players/me/friends"), api.get("/api/players/me/invitations"), api.get("/api/players/me/blocks")]));
    } catch (e) {
      err.textContent = /** @type {Error} */ (e).message;
      return;
    }
    invites.textContent = "";
    invites.append(el("h2", "", t("fa.invitations")));
    if (!inv.items.length) invites.append(el("p", "muted", t("fa.no_invitations")));
    for (const i of inv.items) {
      const row = el("div", "friend-row");
      row.append(el("span", "name", t("fa.invites_you", { name: i.from.name, room: i.room })),
        button(t("fa.join"), doing(async () => {
          const out = /** @type {{room: string}} */ (await api.post(`/api/invitations/${enc(i.id)}/accept`));
          location.assign("/r/" + enc(out.room));
        }), "small primary"),
        button(t("fa.decline"), doing(() => api.post(`/api/invitations/${enc(i.id)}/decline`)), "small"));
      invites.append(row);
    }
    list.textContent = "";
    list.append(el("h2", "", t("fa.your_friends")));
    for (const status of ["friends", "incoming", "requested"]) {
      const rows = friends.items.filter((f) => f.status === status);
      if (!rows.length) continue;
      list.append(el("h3", "", t(`fa.group_${status}`)));
      const ul = el("ul", "friend-list");
      for (const f of rows) ul.append(friendRow(f, doing));
      list.append(ul);
    }
    if (!friends.items.length) list.append(el("p", "muted", t("fa.no_friends")));
    blocked.textContent = "";
    blocked.append(el("h2", "", t("fa.blocked")), el("p", "muted small", t("fa.blocked_about")));
    for (const b of blocks.items) {
      const row = el("div", "friend-row");
      row.append(el("span", "name", b.name), button(t("fa.unblock"), doing(() => api.request("DELETE",
        `/api/players/me/blocks/${enc(b.player_id)}`)), "small"));
      blocked.append(row);
    }
  }
  for (const type of ["friend", "friend_request", "friend_requests", "invitation", "invitation_closed"]) {
    onLobby(type, () => void draw());
  }
  ctx.every(30000, () => void draw());
  void draw();
  return page;
}

/** "Friend requests arrive quietly" (protocol.md, `quiet_requests`): kept with the player.
 * @param {HTMLElement} err */
function quietChoice(err) {
  const box = el("input");
  box.type = "checkbox";
  box.id = "quiet-requests";
  box.disabled = true;
  const label = el("label", "check quiet-requests");
  label.append(box, " ", t("fa.quiet_requests"));
  api.get("/api/players/me").then((me) => {
    box.checked = Boolean(/** @type {{quiet_requests?: boolean}} */ (me).quiet_requests);
    box.disabled = false;
  }).catch((e) => { err.textContent = e.message; });
  box.addEventListener("change", async () => {
    box.disabled = true;
    try {
      await api.request("PATCH", "/api/players/me", { quiet_requests: box.checked });
    } catch (e) {
      box.checked = !box.checked;
      err.textContent = /** @type {Error} */ (e).message;
    }
    box.disabled = false;
  });
  const p = el("p", "card-panel");
  p.append(label);
  return p;
}

/** @param {Friend} f @param {(act: () => Promise<unknown>) => () => Promise<void>} doing */
function friendRow(f, doing) {
  const li = el("li", "friend-row");
  li.dataset.player = f.player_id;
  const name = el("a", "name", f.name);
  name.href = "/#player/" + enc(f.player_id);
  li.append(name);
  if (f.status === "friends") {
    li.append(el("span", "conn " + (f.online ? "on" : "off"), t(f.online ? "tb.online" : "iv.offline")));
    if (f.room) {
      const join = el("a", "button small", t("fa.join_room", { room: f.room }));
      join.href = "/r/" + enc(f.room);
      li.append(join);
    }
  }
  if (f.status === "incoming") {
    li.append(button(t("fa.accept"), doing(() => api.request("PUT", `/api/players/me/friends/${enc(f.player_id)}`)),
      "small primary"));
  }
  const remove = f.status === "friends" ? "fa.remove" : f.status === "incoming" ? "fa.decline" : "fa.withdraw";
  li.append(button(t(remove), doing(() => api.request("DELETE", `/api/players/me/friends/${enc(f.player_id)}`)), "small"));
  li.append(button(t("iv.block"), doing(() => api.request("PUT", `/api/players/me/blocks/${enc(f.player_id)}`)), "small"));
  return li;
}

/** Add a friend by a profile link (/#player/{id}) or a player id. @param {() => void} done */
function addForm(done) {
  const form = el("form", "card-panel add-friend");
  form.append(el("h2", "", t("fa.add")));
  const label = el("label", "", t("fa.add_label"));
  const input = el("input");
  input.id = "friend-id";
  input.required = true;
  input.maxLength = 300;
  label.htmlFor = input.id;
  const go = el("button", "primary", t("fa.send"));
  go.type = "submit";
  const err = errorLine("add-friend-error");
  const said = el("p", "muted");  // what the request did, in the server's answer's words
  said.id = "add-friend-done";
  said.setAttribute("role", "status");
  form.append(label, input, go, err, said);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const text = input.value.trim();
    const id = decodeURIComponent((text.match(/player\/([^/?#\s]+)/) || [null, text])[1] || "");
    err.textContent = said.textContent = "";
    try {
      const { befriend } = await import("./invite.js");
      said.textContent = await befriend(id, id);
      input.value = "";
      done();
    } catch (ex) {
      err.textContent = /** @type {Error} */ (ex).message;
    }
  });
  return form;
}
