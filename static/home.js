// @ts-check
// The home page (name, Play a bot now, create a room, join by code, public rooms, links to
// history, profile, account and the leaderboard).

import * as api from "./api.js";
import { button, el, errorLine } from "./dom.js";
import { countTitle, gamesList } from "./games.js";
import { nameForm } from "./nameform.js";
import { more, picker, t } from "./i18n.js";
import { loadMeta, optionsFields, presetName } from "./lobby.js";
import { quickStart } from "./quick.js";

await more("home"); // the home page's words (fetched beside the catalogue when landing here)

/** @typedef {import("./types.js").Identity} Identity */
/**
 * What a page may do: go elsewhere, run something every `ms` while it is shown, draw itself
 * again; `seed` (tests, development) goes with the rooms it creates.
 * @typedef {{navigate: (path: string) => void, every: (ms: number, fn: () => void) => void, refresh: () => void, seed: string | null}} PageCtx
 */

/** The home page. @param {PageCtx} ctx */
export function homePage(ctx) {
  const page = el("div", "home");
  const me = api.identity();
  const hero = el("header", "hero");
  hero.append(el("h1", "", t("app.title")), el("p", "tagline", t("hm.tagline")), picker(api.setLang));
  page.append(hero);
  if (!me) {
    page.append(nameForm(() => ctx.refresh(), () => document.getElementById("quick-bot")));
  } else {
    const who = el("p", "whoami");
    who.append(t("hm.playing_as") + " ", el("strong", "", me.name), " ");
    who.append(button(t("hm.change_name"), () => who.replaceWith(renameForm(me, ctx)), "link"));
    who.append(" · ");
    const hist = el("a", "", t("hm.history"));
    hist.href = "/#history";
    const prof = el("a", "", t("hm.profile"));
    prof.href = "/#player/" + encodeURIComponent(me.id);
    const acct = el("a", "", t(me.username ? "hm.account" : "hm.claim"));
    acct.href = "/#account";
    acct.id = "account-link";
    const games = el("a", "", t("mn.games"));
    games.href = "/#games";
    who.append(games, " · ", hist, " · ", prof, " · ", acct);
    for (const a of who.querySelectorAll("a, button")) /** @type {HTMLElement} */ (a).style.whiteSpace = "nowrap"; // a link never breaks across lines
    page.append(who);
    const learn = el("div", "learn-slot");  // Learn to play first, until done or dismissed (learn.js)
    page.append(learn);
    import("./learn.js").then((m) => learn.replaceWith(m.learnCard()), () => learn.remove());
    page.append(gamesList(ctx, { onCount: (n) => countTitle(n) }));  // first, when there are any
    page.append(quickStart(ctx));
    const finding = el("div", "finding-slot");  // quick match, daily deal, friends (loaded after)
    page.append(finding);
    const cards = import("./finding.js");
    cards.then((m) => finding.replaceWith(m.findingCards(ctx)), () => {});
  }
  const links = el("p", "toplinks");
  const board = el("a", "", t("hm.leaderboard"));
  board.href = "/#leaderboard";
  const cups = el("a", "", t("hm.tournaments"));
  cups.href = "/#tournaments";
  links.append(board, " · ", cups);
  if (!me) {
    const sign = el("a", "", t("hm.sign_in"));
    sign.href = "/#account";
    sign.id = "account-link";
    links.append(" · ", sign);
  }
  page.append(links);
  const how = el("p", "how-link");
  const a = el("a", "", t("hm.how_link"));
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
  const label = el("label", "", t("hm.new_name") + " ");
  const input = el("input");
  input.id = "rename-input";
  input.maxLength = 24;
  input.required = true;
  input.value = me.name;
  label.htmlFor = input.id;
  const save = el("button", "small primary", t("hm.save"));
  save.type = "submit";
  const err = errorLine("rename-error");
  form.append(label, input, " ", save, " ", button(t("hm.cancel"), () => ctx.refresh(), "small"), err);
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
  const h = el("h2", "", t("hm.new_room"));
  h.id = "create-title";
  box.append(h);
  const form = el("form", "create-form");
  const slot = el("div", "", t("hm.loading"));
  const err = errorLine("create-error");
  const go = el("button", "primary", t("hm.create"));
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
    const label = el("label", "", t("hm.rated"));
    rated = el("input");
    rated.type = "checkbox";
    rated.id = "rated-input";
    label.htmlFor = rated.id;
    box.append(label, rated, el("p", "help", t("hm.rated_help")));
    form.insertBefore(box, go);
  }
  const pace = paceField();
  form.insertBefore(pace.el, go);
  loadMeta().then((meta) => {
    pace.bounds(meta.turn_based_seconds);
    fields = optionsFields(meta, { preset: "standard" }, { rated: !!(rated && rated.checked) });
    if (rated) rated.addEventListener("change", () => fields.setRated(rated.checked));
    slot.replaceWith(fields.el);
    go.disabled = false;
  }).catch((ex) => { slot.textContent = t("hm.rules_failed", { text: ex.message }); });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!fields) return;
    go.disabled = true;
    err.textContent = "";
    try {
      // The host sits at once (`sit`, docs/protocol.md); a guest cannot sit in a rated room.
      const spec = { ...fields.value(), sit: true, ...(rated && rated.checked ? { rated: true } : {}), ...pace.value() };
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

/** The times per turn offered, in seconds, and how each is said. */
const TURNS = [[3600, "pc.hours", 1], [43200, "pc.hours", 12], [86400, "pc.days", 1], [259200, "pc.days", 3],
  [604800, "pc.weeks", 1], [1209600, "pc.weeks", 2]];

/** Live or turn-based, and a turn-based room's time per turn. */
function paceField() {
  const box = el("fieldset", "field pace-field");
  box.append(el("legend", "", t("pc.pace")));
  const pick = el("select");
  pick.id = "pace-input";
  for (const v of ["live", "turn_based"]) {
    const o = el("option", "", t(`pc.${v}`));
    o.value = v;
    pick.append(o);
  }
  const label = el("label", "", t("pc.how") + " ");
  label.htmlFor = pick.id;
  const turn = el("select");
  turn.id = "turn-length";
  const turnLabel = el("label", "", t("pc.turn") + " ");
  turnLabel.htmlFor = turn.id;
  const more = el("div", "turn-based-only");
  more.append(turnLabel, turn, el("p", "help", t("pc.help")));
  const fill = (min = 3600, max = 1209600, dflt = 86400) => {
    turn.textContent = "";
    for (const [v, key, n] of TURNS) {
      if (Number(v) < min || Number(v) > max) continue;
      const o = el("option", "", t(String(key), { n }));
      o.value = String(v);
      turn.append(o);
    }
    turn.value = String(dflt);
  };
  fill();
  const show = () => { more.hidden = pick.value !== "turn_based"; };
  pick.addEventListener("change", show);
  show();
  box.append(label, pick, more);
  return {
    el: box,
    /** @param {{min: number, max: number, default: number | null} | null | undefined} b */
    bounds: (b) => { if (b) fill(b.min, b.max, b.default ?? 86400); },
    /** @returns {{pace?: "turn_based", turn_seconds?: number}} */
    value: () => (pick.value === "turn_based" ? { pace: "turn_based", turn_seconds: Number(turn.value) } : {}),
  };
}

/** @param {PageCtx} ctx */
function joinPanel(ctx) {
  const box = el("section", "card-panel join");
  const form = el("form", "join-form");
  const h = el("h2", "", t("hm.join_title"));
  const label = el("label", "", t("hm.code"));
  const input = el("input");
  input.id = "join-code";
  input.autocomplete = "off";
  input.spellcheck = false;
  input.maxLength = 64;
  label.htmlFor = input.id;
  const go = el("button", "", t("hm.join"));
  go.type = "submit";
  const err = errorLine("join-error");
  form.append(h, label, input, go, err);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    let code = input.value.trim();
    const m = code.match(/\/r\/([^/?#]+)/); // a whole invite link pasted
    if (m) code = decodeURIComponent(m[1]);
    if (!code) { err.textContent = t("hm.type_code"); return; }
    ctx.navigate("/r/" + encodeURIComponent(code));
  });
  box.append(form);
  return box;
}

/** @param {PageCtx} ctx */
function publicPanel(ctx) {
  const box = el("section", "card-panel public");
  const h = el("h2", "", t("hm.open_rooms"));
  const list = el("ul", "room-list");
  list.setAttribute("aria-live", "polite");
  const refresh = button(t("hm.refresh"), () => load(), "small");
  box.append(h, refresh, list);
  const load = async () => {
    try {
      const [found, meta] = await Promise.all([api.publicRooms(), loadMeta().catch(() => /** @type {null} */ (null))]);
      const rooms = found.items;
      list.textContent = "";
      if (!rooms.length) list.append(el("li", "muted", t("hm.none_open")));
      for (const r of rooms) {
        const li = el("li");
        const a = el("a", "", t("ch.room", { code: r.code }));
        a.href = "/r/" + encodeURIComponent(r.code);
        a.addEventListener("click", (e) => { e.preventDefault(); ctx.navigate(a.getAttribute("href")); });
        const about = [presetName(meta, r.preset), t("hm.seated", { n: r.seats_taken, of: r.seat_count })];
        if (r.host_name) about.push(t("hm.host", { name: r.host_name }));
        li.append(a, " ");
        if (r.rated) li.append(el("span", "badge rated", t("lb.rated")), " ");
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
