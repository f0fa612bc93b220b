// @ts-check
// A tournament's page (`/#tournament/{id}`, and `/t/{code}`, its invite link): what it is and how
// it is played, in words; the standings; my next game; each round's tables (Watch), byes and, for
// duplicate deals, the commitment and, once the round is over, the seed; Join, Withdraw (asked
// first) and, for its organiser while it is open, Start. Read again when the lobby socket says
// `standings` for it, and every 15 s while it runs if no such message came (a watcher who is not
// a player gets none).

import * as api from "./api.js";
import { button, el, errorLine } from "./dom.js";
import { list, num, t } from "./i18n.js";
import { loadMeta } from "./lobby.js";
import { onLobby, startLobby } from "./lobbysock.js";
import { nameForm } from "./nameform.js";
import { onLeave } from "./router.js";
import { settings } from "./tournamentsettings.js";

/** GET /api/tournaments/{id} (app/tournaments/shell/plan.py `describe`).
 * @typedef {{player_id: string, name: string}} Seat
 * @typedef {{table: number, room: string | null, seats: Seat[], result: {scores: number[], totals: number[]} | null}} Table
 * @typedef {{round: number, status: string, commitment: string | null, seed: string | null, byes: string[], tables: Table[]}} Round
 * @typedef {{player_id: string, name: string, points: number, tiebreak: number, rank: number, withdrawn: boolean}} Standing
 * @typedef {{id: string, code: string, name: string, format: string, status: string, organiser: Seat,
 *   settings: Record<string, any>, round: number, rounds_total: number | null, starts_at: string | null,
 *   started_at: string | null, ends_at: string | null, finished_at: string | null, players: Standing[],
 *   rounds: Round[]}} Tournament */

/** @typedef {import("./types.js").Catalog} Catalog */

const enc = encodeURIComponent;
/** The tie-break's name by format (docs/protocol.md: Buchholz for Swiss, Sonneborn–Berger for round-robin). */
const TIEBREAK = { swiss: "tn.buchholz", round_robin: "tn.sonneborn_berger", arena: "tn.tiebreak" };

/** The page. `key`: the tournament's id or its code. @param {string} key
 * @param {{every: (ms: number, fn: () => void) => void, refresh: () => void}} ctx */
export function tournamentPage(key, ctx) {
  const page = el("div", "tournament-page");
  const title = el("h1", "", t("tn.title"));
  const err = errorLine("tournament-error");
  const said = el("p", "muted");  // what an action did, read out politely
  said.id = "tournament-said";
  said.setAttribute("role", "status");
  const top = el("div", "tournament-top");  // where it stands, my next game, the buttons: their news under them
  const body = el("div", "tournament-body");
  page.append(title, top, err, said, body);
  const me = api.identity();
  if (!me) page.insertBefore(nameForm(() => ctx.refresh(), () => document.getElementById("join-tournament"),
    t("tn.name_to_join")), top);
  /** @type {Tournament | null} */
  let shown = null;
  /** @type {Catalog | null} */
  let meta = null;
  let heard = Date.now();  // the last `standings` the socket brought
  const catalog = loadMeta().catch(() => /** @type {Catalog | null} */ (null));  // the presets' names

  let asked = 0;  // reads in flight may answer out of order: only the latest one asked is drawn
  const load = async () => {
    const mine = ++asked;
    try {
      const got = /** @type {Tournament} */ (await api.get(`/api/tournaments/${enc(key)}`));
      meta = await catalog;
      if (mine !== asked) return;
      shown = got;
    } catch (e) {
      if (mine === asked) err.textContent = /** @type {Error} */ (e).message;
      return;
    }
    title.textContent = shown.name;
    document.title = `${shown.name} · ${t("app.title")}`;
    const focused = document.activeElement && document.activeElement.id;  // a redraw keeps the focus
    const drawn = draw(shown, me ? me.id : null, act, meta);
    top.replaceChildren(...drawn.top);
    body.replaceChildren(...drawn.rest);
    const again = focused && document.getElementById(focused);
    if (again && again !== document.activeElement) again.focus({ preventScroll: true });
  };
  /** Do `what` (a REST call), then say `done` and read the tournament again.
   * @param {() => Promise<unknown>} what @param {string} done */
  const act = async (what, done) => {
    err.textContent = said.textContent = "";
    try {
      await what();
      said.textContent = done;
    } catch (e) {
      err.textContent = /** @type {Error} */ (e).message;
    }
    await load();
  };
  if (me) startLobby();
  for (const type of ["standings", "tournament"]) {  // the standings changed; a table of mine is ready
    onLeave(onLobby(type, (m) => {
      if (shown && m.id === shown.id) { heard = Date.now(); void load(); }
    }));
  }
  ctx.every(2000, () => {  // while a round's tables are being set, every 2 s; else every 15 s without news
    if (!shown || shown.status !== "running") return;
    if (Date.now() - heard >= (setting(shown) ? 2000 : 15000)) { heard = Date.now(); void load(); }
  });
  void load();
  return page;
}

/** Whether the latest round's tables are still being set (a table without its room yet), or
 * none is paired yet. @param {Tournament} tn */
const setting = (tn) => tn.format !== "arena"
  && (!tn.rounds.length || tn.rounds[tn.rounds.length - 1].tables.some((tb) => !tb.room && !tb.result));

/** @typedef {(what: () => Promise<unknown>, done: string) => Promise<void>} Act */

/** The page's sections for `tn`, seen by player `me`. @param {Tournament} tn @param {string | null} me @param {Act} act
 * @param {Catalog | null} meta */
function draw(tn, me, act, meta) {
  const top = [];
  const head = el("p", "tournament-head");
  head.append(el("span", `badge ${tn.status}`, t(`tn.status_${tn.status}`)), " ",
    el("span", "", t(`tn.format_${tn.format}`)));
  if (tn.status === "running" && tn.format !== "arena" && tn.rounds_total) {
    head.append(" · ", t("tn.round_of", { n: tn.round, of: tn.rounds_total }));
  }
  top.push(head);
  const next = myTable(tn, me);
  if (next) top.push(next);
  top.push(actions(tn, me, act));
  return { top, rest: [invite(tn), settings(tn, meta), standings(tn, me), rounds(tn, me)] };
}

/** My unfinished table, a link to it; null when I have none. @param {Tournament} tn @param {string | null} me */
function myTable(tn, me) {
  if (!me) return null;
  for (const r of [...tn.rounds].reverse()) {
    const tb = r.tables.find((x) => !x.result && x.room && x.seats.some((s) => s.player_id === me));
    if (!tb || !tb.room) continue;
    const box = el("section", "card-panel my-next");
    box.append(el("h2", "", t("tn.my_next")));
    const others = tb.seats.filter((s) => s.player_id !== me).map((s) => s.name);
    const a = el("a", "button primary", t("tn.go_to_table", { round: r.round, names: list(others) }));
    a.href = "/r/" + enc(tb.room);
    a.id = "my-table";
    box.append(a);
    return box;
  }
  return null;
}

/** Join, Withdraw (asked first), Start (the organiser, while open). @param {Tournament} tn
 * @param {string | null} me @param {Act} act */
function actions(tn, me, act) {
  const box = el("div", "tournament-actions");
  if (!me || tn.status === "over") return box;
  const mine = tn.players.find((p) => p.player_id === me);
  const path = `/api/tournaments/${enc(tn.id)}`;
  if (!mine) {
    const join = button(t("tn.join"), () => act(() => api.post(`${path}/players`), t("tn.joined")), "primary");
    join.id = "join-tournament";
    box.append(join);
  } else if (!mine.withdrawn) {
    const ask = el("div", "confirm-withdraw");
    ask.hidden = true;
    ask.setAttribute("role", "group");
    ask.setAttribute("aria-labelledby", "withdraw-question");
    const q = el("p", "", t(tn.status === "running" ? "tn.withdraw_running" : "tn.withdraw_open", { name: tn.name }));
    q.id = "withdraw-question";
    const withdraw = button(t("tn.withdraw"), () => { ask.hidden = false; withdraw.hidden = true; yes.focus(); });
    withdraw.id = "withdraw-tournament";
    const yes = button(t("tn.withdraw_yes"), () => act(() => api.request("DELETE", `${path}/players/me`),
      t("tn.withdrawn_done")), "danger");
    yes.id = "withdraw-yes";
    const no = button(t("tn.withdraw_no"), () => { ask.hidden = true; withdraw.hidden = false; withdraw.focus(); });
    ask.append(q, yes, " ", no);
    box.append(withdraw, ask);
  }
  if (tn.organiser.player_id === me && tn.status === "open") {
    const start = button(t("tn.start"), () => act(() => api.post(`${path}/start`), t("tn.started_done")), "primary");
    start.id = "start-tournament";
    box.append(" ", start);
  }
  return box;
}

/** The invite link, to copy. @param {Tournament} tn */
function invite(tn) {
  const box = el("div", "field tournament-invite");
  if (tn.status === "over") return box;
  const url = `${location.origin}/t/${enc(tn.code)}`;
  const input = el("input");
  input.id = "tournament-invite";
  input.readOnly = true;
  input.value = url;
  const label = el("label", "", t("tn.invite"));
  label.htmlFor = input.id;
  const copied = el("span", "muted small");
  copied.setAttribute("role", "status");
  const copy = button(t("tn.copy"), async () => {
    try {
      await navigator.clipboard.writeText(url);
      copied.textContent = t("tn.copied");
    } catch {
      input.select();
      copied.textContent = t("tn.copy_by_hand");
    }
  }, "small");
  copy.id = "copy-tournament-invite";
  const row = el("div", "invite-row");
  row.append(input, copy, copied);
  box.append(label, row);
  return box;
}

/** The standings: a table with its caption. @param {Tournament} tn @param {string | null} me */
function standings(tn, me) {
  const box = el("section", "card-panel");
  const table = el("table", "results-table standings");
  table.id = "standings";
  const played = tn.rounds.filter((r) => r.status === "over").length;
  const cap = tn.status === "open" ? t("tn.entrants") : tn.status === "over" ? t("tn.final_standings")
    : played && tn.format !== "arena" ? t("tn.standings_after", { n: played }) : t("tn.standings");
  table.append(el("caption", "", cap));
  const open = tn.status === "open";  // before the first round: who entered, nothing to rank yet
  const head = el("tr");
  const cols = open ? ["tn.player"]
    : ["tn.rank", "tn.player", "tn.points", TIEBREAK[/** @type {keyof TIEBREAK} */ (tn.format)] || "tn.tiebreak"];
  for (const k of cols) {
    const th = el("th", "", t(k));
    th.scope = "col";
    head.append(th);
  }
  const thead = el("thead");
  thead.append(head);
  const tbody = el("tbody");
  for (const p of tn.players) {
    const tr = el("tr", p.withdrawn ? "withdrawn" : "");
    if (p.player_id === me) tr.classList.add("me");
    const name = el("th");
    name.scope = "row";
    const a = el("a", "", p.name);
    a.href = "/#player/" + enc(p.player_id);
    name.append(a);
    if (p.player_id === me) name.append(" ", el("span", "badge", t("tn.you")));
    if (p.withdrawn) name.append(" ", el("span", "badge withdrawn", t("tn.withdrawn")));
    if (open) tr.append(name);
    else tr.append(el("td", "", num(p.rank)), name, el("td", "", num(p.points)), el("td", "", num(p.tiebreak)));
    tbody.append(tr);
  }
  table.append(thead, tbody);
  if (tn.players.length) box.append(table);
  else box.append(el("h2", "standings-title", cap), el("p", "muted", t("tn.nobody_yet")));
  return box;
}

/** The rounds, latest first: tables (players, result, Watch), byes, the duplicate commitment and seed.
 * @param {Tournament} tn @param {string | null} me */
function rounds(tn, me) {
  const box = el("section", "tournament-rounds");
  if (!tn.rounds.length) return box;
  box.append(el("h2", "", t("tn.rounds")));
  const names = new Map(tn.players.map((p) => [p.player_id, p.name]));
  for (const r of [...tn.rounds].reverse()) {
    const sec = el("section", "card-panel round");
    sec.dataset.round = String(r.round);
    const h = el("h3", "", t("tn.round_n", { n: r.round }));
    h.append(" ", el("span", `badge ${r.status}`, t(r.status === "over" ? "tn.round_over" : "tn.round_playing")));
    sec.append(h);
    const ol = el("ol", "round-tables");
    for (const tb of r.tables) ol.append(tableItem(tb, me));
    sec.append(ol);
    if (r.byes.length) sec.append(el("p", "byes", t("tn.byes", { names: list(r.byes.map((id) => names.get(id) || id)) })));
    if (r.commitment) {
      const c = el("p", "muted small commitment");
      c.append(t("tn.commitment") + " ", el("code", "", r.commitment));
      sec.append(c);
      const seed = el("p", "muted small seed");
      if (r.seed) seed.append(t("tn.seed") + " ", el("code", "", r.seed));
      else seed.textContent = t("tn.seed_later");
      sec.append(seed);
    }
    box.append(sec);
  }
  return box;
}

/** One table: who plays, the result once over, the way to it. @param {Table} tb @param {string | null} me */
function tableItem(tb, me) {
  const li = el("li", "round-table");
  const who = tb.seats.map((s) => s.name);
  li.append(el("span", "who", who.join(` ${t("rp.vs")} `)));
  if (tb.result) {
    const res = tb.result;
    const line = list(tb.seats.map((s, i) => `${s.name} ${num(res.scores[i] ?? 0)}`));
    li.append(" ", el("span", "result", t("tn.result", { list: line })));
    if (res.totals && res.totals.length) {
      li.append(" ", el("span", "muted small", t("tn.match_points", { list: res.totals.map((x) => num(x)).join(" – ") })));
    }
  } else li.append(" ", el("span", "badge playing", t("tn.playing")));
  if (tb.room) {
    const mine = me && tb.seats.some((s) => s.player_id === me);
    const a = el("a", "watch", t(mine && !tb.result ? "tn.your_table" : "tn.watch"));
    a.href = "/r/" + enc(tb.room);
    a.setAttribute("aria-label", t(mine && !tb.result ? "tn.your_table_label" : "tn.watch_label", { names: list(who) }));
    li.append(" ", a);
  }
  return li;
}
