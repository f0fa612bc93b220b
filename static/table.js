// @ts-check
// Turns a view (protocol.md) into DOM, and nothing else: no sockets, no listeners.
// Piles carry data-pile (the wire's pile names) and cards data-card / data-from, which is all
// the input code (dnd.js) needs. Cards the view does not show are drawn face down.

import { cardBack, cardFace, cardName, cardSpace, rankName, stackRank } from "./cards.js";
import { el } from "./dom.js";
import { list, t } from "./i18n.js";
import { cardKey, movesBySource, playerName } from "./moves.js";

/** @typedef {import("./types.js").Card} Card */
/** @typedef {import("./types.js").Move} Move */
/** @typedef {import("./types.js").Pile} Pile */
/** @typedef {import("./types.js").Player} Player */
/** @typedef {import("./types.js").OpenPlayer} OpenPlayer */
/** @typedef {import("./types.js").View} View */
/** @typedef {import("./types.js").OpenView} OpenView */
/**
 * How to draw a table: `spread` the piles shown spread out; `clock` the turn clock's text;
 * `autoplay` the seats the server plays for; `recent` the cards moved in the latest turn;
 * `lastMove` the log's latest line; `bots` the seats bots sit in. A replay has nothing movable.
 * @typedef {{spread?: Set<Pile>, clock?: string | null, autoplay?: number[], recent?: Set<number>, lastMove?: string,
 *   bots?: Set<number>}} TableOpts
 */
/** @typedef {Map<string, Move[]>} Movable */

export const TEAM = ["A", "B", "C"];

/** A team's letter in its coloured disc, named for screen readers ("Team A"). @param {number} team */
export function teamMark(team) {
  const letter = TEAM[team] || String(team + 1);
  const mark = el("span", `team team-${team}`, letter);
  mark.title = t("tb.team", { team: letter });
  mark.setAttribute("aria-label", mark.title);
  return mark;
}

/** Whether `view` is a replay's, with every card face up. @param {View | OpenView} view @returns {view is OpenView} */
const isOpen = (view) => "stock" in view;

/**
 * The table for `view`.
 * @param {View | OpenView} view
 * @param {TableOpts} [opts]
 */
export function renderTable(view, opts = {}) {
  const me = view.you;
  /** @type {Movable} */
  const movable = isOpen(view) ? new Map() : movesBySource(view);
  const spread = opts.spread || new Set();
  const root = el("section", "table");
  root.dataset.players = String(view.players.length);
  root.setAttribute("aria-label", t("tb.table"));

  root.append(statusBar(view, opts));
  if (opts.lastMove) {
    const last = el("p", "last-move", opts.lastMove);
    last.id = "last-move";
    root.append(last);
  }
  const order = seatOrder(view);
  // The real next player, by the engine's turn order: the seat after the one to play.
  const next = view.status === "playing" ? (view.turn + 1) % view.players.length : null;
  const others = el("div", "opponents");
  const auto = new Set(opts.autoplay || []);
  const bots = opts.bots || new Set();
  const seats = order.filter((s) => s !== me);
  if (me !== null) others.dataset.others = String(seats.length);
  for (const [i, s] of seats.entries()) {
    const panel = playerPanel(view, s, { movable, spread, mine: false, auto: auto.has(s), bot: bots.has(s), next: s === next });
    if (me !== null) placeMark(panel, seats.length, i);
    others.append(panel);
  }

  root.append(others);
  root.append(centreRow(view));
  if (me !== null) {
    root.append(playerPanel(view, me, { movable, spread, mine: true, auto: auto.has(me), bot: false, next: me === next }));
  }
  // each pile a named group, so its name is read while browsing (a button while it is a target)
  for (const p of root.querySelectorAll(".pile")) p.setAttribute("role", "group");
  for (const id of opts.recent || []) {
    for (const c of root.querySelectorAll(`.card.face[data-card="${id}"]`)) {
      if (!c.closest(".spread")) c.classList.add("just-moved");
    }
  }
  return root;
}

/** Seat the `i`th of `k` others in play order: left (after you), across, right. @param {HTMLElement} panel @param {number} k @param {number} i */
function placeMark(panel, k, i) {
  const place = k === 1 ? "across" : i === 0 ? "left" : i === k - 1 ? "right" : "across";
  panel.dataset.place = place;
  panel.querySelector(".name")?.after(el("span", "place", t(`tb.place_${place}`)));
}

/** Seats clockwise, starting after the receiver (so the next player is first). @param {View | OpenView} view */
export function seatOrder(view) {
  const n = view.players.length;
  const start = view.you === null ? 0 : view.you + 1;
  return Array.from({ length: n }, (_, i) => (start + i) % n);
}

/** One sentence saying whose turn it is (also what the live region says). @param {View | OpenView} view */
export function turnText(view) {
  if (view.status !== "playing") {
    return t(view.status !== "match_over" ? "tb.hand_over" : view.options.match_target === null ? "tb.game_over" : "tb.match_over");
  }
  if (view.turn === view.you) {
    return t(view.legal_moves.length ? "tb.your_turn" : "tb.your_turn_wait");
  }
  const p = view.players[view.turn];
  const mate = view.you !== null && p.team !== null && p.team === view.players[view.you].team;
  return t(mate ? "tb.partner_playing" : "tb.playing", { name: playerName(view, view.turn) });
}

/** "You are watching Ann and Bob …" to a spectator (a replay's open view excepted), else "".
 * @param {View | OpenView} view */
export const watchingYou = (view) =>
  view.you === null && !isOpen(view) ? t("tb.watching_you", { names: list(view.players.map((p) => p.name)) }) : "";

/** @param {View | OpenView} view @param {TableOpts} opts */
function statusBar(view, opts) {
  const bar = el("div", "status-bar");
  const turn = el("p", "turn-text", turnText(view));
  turn.id = "turn-text";
  if (view.turn === view.you && view.status === "playing") turn.classList.add("mine");
  const watching = watchingYou(view);
  if (watching) bar.append(el("p", "watching-you", watching));
  bar.append(turn);
  if (opts.clock) {
    const c = el("span", "clock", opts.clock);
    c.setAttribute("aria-label", t("tb.clock", { time: opts.clock }));
    bar.append(c);
  }
  const info = el("p", "hand-info");
  const target = view.match_target ? ` · ${t("tb.match_to", { n: view.match_target })}` : "";
  info.textContent = t("tb.hand", { n: view.hand_number }) + target;
  bar.append(info);
  return bar;
}

/** @param {View | OpenView} view */
function centreRow(view) {
  const row = el("div", "centre-row");
  const stock = el("div", "pile stock");
  stock.dataset.pile = "stock";
  const stockCount = view.stock_count;
  stock.append(stockCount ? cardBack() : cardSpace()); // face down, in the replay too
  stock.append(el("span", "count", String(stockCount)));
  stock.setAttribute("aria-label", t("tb.stock_n", { n: stockCount }));
  const stockWrap = el("div", "stock-wrap");
  stockWrap.append(stock, el("span", "pile-label", t("tb.stock")));
  if (view.set_aside_count) stockWrap.append(el("span", "pile-label", t("tb.set_aside", { n: view.set_aside_count })));
  row.append(stockWrap);

  const centre = el("div", "centre");
  centre.setAttribute("role", "group");
  centre.setAttribute("aria-label", t("tb.centre"));
  view.centre.forEach((stack, i) => {
    const slot = el("div", "pile centre-slot");
    slot.dataset.pile = `centre:${i}`;
    const rank = stackRank(stack);
    const top = stack[stack.length - 1];
    if (top) {
      slot.append(cardFace(top));
      slot.append(el("span", "count", String(stack.length)));
      slot.setAttribute("aria-label", t("tb.centre_stack", { i: i + 1, rank: rankName(rank), n: stack.length, card: cardName(top) }));
    } else {
      slot.append(cardSpace(String(i + 1)));
      slot.setAttribute("aria-label", t("tb.centre_empty", { i: i + 1 }));
    }
    centre.append(slot);
  });
  row.append(centre);
  return row;
}

/**
 * @param {View | OpenView} view
 * @param {number} s
 * @param {{movable: Movable, spread: Set<Pile>, mine: boolean, auto: boolean, bot: boolean, next?: boolean}} how
 */
function playerPanel(view, s, { movable, spread, mine, auto, bot, next }) {
  /** @type {Player | OpenPlayer} */
  const p = view.players[s];
  const panel = el("section", "player");
  panel.dataset.seat = String(s);
  if (mine) panel.classList.add("me");
  if (view.turn === s && view.status === "playing") panel.classList.add("turn");
  if (p.connected === false) panel.classList.add("away");
  const myTeam = view.you !== null ? view.players[view.you].team : null;
  const partner = !mine && p.team !== null && p.team === myTeam;
  if (partner) panel.classList.add("partner");
  if (p.team !== null) panel.dataset.team = TEAM[p.team];

  const head = el("header", "player-head");
  const name = el("h3", "name", mine ? t("tb.you", { name: p.name }) : p.name);
  head.append(name);
  if (p.team !== null) head.append(teamMark(p.team));
  if (partner) head.append(el("span", "partner-tag", t("tb.partner")));
  if (bot) {
    head.append(el("span", "badge bot-badge", t("tb.bot")));
  } else if (p.connected !== null) {
    const c = el("span", "conn " + (p.connected ? "on" : "off"), t(p.connected ? "tb.online" : "tb.away"));
    head.append(c);
  }
  if (auto) head.append(el("span", "auto", t("tb.auto")));
  if (view.turn === s && view.status === "playing") head.append(el("span", "to-play", t("tb.to_play")));
  if (next) head.append(el("span", "plays-next", t("tb.plays_next")));
  head.append(el("span", "score", t("tb.pts", { n: p.score })));
  panel.append(head);
  panel.setAttribute("aria-label", t("tb.player", { name: mine ? t("tb.you", { name: p.name }) : p.name,
    payoff: p.payoff_count, hand: p.hand_count, score: p.score }));

  const piles = el("div", "piles");
  piles.append(payoffPile(view, s, p, movable, spread));
  const sides = el("div", "side-stacks");
  // side_stacks_shown=peek: your own stacks come whole in own_side (the table shows their tops)
  const stacks = mine && view.own_side ? view.own_side : p.side;
  stacks.forEach((stack, k) => sides.append(sidePile(view, s, k, stack, movable, spread)));
  piles.append(sides);
  panel.append(piles);

  if (mine) {
    panel.append(handRow(view.hand, movable));
  } else if ("hand" in p) {
    const h = el("div", "hand-row others");
    for (const c of p.hand) h.append(cardFace(c));
    panel.append(h);
  } else {
    const h = el("div", "hand-count");
    h.setAttribute("aria-label", t("tb.in_hand", { n: p.hand_count }));
    for (let i = 0; i < Math.min(p.hand_count, 5); i++) h.append(cardBack());
    h.append(el("span", "count", String(p.hand_count)));
    panel.append(h);
  }
  return panel;
}

/** @param {Card} c @param {Pile} from @param {Movable} movable @param {string} label */
function sourceCard(c, from, movable, label) {
  const moves = movable.get(cardKey(c.id, from));
  const can = !!moves;
  // A card that can reach a centre stack is marked apart from one that can only be discarded.
  const playable = can && moves.some((m) => m.kind === "play");
  const e = cardFace(c, { button: can || from === "hand", label: playable ? t("tb.playable", { card: label }) : label });
  e.dataset.from = from;
  if (can) e.classList.add("movable", playable ? "playable" : "discard-only");
  return e;
}

/**
 * @param {View | OpenView} view @param {number} s @param {Player | OpenPlayer} p
 * @param {Movable} movable @param {Set<Pile>} spread
 */
function payoffPile(view, s, p, movable, spread) {
  const name = `payoff:${s}`;
  const pile = el("div", "pile payoff");
  pile.dataset.pile = name;
  const whose = s === view.you ? t("tb.yours") : t("tb.whose", { name: p.name });
  if (p.payoff_top) {
    pile.append(sourceCard(p.payoff_top, name, movable, t("tb.payoff_top", { who: whose, card: cardName(p.payoff_top) })));
  } else {
    pile.append(cardSpace(t("tb.out")));
  }
  // an open pile (the replay) says its count once: the number under it that opens it, as a side stack's
  const open = "payoff" in p && p.payoff.length > 1;
  if (!open) pile.append(el("span", "count", String(p.payoff_count)));
  pile.setAttribute("aria-label", t("tb.payoff_pile", { who: whose, n: p.payoff_count }));
  const wrap = el("div", "pile-wrap");
  wrap.append(pile, el("span", "pile-label", t("tb.payoff")));
  if (open) wrap.append(spreadList(name, p.payoff, spread));
  return wrap;
}

/**
 * @param {View | OpenView} view @param {number} s @param {number} k @param {Card[]} stack
 * @param {Movable} movable @param {Set<Pile>} spread
 */
function sidePile(view, s, k, stack, movable, spread) {
  const name = `side:${s}:${k}`;
  const pile = el("div", "pile side");
  pile.dataset.pile = name;
  const top = stack[stack.length - 1];
  const whose = s === view.you ? t("tb.yours") : t("tb.whose", { name: playerName(view, s) });
  // squared side stacks show only their tops: the count says how deep each one is
  const counts = view.players[s].side_counts;
  const count = counts ? counts[k] : stack.length;
  if (top) {
    pile.append(sourceCard(top, name, movable, t("tb.side_top", { who: whose, k: k + 1, card: cardName(top) })));
    if (count > 1) pile.classList.add("deep");
    if (count > stack.length) pile.append(el("span", "count", `${count}`));
  } else {
    pile.append(cardSpace());
  }
  pile.setAttribute("aria-label", t(count ? "tb.side" : "tb.side_empty", { who: whose, k: k + 1, n: count }));
  const wrap = el("div", "pile-wrap");
  wrap.append(pile);
  if (stack.length > 1) wrap.append(spreadList(name, stack, spread));
  return wrap;
}

/** The peek button and, when open, every card of a stack (bottom first).
 * @param {Pile} name @param {Card[]} cards @param {Set<Pile>} spread */
function spreadList(name, cards, spread) {
  const box = el("div", "spread-box");
  const open = spread.has(name);
  const b = el("button", "peek", `${cards.length}`);
  b.type = "button";
  b.dataset.peek = name;
  b.setAttribute("aria-expanded", String(open));
  b.setAttribute("aria-label", t("tb.show_all", { n: cards.length }));
  box.append(b);
  if (open) {
    const list = el("ol", "spread");
    list.setAttribute("aria-label", t("tb.bottom_up"));
    for (const c of cards) {
      const li = el("li");
      li.append(cardFace(c));
      list.append(li);
    }
    box.append(list);
  }
  return box;
}

/** @param {Card[]} hand @param {Movable} movable */
function handRow(hand, movable) {
  const row = el("div", "hand-row");
  row.setAttribute("role", "group");
  row.setAttribute("aria-label", t("tb.my_hand", { n: hand.length }));
  row.dataset.pile = "hand";
  hand.forEach((c, i) => {
    const e = sourceCard(c, "hand", movable, t("tb.hand_card", { card: cardName(c), i: i + 1 }));
    e.dataset.key = String(i + 1);
    row.append(e);
  });
  if (!hand.length) row.append(el("span", "empty-hand", t("tb.no_cards")));
  return row;
}
