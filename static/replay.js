// @ts-check
// History (my matches and stats) and the replay viewer of a finished match: step forward and
// back, play, jump to any move, every card face up (GET /api/matches/{id}/replay?at=N).

import * as api from "./api.js";
import { el } from "./dom.js";
import { date, more, num, t } from "./i18n.js";
import { renderTable } from "./table.js";
import { moveWords } from "./movelog.js";
import { reviewPanel } from "./review.js";

await more(); // the pages' words are in the later part of the catalogue

/** @typedef {import("./types.js").MatchItem} MatchItem */
/** @typedef {import("./types.js").Replay} Replay */
/** @typedef {import("./types.js").ReplayStep} ReplayStep */
/** @typedef {import("./types.js").Stats} Stats */
/** @typedef {import("./types.js").Card} Card */
/** @typedef {import("./types.js").OpenView} OpenView */

/** An ISO time as a person reads it. @param {string} iso */
const when = (iso) => date(iso, { dateStyle: "medium", timeStyle: "short" });

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
  const err = el("p", "form-error");
  err.setAttribute("role", "alert");
  page.append(stats, list, next, err);
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
    for (const [k, v] of rows) {
      stats.append(el("dt", "", k), el("dd", "", String(v)));
    }
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

/** One line of the history: when, who, won or lost, the totals, a link to the replay once over.
 * @param {MatchItem} m */
export function matchItem(m) {
  const li = el("li", "match-item");
  const names = m.players.map((p) => p.name).join(", ");
  const over = m.won !== null;
  const result = !over ? "in progress" : m.won ? "won" : m.winners.length ? "lost" : "draw";
  li.append(el("span", "when", when(m.ended_at || m.started_at)), " ",
    el("span", "who", names), " ", el("span", `badge ${result}`, t(`rp.${result.replace(" ", "_")}`)));
  li.append(" ", el("span", "muted", m.totals.join(" – ")));
  if (over) {
    const a = el("a", "", t("mn.replay"));
    a.href = "/#replay/" + encodeURIComponent(m.id);
    li.append(" ", a);
  } else if (m.room) { // still being played (or left): back to its table, to play on or watch
    const a = el("a", "resume", t("rp.back"));
    a.href = "/r/" + encodeURIComponent(m.room);
    li.append(" ", a);
  }
  return li;
}

/** The replay viewer for match `id`. @param {string} id @returns {{el: HTMLElement, stop: () => void}} */
export function replayPage(id) {
  const page = el("div", "replay");
  const title = el("h1", "", t("mn.replay"));
  const stage = el("div", "replay-stage");
  const controls = el("div", "replay-controls");
  controls.setAttribute("role", "toolbar");
  controls.setAttribute("aria-label", t("rp.controls"));
  /** @param {string} text @param {string} label @param {() => void} fn */
  const mk = (text, label, fn) => {
    const b = el("button", "", text);
    b.type = "button";
    b.setAttribute("aria-label", label);
    b.title = label;
    b.addEventListener("click", fn);
    controls.append(b);
    return b;
  };
  const pos = el("output", "replay-pos");
  pos.id = "replay-pos";
  const slider = el("input");
  slider.type = "range";
  slider.min = "0";
  slider.id = "replay-slider";
  slider.setAttribute("aria-label", t("rp.move_number"));
  const moveList = el("ol", "replay-moves");
  moveList.start = 0;
  moveList.setAttribute("aria-label", t("ml.moves"));
  const err = el("p", "form-error");
  err.setAttribute("role", "alert");
  page.append(title, controls, pos, stage, moveList, err);

  let at = 0;
  let total = 0;
  /** @type {number | undefined} */
  let timer;
  /** @type {Map<number, ReplayStep>} */
  const cache = new Map();
  let seq = 0;
  /** @type {{el: HTMLElement, show: (at: number) => void, stop: () => void} | null} */
  let review = null;

  /** @param {number} n */
  const show = async (n) => {
    n = Math.max(0, Math.min(total, n));
    at = n;
    slider.value = String(n);
    pos.textContent = t("rp.move_of", { n, of: total });
    for (const li of moveList.querySelectorAll("li")) {
      li.classList.toggle("current", Number(li.dataset.at) === n);
      if (Number(li.dataset.at) === n) inSight(moveList, /** @type {HTMLElement} */ (li));
    }
    const mine = ++seq;
    try {
      if (!cache.has(n)) cache.set(n, await api.replayStep(id, n));
      if (mine !== seq) return;
      const data = cache.get(n);
      stage.textContent = "";
      stage.append(renderTable(data.view, { spread: openPiles }));
      if (review) review.show(n);
    } catch (ex) {
      err.textContent = ex.message;
      stop();
    }
  };
  /** @type {Set<string>} */
  const openPiles = new Set();
  stage.addEventListener("click", (e) => {
    const peek = /** @type {HTMLElement | null} */ (/** @type {Element} */ (e.target).closest("[data-peek]"));
    if (!peek) return;
    const p = peek.dataset.peek;
    if (openPiles.has(p)) openPiles.delete(p); else openPiles.add(p);
    show(at);
  });
  const stop = () => { clearInterval(timer); timer = undefined; play.textContent = t("rp.play"); play.setAttribute("aria-label", t("rp.play")); };
  mk(`« ${t("rp.first")}`, t("rp.first_long"), () => { stop(); show(0); }).id = "replay-first";
  mk(`‹ ${t("rp.prev")}`, t("rp.prev_long"), () => { stop(); show(at - 1); }).id = "replay-prev";
  const play = mk(t("rp.play"), t("rp.play"), () => {
    if (timer) { stop(); return; }
    if (at >= total) show(0);
    play.textContent = t("rp.pause");
    play.setAttribute("aria-label", t("rp.pause"));
    timer = setInterval(() => { if (at >= total) stop(); else show(at + 1); }, 700);
  });
  play.id = "replay-play";
  mk(`${t("rp.next")} ›`, t("rp.next_long"), () => { stop(); show(at + 1); }).id = "replay-next";
  mk(`${t("rp.last")} »`, t("rp.last_long"), () => { stop(); show(total); }).id = "replay-last";
  controls.append(slider);
  slider.addEventListener("input", () => { stop(); show(Number(slider.value)); });
  page.addEventListener("keydown", (e) => {
    if (/** @type {Element} */ (e.target).closest("input:not([type=range]), textarea, select")) return;
    if (e.key === "ArrowRight") { e.preventDefault(); stop(); show(at + 1); }
    else if (e.key === "ArrowLeft") { e.preventDefault(); stop(); show(at - 1); }
    else if (e.key === "Home") { e.preventDefault(); stop(); show(0); }
    else if (e.key === "End") { e.preventDefault(); stop(); show(total); }
  });

  Promise.all([api.replay(id), api.replayStep(id, 0)]).then(async ([data, first]) => {
    cache.set(0, first);
    const names = data.names;
    // Every card of a hand is face up at its deal: card ids -> cards, per hand.
    /** @type {Map<number, Map<number, Card>>} */
    const cards = new Map();
    for (const h of data.hands) {
      if (!cache.has(h.start_v)) cache.set(h.start_v, await api.replayStep(id, h.start_v));
      cards.set(h.number, cardsOf(cache.get(h.start_v).view));
    }
    total = data.total;
    slider.max = String(total);
    const start = el("li", "", t("rp.deal"));
    start.dataset.at = "0";
    moveList.append(start);
    // A move's seq is the match version once it is applied: the step that shows it. A new
    // hand's deal is a step of its own (its start_v).
    const deals = new Map(data.hands.filter((h) => h.start_v > 0).map((h) => [h.start_v, h.number]));
    let last = 0;
    /** @param {number} at @param {string} text */
    const addStep = (at, text) => {
      const li = el("li");
      li.value = at;
      li.dataset.at = String(at);
      const b = el("button", "link", text);
      b.type = "button";
      b.addEventListener("click", () => { stop(); show(at); });
      li.append(b);
      moveList.append(li);
      return li;
    };
    // Each seat's moves of the turn, newest last, that a take-back may undo (struck out).
    /** @type {Map<number, {li: HTMLLIElement, card: Card | null}[]>} */
    let undoable = new Map();
    for (const m of data.moves) {
      for (const [v, n] of deals) if (v > last && v < m.seq) { addStep(v, t("rp.hand_dealt", { n })); undoable = new Map(); }
      const hand = cards.get(m.hand) || new Map();
      const mine = undoable.get(m.seat) || [];
      if (m.move.kind === "take_back") {
        const undone = mine.pop();
        if (undone) undone.li.classList.add("undone");
        addStep(m.seq, describe(m, names, hand, undone ? undone.card : null));
      } else {
        const li = addStep(m.seq, describe(m, names, hand));
        if (m.move.kind === "end_turn") undoable = new Map();
        else {
          mine.push({ li, card: "card" in m.move ? hand.get(m.move.card) || null : null });
          undoable.set(m.seat, mine);
        }
      }
      last = m.seq;
    }
    const day = data.moves.length ? date(data.moves[0].at) : "";
    title.textContent = `${names.join(` ${t("rp.vs")} `)}${day ? " · " + day : ""}`;
    document.title = `${t("mn.replay")}: ${title.textContent} · ${t("app.title")}`;
    const handAt = (/** @type {number} */ v) => data.hands.filter((h) => h.start_v <= v).pop();
    review = reviewPanel(id, {
      names, total, jump: (v) => { stop(); show(v); },
      words: (seat, move, v) => describe({ seq: v, hand: handAt(v)?.number ?? 1, seat, actor: "player", at: "",
        move: /** @type {Replay["moves"][number]["move"]} */ (move) }, names, cards.get(handAt(v)?.number ?? 1) || new Map()),
    });
    page.insertBefore(review.el, moveList);
    show(0);
  }).catch((ex) => { err.textContent = ex.message; });

  return { el: page, stop: () => { stop(); if (review) review.stop(); } };
}

/** Scroll `list` (not the page) so that `item` is in sight. @param {HTMLElement} list @param {HTMLElement} item */
function inSight(list, item) {
  const top = item.offsetTop - list.offsetTop;
  if (top < list.scrollTop) list.scrollTop = top;
  else if (top + item.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top + item.offsetHeight - list.clientHeight;
}

/** Every card on the table of an open view, by id. @param {OpenView} view */
function cardsOf(view) {
  /** @type {Map<number, Card>} */
  const out = new Map();
  /** @param {Card[]} list */
  const add = (list) => { for (const c of list) out.set(c.id, c); };
  add(view.stock);
  add(view.set_aside);
  for (const stack of view.centre) add(stack);
  for (const p of view.players) {
    add(p.hand);
    add(p.payoff);
    for (const stack of p.side) add(stack);
  }
  return out;
}

/** "Bob played 5♥ from their hand to centre 2" for one recorded move (moves the server made
 * for a player marked); a take-back names the card it took back (`undone`).
 * @param {Replay["moves"][number]} m @param {string[]} names @param {Map<number, Card>} cards @param {Card | null} [undone] */
function describe(m, names, cards, undone = null) {
  const mv = m.move;
  const named = { players: names.map((name) => ({ name })) };
  const card = "card" in mv ? cards.get(mv.card) || null : undone;
  const from = "from" in mv ? mv.from : undefined;
  const to = "to" in mv ? mv.to : undefined;
  const text = moveWords(named, null, { kind: mv.kind, seat: m.seat, card, from, to });
  return m.actor === "clock" || m.actor === "absent" ? t(`rp.by_${m.actor}`, { text }) : text;
}
