// History (my matches and stats) and the replay viewer of a finished match: step forward and
// back, play, jump to any move, every card face up (GET /api/matches/{id}/replay?at=N).

import * as api from "./api.js";
import { el } from "./cards.js";
import { renderTable } from "./table.js";
import { pileName } from "./moves.js";

function when(x) {
  if (!x) return "";
  const d = new Date(typeof x === "number" && x < 1e12 ? x * 1000 : x);
  return isNaN(d) ? String(x) : d.toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
}

/** The history page. ctx: {navigate, every} */
export function historyPage(ctx) {
  const page = el("div", "history");
  page.append(el("h1", "", "My matches"));
  const me = api.identity();
  if (!me) {
    page.append(el("p", "", "You have no guest identity in this browser yet, so no history."));
    return page;
  }
  const stats = el("dl", "stats");
  const list = el("ol", "match-list");
  const more = el("button", "", "Load more");
  more.type = "button";
  more.hidden = true;
  const err = el("p", "form-error");
  err.setAttribute("role", "alert");
  page.append(stats, list, more, err);
  const all = [];
  let cursor = null;

  const showStats = (s) => {
    s = s || {};
    const finished = all.filter((m) => isOver(m));
    const won = finished.filter((m) => iWon(m, me.id)).length;
    const played = s.matches ?? s.played ?? finished.length;
    const wins = s.wins ?? s.won ?? won;
    stats.textContent = "";
    const rows = [["Matches played", played], ["Won", wins],
      ["Win rate", played ? Math.round((100 * wins) / played) + "%" : "–"]];
    if (s.points !== undefined) rows.push(["Points", s.points]);
    if (s.hands_played !== undefined) rows.push(["Hands won", `${s.hands_won ?? 0} of ${s.hands_played}`]);
    if (s.average_cards_left !== undefined && s.average_cards_left !== null) rows.push(["Pay-off cards left per hand", s.average_cards_left]);
    for (const [k, v] of rows) {
      stats.append(el("dt", "", k), el("dd", "", String(v)));
    }
  };
  let profile = null;
  const load = async () => {
    try {
      const data = await api.matches(me.id, cursor);
      const items = Array.isArray(data) ? data : data.items || [];
      cursor = data.next || null;
      more.hidden = !cursor;
      all.push(...items);
      for (const m of items) list.append(matchItem(m, me.id, ctx));
      if (!all.length) list.append(el("li", "muted", "No matches yet. Play one from the home page!"));
      showStats(profile);
    } catch (ex) {
      err.textContent = ex.message;
    }
  };
  more.addEventListener("click", load);
  api.stats(me.id).then((s) => { profile = s; showStats(s); }).catch(() => {});
  load();
  return page;
}

const isOver = (m) => ["over", "finished", "match_over", "done"].includes(m.status) || !!m.ended_at || !!m.finished_at;

function mySeat(m, myId) {
  const ps = m.players || [];
  const p = ps.find((x) => x && String(x.id ?? x.player_id) === myId);
  return p ? p.seat ?? ps.indexOf(p) : null;
}

function iWon(m, myId) {
  const s = mySeat(m, myId);
  const w = m.winners || m.match_winners || [];
  return s !== null && w.includes(s);
}

function matchItem(m, myId, ctx) {
  const li = el("li", "match-item");
  const names = (m.players || []).map((p) => (typeof p === "object" ? p.name : p)).join(", ");
  const over = isOver(m);
  const result = !over ? "in progress" : iWon(m, myId) ? "won" : (m.winners || []).length ? "lost" : "draw";
  li.append(el("span", "when", when(m.ended_at || m.finished_at || m.started_at || m.created_at)), " ",
    el("span", "who", names), " ", el("span", `badge ${result}`, result));
  if (m.totals) li.append(" ", el("span", "muted", m.totals.join(" – ")));
  if (over) {
    const a = el("a", "", "Replay");
    a.href = "/#replay/" + encodeURIComponent(m.id ?? m.match_id);
    li.append(" ", a);
  }
  return li;
}

/** The replay viewer for match `id`. ctx: {navigate} ; returns {el, stop()} */
export function replayPage(id, ctx) {
  const page = el("div", "replay");
  const title = el("h1", "", "Replay");
  const stage = el("div", "replay-stage");
  const controls = el("div", "replay-controls");
  controls.setAttribute("role", "toolbar");
  controls.setAttribute("aria-label", "Replay controls");
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
  slider.setAttribute("aria-label", "Move number");
  const moveList = el("ol", "replay-moves");
  moveList.start = 0;
  moveList.setAttribute("aria-label", "Moves");
  const err = el("p", "form-error");
  err.setAttribute("role", "alert");
  page.append(title, controls, pos, stage, moveList, err);

  let at = 0;
  let total = 0;
  let timer = null;
  const cache = new Map();
  let seq = 0;

  const show = async (n) => {
    n = Math.max(0, Math.min(total, n));
    at = n;
    slider.value = String(n);
    pos.textContent = `Move ${n} of ${total}`;
    for (const li of moveList.children) li.classList.toggle("current", Number(li.dataset.at) === n);
    const mine = ++seq;
    try {
      if (!cache.has(n)) cache.set(n, await api.replay(id, n));
      if (mine !== seq) return;
      const data = cache.get(n);
      stage.textContent = "";
      stage.append(renderTable(data.view, { movable: false, omniscient: true, spread: openPiles }));
    } catch (ex) {
      err.textContent = ex.message;
      stop();
    }
  };
  const openPiles = new Set();
  stage.addEventListener("click", (e) => {
    const peek = e.target.closest("[data-peek]");
    if (!peek) return;
    const p = peek.dataset.peek;
    if (openPiles.has(p)) openPiles.delete(p); else openPiles.add(p);
    show(at);
  });
  const stop = () => { clearInterval(timer); timer = null; play.textContent = "Play"; play.setAttribute("aria-label", "Play"); };
  mk("« First", "First position", () => { stop(); show(0); }).id = "replay-first";
  mk("‹ Back", "Step back", () => { stop(); show(at - 1); }).id = "replay-prev";
  const play = mk("Play", "Play", () => {
    if (timer) { stop(); return; }
    if (at >= total) show(0);
    play.textContent = "Pause";
    play.setAttribute("aria-label", "Pause");
    timer = setInterval(() => { if (at >= total) stop(); else show(at + 1); }, 700);
  });
  play.id = "replay-play";
  mk("Next ›", "Step forward", () => { stop(); show(at + 1); }).id = "replay-next";
  mk("Last »", "Last position", () => { stop(); show(total); }).id = "replay-last";
  controls.append(slider);
  slider.addEventListener("input", () => { stop(); show(Number(slider.value)); });
  page.addEventListener("keydown", (e) => {
    if (e.target.closest("input:not([type=range]), textarea, select")) return;
    if (e.key === "ArrowRight") { e.preventDefault(); stop(); show(at + 1); }
    else if (e.key === "ArrowLeft") { e.preventDefault(); stop(); show(at - 1); }
    else if (e.key === "Home") { e.preventDefault(); stop(); show(0); }
    else if (e.key === "End") { e.preventDefault(); stop(); show(total); }
  });

  Promise.all([api.replay(id), api.replay(id, 0)]).then(([data, first]) => {
    cache.set(0, first);
    const names = first.view.players.map((p) => p.name);
    total = data.total ?? (data.moves || []).length;
    slider.max = String(total);
    const moves = data.moves || [];
    const start = el("li", "", "Deal");
    start.dataset.at = "0";
    moveList.append(start);
    // A move's seq is the match version once it is applied: the step that shows it. A new
    // hand's deal is a step of its own (its start_v).
    const deals = new Map((data.hands || []).filter((h) => h.start_v > 0).map((h) => [h.start_v, h.number]));
    let last = 0;
    const addStep = (at, text) => {
      const li = el("li");
      li.value = at;
      li.dataset.at = String(at);
      const b = el("button", "link", text);
      b.type = "button";
      b.addEventListener("click", () => { stop(); show(at); });
      li.append(b);
      moveList.append(li);
    };
    moves.forEach((m, i) => {
      const at = typeof m.seq === "number" ? m.seq : i + 1;
      for (const [v, n] of deals) if (v > last && v < at) addStep(v, `Hand ${n} dealt`);
      addStep(at, describe(m, names));
      last = at;
    });
    title.textContent = `Replay of match ${data.match_id ?? id}`;
    show(0);
  }).catch((ex) => { err.textContent = ex.message; });

  return { el: page, stop };
}

/** "Ann: play from Ann's pay-off pile → centre stack 2" for one recorded move. */
function describe(m, names) {
  const mv = m.move || m.payload || m;
  const who = m.name || (typeof m.seat === "number" ? names[m.seat] || `Seat ${m.seat + 1}` : "");
  if (m.type === "deal" || m.kind === "deal") return "New deal";
  if (!mv.kind) return `${who} ${JSON.stringify(mv)}`;
  const v = { centre: [], players: names.map((name) => ({ name })), you: null };
  const to = mv.to ? " → " + pileName(v, mv.to, null) : "";
  const from = mv.from ? " from " + pileName(v, mv.from, null) : "";
  return `${who ? who + ": " : ""}${mv.kind.replace("_", " ")}${from}${to}`;
}
