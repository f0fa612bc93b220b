// @ts-check
// End-of-hand and end-of-match screens: scores, the revealed seed, and the check that the seed
// matches the commitment shown when the hand was dealt (SHA-256 of its UTF-8 bytes, fair.js); a
// daily deal's seed stays hidden all its day, so its result says when the check can be made.

import { displayed, el } from "./dom.js";
import { list, more, num, t } from "./i18n.js";
import { handOverText, teamOf } from "./announce.js";
import { TEAM } from "./table.js";
import { opensText, verifySeed } from "./fair.js";

/** @typedef {import("./types.js").View} View */

await more(); // the results' words are in the later part of the catalogue

const REASON = {
  payoff_out: "rs.payoff_out",
  stock_out: "rs.stock_out",
  stalemate: "rs.stalemate",
  forfeit: "rs.forfeit",
  resign: "rs.resign",
};

/**
 * What the buttons of a result do: next(), rematch(), home(), replay() and lobby() (or null),
 * isPlayer — or, for a result kept on screen after the next hand has started, close() and home().
 * @typedef {object} ResultActions
 * @property {() => void} home
 * @property {() => void} [close]
 * @property {() => void} [next]
 * @property {() => void} [rematch]
 * @property {(() => void) | null} [replay]
 * @property {(() => void) | null} [lobby]
 * @property {boolean} [isPlayer]
 * @property {import("./types.js").Awards | null} [awards]  what the end awarded (achievements, rating changes)
 * @property {string} [me]  this browser's player id
 * @property {(r: import("./types.js").Rating) => string} [ratingText]
 * @property {number[] | null} [ready]  between hands: the seats ready for the next hand
 * @property {string | null} [countdown]  between hands: the time left before it is dealt anyway
 * @property {import("./types.js").RematchInfo | null} [offer]  once the match is over: the rematch offered
 * @property {boolean[]} [connected]  by seat: is that person in the room now
 * @property {() => void} [decline]  decline the rematch offered
 * @property {(() => void) | null} [dismiss]  close the Game over dialog to see the final table
 * @property {string | null} [daily]  a daily deal's room: the deal's day (its seed is shown once that day is over)
 */

/** "you", "Ann and you", "Ann, Bob and you". @param {string[]} names */
const listed = (names) => list(names);

/**
 * The result dialog for a finished hand (`view.result` is set).
 * @param {View} view
 * @param {string} committed  the commitment this browser saw when the hand was dealt (or the view's own)
 * @param {ResultActions} actions
 */
export function resultPanel(view, committed, actions) {
  const r = view.result;
  const over = r.match_over;
  const box = el("section", "result");
  box.setAttribute("role", "dialog");
  box.setAttribute("aria-modal", actions.close ? "false" : "true");
  box.setAttribute("aria-labelledby", "result-title");
  const single = view.options.match_target === null; // one hand is the whole game
  const title = el("h2", "", (actions.close ? t("rs.last") + " " : "")
    + (over ? t(single ? "rs.game_over" : "rs.match_over") : t("rs.hand_over", { n: view.hand_number })));
  title.id = "result-title";
  title.tabIndex = -1;
  box.append(title);
  box.append(el("p", "result-line", handOverText(view, r)));
  const losers = view.players.filter((_, s) => !r.winners.includes(s)).map((p) => p.name); // who resigned
  box.append(el("p", "result-reason", t(REASON[r.reason], { names: list(losers) })));
  if (over && r.match_winners.length && !single) {
    const mine = view.you !== null && r.match_winners.includes(view.you);
    const names = r.match_winners.map((s) => (s === view.you ? t("an.you") : view.players[s].name));
    const team = teamOf(view, r.match_winners);
    box.append(el("p", "result-line", team !== null
      ? t("rs.match_won", { names: t("an.team", { team: TEAM[team], names: list(names) }) })
      : mine && names.length === 1 ? t("rs.you_won") : t("rs.match_won", { names: list(names) })));
  }

  const table = el("table", "scores");
  const head = el("tr");
  const teams = view.players.some((p) => p.team !== null);
  for (const h of [teams ? "rs.team_player" : "rs.player", "rs.payoff_left", "rs.this_hand", "rs.total"]) head.append(el("th", "", t(h)));
  const thead = el("thead");
  thead.append(head);
  const tbody = el("tbody");
  view.players.forEach((p, s) => {
    const tr = el("tr");
    if (r.winners.includes(s)) tr.className = "winner";
    const name = el("td", "", "");
    if (p.team !== null) name.append(`${t("tb.team", { team: TEAM[p.team] })} · `);
    name.append(s === view.you ? t("tb.you", { name: p.name }) : p.name);
    if (p.team !== null) tr.dataset.team = TEAM[p.team];
    tr.append(name,
      el("td", "", num(p.payoff_count)),
      el("td", "", num(r.scores[s])),
      el("td", "", num(r.totals[s])));
    tbody.append(tr);
  });
  table.append(thead, tbody);
  box.append(table);
  if (actions.awards) box.append(...awardLines(view, actions));

  // The check folded away (one click opens it); its verdict shows in the summary line.
  const fair = el("details", "fair");
  const summary = el("summary", "", t("rs.fair") + " ");
  const short = el("span", "verdict-short", t("rs.checking"));
  summary.append(short);
  fair.append(summary);
  const seed = el("p", "seed");
  seed.append(t("rs.seed") + " ", el("code", "", r.seed));
  const commit = el("p", "commitment");
  commit.append(t("rs.commitment") + " ", el("code", "", committed));
  const verdict = el("p", "verdict", t("rs.checking_long"));
  verdict.setAttribute("role", "status");
  fair.append(seed, commit, verdict);
  box.append(fair);
  if (r.seed === null && actions.daily) { // a daily deal's, sealed until its day is over: no verdict yet
    short.dataset.verdict = verdict.dataset.verdict = "later";
    short.textContent = t("dy.short_later", { when: opensText(actions.daily) });
    seed.textContent = t("dy.seed_later", { when: opensText(actions.daily) });
    const link = el("a", "", t("dy.results_link"));
    link.href = "/#daily/" + encodeURIComponent(actions.daily);
    verdict.textContent = "";
    verdict.append(link);
  } else verifySeed(r.seed, committed).then((v) => {
    verdict.dataset.verdict = v;
    short.dataset.verdict = v;
    short.textContent = t(`rs.short_${v}`);
    verdict.textContent = {
      ok: t("rs.long_ok"),
      mismatch: t("rs.long_mismatch"),
      unavailable: t("rs.long_unavailable"),
    }[v];
  });

  const buttons = el("div", "actions");
  /** @param {string} text @param {() => void} fn */
  const button = (text, fn, cls = "") => {
    const b = el("button", cls, text);
    b.type = "button";
    b.addEventListener("click", fn);
    buttons.append(b);
    return b;
  };
  const me = view.you;
  const ready = actions.ready || [];
  if (actions.close) {
    button(t("rs.close"), actions.close, "primary").id = "close-result";
  } else if (actions.isPlayer) {
    if (over) rematchButtons(view, actions, button);
    else if (ready.includes(me)) {
      const b = button(t("rs.ready") + " ✓", () => {}, "primary big");
      b.id = "next-hand";
      b.disabled = true;
    } else button(t("rs.next_hand"), actions.next, "primary big").id = "next-hand";
  }
  if (actions.lobby) button(t("rs.back"), actions.lobby).id = "back-to-room";
  if (actions.replay) button(t("rs.replay"), actions.replay);
  if (actions.dismiss) button(t("rs.close"), actions.dismiss).id = "close-game-over";
  if (!actions.close) {
    const home = button(t("rs.leave"), actions.home, "link");
    home.id = "result-home";
  }
  if (!over && !actions.close && actions.ready) box.append(readyLine(view, ready, actions.countdown));
  if (over && !actions.close && actions.offer) box.append(rematchLine(view, actions));
  box.append(buttons);
  return box;
}

/** The rating changes of a rated match and the achievements earned, as lines of the result.
 * @param {View} view @param {ResultActions} actions */
function awardLines(view, actions) {
  const a = actions.awards;
  const show = actions.ratingText || ((/** @type {import("./types.js").Rating} */ r) => String(displayed(r)));
  const out = [];
  if (a.ratings.length) {
    const box = el("div", "rating-change");
    box.append(el("h3", "", t("rs.rated")));
    const ul = el("ul");
    for (const r of a.ratings) {
      const diff = displayed(r.after) - displayed(r.before);
      const who = r.player_id === actions.me ? t("rs.your_rating") : t("rs.rating_of", { name: view.players[r.seat].name });
      const li = el("li", diff >= 0 ? "up" : "down");
      li.dataset.seat = String(r.seat);
      li.append(`${who} ${show(r.before)} → `, el("strong", "", show(r.after)),
        ` (${diff >= 0 ? "+" : "−"}${num(Math.abs(diff))})`);
      ul.append(li);
    }
    box.append(ul);
    // A rating that was uncertain going in moves a lot (the server says which: `uncertain`): say why.
    const mine = a.ratings.find((r) => r.player_id === actions.me);
    if (mine?.before.uncertain) box.append(el("p", "muted rating-why", t("rs.uncertain_you")));
    else if (a.ratings.some((r) => r.before.uncertain)) box.append(el("p", "muted rating-why", t("rs.uncertain")));
    out.push(box);
  }
  if (a.achievements.length) {
    const box = el("div", "earned");
    box.append(el("h3", "", t("rs.achievements")));
    const ul = el("ul");
    for (const e of a.achievements) {
      const who = e.player_id === actions.me ? t("rs.you") : view.players[e.seat].name;
      ul.append(el("li", "", "★ " + t("rs.earned", { who, name: t(`ach.${e.key}`), text: t(`ach.${e.key}.d`) })));
    }
    box.append(ul);
    out.push(box);
  }
  return out;

}

/** Once the match is over: offer a rematch, or answer the one offered.
 * @param {View} view @param {ResultActions} actions @param {(text: string, fn: () => void, cls?: string) => HTMLButtonElement} button */
function rematchButtons(view, actions, button) {
  const offer = actions.offer;
  const mine = offer ? offer.seats.find((s) => s.seat === view.you) : null;
  const answer = mine ? mine.answer : null;
  if (!offer) {
    button(t("rs.offer"), actions.rematch, "primary big").id = "rematch-button";
  } else if (answer === "offered" || answer === "accepted") {
    const b = button(t(answer === "offered" ? "rs.offered" : "rs.accepted") + " ✓", () => {}, "primary big");
    b.id = "rematch-button";
    b.disabled = true;
  } else {
    button(t("rs.accept"), actions.rematch, "primary big").id = "rematch-accept";
    if (answer !== "declined") button(t("rs.decline"), actions.decline).id = "rematch-decline";
  }
}

/** Who offered the rematch and each seat's answer ("Ann offered a rematch · you: waiting · Bob
 * declined"). @param {View} view @param {ResultActions} actions */
function rematchLine(view, actions) {
  const offer = actions.offer;
  const line = el("p", "rematch-line");
  line.id = "rematch-line";
  line.setAttribute("role", "status");
  const name = (/** @type {number} */ s) => (s === view.you ? t("rs.you_obj") : view.players[s] ? view.players[s].name : t("lb.seat", { n: s + 1 }));
  const here = actions.connected || [];
  const said = offer.seats.filter((s) => s.answer !== "bot" && s.answer !== "offered").map((s) => {
    const who = name(s.seat);
    if (s.answer === "waiting" && here[s.seat] === false) return t("rs.r_gone", { who });
    return ["accepted", "declined", "waiting", "left", "empty"].includes(s.answer)
      ? t(`rs.r_${s.answer}`, { who, n: s.seat + 1 }) : "";
  });
  const by = offer.by === null ? t("rs.r_someone") : offer.by === view.you ? t("rs.you") : name(offer.by);
  line.textContent = t("rs.r_offered", { who: by }) + (said.length ? ` · ${said.join(" · ")}` : "") + ".";
  return line;
}

/** Who the next hand waits for, and the countdown before it is dealt anyway.
 * @param {View} view @param {number[]} ready @param {string | null} countdown */
function readyLine(view, ready, countdown) {
  const line = el("p", "ready-line");
  line.id = "ready-line";
  const waiting = view.players.filter((p, s) => !ready.includes(s)).map((p) => (p.seat === view.you ? t("rs.you_obj") : p.name));
  line.append((waiting.length ? t("rs.waiting", { names: list(waiting) }) : t("rs.all_ready")) + " ");
  const c = el("span", "countdown", countdown || "");
  c.setAttribute("aria-hidden", "true");
  line.append(c);
  return line;
}
