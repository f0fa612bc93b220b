// Choosing among view.legal_moves (the client holds no rules: every move it sends is one of
// these, unchanged). Pure functions; no DOM.

/** The pile a move takes its card from ("hand" for a discard), or null for end_turn. */
export function sourceOf(m) {
  if (m.kind === "end_turn") return null;
  return m.from || "hand";
}

/** Key of a card where it lies: "12@hand", "44@payoff:1". */
export const cardKey = (card, from) => `${card}@${from}`;

/** Map from cardKey to the legal moves that start with that card. */
export function movesBySource(view) {
  const out = new Map();
  for (const m of (view && view.legal_moves) || []) {
    const from = sourceOf(m);
    if (from === null) continue;
    const key = cardKey(m.card ?? "top", from);
    if (!out.has(key)) out.set(key, []);
    out.get(key).push(m);
  }
  return out;
}

/** The legal moves for the card `card` lying on pile `from`. move_side moves carry no card
 * on the wire in some versions: they match on the pile alone. */
export function movesFor(view, card, from) {
  return ((view && view.legal_moves) || []).filter(
    (m) => sourceOf(m) === from && (m.card === undefined || m.card === null || m.card === card),
  );
}

/** Whether `end_turn` is among the legal moves. */
export const endTurnMove = (view) => ((view && view.legal_moves) || []).find((m) => m.kind === "end_turn") || null;

const slotOf = (pile) => Number(pile.split(":")[1]);

/**
 * The move a double-click or right-click makes (Hoyle's "play to the only centre stack it fits"):
 * the one play to a non-empty centre stack; or, when the card may only start a stack, the first
 * empty slot. Null when the card fits no centre stack, or several started stacks (then the player
 * must choose).
 */
export function autoMove(view, moves) {
  const plays = moves.filter((m) => m.kind === "play" && m.to.startsWith("centre:"));
  if (!plays.length) return null;
  const started = plays.filter((m) => (view.centre[slotOf(m.to)] || []).length > 0);
  if (started.length === 1) return started[0];
  if (started.length > 1) return null;
  return plays.reduce((a, b) => (slotOf(b.to) < slotOf(a.to) ? b : a));
}

/** Human words for a pile, from the point of view of seat `me`. */
export function pileName(view, pile, me) {
  const [kind, a, b] = pile.split(":");
  const whose = (s) => (Number(s) === me ? "your" : `${playerName(view, Number(s))}'s`);
  if (kind === "hand") return "your hand";
  if (kind === "centre") return `centre stack ${Number(a) + 1}`;
  if (kind === "payoff") return `${whose(a)} pay-off pile`;
  if (kind === "side") return `${whose(a)} side stack ${Number(b) + 1}`;
  return pile;
}

export function playerName(view, seat) {
  const p = view && view.players && view.players[seat];
  return p ? p.name : `seat ${seat + 1}`;
}

/** The visible card with this id (hand, pay-off tops, side stacks, centre), or null. */
export function findCard(view, id) {
  for (const c of view.hand || []) if (c.id === id) return c;
  for (const p of view.players || []) {
    if (p.payoff_top && p.payoff_top.id === id) return p.payoff_top;
    for (const st of p.side || []) for (const c of st) if (c.id === id) return c;
    for (const c of p.hand || []) if (c.id === id) return c;
  }
  for (const st of view.centre || []) for (const c of st) if (c.id === id) return c;
  return null;
}
