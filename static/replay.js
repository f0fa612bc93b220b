// @ts-check
// The replay viewer of a finished match: step forward and back, play, jump to any move, every
// card face up but the stock's (GET /api/matches/{id}/replay?at=N), each hand's end said (how,
// who went out, points), a stage that keeps its height from step to step.

import * as api from "./api.js";
import { el } from "./dom.js";
import { more, num, t } from "./i18n.js";
import { renderTable } from "./table.js";
import { moveWords } from "./movelog.js";
import { reviewPanel } from "./review.js";
import { handEnd, when } from "./history.js";
import { sealedNote } from "./daily.js";
import { boardHref } from "./analysisview.js";

await more(); // the pages' words are in the later part of the catalogue

/** @typedef {import("./types.js").Replay} Replay */
/** @typedef {import("./types.js").ReplayStep} ReplayStep */
/** @typedef {import("./types.js").Card} Card */
/** @typedef {import("./types.js").OpenView} OpenView */

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
    b.disabled = true; // until the match has loaded: "Last" before then would mean move 0
    controls.append(b);
    return b;
  };
  const pos = el("output", "replay-pos");
  pos.id = "replay-pos";
  const slider = el("input");
  slider.type = "range";
  slider.min = "0";
  slider.id = "replay-slider";
  slider.disabled = true;
  slider.setAttribute("aria-label", t("rp.move_number"));
  const moveList = el("ol", "replay-moves");
  moveList.setAttribute("aria-label", t("ml.moves"));
  const now = el("p", "replay-now"); // the step's move, or how the hand ended: two lines kept
  now.id = "replay-now";
  now.setAttribute("aria-live", "polite");
  const err = el("p", "form-error");
  err.setAttribute("role", "alert");
  page.append(title, controls, pos, now, stage, moveList, err);
  /** @type {Map<number, string>} what each step did, and a hand's last move how the hand ended */
  const said = new Map();
  let tallest = 0, wordy = 0; // the stage and the line above it never shrink between steps: the page does not jump

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
    now.textContent = said.get(n) || "";
    for (const li of moveList.querySelectorAll("li")) {
      const here = Number(li.dataset.at ?? li.dataset.end) === n;
      li.classList.toggle("current", here);
      if (here) inSight(moveList, /** @type {HTMLElement} */ (li)); // a hand's end after its last move
    }
    const mine = ++seq;
    try {
      if (!cache.has(n)) cache.set(n, await api.replayStep(id, n));
      if (mine !== seq) return;
      const data = cache.get(n);
      stage.textContent = "";
      stage.append(renderTable(data.view, { spread: openPiles }));
      tallest = Math.max(tallest, stage.offsetHeight);
      stage.style.minHeight = `${tallest}px`;
      wordy = Math.max(wordy, now.offsetHeight);
      now.style.minHeight = `${wordy}px`;
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
  // the position on screen in the analysis board, as the seat to move there saw it
  mk(t("ab.analyse"), t("ab.analyse_long"), async () => {
    stop();
    const n = at;
    try {
      const step = cache.get(n) || await api.replayStep(id, n);
      location.hash = boardHref(id, n, step.view.turn);
    } catch (ex) {
      err.textContent = ex.message;
    }
  }).id = "replay-analyse";
  controls.append(slider);
  slider.addEventListener("input", () => { stop(); show(Number(slider.value)); });
  page.addEventListener("keydown", (e) => {
    if (slider.disabled || /** @type {Element} */ (e.target).closest("input:not([type=range]), textarea, select")) return;
    if (e.key === "ArrowRight") { e.preventDefault(); stop(); show(at + 1); }
    else if (e.key === "ArrowLeft") { e.preventDefault(); stop(); show(at - 1); }
    else if (e.key === "Home") { e.preventDefault(); stop(); show(0); }
    else if (e.key === "End") { e.preventDefault(); stop(); show(total); }
  });

  const resized = () => { tallest = wordy = 0; stage.style.minHeight = now.style.minHeight = ""; };
  addEventListener("resize", resized, { passive: true });
  Promise.all([api.replay(id), api.replayStep(id, 0), api.matchDetail(id)]).then(async ([data, first, detail]) => {
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
    for (const c of controls.querySelectorAll("button, input")) /** @type {HTMLButtonElement} */ (c).disabled = false;
    /** @param {number} at @param {string} text @param {string} [cls] */
    const addStep = (at, text, cls = "") => {
      const li = el("li", cls);
      if (!cls) li.dataset.at = String(at); else li.dataset.end = String(at);
      const b = el("button", "link", text);
      b.type = "button";
      b.addEventListener("click", () => { stop(); show(at); });
      li.append(el("span", "mv-n", cls ? "" : num(at)), b);
      moveList.append(li);
      if (!cls) said.set(at, text);
      return li;
    };
    addStep(0, t("rp.deal"));
    // How each hand ended, after its last move (the step that shows it over).
    /** @type {Map<number, string>} */
    const ends = new Map();
    for (const h of data.hands) {
      const lastMove = data.moves.filter((m) => m.hand === h.number).pop();
      const out = detail.hands.find((d) => d.number === h.number);
      if (!h.result || !lastMove) continue;
      const left = names.map((_, s) => out?.scores.find((x) => x.seat === s)?.payoff_left ?? -1);
      const end = handEnd(h.result, names, out ? left : null);
      ends.set(lastMove.seq, t("rp.hand_end", { hand: t("rs.hand_over", { n: h.number }), who: end.who, points: end.points }));
    }
    // A move's seq is the match version once it is applied: the step that shows it. A new
    // hand's deal is a step of its own (its start_v).
    const deals = new Map(data.hands.filter((h) => h.start_v > 0).map((h) => [h.start_v, h.number]));
    let last = 0;
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
      const end = ends.get(m.seq);
      if (end) {
        addStep(m.seq, end, "hand-end");
        said.set(m.seq, `${said.get(m.seq)}\n${end}`);
      }
    }
    title.textContent = `${names.join(` ${t("rp.vs")} `)} · ${when(data.started_at)}`; // a match is dated by its start everywhere
    document.title = `${t("mn.replay")}: ${title.textContent} · ${t("app.title")}`;
    const handAt = (/** @type {number} */ v) => data.hands.filter((h) => h.start_v <= v).pop();
    review = reviewPanel(id, {
      names, total, jump: (v) => { stop(); show(v); },
      words: (seat, move, v) => describe({ seq: v, hand: handAt(v)?.number ?? 1, seat, actor: "player", at: "",
        move: /** @type {Replay["moves"][number]["move"]} */ (move) }, names, cards.get(handAt(v)?.number ?? 1) || new Map()),
    });
    page.insertBefore(review.el, moveList);
    show(0);
  }).catch((ex) => { // a daily deal's replay opens when its day is over: say when, as a note, not an error
    const body = ex instanceof api.ApiError ? ex.body : null;
    if (body && body.reason === "daily_sealed") page.replaceChildren(title, sealedNote(String(body.params.day)));
    else err.textContent = ex.message;
  });

  return { el: page, stop: () => { stop(); removeEventListener("resize", resized); if (review) review.stop(); } };
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
  const resigned = /** @type {string} */ (mv.kind) === "forfeit" && from; // a forfeit naming its seat: a resign
  const text = resigned ? t("ml.resign", { name: names[m.seat] }) : moveWords(named, null, { kind: mv.kind, seat: m.seat, card, from, to });
  return m.actor === "clock" || m.actor === "absent" ? t(`rp.by_${m.actor}`, { text }) : text;
}
