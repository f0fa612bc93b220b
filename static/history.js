// @ts-check
// History: my matches and stats (`/#history`), one line per match with the link its `progress`
// calls for (docs/protocol.md, History), and a match's own page (`/#match/{id}`): who played,
// each hand and how it ended (reason, who went out, points), the way to its table or replay.

import * as api from "./api.js";
import { el, errorLine } from "./dom.js";
import { date, list, more, num, t } from "./i18n.js";
import "./pages.js";

await more(); // the pages' words are in the later part of the catalogue

/** @typedef {import("./types.js").MatchItem} MatchItem */
/** @typedef {import("./types.js").MatchDetail} MatchDetail */
/** @typedef {import("./types.js").Stats} Stats */
/** @typedef {MatchDetail["hands"][number]} HandOut */

/** An ISO time as a person reads it: a match is dated by its start (`started_at`) on every page
 * (history, profile, match page, replay). @param {string} iso */
export const when = (iso) => date(iso, { dateStyle: "medium", timeStyle: "short" });

const REASON = { payoff_out: "rs.payoff_out", stock_out: "rs.stock_out", stalemate: "rs.stalemate", forfeit: "rs.forfeit", resign: "rs.resign" };

/**
 * How a hand ended, in two sentences: who went out (or won, or nobody) and why, and the points
 * it gave. `payoff` is each seat's pay-off cards left (the match detail knows it; the replay
 * may not). @param {{reason: string, winners: number[], scores: number[]}} r @param {string[]} names
 * @param {number[] | null} payoff
 * @returns {{who: string, points: string}}
 */
export function handEnd(r, names, payoff) {
  const out = r.reason === "payoff_out" && payoff ? names.filter((_, s) => payoff[s] === 0) : [];
  const won = r.winners.map((s) => names[s]);
  const who = out.length ? t("rp.went_out", { names: list(out) })
    : won.length ? t("rp.hand_won", { names: list(won) }) : t("rp.hand_draw");
  const points = t("rp.hand_points", { list: list(names.map((n, s) => `${n} ${num(r.scores[s] ?? 0)}`)) });
  const lost = list(names.filter((_, s) => !r.winners.includes(s))); // a resign names its side
  const why = out.length ? "" : ` ${t(REASON[/** @type {keyof REASON} */ (r.reason)] || "rs.stalemate", { names: lost })}`; // going out says why
  return { who: who + why, points };
}

/** The history page: my matches, newest first, and my stats. */
export function historyPage() {
  const page = el("div", "history");
  page.append(el("h1", "", t("mn.matches")));
  const me = api.identity();
  if (!me) {
    page.append(el("p", "", t("rp.no_identity")));
    return page;
  }
  const stats = el("dl", "stats");
  const list = el("ol", "match-list");
  const next = el("button", "", t("acc.load_more"));
  next.type = "button";
  next.hidden = true;
  const err = errorLine("history-error");
  page.append(stats, list, next, err);
  import("./tournaments.js").then((m) => page.append(m.playerTournaments(me.id)), () => {});
  /** @type {string | null} */
  let cursor = null;
  let shown = 0;

  /** @param {Stats} s */
  const showStats = (s) => {
    stats.textContent = "";
    /** @type {[string, string | number][]} */
    const rows = [[t("acc.played"), num(s.played)], [t("acc.won"), num(s.won)],
      [t("acc.win_rate"), s.played ? num(s.won / s.played, { style: "percent" }) : "–"], [t("rp.points"), num(s.points)],
      [t("acc.hands_won"), t("acc.n_of", { n: s.hands_won, of: s.hands_played })]];
    if (s.average_cards_left !== null) rows.push([t("rp.cards_left"), num(s.average_cards_left)]);
    for (const [k, v] of rows) stats.append(el("dt", "", k), el("dd", "", String(v)));
  };
  const load = async () => {
    try {
      const got = await api.matches(me.id, cursor);
      cursor = got.next;
      next.hidden = !cursor;
      shown += got.items.length;
      for (const m of got.items) list.append(matchItem(m));
      if (!shown) list.append(el("li", "muted", t("rp.no_matches")));
    } catch (ex) {
      err.textContent = ex.message;
    }
  };
  next.addEventListener("click", load);
  api.stats(me.id).then(showStats).catch((ex) => { err.textContent = ex.message; });
  load();
  return page;
}

/** The badge word and the link a match's `progress` calls for (`room` may be null).
 * @param {MatchItem | MatchDetail} m @param {boolean | null} won @returns {{badge: string, link: HTMLAnchorElement | null}} */
function standing(m, won) {
  const to = (/** @type {string} */ key, /** @type {string} */ href, /** @type {string} */ cls) => {
    const a = el("a", cls, t(key));
    a.href = href;
    return a;
  };
  const table = m.room ? "/r/" + encodeURIComponent(m.room) : "";
  switch (m.progress) {
  case "over": return { badge: won === null ? "over" : won ? "won" : m.winners && m.winners.length ? "lost" : "draw",
    link: to("mn.replay", "/#replay/" + encodeURIComponent(m.id), "replay-link") };
  case "resume": return { badge: "in_progress", link: table ? to("rp.back", table, "resume") : null };
  case "watch": return { badge: "in_progress", link: table ? to("rp.watch", table, "watch") : null };
  case "private": return { badge: "private", link: null };
  default: return { badge: "abandoned", link: table ? to("rp.back", table, "resume") : null }; // its players may go back
  }
}

/** One line of the history: when, who, won or lost (or where it stands), the totals, the link
 * its progress calls for, and its own page. @param {MatchItem} m */
export function matchItem(m) {
  const li = el("li", "match-item");
  li.dataset.progress = m.progress;
  const names = m.players.map((p) => p.name).join(", ");
  const { badge, link } = standing(m, m.won);
  li.append(el("span", "when", when(m.started_at)), " ",
    el("span", "who", names), " ", el("span", `badge ${badge}`, t(`rp.${badge}`)));
  li.append(" ", el("span", "muted", m.totals.join(" – ")));
  if (link) li.append(" ", link);
  const about = el("a", "match-link", t("rp.details"));
  about.href = "/#match/" + encodeURIComponent(m.id);
  li.append(" ", about);
  return li;
}

/** A match's page (`/#match/{id}`). @param {string} id */
export function matchPage(id) {
  const page = el("div", "match-page");
  const title = el("h1", "", t("rp.match"));
  const line = el("p", "match-standing");
  const hands = el("ol", "hand-list");
  const err = errorLine("match-error");
  page.append(title, line, el("h2", "", t("rp.hands")), hands, err);
  api.matchDetail(id).then((m) => {
    const names = m.players.map((p) => p.name);
    title.textContent = names.join(` ${t("rp.vs")} `);
    document.title = `${title.textContent} · ${t("app.title")}`;
    const { badge, link } = standing(m, null);
    line.append(el("span", `badge ${badge}`, t(`rp.${badge}`)), " ", when(m.started_at), " · ",
      t("rp.totals", { list: list(m.players.map((p) => `${p.name} ${num(p.total)}`)) }));
    if (link) line.append(" ", link);
    for (const h of m.hands) hands.append(handItem(h, names));
    if (!m.hands.length) hands.append(el("li", "muted", t("rp.no_hands")));
  }).catch((ex) => { err.textContent = ex.message; });
  return page;
}

/** One hand of a match's page. @param {HandOut} h @param {string[]} names */
function handItem(h, names) {
  const li = el("li", "hand-item");
  li.append(el("strong", "", t("rp.hand_n", { n: h.number })), " ");
  if (!h.result) {
    li.append(el("span", "muted", t("rp.hand_playing")));
    return li;
  }
  const left = names.map((_, s) => h.scores.find((x) => x.seat === s)?.payoff_left ?? -1);
  const end = handEnd(h.result, names, left);
  li.append(el("span", "hand-who", end.who), " ", el("span", "hand-points", end.points));
  return li;
}
