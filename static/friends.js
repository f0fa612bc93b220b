// @ts-check
// The Friends page (/#friends): invitations to you (Join, Decline), friends (online, the room
// they are in when you may join it, Remove, Block), requests to you (Accept, Decline), your
// requests, adding a friend by a profile link or player id, and the players you blocked
// (private; Unblock). Kept live by the lobby socket. Also the daily deal's results (/#daily/{date}).

import * as api from "./api.js";
import { button, el, errorLine } from "./dom.js";
import { onLobby, startLobby } from "./lobbysock.js";

/** @typedef {{player_id: string, name: string, status: string, online: boolean, room: string | null}} Friend */

/** @param {string} id */
const enc = (id) => encodeURIComponent(id);

/** The Friends page. @param {{every: (ms: number, fn: () => void) => void}} ctx */
export function friendsPage(ctx) {
  startLobby();
  const page = el("div", "friends-page");
  const h = el("h1", "", "Friends");
  page.append(h);
  if (!api.identity()) {
    page.append(el("p", "", "Pick a name on the home page first."));
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
  page.append(invites, list, add, blocked, err);

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
    invites.append(el("h2", "", "Invitations"));
    if (!inv.items.length) invites.append(el("p", "muted", "No invitations just now."));
    for (const i of inv.items) {
      const row = el("div", "friend-row");
      row.append(el("span", "name", `${i.from.name} invites you to room ${i.room}`),
        button("Join", doing(async () => {
          const out = /** @type {{room: string}} */ (await api.post(`/api/invitations/${enc(i.id)}/accept`));
          location.assign("/r/" + enc(out.room));
        }), "small primary"),
        button("Decline", doing(() => api.post(`/api/invitations/${enc(i.id)}/decline`)), "small"));
      invites.append(row);
    }
    list.textContent = "";
    list.append(el("h2", "", "Your friends"));
    const groups = [["friends", "Friends"], ["incoming", "Asking to be your friend"], ["requested", "You asked"]];
    for (const [status, label] of groups) {
      const rows = friends.items.filter((f) => f.status === status);
      if (!rows.length) continue;
      list.append(el("h3", "", label));
      const ul = el("ul", "friend-list");
      for (const f of rows) ul.append(friendRow(f, doing));
      list.append(ul);
    }
    if (!friends.items.length) list.append(el("p", "muted", "No friends yet: add one below, or from a player's profile."));
    blocked.textContent = "";
    blocked.append(el("h2", "", "Blocked"), el("p", "muted small",
      "Only you see this list. A blocked player cannot sit at your table, invite you or be matched with you, "
      + "and you do not see their chat."));
    for (const b of blocks.items) {
      const row = el("div", "friend-row");
      row.append(el("span", "name", b.name), button("Unblock", doing(() => api.request("DELETE",
        `/api/players/me/blocks/${enc(b.player_id)}`)), "small"));
      blocked.append(row);
    }
  }
  for (const type of ["friend", "friend_request", "invitation", "invitation_closed"]) onLobby(type, () => void draw());
  ctx.every(30000, () => void draw());
  void draw();
  return page;
}

/** @param {Friend} f @param {(act: () => Promise<unknown>) => () => Promise<void>} doing */
function friendRow(f, doing) {
  const li = el("li", "friend-row");
  li.dataset.player = f.player_id;
  const name = el("a", "name", f.name);
  name.href = "/#player/" + enc(f.player_id);
  li.append(name);
  if (f.status === "friends") {
    li.append(el("span", "conn " + (f.online ? "on" : "off"), f.online ? "online" : "offline"));
    if (f.room) {
      const join = el("a", "button small", "Join room " + f.room);
      join.href = "/r/" + enc(f.room);
      li.append(join);
    }
  }
  if (f.status === "incoming") {
    li.append(button("Accept", doing(() => api.request("PUT", `/api/players/me/friends/${enc(f.player_id)}`)),
      "small primary"));
  }
  const remove = f.status === "friends" ? "Remove" : f.status === "incoming" ? "Decline" : "Withdraw";
  li.append(button(remove, doing(() => api.request("DELETE", `/api/players/me/friends/${enc(f.player_id)}`)), "small"));
  li.append(button("Block", doing(() => api.request("PUT", `/api/players/me/blocks/${enc(f.player_id)}`)), "small"));
  return li;
}

/** Add a friend by a profile link (/#player/{id}) or a player id. @param {() => void} done */
function addForm(done) {
  const form = el("form", "card-panel add-friend");
  form.append(el("h2", "", "Add a friend"));
  const label = el("label", "", "Profile link or player id");
  const input = el("input");
  input.id = "friend-id";
  input.required = true;
  input.maxLength = 300;
  label.htmlFor = input.id;
  const go = el("button", "primary", "Send request");
  go.type = "submit";
  const err = errorLine("add-friend-error");
  form.append(label, input, go, err);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const text = input.value.trim();
    const id = decodeURIComponent((text.match(/player\/([^/?#\s]+)/) || [null, text])[1] || "");
    err.textContent = "";
    try {
      await api.request("PUT", `/api/players/me/friends/${enc(id)}`);
      input.value = "";
      done();
    } catch (ex) {
      err.textContent = /** @type {Error} */ (ex).message;
    }
  });
  return form;
}

/** The daily deal's results of `day`. @param {string} day */
export function dailyResultsPage(day) {
  const page = el("div", "daily-page");
  page.append(el("h1", "", `Daily deal · ${day}`));
  const body = el("div", "card-panel");
  page.append(body);
  api.get(`/api/daily/${enc(day)}/results`).then((r) => {
    const res = /** @type {any} */ (r);
    body.append(el("p", "muted small", `Commitment ${res.commitment}`));
    body.append(el("p", "small", res.seed ? `Seed ${res.seed} (check: its SHA-256 is the commitment)`
      : "The seed is shown once the day is over (UTC)."));
    if (!res.items.length) body.append(el("p", "muted", "Nobody has finished this deal yet."));
    else {
      const table = el("table", "results-table");
      const head = el("tr");
      for (const t of ["#", "Player", "Result", "Pay-off left", "Moves"]) head.append(el("th", "", t));
      table.append(head);
      for (const i of res.items) {
        const tr = el("tr");
        for (const t of [String(i.rank), i.name, i.won ? "won" : "lost", String(i.payoff_left), String(i.moves)]) {
          tr.append(el("td", "", t));
        }
        table.append(tr);
      }
      body.append(table);
    }
  }).catch((e) => body.append(el("p", "error", e.message)));
  return page;
}
