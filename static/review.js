// @ts-check
// The review of a finished match, on its replay page: ask for it, a progress bar while it is
// made (polled live, no reload), then a win-chance graph (SVG, one line per seat, hands marked,
// its axes: 0–100 % and the move numbers; click to jump), marks beside the moves, at each step
// the move that made it judged ("best was …", drawn on the table) and a summary per player
// (POST / GET /api/matches/{id}/review, docs/protocol.md "Match review").

import * as api from "./api.js";
import { ticks } from "./chart.js";
import { el } from "./dom.js";
import { more, num, t } from "./i18n.js";
import { boardHref } from "./analysisview.js";

await more(); // the review's words are in the later part of the catalogue

/**
 * @typedef {{kind: string, card?: number, from?: string, to?: string}} WireMove
 * @typedef {{v: number, seat: number, played: WireMove, best: WireMove, chance_played: number,
 *   chance_best: number, loss: number, mark: string | null}} Decision
 * @typedef {{v: number, seat: number, chance: number, hand: number}} Point
 * @typedef {{seat: number, decisions: number, accuracy: number | null, inaccuracies: number, mistakes: number,
 *   blunders: number, average_loss: number | null, luck: number}} Summary
 * @typedef {{status: string, progress: number, error?: string | null, level?: string, decisions?: Decision[],
 *   chances?: Point[], luck?: {hand: number, seat: number, points: number}[], summary?: Summary[]}} ReviewBody
 * @typedef {{names: string[], total: number, jump: (at: number) => void,
 *   words: (seat: number, move: WireMove, at: number) => string}} Hooks
 */

const SIGN = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"];
const POLL_MS = 1000;
const pct = (/** @type {number} */ x) => num(Math.round(100 * x) / 100, { style: "percent" });
const TENTH = { minimumFractionDigits: 1, maximumFractionDigits: 1 };
/** A decision's chance as the server rounded it (a tenth of a per cent: 41.5 %); nothing is rounded again here,
 * so the points lost (their difference, `loss`) and the mark agree with what is shown. @param {number} x */
const chance = (x) => num(x, { style: "percent", ...TENTH });
/** Points of winning chance lost, as shown ("5.0"). @param {number} x */
const lossText = (x) => num(x, TENTH);
/** "Inaccuracy", "Mistake", "Blunder". @param {string} mark */
const word = (mark) => t(`rv.${mark}`);

/** @param {string} id */
const getReview = (id) => /** @type {Promise<ReviewBody>} */ (api.get(`/api/matches/${encodeURIComponent(id)}/review`));
/** @param {string} id */
const askReview = (id) => /** @type {Promise<ReviewBody>} */ (api.post(`/api/matches/${encodeURIComponent(id)}/review`));

/** The review panel of match `id`. `show(at)` follows the replay's step; `stop()` ends polling.
 * @param {string} id @param {Hooks} hooks */
export function reviewPanel(id, hooks) {
  const box = el("section", "review");
  box.setAttribute("aria-label", t("rv.label"));
  const head = el("h2", "", t("rv.title"));
  const ask = el("button", "", t("rv.ask"));
  ask.type = "button";
  ask.id = "review-ask";
  ask.hidden = true;
  const state = el("p", "review-state");
  state.setAttribute("aria-live", "polite");
  const bar = /** @type {HTMLProgressElement} */ (el("progress", "review-progress"));
  bar.id = "review-progress";
  bar.max = 1;
  bar.hidden = true;
  bar.setAttribute("aria-label", t("rv.progress"));
  const graph = el("div", "review-graph");
  const summary = el("table", "review-summary");
  const note = el("p", "review-note");
  note.id = "review-note";
  note.setAttribute("aria-live", "polite");
  const err = el("p", "form-error");
  err.setAttribute("role", "alert");
  box.append(head, ask, state, bar, graph, summary, note, err);

  /** @type {ReviewBody | null} */
  let done = null;
  /** @type {Map<number, Decision>} */
  const byV = new Map();
  /** @type {number | undefined} */
  let timer;
  let at = 0;
  let stopped = false;

  /** @param {ReviewBody} body */
  const render = (body) => {
    ask.hidden = !(body.status === "failed");
    bar.hidden = !(body.status === "queued" || body.status === "running");
    bar.value = body.progress;
    state.textContent = body.status === "queued" ? t("rv.queued")
      : body.status === "running" ? t("rv.running", { pct: pct(body.progress) })
        : body.status === "failed" ? t("rv.failed", { text: body.error || t("rv.no_reason") })
          : "";
    if (body.status !== "done" || done) return;
    done = body;
    box.classList.add("done"); // what a done review shows (the note under the table) takes its room now
    for (const d of body.decisions || []) byV.set(d.v, d);
    drawGraph();
    drawSummary();
    markMoves();
    show(at);
  };
  const poll = async () => {
    clearTimeout(timer);
    if (stopped) return;
    try {
      const body = await getReview(id);
      render(body);
      if (body.status === "queued" || body.status === "running") timer = window.setTimeout(poll, POLL_MS);
    } catch (ex) {
      if (ex instanceof api.ApiError && ex.status === 404) {
        ask.hidden = !api.identity();
        state.textContent = api.identity() ? "" : t("rv.players_only");
      } else err.textContent = ex.message;
    }
  };
  ask.addEventListener("click", async () => {
    err.textContent = "";
    ask.disabled = true;
    try {
      render(await askReview(id));
      poll();
    } catch (ex) {
      err.textContent = ex.message;
    } finally {
      ask.disabled = false;
    }
  });

  const drawGraph = () => {
    if (!done) return;
    const points = done.chances || [];
    const W = 600;
    const H = 160;
    const total = Math.max(1, hooks.total);
    const x = (/** @type {number} */ v) => (W * v) / total;
    const y = (/** @type {number} */ c) => H - H * c;
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    svg.setAttribute("preserveAspectRatio", "none");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", t("rv.graph"));
    svg.id = "review-graph";
    /** @param {string} tag @param {Record<string, string | number>} attrs */
    const add = (tag, attrs) => {
      const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
      svg.append(e);
      return e;
    };
    // The value axis, 0–100 % (HTML beside the graph, which stretches), a grid line at each quarter.
    const yTicks = el("div", "review-yticks");
    for (const c of [0, 0.25, 0.5, 0.75, 1]) {
      add("line", { x1: 0, x2: W, y1: y(c), y2: y(c), class: c === 0.5 ? "review-half" : "review-grid" });
      const tick = el("span", "", pct(c));
      tick.style.top = `${100 * (1 - c)}%`;
      yTicks.append(tick);
    }
    // The move numbers along the bottom, as the move list numbers its rows (a replay's step).
    const xTicks = el("div", "review-xticks");
    for (const v of new Set(ticks(0, total))) {
      if (v < 0 || v > total) continue;
      const tick = el("span", "", num(v));
      tick.style.left = `${(100 * v) / total}%`;
      tick.style.transform = `translateX(${v === 0 ? 0 : (100 * v) / total > 94 ? -100 : -50}%)`;
      xTicks.append(tick);
    }
    yTicks.setAttribute("aria-hidden", "true");
    xTicks.setAttribute("aria-hidden", "true");
    const hands = new Map();
    /** @type {HTMLElement[]} */
    const tags = [];
    for (const p of points) if (!hands.has(p.hand)) hands.set(p.hand, p.v);
    for (const [n, v] of hands) {
      add("line", { x1: x(v), x2: x(v), y1: 0, y2: H, class: "review-hand" });
      tags.push(el("span", "review-hand-label", t("tb.hand", { n }))); // HTML over the graph: the SVG stretches
      tags[tags.length - 1].style.left = `${(100 * v) / total}%`;
    }
    const seats = [...new Set(points.map((p) => p.seat))].sort();
    for (const s of seats) {
      const mine = points.filter((p) => p.seat === s);
      const d = mine.map((p, i) => `${i ? "L" : "M"}${x(p.v).toFixed(1)},${y(p.chance).toFixed(1)}`).join(" ");
      const path = add("path", { d, class: "review-line", stroke: COLOURS[s % COLOURS.length] });
      path.dataset.seat = String(s);
    }
    for (const dec of done.decisions || []) {
      if (!dec.mark) continue;
      const cx = x(dec.v);
      const cy = y(dec.chance_played);
      add("line", { x1: cx, x2: cx, y1: cy, y2: cy + 0.01, class: `review-dot ${dec.mark}` });
    }
    const cursor = add("line", { x1: 0, x2: 0, y1: 0, y2: H, class: "review-cursor" });
    cursor.id = "review-cursor";
    svg.addEventListener("click", (e) => {
      const r = svg.getBoundingClientRect();
      hooks.jump(Math.round(((e.clientX - r.left) / Math.max(1, r.width)) * total));
    });
    const legend = el("p", "review-legend");
    for (const s of seats) {
      const key = el("span", "review-key", hooks.names[s] || t("lb.seat", { n: s + 1 }));
      key.style.borderColor = COLOURS[s % COLOURS.length];
      legend.append(key, " ");
    }
    const plot = el("div", "review-plot");
    plot.append(svg, ...tags);
    const chart = el("div", "review-chart");
    chart.append(yTicks, plot, el("span"), xTicks);
    graph.textContent = "";
    graph.append(el("p", "review-axis", t("rv.axis_chance")), chart, el("p", "review-axis x", t("rp.move_number")), legend);
  };

  const drawSummary = () => {
    if (!done) return;
    summary.textContent = "";
    const rows = done.summary || [];
    if (!rows.length) return;
    const headRow = el("tr");
    for (const [h, title] of [[t("rs.player"), ""], [t("rv.accuracy"), t("rv.accuracy_about")],
      ["?!", t("rv.inaccuracies_about")], ["?", t("rv.mistakes_about")], ["??", t("rv.blunders_about")],
      [t("rv.luck"), t("rv.luck_about")]]) {
      const th = el("th", "", h);
      if (title) th.title = title;
      headRow.append(th);
    }
    summary.append(headRow);
    for (const s of rows) {
      const tr = el("tr");
      const luck = num(s.luck, { signDisplay: "exceptZero" });
      for (const cell of [hooks.names[s.seat] || t("lb.seat", { n: s.seat + 1 }), s.accuracy === null ? "–" : num(s.accuracy),
        num(s.inaccuracies), num(s.mistakes), num(s.blunders), luck]) tr.append(el("td", "", cell));
      summary.append(tr);
    }
    const cap = el("caption", "", t("rv.caption"));
    summary.prepend(cap);
  };

  /** Marks beside the moves of the replay's move list (its items carry data-at = v). */
  const markMoves = () => {
    const list = box.parentElement?.querySelector(".replay-moves");
    if (!list) return;
    for (const li of list.querySelectorAll("li[data-at]")) {
      const d = byV.get(Number(/** @type {HTMLElement} */ (li).dataset.at));
      if (!d || !d.mark || li.querySelector(".review-mark")) continue;
      const m = /** @type {"inaccuracy" | "mistake" | "blunder"} */ (d.mark);
      const badge = el("span", `review-mark ${m}`, SIGN[m]);
      badge.title = t("rv.judged", { mark: word(m), n: lossText(d.loss) });
      li.append(" ", badge);
    }
  };

  /** Follow the replay to step `n`: the cursor, and the move that made this step (the move
   * list's row n, where its mark is) judged, its better move drawn on the table. @param {number} n */
  const show = (n) => {
    at = n;
    const cursor = graph.querySelector("#review-cursor");
    if (cursor) {
      const xv = (600 * n) / Math.max(1, hooks.total);
      cursor.setAttribute("x1", String(xv));
      cursor.setAttribute("x2", String(xv));
    }
    const d = byV.get(n);
    const table = box.parentElement?.querySelector(".replay-stage");
    for (const e of table?.querySelectorAll(".review-best, .review-target") || []) {
      e.classList.remove("review-best", "review-target");
    }
    if (!d) {
      note.textContent = done ? "" : note.textContent;
      return;
    }
    const same = JSON.stringify(d.played) === JSON.stringify(d.best);
    const judged = d.mark ? `${t("rv.judged", { mark: word(d.mark), n: lossText(d.loss) })}. ` : "";
    note.textContent = t("rv.played", { move: hooks.words(d.seat, d.played, n), pct: chance(d.chance_played) }) + " " +
      (same ? t("rv.best_played") : judged + t("rv.best_was", { move: hooks.words(d.seat, d.best, n), pct: chance(d.chance_best) }));
    if (d.mark) { // a marked move: its position (the step before it) in the board, the better move marked
      const open = el("a", "review-board", t("ab.open"));
      open.id = "review-board";
      open.href = boardHref(id, n - 1, d.seat, same ? null : d.best);
      open.title = t("ab.open_long");
      note.append(" ", open);
    }
    if (same || !table) return;
    if (d.best.card !== undefined) {
      for (const c of table.querySelectorAll(`.card[data-card="${d.best.card}"]`)) c.classList.add("review-best");
    }
    if (d.best.to) for (const p of table.querySelectorAll(`[data-pile="${d.best.to}"]`)) p.classList.add("review-target");
  };

  poll();
  return { el: box, show, stop: () => { stopped = true; clearTimeout(timer); } };
}
