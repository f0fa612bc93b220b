// @ts-check
// Accounts and standings: the sign-in page (sign in on this device, or claim an account for
// this browser's guest identity, or sign out; an account's password and devices: devices.js), the leaderboard, and a player's profile
// (rating with its history as a small inline SVG chart, stats, achievements, recent matches).

import * as api from "./api.js";
import { displayed, el, errorLine } from "./dom.js";
import { date, more, num, t } from "./i18n.js";
import { matchItem, when } from "./history.js";
import { lineChart } from "./chart.js";
import { lengthText } from "./spans.js";
import "./pages.js";

await more(); // the pages' words (and the achievements') are in the later part of the catalogue

/** @typedef {import("./types.js").Achievement} Achievement */
/** @typedef {import("./types.js").Rating} Rating */
/** @typedef {import("./types.js").RatingStep} RatingStep */
/** @typedef {{navigate: (path: string) => void, refresh: () => void}} AccountCtx */

/** @type {Intl.NumberFormatOptions} */
const RATING = { useGrouping: false };
/** A rating as a person reads it: on the 1500 scale (`dom.displayed`). @param {Rating} r */
export const ratingText = (r) => num(displayed(r), RATING); // a rating is a score: no thousands separator

/** A labelled input. @param {string} id @param {string} text @param {string} type @param {string} auto */
function field(id, text, type, auto) {
  const label = el("label", "", text);
  const input = el("input");
  input.id = id;
  input.name = id;
  input.type = type;
  input.required = true;
  input.setAttribute("autocomplete", auto);
  label.htmlFor = id;
  return { label, input };
}

/**
 * A username + password form.
 * @param {string} title @param {string} intro @param {string} prefix ids start with it
 * @param {string} action the button's text
 * @param {(username: string, password: string) => Promise<unknown>} submit
 * @param {boolean} newPassword
 */
function credentialsForm(title, intro, prefix, action, submit, newPassword) {
  const form = el("form", "card-panel account-form");
  form.id = prefix + "-form";
  const h = el("h2", "", title);
  const user = field(prefix + "-username", t("acc.username"), "text", "username");
  user.input.maxLength = 24;
  user.input.spellcheck = false;
  const pass = field(prefix + "-password", t("acc.password"), "password", newPassword ? "new-password" : "current-password");
  pass.input.maxLength = 256;
  if (newPassword) pass.input.minLength = 8;
  const go = el("button", "primary", action);
  go.type = "submit";
  go.id = prefix + "-submit";
  const err = errorLine(prefix + "-error");
  form.append(h, el("p", "muted", intro), user.label, user.input, pass.label, pass.input, go, err);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    err.textContent = "";
    go.disabled = true;
    try {
      await submit(user.input.value.trim(), pass.input.value);
    } catch (ex) {
      err.textContent = ex.message;
    } finally {
      go.disabled = false;
    }
  });
  return form;
}

/** The sign-in page (`/#account`). @param {AccountCtx} ctx */
export function accountPage(ctx) {
  const page = el("div", "account");
  page.append(el("h1", "", t("acc.title")));
  const me = api.identity();
  if (me && me.username) {
    const who = el("p", "whoami");
    who.append(t("acc.signed_in_as") + " ", el("strong", "", me.name), " " + t("acc.username_is", { username: me.username }) + " ");
    const out = el("button", "", t("acc.sign_out"));
    out.type = "button";
    out.id = "sign-out";
    const err = errorLine("sign-out-error");
    // Signing out asks first: coming back takes the username and password.
    const ask = el("div", "sign-out-ask");
    ask.setAttribute("role", "group");
    ask.hidden = true;
    const yes = el("button", "primary", t("acc.sign_out_yes"));
    yes.type = "button";
    yes.id = "sign-out-confirm";
    const no = el("button", "", t("acc.sign_out_no"));
    no.type = "button";
    no.id = "sign-out-cancel";
    const q = el("p", "", t("acc.sign_out_ask"));
    q.id = "sign-out-ask";
    ask.setAttribute("aria-labelledby", q.id);
    ask.append(q, yes, " ", no);
    out.addEventListener("click", () => { ask.hidden = false; out.hidden = true; yes.focus(); });
    no.addEventListener("click", () => { ask.hidden = true; out.hidden = false; out.focus(); });
    yes.addEventListener("click", async () => {
      try {
        await api.signOut();
        ctx.navigate("/");
      } catch (ex) {
        err.textContent = ex.message;
      }
    });
    const prof = el("a", "", t("acc.my_profile"));
    prof.href = "/#player/" + encodeURIComponent(me.id);
    who.append(prof, " ");
    const failed = el("p", "failed-sign-ins"); // the holder hears of failed attempts on the password
    api.get("/api/players/me").then((/** @type {import("./types.js").Me} */ m) => {
      const f = m.failed_sign_ins;
      if (f) failed.textContent = f.count ? t("acc.failed", { n: f.count, when: date(f.last_at, { dateStyle: "medium", timeStyle: "short" }) }) : t("acc.no_failed");
    }, () => {});
    page.append(who, failed, out, ask, err);
    const slot = el("div");  // changing the password, the devices signed in (loaded now)
    page.append(slot);
    import("./devices.js").then((m) => slot.replaceWith(m.securityPart()), (ex) => { err.textContent = ex.message; });
    return page;
  }
  const grid = el("div", "home-grid");
  if (me) {
    grid.append(credentialsForm(t("acc.keep"), t("acc.claim_about", { name: me.name }), "claim", t("acc.claim"),
    async (u, p) => { await api.claimAccount(u, p); ctx.navigate("/#player/" + encodeURIComponent(me.id)); }, true));
  }
  grid.append(credentialsForm(t("acc.sign_in"), t(me ? "acc.sign_in_replaces" : "acc.sign_in_about"),
  "signin", t("acc.sign_in"), async (u, p) => { await api.signIn(u, p); ctx.navigate("/"); }, false));
  page.append(grid);
  return page;
}

/** The leaderboard's rules as the server applies them (its settings, docs/rules.md "Rating farming").
 * @param {import("./types.js").Leaderboard} b */
function boardRules(b) {
  const age = lengthText(b.min_age_hours * 3600);
  return [t("acc.board_list", { games: t("acc.rule_games", { n: b.min_games }), opponents: t("acc.rule_opponents", { n: b.min_opponents }) }),
    b.min_age_hours > 0 ? t("acc.board_age", { age }) : "", t("acc.board_rank")].filter(Boolean).join(" ");
}

/** Where the reader stands against those rules ("You: 3 of 5 rated matches · 1 of 3 different opponents").
 * @param {import("./types.js").LeaderStanding} me @param {import("./types.js").Leaderboard} b */
function standing(me, b) {
  if (me.listed) return t("acc.you_listed");
  const old = new Date(me.old_enough_at);
  const parts = [t("acc.you_games", { k: me.games, n: b.min_games }), t("acc.you_opponents", { k: me.opponents, n: b.min_opponents })];
  if (+old > Date.now()) parts.push(t("acc.you_age_at", { when: date(old, { dateStyle: "medium", timeStyle: "short" }) }));
  return t("acc.you_stand", { parts: parts.join(" · ") });
}

/** The leaderboard (`/#leaderboard`). */
export function leaderboardPage() {
  const page = el("div", "leaderboard");
  page.append(el("h1", "", t("acc.leaderboard")));
  const note = el("p", "muted", "");
  const table = el("table", "scores board");
  const head = el("tr");
  for (const h of ["fa.col_rank", "rs.player", "acc.rating", "acc.rated_matches"]) head.append(el("th", "", t(h)));
  const thead = el("thead");
  thead.append(head);
  const body = el("tbody");
  table.append(thead, body);
  const next = el("button", "", t("acc.load_more"));
  next.type = "button";
  next.hidden = true;
  const err = errorLine("board-error");
  const you = el("p", "board-you");
  you.id = "board-you";
  page.append(note, you, table, next, err);
  /** @type {string | null} */
  let cursor = null;
  const me = api.identity();
  const load = async () => {
    try {
      const got = await api.leaderboard(cursor);
      note.textContent = boardRules(got);
      if (got.you) you.textContent = standing(got.you, got);
      for (const row of got.items) {
        const tr = el("tr");
        if (me && row.player_id === me.id) tr.className = "winner";
        const a = el("a", "", row.name);
        a.href = "/#player/" + encodeURIComponent(row.player_id);
        const who = el("td");
        who.append(a);
        tr.append(el("td", "", num(row.rank)), who, el("td", "", ratingText(row.rating)),
          el("td", "", num(row.rating.games)));
        body.append(tr);
      }
      if (!body.children.length) {
        const tr = el("tr");
        const td = el("td", "muted", t("acc.board_empty"));
        td.colSpan = 4;
        tr.append(td);
        body.append(tr);
      }
      cursor = got.next;
      next.hidden = !cursor;
    } catch (ex) {
      err.textContent = ex.message;
    }
  };
  next.addEventListener("click", load);
  load();
  return page;
}

/**
 * The rating after each rated match (oldest first) as a line chart on the 1500 scale, with its
 * axes (ratings, dates) and a dashed line at 1500, where everyone starts (chart.js).
 * @param {RatingStep[]} steps newest first, as the server lists them
 */
export function ratingChart(steps) {
  const old = [...steps].reverse();
  const points = old.map((s) => ({ value: displayed(s.after), at: s.at,
    tip: `${t("acc.after_match", { n: s.after.games, rating: ratingText(s.after) })} · ${when(s.at)}` }));
  if (old.length) points.unshift({ value: displayed(old[0].before), at: null, tip: t("acc.before", { rating: ratingText(old[0].before) }) });
  const last = old.length ? old[old.length - 1].after : null;
  const label = t(last ? "acc.chart_now" : "acc.chart", { n: steps.length, rating: last ? ratingText(last) : "" });
  return lineChart(points, { label, ref: 1500, min: 100, plain: RATING });
}

/** `key` in the catalogue, else the server's words. @param {string} key @param {string} words */
const said = (key, words) => (t(key) === key ? words : t(key));

/** @param {Achievement} a */
function achievementItem(a) {
  const li = el("li", "achievement" + (a.earned_at ? " earned" : ""));
  li.dataset.key = a.key;
  const name = said(`ach.${a.key}`, a.name), about = said(`ach.${a.key}.d`, a.description);
  li.append(el("span", "medal", a.earned_at ? "★" : "☆"), el("strong", "", name), " ", el("span", "muted", about));
  if (a.earned_at) li.append(" ", el("span", "when", date(a.earned_at)));
  li.setAttribute("aria-label", `${name}: ${about} ` + t(a.earned_at ? "acc.earned" : "acc.not_earned"));
  return li;
}

/** A player's profile (`/#player/{id}`). @param {string} id */
export function profilePage(id) {
  const page = el("div", "profile");
  const title = el("h1", "", t("rs.player"));
  const rating = el("section", "card-panel rating-panel");
  const stats = el("dl", "stats");
  const achievements = el("ul", "achievements");
  const recent = el("ol", "match-list");
  const err = errorLine("profile-error");
  const ach = el("h2", "", t("rs.achievements"));
  page.append(title, err, rating, el("h2", "", t("acc.stats")), stats, ach, achievements, el("h2", "", t("acc.recent")),
    recent);
  api.profile(id).then(async (p) => {
    title.textContent = p.name;
    document.title = `${p.name} · ${t("app.title")}`;
    const me = api.identity();
    if (!p.account) title.append(" ", el("span", "badge", t("acc.guest")));
    if (me && me.id === p.id) title.append(" ", el("span", "badge", t("acc.you")));
    else if (me) {  // befriend or block from a profile (loaded after)
      const follow = import("./invite.js");
      follow.then((m) => title.after(m.befriendButtons(p.id, p.name)), () => {});
    }
    rating.append(el("h2", "", t("acc.rating")));
    if (!p.rating) {
      rating.append(el("p", "muted", t(p.account ? "acc.no_rated" : "acc.guests_unrated")));
    } else {
      const big = el("p", "rating-now");
      big.append(el("strong", "", ratingText(p.rating)), " " + t("acc.after_n", { n: p.rating.games, start: num(1500, RATING) }));
      rating.append(big);
      // while uncertain (the server says), each match moves it a lot: say why
      if (p.rating.uncertain) rating.append(el("p", "muted rating-why", t(me && me.id === p.id ? "acc.uncertain_you" : "acc.uncertain")));
      const hist = await api.ratings(id);
      rating.append(ratingChart(hist.items));
    }
    const s = await api.stats(id);
    /** @type {[string, string | number][]} */
    const rows = [[t("acc.played"), num(s.played)], [t("acc.won"), num(s.won)],
      [t("acc.win_rate"), s.played ? num(s.won / s.played, { style: "percent" }) : "–"],
      [t("acc.hands_won"), t("acc.n_of", { n: s.hands_won, of: s.hands_played })]];
    for (const [k, v] of rows) stats.append(el("dt", "", k), el("dd", "", String(v)));
    const got = (await api.achievements(id)).items;
    ach.textContent = `${t("rs.achievements")} (${t("acc.n_of", { n: got.filter((a) => a.earned_at).length, of: got.length })})`;
    for (const a of got) achievements.append(achievementItem(a));
    const matches = await api.matches(id, null);
    for (const m of matches.items.slice(0, 10)) recent.append(matchItem(m));
    if (!matches.items.length) recent.append(el("li", "muted", t("acc.no_matches")));
    page.append((await import("./tournaments.js")).playerTournaments(id));
  }).catch((ex) => { err.textContent = ex.message; });
  return page;
}
