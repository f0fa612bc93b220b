// @ts-check
// Choosing among view.legal_moves (the client holds no rules: every move it sends is one of
// these, unchanged). Pure functions; no DOM.

import { t } from "./i18n.js";

/** @typedef {import("./types.js").Card} Card */
/** @typedef {import("./types.js").Move} Move */
/** @typedef {import("./types.js").Pile} Pile */
/** @typedef {import("./types.js").View} View */
/** A move that takes a card somewhere: any but end_turn and take_back.
 * @typedef {Exclude<Move, {kind: "end_turn"} | {kind: "take_back"}>} Placing */
/** Whatever names the seats: a view, or a replay's names. @typedef {{players: {name: string}[]}} Named */

/** The pile a move takes its card from ("hand" for a discard), or null for end_turn and take_back.
 * @param {Move} m */
export function sourceOf(m) {
  if (m.kind === "end_turn" || m.kind === "take_back") return null;
  if (m.kind === "discard") return "hand";
  return m.from;
}

/** Key of a card where it lies: "12@hand", "44@payoff:1". @param {number} card @param {Pile} from */
export const cardKey = (card, from) => `${card}@${from}`;

/** The top card of side stack `pile` ("side:S:K"). @param {View} view @param {Pile} pile */
function sideTop(view, pile) {
  const [, s, k] = pile.split(":");
  const stack = view.players[Number(s)].side[Number(k)];
  return stack[stack.length - 1];
}

/** The card a move takes: move_side names only piles, so its card is the top of `from`.
 * @param {View} view @param {Move} m */
function cardOf(view, m) {
  if (m.kind === "end_turn" || m.kind === "take_back") return null;
  return m.kind === "move_side" ? sideTop(view, m.from).id : m.card;
}

/** Map from cardKey to the legal moves that start with that card. @param {View} view */
export function movesBySource(view) {
  /** @type {Map<string, Move[]>} */
  const out = new Map();
  for (const m of view.legal_moves) {
    const from = sourceOf(m);
    if (from === null) continue;
    const key = cardKey(cardOf(view, m), from);
    if (!out.has(key)) out.set(key, []);
    out.get(key).push(m);
  }
  return out;
}

/** The legal moves for the card `card` lying on pile `from`.
 * @param {View} view @param {number} card @param {Pile} from @returns {Placing[]} */
export function movesFor(view, card, from) {
  /** @type {Placing[]} */
  const out = [];
  for (const m of view.legal_moves) {
    if (m.kind !== "end_turn" && m.kind !== "take_back" && sourceOf(m) === from && cardOf(view, m) === card) out.push(m);
  }
  return out;
}

/** The `end_turn` move, if it is among the legal moves. @param {View} view */
export const endTurnMove = (view) => view.legal_moves.find((m) => m.kind === "end_turn") || null;

/** The `take_back` move (undo your last move of this turn), if the engine lists it. @param {View} view */
export const takeBackMove = (view) => view.legal_moves.find((m) => m.kind === "take_back") || null;

/** @param {Pile} pile */
const slotOf = (pile) => Number(pile.split(":")[1]);

/**
 * The move a double-click or right-click makes (Hoyle's "play to the only centre stack it fits"):
 * the one play to a non-empty centre stack; or, when the card may only start a stack, the first
 * empty slot. Null when the card fits no centre stack, or several started stacks (then the player
 * must choose).
 * @param {View} view
 * @param {Move[]} moves
 * @returns {Move | null}
 */
export function autoMove(view, moves) {
  /** @type {(Move & {kind: "play"})[]} */
  const plays = [];
  for (const m of moves) if (m.kind === "play") plays.push(m);
  if (!plays.length) return null;
  const started = plays.filter((m) => view.centre[slotOf(m.to)].length > 0);
  if (started.length === 1) return started[0];
  if (started.length > 1) return null;
  return plays.reduce((a, b) => (slotOf(b.to) < slotOf(a.to) ? b : a));
}

/** Human words for a pile, from the point of view of seat `me`.
 * @param {Named} view @param {Pile} pile @param {number | null} me */
export function pileName(view, pile, me) {
  const [kind, a, b] = pile.split(":");
  const params = { name: kind === "centre" || kind === "hand" ? "" : playerName(view, Number(a)), n: Number(b) + 1 };
  const mine = Number(a) === me ? "mine" : "of";
  if (kind === "hand") return t("ml.hand_mine");
  if (kind === "centre") return t("ml.centre", { n: Number(a) + 1 });
  if (kind === "payoff" || kind === "side") return t(`ml.${kind}_${mine}`, params);
  return pile;
}

/** @param {Named} view @param {number} seat */
export const playerName = (view, seat) => view.players[seat].name;

/** The visible card with this id (hand, pay-off tops, side stacks, centre), or null.
 * @param {View} view @param {number} id
 * @returns {Card | null} */
export function findCard(view, id) {
  for (const c of view.hand) if (c.id === id) return c;
  for (const p of view.players) {
    if (p.payoff_top && p.payoff_top.id === id) return p.payoff_top;
    for (const st of p.side) for (const c of st) if (c.id === id) return c;
  }
  for (const st of view.centre) for (const c of st) if (c.id === id) return c;
  return null;
}
