// @ts-check
// "Your games": every room you sit in that is not over (GET /api/players/me/games), yours to
// move first. The home page shows it first when there are any; /#games is the page of its own.
// The tab title counts the games waiting for your move.

import * as api from "./api.js";
import { button, el } from "./dom.js";
import { currentLang, list, more, t } from "./i18n.js";
import { leftText } from "./spans.js";

await more("home"); // the list's words are the home page's

/** "5 minutes ago", "yesterday". @param {number} n @param {Intl.RelativeTimeFormatUnit} unit */
const relative = (n, unit) => new Intl.RelativeTimeFormat(currentLang(), { numeric: "auto" }).format(n, unit);

/** @typedef {import("./types.js").GameItem} GameItem */
/** @typedef {import("./types.js").GameList} GameList */
/** @typedef {import("./home.js").PageCtx} PageCtx */

/** "(2) Spite & Malice" while two games wait for your move. @param {number} n @param {string} [title] */
export function countTitle(n, title = t("app.title")) {
  document.title = (n > 0 ? `(${n}) ` : "") + title;
}

/** "3 h 20 min", "1 day 23 h", "about a minute" from now. @param {string | null} iso */
export function timeLeft(iso) {
  if (!iso) return "";
  const s = Math.max(0, (Date.parse(iso) - Date.now()) / 1000);
  return s < 90 ? t("gm.a_minute") : leftText(s);
}

/** "5 min ago", "yesterday". @param {string | null} iso */
function ago(iso) {
  if (!iso) return "";
  const s = Math.max(0, (Date.now() - Date.parse(iso)) / 1000);
  if (s < 90) return relative(0, "second");
  if (s < 3600) return relative(-Math.round(s / 60), "minute");
  if (s < 86400) return relative(-Math.round(s / 3600), "hour");
  return relative(-Math.round(s / 86400), "day");
}

/** One row: opponents, whose turn, time left, last move, a link. @param {GameItem} g @param {PageCtx} ctx */
function row(g, ctx) {
  const li = el("li", "game-row" + (g.your_turn ? " your-turn" : ""));
  li.dataset.code = g.code;
  // who else sits there: a free seat of a waiting room is nobody to play against (it is said as a
  // count), and a partner plays with you, not against you
  const team = g.seats.find((s) => s.seat === g.you)?.team ?? null;
  const named = (/** @type {import("./types.js").GameSeat} */ s) => (s.bot ? t("gm.bot", { name: s.name }) : s.name);
  const others = g.seats.filter((s) => s.seat !== g.you && s.name);
  const partners = others.filter((s) => team !== null && s.team === team).map(named);
  const rivals = others.filter((s) => team === null || s.team !== team).map(named);
  const free = g.seats.filter((s) => !s.name).length;
  const vs = rivals.length ? t("gm.versus", { names: list(rivals) }) : t("ch.room", { code: g.code });
  const a = el("a", "game-link", partners.length ? t("gm.with", { names: list(partners), versus: vs }) : vs);
  a.href = g.url;
  a.addEventListener("click", (e) => { e.preventDefault(); ctx.navigate(g.url); });
  let whose;
  if (g.status === "waiting") whose = free ? t("gm.waiting_for", { n: free }) : t("gm.all_seated");
  else if (g.status !== "playing") whose = t("gm.between");
  else if (g.your_turn) whose = t("sg.your_turn");
  else whose = t("gm.their_turn", { name: g.seats.find((s) => s.seat === g.turn_seat)?.name || t("gm.someone") });
  const about = [whose];
  if (g.status === "playing" && g.deadline && !g.seats.find((s) => s.seat === g.turn_seat)?.bot) {
    about.push(t("gm.left", { time: timeLeft(g.deadline) }));
  }
  if (g.started_at) about.push(t("gm.started", { when: ago(g.started_at) }));  // two games against one bot differ
  if (g.last_move_at) about.push(t("gm.last_move", { when: ago(g.last_move_at) }));
  li.append(a, " ");
  if (g.pace === "turn_based") li.append(el("span", "badge pace", t("gm.turn_based")), " ");
  li.append(el("span", g.your_turn ? "whose mine" : "whose", about.join(" · ")));
  return li;
}

/** The list of games, filled from the server (and again every minute while shown).
 * @param {PageCtx} ctx @param {{heading?: boolean, onCount?: (n: number, total: number) => void}} [how] */
export function gamesList(ctx, how = {}) {
  const box = el("section", "card-panel games");
  box.id = "your-games";
  box.setAttribute("aria-labelledby", "games-title");
  const h = el("h2", "", t("mn.games"));
  h.id = "games-title";
  const count = el("span", "badge turn-count");
  count.id = "your-turn-count";
  h.append(" ", count);
  const list = el("ul", "game-list");
  list.setAttribute("aria-live", "polite");
  box.append(h, list);
  const load = async () => {
    try {
      const body = /** @type {GameList} */ (await api.get("/api/players/me/games"));
      list.textContent = "";
      count.textContent = body.your_turn ? t("gm.count", { n: body.your_turn }) : "";
      count.hidden = !body.your_turn;
      if (!body.items.length) list.append(el("li", "muted", t("gm.none")));
      for (const g of body.items) list.append(row(g, ctx));
      box.hidden = !body.items.length && !how.heading;
      // the answer may come after the player went to another page: its title is that page's
      if (how.onCount && box.isConnected) how.onCount(body.your_turn, body.items.length);
    } catch (ex) {
      list.textContent = "";
      list.append(el("li", "form-error", /** @type {Error} */ (ex).message));
    }
  };
  box.hidden = !how.heading;
  load();
  ctx.every(60000, load);
  return box;
}

/** The /#games page: the list and the notifications switch. @param {PageCtx} ctx */
export function gamesPage(ctx) {
  const page = el("div", "games-page");
  page.append(gamesList(ctx, { heading: true, onCount: (n) => countTitle(n, `${t("mn.games")} · ${t("app.title")}`) }));
  const slot = el("div");
  page.append(slot);
  import("./push.js").then((m) => slot.replaceWith(m.pushPanel())).catch(() => slot.remove());
  const away = el("div");
  page.append(away);
  import("./away.js").then((m) => m.awayPanel()).then((panel) => away.replaceWith(panel)).catch(() => away.remove());
  page.append(button(t("hm.refresh"), () => ctx.refresh(), "small"));
  return page;
}
