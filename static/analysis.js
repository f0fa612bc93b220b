// @ts-check
// The analysis board (route "#analysis/{match}/{v}/{seat}", optionally "/{move}": the review's
// better move, marked): a finished match's position at version v as that seat saw it, the best
// moves with each one's chance to win the hand, and what-if moves to try (POST
// /api/matches/{id}/analysis, docs/protocol.md "Analysis board (v1.4)"). Back steps back one
// what-if move; trying another move from there is a new branch. Answers are kept per line of
// moves, so going back is instant.

import * as api from "./api.js";
import "./pages.js";
import { announce } from "./announce.js";
import { el } from "./dom.js";
import { more, t } from "./i18n.js";
import { linesList, moveText, movesList, noLinesText, percent, table, trailText } from "./analysisview.js";

await more(); // the board's words are in the later part of the catalogue

/** @typedef {import("./types.js").View} View */
/** @typedef {import("./types.js").AnalysisAnswer} AnalysisAnswer */
/** @typedef {import("./analysisview.js").WireMove} WireMove */

/** The route's parts, or null if it is not the board's. @param {string} hash */
export function parseRoute(hash) {
  const m = hash.match(/^analysis\/([^/]+)\/(\d+)\/(\d+)(?:\/(.+))?$/);
  if (!m) return null;
  /** @type {WireMove | null} */
  let best = null;
  try {
    best = m[4] ? JSON.parse(decodeURIComponent(m[4])) : null;
  } catch {
    best = null;
  }
  return { id: decodeURIComponent(m[1]), v: Number(m[2]), seat: Number(m[3]), best };
}

/** The board page. @param {string} id @param {number} v @param {number} seat @param {WireMove | null} best
 * @returns {{el: HTMLElement, stop: () => void}} */
export function analysisPage(id, v, seat, best) {
  const page = el("div", "analysis");
  const title = el("h1", "", t("ab.title"));
  const where = el("p", "ab-where");
  const about = el("p", "ab-about", t("ab.about"));
  const bar = el("div", "ab-controls");
  bar.setAttribute("role", "toolbar");
  bar.setAttribute("aria-label", t("ab.title"));
  const back = el("button", "", `‹ ${t("ab.back")}`);
  back.type = "button";
  back.id = "ab-back";
  back.title = t("ab.back_long");
  back.setAttribute("aria-label", t("ab.back_long"));
  const toReplay = el("a", "ab-replay", t("ab.to_replay"));
  toReplay.href = `#replay/${encodeURIComponent(id)}`;
  bar.append(back, toReplay);
  const trail = el("p", "ab-trail");
  trail.id = "ab-trail";
  const status = el("p", "ab-status");
  status.id = "ab-status"; // not a live region itself: each answer is announced once (announce.js)
  const body = el("div", "ab-body");
  const side = el("div", "ab-side");
  const stage = el("div", "ab-stage");
  body.append(stage, side);
  const err = el("p", "form-error");
  err.setAttribute("role", "alert");
  page.append(title, where, about, bar, trail, status, err, body);

  /** @type {WireMove[]} the what-if moves of the line on screen */
  let moves = [];
  /** @type {Map<string, AnalysisAnswer>} answers by line of moves */
  const kept = new Map();
  let seq = 0;
  let stopped = false;
  let total = 0;

  /** @param {WireMove[]} line */
  const ask = async (line) => {
    const key = JSON.stringify(line);
    const have = kept.get(key);
    if (have) return have;
    const answer = /** @type {AnalysisAnswer} */ (await api.post(`/api/matches/${encodeURIComponent(id)}/analysis`,
      { v, seat, moves: line }));
    kept.set(key, answer);
    return answer;
  };

  /** Show the line `line` (its answer once it comes). @param {WireMove[]} line */
  const show = async (line) => {
    moves = line;
    const mine = ++seq;
    err.textContent = "";
    back.disabled = !moves.length;
    page.setAttribute("aria-busy", "true");
    status.textContent = t("ab.loading");
    status.classList.add("loading");
    for (const b of side.querySelectorAll("button")) /** @type {HTMLButtonElement} */ (b).disabled = true;
    try {
      const a = await ask(line);
      if (mine !== seq || stopped) return;
      draw(a);
    } catch (ex) {
      if (mine !== seq || stopped) return;
      status.textContent = "";
      err.textContent = ex instanceof Error ? ex.message : String(ex);
      for (const b of side.querySelectorAll("button")) /** @type {HTMLButtonElement} */ (b).disabled = false;
      if (moves.length) moves = moves.slice(0, -1); // the move was not tried: the line stays where it was
      back.disabled = !moves.length;
    } finally {
      if (mine === seq) {
        page.removeAttribute("aria-busy");
        status.classList.remove("loading");
      }
    }
  };

  /** @param {AnalysisAnswer} a */
  const draw = (a) => {
    const view = /** @type {View} */ (a.position);
    const name = view.players[seat]?.name || "";
    where.textContent = t("ab.where", { n: v, of: total || v, name });
    // each what-if move said on the position it was tried on (kept answers of the shorter lines)
    const steps = moves.map((m, i) => ({ view: /** @type {View} */ (kept.get(JSON.stringify(moves.slice(0, i)))?.position || view), move: m }));
    trail.textContent = trailText(steps);
    const mark = !moves.length ? best : null; // the review's better move, on the position it was judged on
    stage.replaceChildren(table(view, mark));
    side.replaceChildren(linesList(a, tryMove, mark), movesList(a, tryMove, mark));
    const top = a.lines[0];
    const said = top ? t("ab.answered", { move: moveText(view, top.move), pct: percent(top.chance) }) : noLinesText(a);
    status.textContent = said;
    announce(said);
  };

  /** @param {WireMove} m */
  const tryMove = (m) => { show([...moves, m]); };
  back.addEventListener("click", () => { if (moves.length) show(moves.slice(0, -1)); });
  page.addEventListener("keydown", (e) => {
    if (e.key === "Backspace" && moves.length && !/** @type {Element} */ (e.target).closest("input, textarea")) {
      e.preventDefault();
      show(moves.slice(0, -1));
    }
  });

  api.replay(id).then((r) => { total = r.total; }, () => {}).finally(() => { if (!stopped) show([]); });
  document.title = `${t("ab.title")} · ${t("app.title")}`;
  return { el: page, stop: () => { stopped = true; } };
}
