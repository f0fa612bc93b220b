"""Easy: a greedy player that looks only at its own cards.

It plays toward its pay-off card when some line of plays reaches it, plays out its whole
hand when it can (to draw five fresh cards), and otherwise plays every card it can to the
centre (hand cards first, then side-stack tops) before it discards: a card on one of the
same rank or one higher, a high card on an empty stack, never a wild if it can help it.
It does not watch the other players.
"""

from __future__ import annotations

from app.engine import Game, Move
from app.engine.moves import DISCARD, parse_pile

PAYOFF = 100.0
FRESH_HAND = 10.0
HAND_CARD = 1.0
SIDE_CARD = 0.5


class EasyScorer:
    def position(self, g: Game, seat: int, hand_known: bool, blind: frozenset[int]) -> float:
        value = -PAYOFF * g.team_payoff(seat) - SIDE_CARD * sum(len(st) for st in g.side[seat])
        if hand_known:
            value -= HAND_CARD * len(g.hands[seat])
        else:
            value += FRESH_HAND
        return value

    def ending(self, g: Game, seat: int, move: Move) -> float:
        if move[0] != DISCARD:
            return 0.0
        return self.discard(g, seat, move)

    def fill(self, g: Game, seat: int, move: Move) -> float:
        return self.discard(g, seat, move)

    def discard(self, g: Game, seat: int, move: Move) -> float:
        """The value of discarding `move`'s card where it goes (scorers override this)."""
        return discard_value(g, seat, move)


def discard_value(g: Game, seat: int, move: Move) -> float:
    """A plain discard preference: match or descend, high cards to empty stacks."""
    card = move[1]
    dst = move[3]
    assert card is not None and dst is not None
    deck = g.deck
    if deck.wild[card]:
        return -10.0
    r = deck.rank[card]
    k = parse_pile(dst).slot
    stack = g.side[seat][k]
    if not stack:
        return 1.0 + 0.4 * (r - 7)
    top = stack[-1]
    if deck.wild[top]:
        return -1.0
    t = deck.rank[top]
    if t == r:
        return 5.0
    if t == r + 1:
        return 4.0
    if t > r:
        return 1.5 - 0.1 * (t - r)
    return -2.0 - 0.2 * (r - t)


SCORER = EasyScorer()
MAX_NODES = 400
