"""Search inside the turn: how Hard's simulation plays on after a card is shown.

Hard's candidates are whole-turn plans made on the seat's template, and a plan stops where the
engine would show a card the seat cannot know yet (a pay-off card turned up, a fresh hand). In a
sampled world that card is known, so the seat can plan again: `finish_turn` plays the rest of
the turn as the planner (Normal's scorer) would on what the seat sees *in that world* — its hand
and the table, never another hidden card — replanning at each newly shown card, up to `REPLANS`
times; then the caller's own policy plays on.

The planner costs far more than a fast move (about a millisecond against a few microseconds), so
plans are kept per search (`TurnPlans`), keyed by everything the planner reads of the seat's
information set (`info_key`): worlds that show the seat the same ranks in the same places
share one plan, and its moves are carried over to each world by `planner.move_key` (the same
rank from the same place, the same kind of destination).
"""

from __future__ import annotations

from collections.abc import Hashable

from app.engine import Game, Move

from . import normal
from .planner import distinct, move_key, plan_turn

REPLANS = 3  # plans after shown cards in one simulated turn; then the caller's own policy
NODES = 400  # the planner's node budget for each of them (Normal's own: normal.MAX_NODES)


def info_key(g: Game, seat: int) -> Hashable:
    """What the planner reads of position `g` for `seat`, by rank: its hand, the centre's
    heights, every side stack, every pay-off top and pile size, the stock's size and the moves
    made this turn."""
    deck = g.deck
    load = g.opts.load_opponent

    def face(c: int) -> Hashable:
        f: Hashable = "W" if deck.wild[c] else deck.rank[c]
        return (f, deck.suit[c]) if load else f

    return (
        seat,
        tuple(sorted(map(face, g.hands[seat]), key=repr)),
        tuple(len(st) for st in g.centre),
        tuple(tuple(map(face, st)) for sides in g.side for st in sides),
        tuple(face(p[-1]) if p else None for p in g.payoff),
        tuple(len(p) for p in g.payoff),
        len(g.stock),
        tuple(g.moved),
    )


class TurnPlans:
    """The plans one search has made, by information set (`info_key`)."""

    def __init__(self) -> None:
        self.plans: dict[Hashable, list[Move]] = {}
        self.made = 0
        self.reused = 0

    def line(self, g: Game, seat: int) -> list[Move]:
        key = info_key(g, seat)
        moves = self.plans.get(key)
        if moves is not None:
            self.reused += 1
            return moves
        plan = plan_turn(g, normal.SCORER, NODES)
        moves = plan.best().moves if plan.lines else []
        self.plans[key] = moves
        self.made += 1
        return moves


def _carry(g: Game, m: Move) -> Move | None:
    """`m` (planned in another world of the same information set) as a legal move of `g`."""
    if g.is_legal(m):
        return m
    want = move_key(g, m)
    for lm in distinct(g, g.legal_moves()):
        if move_key(g, lm) == want:
            return lm
    return None


def finish_turn(g: Game, seat: int, budget: int, plans: TurnPlans) -> int:
    """Play the rest of `seat`'s turn in the sampled world `g` as the planner would on what the
    seat sees there, for at most `REPLANS` plans; returns the moves used. The caller plays on
    with its own policy if the seat is still to move."""
    used = 0
    for _ in range(REPLANS):
        if g.outcome is not None or g.turn != seat or used >= budget:
            return used
        moves = plans.line(g, seat)
        if not moves:
            break
        for planned in moves:
            if g.outcome is not None or g.turn != seat:
                break
            m = _carry(g, planned)
            if m is None:
                break
            g.apply(m)
            used += 1
    return used
