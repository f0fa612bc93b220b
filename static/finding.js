// @ts-check
// The home page's ways to find a game (protocol.md "Friends, invitations, quick match, the daily
// deal"): the Quick match card (seats, rated, bots; a waiting state with the time waited and
// Cancel; into the room once matched, told on the lobby socket) and the Daily deal card (today's
// commitment, your result, Play, the day's results), and the link to the Friends page.

import * as api from "./api.js";
import { button, el, errorLine } from "./dom.js";
import { date, more, t } from "./i18n.js";
import { onLobby, startLobby } from "./lobbysock.js";

await more(); // the cards' words are in the later part of the catalogue

/** @typedef {import("./home.js").PageCtx} PageCtx */

/** Both cards, for a player with an identity. @param {PageCtx} ctx */
export function findingCards(ctx) {
  startLobby();
  const wrap = el("div", "finding");
  wrap.append(quickMatchCard(ctx), dailyCard(ctx));
  const links = el("p", "toplinks");
  const friends = el("a", "", t("fd.friends"));
  friends.href = "/#friends";
  friends.id = "friends-link";
  friends.append(" ", waitingBadge());
  links.append(friends);
  wrap.append(links);
  return wrap;
}

/** The count of what waits for your answer on the Friends page: friend requests to you (quiet
 * ones too: they only have no pop-up) and open invitations. Read from the server, so a reload
 * shows it; read again whenever the lobby socket says one came or went. */
function waitingBadge() {
  const badge = el("span", "badge chat-badge");
  badge.id = "friends-waiting";
  badge.hidden = true;
  const count = async () => {
    try {
      const [f, inv] = /** @type {[{items: {status: string}[]}, {items: unknown[]}]} */ (await Promise.all([
        api.get("/api/players/me/friends"), api.get("/api/players/me/invitations")]));
      const n = f.items.filter((x) => x.status === "incoming").length + inv.items.length;
      badge.textContent = t("fd.waiting", { n });
      badge.hidden = !n;
    } catch {
      badge.hidden = true;  // the link still leads to the page, which says what went wrong
    }
  };
  for (const type of ["friend_request", "friend_requests", "invitation", "invitation_closed"]) {
    const stop = onLobby(type, () => { if (badge.isConnected) void count(); else stop(); });
  }
  void count();
  return badge;
}

/** @param {PageCtx} ctx */
function quickMatchCard(ctx) {
  const me = api.identity();
  const card = el("section", "card-panel quick-match");
  card.id = "quick-match";
  card.setAttribute("aria-labelledby", "qm-title");
  const title = el("h2", "", t("fd.quick"));
  title.id = "qm-title";
  card.append(title, el("p", "muted", t("fd.quick_about")));
  const form = el("div", "qm-form");
  const seats = el("select");
  seats.id = "qm-seats";
  for (const v of ["2", "4"]) {
    const o = el("option", "", t(`fd.seats_${v}`));
    o.value = v;
    seats.append(o);
  }
  const seatsLabel = el("label", "", t("fd.table") + " ");
  seatsLabel.append(seats);
  const bots = el("input");
  bots.type = "checkbox";
  bots.id = "qm-bots";
  bots.checked = true;
  const botsLabel = el("label", "check");
  botsLabel.append(bots, " ", t("fd.bots"));
  const rated = el("input");
  rated.type = "checkbox";
  rated.id = "qm-rated";
  const ratedLabel = el("label", "check");
  ratedLabel.append(rated, " ", t("fd.rated"));
  ratedLabel.hidden = !(me && me.username);
  rated.addEventListener("change", () => { bots.disabled = rated.checked; });
  const go = button(t("fd.quick"), () => void start(), "primary big");
  go.id = "qm-button";
  form.append(seatsLabel, botsLabel, ratedLabel, go);
  const waiting = el("div", "qm-waiting");
  waiting.hidden = true;
  const status = el("p", "qm-status");
  status.id = "qm-status";
  status.setAttribute("role", "status");
  const cancel = button(t("fd.cancel"), () => void stop(), "");
  cancel.id = "qm-cancel";
  waiting.append(status, cancel);
  const err = errorLine("qm-error");
  card.append(form, waiting, err);

  /** @type {string | null} */
  let ticket = null;
  let since = 0;
  /** @type {(() => void)[]} */
  const offs = [];

  function show(wait = false) {
    form.hidden = wait;
    waiting.hidden = !wait;
    if (wait) cancel.focus();
  }
  /** @param {string} room */
  function into(room) {
    offs.forEach((f) => f());
    ticket = null;
    ctx.navigate("/r/" + encodeURIComponent(room));
  }
  async function start() {
    err.textContent = "";
    go.disabled = true;
    try {
      const body = { seats: Number(seats.value), rated: rated.checked, pace: "live", bots: bots.checked && !rated.checked };
      const out = /** @type {{ticket: string}} */ (await api.post("/api/quick-match", body));
      ticket = out.ticket;
      since = Date.now();
      status.textContent = t("fd.looking");
      show(true);
      offs.push(onLobby("matched", (m) => { if (m.ticket === ticket) into(m.room); }));
      offs.push(onLobby("quick_match", (m) => {
        if (m.ticket === ticket) { ticket = null; show(false); err.textContent = t("fd.stopped"); }
      }));
    } catch (e) {
      const ex = /** @type {api.ApiError} */ (e);
      if (ex.status === 409 && ex.body && /** @type {any} */ (ex.body).ticket) {
        ticket = /** @type {any} */ (ex.body).ticket;
        since = Date.now();
        show(true);
      } else {
        err.textContent = ex.message;
      }
    } finally {
      go.disabled = false;
    }
  }
  async function stop() {
    const was = ticket;
    ticket = null;
    offs.forEach((f) => f());
    show(false);
    go.focus();
    if (was) await api.request("DELETE", `/api/quick-match/${encodeURIComponent(was)}`).catch(() => {});
  }
  // The lobby socket tells at once; this look every 2 s also covers a socket that was away.
  ctx.every(2000, async () => {
    if (!ticket) return;
    const secs = Math.round((Date.now() - since) / 1000);
    status.textContent = t("fd.looking_for", { n: secs });
    try {
      const q = /** @type {{status: string, room: string | null}} */ (
        await api.get(`/api/quick-match/${encodeURIComponent(ticket)}`));
      if (q.status === "matched" && q.room) into(q.room);
      else if (q.status === "cancelled") { ticket = null; show(false); }
    } catch { /* the next look will tell */ }
  });
  return card;
}

/** A day ("2026-12-02", UTC) as the language writes it. @param {string} day */
export const utcDay = (day) => date(`${day}T12:00:00Z`, { dateStyle: "long", timeZone: "UTC" });

/** @param {PageCtx} ctx */
function dailyCard(ctx) {
  const card = el("section", "card-panel daily");
  card.id = "daily";
  card.setAttribute("aria-labelledby", "daily-title");
  const title = el("h2", "", t("mn.daily"));
  title.id = "daily-title";
  const body = el("div", "daily-body");
  body.append(el("p", "muted", t("fd.loading")));
  const err = errorLine("daily-error");
  card.append(title, body, err);
  api.get("/api/daily").then((d) => {
    const day = /** @type {any} */ (d);
    body.textContent = "";
    body.append(el("p", "", t("fd.daily_about", { day: utcDay(day.date) })));
    const commit = el("p", "muted small commitment", t("fd.commitment", { hash: String(day.commitment).slice(0, 16) + "…" }));
    commit.title = t("fd.commitment_about");
    body.append(commit);
    const you = day.you;
    if (you && you.result && you.result.finished) {
      body.append(el("p", "daily-result", [t(you.result.won ? "fd.won" : "fd.lost"),
        t("fd.payoff_left", { n: you.result.payoff_left }), t("fd.moves", { n: you.result.moves })].join(" · ")));
    } else if (you && you.room) {
      const back = el("a", "", t("fd.back"));
      back.href = "/r/" + encodeURIComponent(you.room);
      body.append(back);
    } else {
      const play = button(t("fd.play"), async () => {
        play.disabled = true;
        try {
          const out = /** @type {{room: string}} */ (await api.post("/api/daily"));
          ctx.navigate("/r/" + encodeURIComponent(out.room));
        } catch (e) {
          err.textContent = /** @type {Error} */ (e).message;
          play.disabled = false;
        }
      }, "primary");
      play.id = "daily-play";
      body.append(play);
    }
    const results = el("a", "", t("fd.results"));
    results.href = "/#daily/" + encodeURIComponent(day.date);
    results.id = "daily-results-link";
    body.append(" ", results);
  }).catch((e) => { body.textContent = ""; err.textContent = e.message; });
  return card;
}
