// @ts-check
// The home page's ways to find a game (protocol.md "Friends, invitations, quick match, the daily
// deal"): the Quick match card (seats, rated, bots; a waiting state with the time waited and
// Cancel; into the room once matched, told on the lobby socket) and the Daily deal card (today's
// commitment, your result, Play, the day's results), and the link to the Friends page.

import * as api from "./api.js";
import { button, el, errorLine } from "./dom.js";
import { onLobby, startLobby } from "./lobbysock.js";

/** @typedef {import("./home.js").PageCtx} PageCtx */

/** Both cards, for a player with an identity. @param {PageCtx} ctx */
export function findingCards(ctx) {
  startLobby();
  const wrap = el("div", "finding");
  wrap.append(quickMatchCard(ctx), dailyCard(ctx));
  const links = el("p", "toplinks");
  const friends = el("a", "", "Friends and invitations");
  friends.href = "/#friends";
  friends.id = "friends-link";
  links.append(friends);
  wrap.append(links);
  return wrap;
}

/** @param {PageCtx} ctx */
function quickMatchCard(ctx) {
  const me = api.identity();
  const card = el("section", "card-panel quick-match");
  card.id = "quick-match";
  card.setAttribute("aria-labelledby", "qm-title");
  const title = el("h2", "", "Quick match");
  title.id = "qm-title";
  card.append(title, el("p", "muted", "Play a person now: you are paired with someone close to your rating."));
  const form = el("div", "qm-form");
  const seats = el("select");
  seats.id = "qm-seats";
  for (const [v, t] of [["2", "2 players"], ["4", "4 players (partners)"]]) {
    const o = el("option", "", t);
    o.value = v;
    seats.append(o);
  }
  const seatsLabel = el("label", "", "Table ");
  seatsLabel.append(seats);
  const bots = el("input");
  bots.type = "checkbox";
  bots.id = "qm-bots";
  bots.checked = true;
  const botsLabel = el("label", "check");
  botsLabel.append(bots, " Fill with bots if nobody comes");
  const rated = el("input");
  rated.type = "checkbox";
  rated.id = "qm-rated";
  const ratedLabel = el("label", "check");
  ratedLabel.append(rated, " Rated");
  ratedLabel.hidden = !(me && me.username);
  rated.addEventListener("change", () => { bots.disabled = rated.checked; });
  const go = button("Quick match", () => void start(), "primary big");
  go.id = "qm-button";
  form.append(seatsLabel, botsLabel, ratedLabel, go);
  const waiting = el("div", "qm-waiting");
  waiting.hidden = true;
  const status = el("p", "qm-status");
  status.id = "qm-status";
  status.setAttribute("role", "status");
  const cancel = button("Cancel", () => void stop(), "");
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
      status.textContent = "Looking for a table…";
      show(true);
      offs.push(onLobby("matched", (m) => { if (m.ticket === ticket) into(m.room); }));
      offs.push(onLobby("quick_match", (m) => {
        if (m.ticket === ticket) { ticket = null; show(false); err.textContent = "The search stopped. Try again."; }
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
    const t = ticket;
    ticket = null;
    offs.forEach((f) => f());
    show(false);
    go.focus();
    if (t) await api.request("DELETE", `/api/quick-match/${encodeURIComponent(t)}`).catch(() => {});
  }
  // The lobby socket tells at once; this look every 2 s also covers a socket that was away.
  ctx.every(2000, async () => {
    if (!ticket) return;
    const secs = Math.round((Date.now() - since) / 1000);
    status.textContent = `Looking for a table… ${secs} s`;
    try {
      const t = /** @type {{status: string, room: string | null}} */ (
        await api.get(`/api/quick-match/${encodeURIComponent(ticket)}`));
      if (t.status === "matched" && t.room) into(t.room);
      else if (t.status === "cancelled") { ticket = null; show(false); }
    } catch { /* the next look will tell */ }
  });
  return card;
}

/** @param {PageCtx} ctx */
function dailyCard(ctx) {
  const card = el("section", "card-panel daily");
  card.id = "daily";
  card.setAttribute("aria-labelledby", "daily-title");
  const title = el("h2", "", "Daily deal");
  title.id = "daily-title";
  const body = el("div", "daily-body");
  body.append(el("p", "muted", "Loading today's deal…"));
  const err = errorLine("daily-error");
  card.append(title, body, err);
  api.get("/api/daily").then((d) => {
    const day = /** @type {any} */ (d);
    body.textContent = "";
    body.append(el("p", "", `${day.date} (UTC): everyone plays the same deal against the Hard bot, once.`));
    const commit = el("p", "muted small commitment", "Deal commitment " + String(day.commitment).slice(0, 16) + "…");
    commit.title = "SHA-256 of the day's seed; the seed is shown once the day is over";
    body.append(commit);
    const you = day.you;
    if (you && you.result && you.result.finished) {
      body.append(el("p", "daily-result", (you.result.won ? "You won" : "You lost")
        + ` · ${you.result.payoff_left} pay-off cards left · ${you.result.moves} moves`));
    } else if (you && you.room) {
      const back = el("a", "", "Back to your daily game");
      back.href = "/r/" + encodeURIComponent(you.room);
      body.append(back);
    } else {
      const play = button("Play today's deal", async () => {
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
    const results = el("a", "", "Today's results");
    results.href = "/#daily/" + encodeURIComponent(day.date);
    results.id = "daily-results-link";
    body.append(" ", results);
  }).catch((e) => { body.textContent = ""; err.textContent = e.message; });
  return card;
}
