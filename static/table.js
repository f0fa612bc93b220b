// Turns a view (protocol.md) into DOM, and nothing else: no sockets, no listeners.
// Piles carry data-pile (the wire's pile names) and cards data-card / data-from, which is all
// the input code (dnd.js) needs. Cards the view does not show are drawn face down.

import { cardBack, cardFace, cardName, cardSpace, el, rankName, stackRank } from "./cards.js";
import { cardKey, movesBySource, playerName } from "./moves.js";

export const TEAM = ["A", "B", "C"];

/**
 * The table for `view`.
 * opts: { movable: bool (the receiver may act now), spread: Set of pile names shown spread out,
 *         omniscient: bool (replays: every hand and pay-off pile face up), clock: text or null }
 */
export function renderTable(view, opts = {}) {
  const me = view.you;
  const movable = opts.movable === false ? new Map() : movesBySource(view);
  const spread = opts.spread || new Set();
  const root = el("section", "table");
  root.dataset.players = String(view.players.length);
  root.setAttribute("aria-label", "Card table");

  root.append(statusBar(view, opts));
  const order = seatOrder(view);
  const others = el("div", "opponents");
  const auto = new Set(opts.autoplay || []);
  for (const s of order) if (s !== me) others.append(playerPanel(view, s, { movable, spread, omniscient: opts.omniscient, auto: auto.has(s) }));
  root.append(others);
  root.append(centreRow(view, opts));
  if (me !== null && me !== undefined && view.players[me]) {
    root.append(playerPanel(view, me, { movable, spread, mine: true, auto: auto.has(me) }));
  }
  return root;
}

/** Seats clockwise, starting after the receiver (so the next player is first). */
export function seatOrder(view) {
  const n = view.players.length;
  const start = view.you === null || view.you === undefined ? 0 : view.you + 1;
  return Array.from({ length: n }, (_, i) => (start + i) % n);
}

/** One sentence saying whose turn it is (also what the live region says). */
export function turnText(view) {
  if (view.status !== "playing") return view.status === "match_over" ? "The match is over." : "The hand is over.";
  if (view.turn === view.you) {
    return (view.legal_moves || []).length ? "Your turn." : "Your turn (waiting for the server).";
  }
  const p = view.players[view.turn];
  const mate = view.you !== null && p && p.team !== null && p.team === (view.players[view.you] || {}).team;
  return `${playerName(view, view.turn)}${mate ? " (your partner)" : ""} is playing.`;
}

function statusBar(view, opts) {
  const bar = el("div", "status-bar");
  const turn = el("p", "turn-text", turnText(view));
  turn.id = "turn-text";
  if (view.turn === view.you && view.status === "playing") turn.classList.add("mine");
  bar.append(turn);
  if (opts.clock) {
    const c = el("span", "clock", opts.clock);
    c.setAttribute("aria-label", "Turn clock " + opts.clock);
    bar.append(c);
  }
  const info = el("p", "hand-info");
  const target = view.match_target ? ` · match to ${view.match_target}` : "";
  info.textContent = `Hand ${view.hand_number || 1}${target}`;
  bar.append(info);
  return bar;
}

function centreRow(view, opts) {
  const row = el("div", "centre-row");
  const stock = el("div", "pile stock");
  stock.dataset.pile = "stock";
  const stockCount = view.stock_count ?? (view.stock || []).length;
  if (opts.omniscient && view.stock && view.stock.length) {
    stock.append(cardFace(view.stock[view.stock.length - 1], { label: "Top of the stock: " + cardName(view.stock[view.stock.length - 1]) }));
  } else {
    stock.append(stockCount ? cardBack() : cardSpace());
  }
  stock.append(el("span", "count", String(stockCount)));
  stock.setAttribute("aria-label", `Stock: ${stockCount} cards`);
  stock.setAttribute("role", "group");
  const stockWrap = el("div", "stock-wrap");
  stockWrap.append(stock, el("span", "pile-label", "Stock"));
  if (view.set_aside_count) stockWrap.append(el("span", "pile-label", `${view.set_aside_count} set aside`));
  row.append(stockWrap);

  const centre = el("div", "centre");
  centre.setAttribute("role", "group");
  centre.setAttribute("aria-label", "Centre stacks");
  view.centre.forEach((stack, i) => {
    const slot = el("div", "pile centre-slot");
    slot.dataset.pile = `centre:${i}`;
    const rank = stackRank(stack);
    const top = stack[stack.length - 1];
    if (top) {
      slot.append(cardFace(top));
      slot.append(el("span", "count", String(stack.length)));
      slot.setAttribute("aria-label", `Centre stack ${i + 1}: up to ${rankName(rank)}, ${stack.length} cards, top ${cardName(top)}`);
    } else {
      slot.append(cardSpace(String(i + 1)));
      slot.setAttribute("aria-label", `Centre stack ${i + 1}: empty`);
    }
    centre.append(slot);
  });
  row.append(centre);
  return row;
}

function playerPanel(view, s, { movable, spread, mine, omniscient, auto }) {
  const p = view.players[s];
  const panel = el("section", "player");
  panel.dataset.seat = String(s);
  if (mine) panel.classList.add("me");
  if (view.turn === s && view.status === "playing") panel.classList.add("turn");
  if (p.connected === false) panel.classList.add("away");
  const myTeam = view.you !== null && view.you !== undefined ? (view.players[view.you] || {}).team : null;
  if (!mine && p.team !== null && p.team === myTeam) panel.classList.add("partner");

  const head = el("header", "player-head");
  const name = el("h3", "name", mine ? `${p.name} (you)` : p.name);
  head.append(name);
  if (p.team !== null && p.team !== undefined) {
    const t = el("span", `team team-${p.team}`, TEAM[p.team] || String(p.team + 1));
    t.title = `Team ${TEAM[p.team]}`;
    t.setAttribute("aria-label", `team ${TEAM[p.team]}`);
    head.append(t);
  }
  if (p.connected !== null && p.connected !== undefined) {
    const c = el("span", "conn " + (p.connected ? "on" : "off"), p.connected ? "online" : "away");
    head.append(c);
  }
  if (auto) head.append(el("span", "auto", "server plays while away"));
  if (view.turn === s && view.status === "playing") head.append(el("span", "to-play", "to play"));
  head.append(el("span", "score", `${p.score ?? 0} pts`));
  panel.append(head);
  panel.setAttribute("aria-label", `${p.name}${mine ? " (you)" : ""}: ${p.payoff_count} pay-off cards, ${p.hand_count} in hand, ${p.score ?? 0} points`);

  const piles = el("div", "piles");
  piles.append(payoffPile(view, s, p, movable, spread, omniscient));
  const sides = el("div", "side-stacks");
  p.side.forEach((stack, k) => sides.append(sidePile(view, s, k, stack, movable, spread)));
  piles.append(sides);
  panel.append(piles);

  if (mine) {
    panel.append(handRow(view.hand || [], movable));
  } else if (omniscient && p.hand) {
    const h = el("div", "hand-row others");
    for (const c of p.hand) h.append(cardFace(c));
    panel.append(h);
  } else {
    const h = el("div", "hand-count");
    h.setAttribute("aria-label", `${p.hand_count} cards in hand`);
    for (let i = 0; i < Math.min(p.hand_count, 5); i++) h.append(cardBack());
    h.append(el("span", "count", String(p.hand_count)));
    panel.append(h);
  }
  return panel;
}

function sourceCard(c, from, movable, label) {
  const can = movable.has(cardKey(c.id, from));
  const e = cardFace(c, { button: can || from === "hand", label });
  e.dataset.from = from;
  if (can) e.classList.add("movable");
  return e;
}

function payoffPile(view, s, p, movable, spread, omniscient) {
  const name = `payoff:${s}`;
  const pile = el("div", "pile payoff");
  pile.dataset.pile = name;
  const whose = s === view.you ? "Your" : `${p.name}'s`;
  if (p.payoff_top) {
    pile.append(sourceCard(p.payoff_top, name, movable, `${whose} pay-off top: ${cardName(p.payoff_top)}`));
  } else {
    pile.append(cardSpace("out"));
  }
  pile.append(el("span", "count", String(p.payoff_count)));
  pile.setAttribute("aria-label", `${whose} pay-off pile, ${p.payoff_count} cards`);
  const wrap = el("div", "pile-wrap");
  wrap.append(pile, el("span", "pile-label", "Pay-off"));
  if (omniscient && p.payoff && p.payoff.length > 1) wrap.append(spreadList(name, p.payoff, spread));
  return wrap;
}

function sidePile(view, s, k, stack, movable, spread) {
  const name = `side:${s}:${k}`;
  const pile = el("div", "pile side");
  pile.dataset.pile = name;
  const top = stack[stack.length - 1];
  const whose = s === view.you ? "Your" : `${playerName(view, s)}'s`;
  if (top) {
    pile.append(sourceCard(top, name, movable, `${whose} side stack ${k + 1} top: ${cardName(top)}`));
    if (stack.length > 1) pile.classList.add("deep");
  } else {
    pile.append(cardSpace());
  }
  pile.setAttribute("aria-label", `${whose} side stack ${k + 1}: ${stack.length ? stack.length + " cards" : "empty"}`);
  const wrap = el("div", "pile-wrap");
  wrap.append(pile);
  if (stack.length > 1) wrap.append(spreadList(name, stack, spread));
  return wrap;
}

/** The peek button and, when open, every card of a stack (bottom first). */
function spreadList(name, cards, spread) {
  const box = el("div", "spread-box");
  const open = spread.has(name);
  const b = el("button", "peek", `${cards.length}`);
  b.type = "button";
  b.dataset.peek = name;
  b.setAttribute("aria-expanded", String(open));
  b.setAttribute("aria-label", `Show all ${cards.length} cards`);
  box.append(b);
  if (open) {
    const list = el("ol", "spread");
    list.setAttribute("aria-label", "Cards from the bottom up");
    for (const c of cards) {
      const li = el("li");
      li.append(cardFace(c));
      list.append(li);
    }
    box.append(list);
  }
  return box;
}

function handRow(hand, movable) {
  const row = el("div", "hand-row");
  row.setAttribute("role", "group");
  row.setAttribute("aria-label", `Your hand, ${hand.length} cards`);
  row.dataset.pile = "hand";
  hand.forEach((c, i) => {
    const e = sourceCard(c, "hand", movable, `${cardName(c)}, hand card ${i + 1}`);
    e.dataset.key = String(i + 1);
    row.append(e);
  });
  if (!hand.length) row.append(el("span", "empty-hand", "No cards in hand"));
  return row;
}
