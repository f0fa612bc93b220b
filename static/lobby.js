// @ts-check
// The home page (name, create a room, join by code, public rooms, history link) and the
// room's lobby before the game starts (seats, invite link, host controls, spectators).

import * as api from "./api.js";
import { el } from "./cards.js";
import { TEAM, teamMark } from "./table.js";
import { optionsFields } from "./options.js";

/** Bot level picked per empty seat, kept across redraws of the lobby. @type {Map<number, string>} */
const chosenLevel = new Map();

/** @typedef {import("./types.js").Catalog} Catalog */
/** @typedef {import("./types.js").ClientMessage} ClientMessage */
/** @typedef {import("./types.js").Identity} Identity */
/** @typedef {import("./types.js").Room} Room */
/** @typedef {import("./types.js").You} You */
/**
 * What a page may do: go elsewhere, run something every `ms` while it is shown, draw itself
 * again; `seed` (tests, development) goes with the rooms it creates.
 * @typedef {{navigate: (path: string) => void, every: (ms: number, fn: () => void) => void, refresh: () => void, seed: string | null}} PageCtx
 */

/** @type {Promise<Catalog> | null} */
let metaCache = null;
/** The option catalog (GET /api/options), fetched once. */
export function loadMeta() {
  if (!metaCache) metaCache = api.options().catch((ex) => { metaCache = null; throw ex; });
  return metaCache;
}

/** @param {string} text @param {(() => void) | null} onClick */
function button(text, onClick, cls = "") {
  const b = el("button", cls, text);
  b.type = "button";
  if (onClick) b.addEventListener("click", onClick);
  return b;
}

/** @param {string} id */
function errorLine(id) {
  const p = el("p", "form-error");
  p.id = id;
  p.setAttribute("role", "alert");
  return p;
}

/** "Pick a name" form; calls done(identity) once registered.
 * @param {(me: Identity) => void} done */
export function nameForm(done, intro = "Pick a name to play. No sign-up: it is kept in this browser.") {
  const form = el("form", "name-form card-panel");
  form.append(el("h2", "", "Your name"), el("p", "", intro));
  const label = el("label", "", "Name");
  const input = el("input");
  input.id = "name-input";
  input.name = "name";
  input.maxLength = 24;
  input.required = true;
  input.setAttribute("autocomplete", "nickname");
  label.htmlFor = input.id;
  const go = el("button", "primary", "Continue");
  go.type = "submit";
  const err = errorLine("name-error");
  form.append(label, input, go, err);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = input.value.trim();
    if (!name) { err.textContent = "Please type a name."; return; }
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

/** The home page. @param {PageCtx} ctx */
export function homePage(ctx) {
  const page = el("div", "home");
  const me = api.identity();
  const hero = el("header", "hero");
  hero.append(el("h1", "", "Spite & Malice"), el("p", "tagline", "The patience race for two to six. Empty your pay-off pile first."));
  page.append(hero);
  if (!me) {
    page.append(nameForm(() => ctx.refresh()));
  } else {
    const who = el("p", "whoami");
    who.append("Playing as ", el("strong", "", me.name), " ");
    who.append(button("Change name", () => who.replaceWith(renameForm(me, ctx)), "link"));
    who.append(" · ");
    const hist = el("a", "", "My history");
    hist.href = "/#history";
    const prof = el("a", "", "My profile");
    prof.href = "/#player/" + encodeURIComponent(me.id);
    const acct = el("a", "", me.username ? "Account" : "Claim an account");
    acct.href = "/#account";
    acct.id = "account-link";
    who.append(hist, " · ", prof, " · ", acct);
    page.append(who);
    page.append(quickStart(ctx));
  }
  const links = el("p", "toplinks");
  const board = el("a", "", "Leaderboard");
  board.href = "/#leaderboard";
  links.append(board);
  if (!me) {
    const sign = el("a", "", "Sign in");
    sign.href = "/#account";
    sign.id = "account-link";
    links.append(" · ", sign);
  }
  page.append(links);
  const how = el("p", "how-link");
  const a = el("a", "", "New to the game? How to play");
  a.href = "/#how";
  how.append(a);
  page.append(how);
  const grid = el("div", "home-grid");
  page.append(grid);
  if (me) {
    grid.append(createPanel(ctx));
  }
  grid.append(joinPanel(ctx), publicPanel(ctx));
  return page;
}

/** @param {Identity} me @param {PageCtx} ctx */
function renameForm(me, ctx) {
  const form = el("form", "rename-form");
  const label = el("label", "", "New name ");
  const input = el("input");
  input.id = "rename-input";
  input.maxLength = 24;
  input.required = true;
  input.value = me.name;
  label.htmlFor = input.id;
  const save = el("button", "small primary", "Save");
  save.type = "submit";
  const err = errorLine("rename-error");
  form.append(label, input, " ", save, " ", button("Cancel", () => ctx.refresh(), "small"), err);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      await api.rename(input.value.trim());
      ctx.refresh();
    } catch (ex) {
      err.textContent = ex.message;
    }
  });
  setTimeout(() => input.focus(), 0);
  return form;
}

/** @param {PageCtx} ctx */
function createPanel(ctx) {
  const box = el("section", "card-panel create");
  box.setAttribute("aria-labelledby", "create-title");
  const h = el("h2", "", "New room");
  h.id = "create-title";
  box.append(h);
  const form = el("form", "create-form");
  const slot = el("div", "", "Loading the rules…");
  const err = errorLine("create-error");
  const go = el("button", "primary", "Create room");
  go.type = "submit";
  go.disabled = true;
  form.append(slot, go, err);
  box.append(form);
  /** @type {ReturnType<typeof optionsFields> | null} */
  let fields = null;
  const me = api.identity();
  /** @type {HTMLInputElement | null} */
  let rated = null;
  if (me && me.username) {  // rated rooms are for accounts only
    const box = el("div", "field rated-field");
    const label = el("label", "", "Rated match");
    rated = el("input");
    rated.type = "checkbox";
    rated.id = "rated-input";
    label.htmlFor = rated.id;
    box.append(label, rated, el("p", "help", "Accounts only, no bots: the result changes everyone's rating."));
    form.insertBefore(box, go);
  }
  loadMeta().then((meta) => {
    fields = optionsFields(meta, { preset: "standard" });
    slot.replaceWith(fields.el);
    go.disabled = false;
  }).catch((ex) => { slot.textContent = "Could not load the rules: " + ex.message; });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!fields) return;
    go.disabled = true;
    err.textContent = "";
    try {
      const spec = { ...fields.value(), ...(rated && rated.checked ? { rated: true } : {}) };
      const room = await api.createRoom(ctx.seed ? { ...spec, seed: ctx.seed } : spec);
      ctx.navigate("/r/" + encodeURIComponent(room.code));
    } catch (ex) {
      err.textContent = ex.message;
    } finally {
      go.disabled = false;
    }
  });
  return box;
}

export const QUICK_KEY = "spite.quick";

/** "Play a bot now": a short game against a Normal bot, one click from the home page. The room
 * is created here; the room page sits, adds the bot and starts (sessionStorage marks the room).
 * @param {PageCtx} ctx */
function quickStart(ctx) {
  const box = el("div", "quick-start");
  const go = button("Play a bot now", null, "primary big");
  go.id = "quick-bot";
  const err = errorLine("quick-error");
  box.append(go, el("span", "muted", " A short game (pay-off piles of 13) against a Normal bot."), err);
  go.addEventListener("click", async () => {
    go.disabled = true;
    try {
      /** @type {import("./types.js").ConfigureFields} */
      const spec = { preset: "short", options: {}, seats: 2, turn_seconds: null, hints: true };
      const room = await api.createRoom(ctx.seed ? { ...spec, seed: ctx.seed } : spec);
      sessionStorage.setItem(QUICK_KEY, room.code);
      ctx.navigate("/r/" + encodeURIComponent(room.code));
    } catch (ex) {
      err.textContent = ex.message;
      go.disabled = false;
    }
  });
  return box;
}

/** The How to play page: the rules in a few lines. */
export function howToPlay() {
  const page = el("article", "card-panel how-to");
  page.innerHTML = `<h1>How to play</h1>
<p><b>Aim:</b> be first to play every card of your <em>pay-off pile</em> (only its top card shows).</p>
<ul><li><b>Centre stacks</b>, shared, start with an Ace and climb a rank at a time, any suit, up to
Queen. A finished stack goes back into the stock.</li>
<li><b>Your hand</b> is refilled to five cards at the start of each turn.</li>
<li><b>Side stacks</b>: four discard piles of your own; their top cards can be played.</li></ul>
<h2>A turn</h2>
<ol><li>Play what you can to the centre from your pay-off pile, hand or side stacks. A card with a
gold ring ▲ fits a centre stack now.</li>
<li>Play all five hand cards and you draw five more.</li>
<li>End with a discard from your hand onto a side stack.</li></ol>
<p>A card marked <b>WILD</b> (Kings, and jokers if used) stands for any rank; on a centre stack
<code>=7</code> shows the rank it took.</p>
<p><b>Tip:</b> don't build a centre stack up to just below the next player's pay-off card.</p>
<p>Going out scores 5 plus a point per card left in the others' pay-off piles; a match plays
hands until someone reaches its target. Partners may play from each other's piles.</p>
<p><a href="/">Back to the home page</a></p>`;
  return page;
}

/** @param {PageCtx} ctx */
function joinPanel(ctx) {
  const box = el("section", "card-panel join");
  const form = el("form", "join-form");
  const h = el("h2", "", "Join by code");
  const label = el("label", "", "Room code");
  const input = el("input");
  input.id = "join-code";
  input.autocomplete = "off";
  input.spellcheck = false;
  input.maxLength = 64;
  label.htmlFor = input.id;
  const go = el("button", "", "Join");
  go.type = "submit";
  const err = errorLine("join-error");
  form.append(h, label, input, go, err);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    let code = input.value.trim();
    const m = code.match(/\/r\/([^/?#]+)/); // a whole invite link pasted
    if (m) code = decodeURIComponent(m[1]);
    if (!code) { err.textContent = "Type the code you were given."; return; }
    ctx.navigate("/r/" + encodeURIComponent(code));
  });
  box.append(form);
  return box;
}

/** @param {PageCtx} ctx */
function publicPanel(ctx) {
  const box = el("section", "card-panel public");
  const h = el("h2", "", "Open rooms");
  const list = el("ul", "room-list");
  list.setAttribute("aria-live", "polite");
  const refresh = button("Refresh", () => load(), "small");
  box.append(h, refresh, list);
  const load = async () => {
    try {
      const rooms = (await api.publicRooms()).items;
      list.textContent = "";
      if (!rooms.length) list.append(el("li", "muted", "No public room is waiting. Create one!"));
      for (const r of rooms) {
        const li = el("li");
        const a = el("a", "", `Room ${r.code}`);
        a.href = "/r/" + encodeURIComponent(r.code);
        a.addEventListener("click", (e) => { e.preventDefault(); ctx.navigate(a.getAttribute("href")); });
        const about = [r.preset, `${r.seats_taken}/${r.seat_count} seated`];
        if (r.host_name) about.push("host " + r.host_name);
        li.append(a, " ");
        if (r.rated) li.append(el("span", "badge rated", "rated"), " ");
        li.append(el("span", "muted", about.join(" · ")));
        list.append(li);
      }
    } catch (ex) {
      list.textContent = "";
      list.append(el("li", "form-error", ex.message));
    }
  };
  load();
  ctx.every(10000, load);
  return box;
}

// ---- the room before the game starts -------------------------------------------------------

/**
 * The lobby of `room` for the receiver `you` (from `welcome`); `meta` is null until the option
 * catalog has come.
 * @param {Room} room
 * @param {You} you
 * @param {{send: (msg: ClientMessage) => boolean, meta: Catalog | null}} ctx
 */
export function roomLobby(room, you, ctx) {
  const page = el("div", "lobby");
  const isHost = room.host === you.player_id;
  const seats = room.seats;
  const mySeat = seats.find((s) => s.player_id === you.player_id);

  const h = el("h2", "", `Room ${room.code}`);
  if (room.rated) h.append(" ", el("span", "badge rated", "rated"));
  page.append(h);
  if (room.rated) {
    page.append(el("p", "muted rated-note", "A rated match: only players with an account can sit, no bots, "
      + "and the result changes everyone's rating." + (you.account ? "" : " Claim an account to play here.")));
  }
  const rules = el("p", "muted", `${room.preset.replace(/_/g, " ")} rules · ${room.seat_count} seats`
    + (room.options ? ` · pay-off piles of ${room.options.payoff_size}` : "")
    + (room.options && room.options.match_target ? ` · match to ${room.options.match_target}` : "")
    + (room.turn_seconds ? ` · ${room.turn_seconds}s turn clock` : "")
    + (room.public ? " · public" : " · private"));
  page.append(rules);

  const list = el("ul", "seats");
  list.setAttribute("aria-label", "Seats");
  for (const s of seats) {
    const li = el("li", "seat");
    li.dataset.seat = String(s.seat);
    const label = el("span", "seat-no", `Seat ${s.seat + 1}`);
    li.append(label);
    if (s.team !== null) {
      li.dataset.team = TEAM[s.team];
      li.append(teamMark(s.team));
      const mine = mySeat && mySeat.team;
      if (mySeat && s !== mySeat && s.team === mine) li.append(el("span", "partner-tag", "Partner"));
    }
    if (s.bot) {
      li.append(el("span", "seat-name", s.name), el("span", "badge", `bot · ${s.bot}`));
      if (isHost) li.append(button("Remove bot", () => ctx.send({ type: "remove_bot", seat: s.seat }), "small"));
    } else if (s.player_id !== null) {
      li.append(el("span", "seat-name", s.name + (s === mySeat ? " (you)" : "")));
      li.append(el("span", "conn " + (s.connected ? "on" : "off"), s.connected ? "online" : "away"));
      if (s === mySeat) li.append(button("Stand up", () => ctx.send({ type: "stand" }), "small"));
      else if (isHost && !s.connected) {
        li.append(button("Free seat", () => ctx.send({ type: "free_seat", seat: s.seat }), "small"));
      }
    } else {
      li.append(el("span", "seat-name muted", "empty"));
      if (!mySeat && (!room.rated || you.account)) {
        li.append(button("Sit here", () => ctx.send({ type: "sit", seat: s.seat }), "small primary"));
      }
      if (isHost && ctx.meta && !room.rated) {
        const sel = el("select", "small");
        sel.setAttribute("aria-label", `Bot level for seat ${s.seat + 1}`);
        for (const l of ctx.meta.bot_levels) {
          const o = el("option", "", l);
          o.value = l;
          sel.append(o);
        }
        // The level chosen survives the lobby being drawn again (every room update redraws it).
        const chosen = chosenLevel.get(s.seat) ?? "normal";
        if ([...sel.options].some((o) => o.value === chosen)) sel.value = chosen;
        sel.addEventListener("change", () => chosenLevel.set(s.seat, sel.value));
        li.append(sel, button("Add bot", () => ctx.send({ type: "add_bot", seat: s.seat, level: sel.value }), "small"));
      }
    }
    list.append(li);
  }
  page.append(list);


  if (isHost) {
    const full = room.seats_taken === room.seat_count;
    const start = button("Start the game", () => ctx.send({ type: "start" }), "primary big");
    start.id = "start-button";
    start.disabled = !full;
    page.append(start);
    if (!full) page.append(el("p", "muted", "Fill every seat (invite someone or add bots) to start."));
    if (ctx.meta) {
      const det = el("details", "configure");
      det.append(el("summary", "", "Change the rules"));
      const fields = optionsFields(ctx.meta, { preset: room.preset, options: room.overrides, seats: room.seat_count,
        turn_seconds: room.turn_seconds, public: room.public, hints: room.hints });
      det.append(fields.el, button("Apply", () => ctx.send({ type: "configure", ...fields.value() })));
      page.append(det);
    }
  } else {
    page.append(el("p", "muted", "Waiting for the host to start the game."));
  }
  return page;
}

/** The invite link with a copy button. @param {string} url */
export function inviteBox(url) {
  const box = el("div", "invite");
  const label = el("label", "", "Invite link");
  const input = el("input");
  input.id = "invite-url";
  input.readOnly = true;
  input.value = url;
  label.htmlFor = input.id;
  const status = el("span", "copy-status");
  status.setAttribute("role", "status");
  const copy = button("Copy", async () => {
    try {
      await navigator.clipboard.writeText(url);
      status.textContent = "Copied!";
    } catch {
      input.select();
      status.textContent = "Press Ctrl+C to copy.";
    }
    setTimeout(() => { status.textContent = ""; }, 2500);
  }, "small");
  copy.id = "copy-invite";
  box.append(label, input, copy, status);
  return box;
}
