"""Normal: the strategy of the rule books, as a scorer for the turn planner.

- the pay-off card first: every pay-off card played is worth far more than anything else;
- never set up an opponent: a position is charged with the chance that the next opponents
  play their pay-off tops from what the table shows them (`tactics.threat`), so the planner
  plays past an opponent's card or holds back;
- keep wilds to bridge to its own pay-off card: wilds in hand or on a side top are worth
  keeping, and a line that leaves the own pay-off card within reach is worth more;
- discards: high cards, on a card of the same rank or one higher (runs that later play
  out in order), one junk stack for cards that fit nowhere, never a wild, and never on the
  card that bridges to the own pay-off card;
- in partnerships the partner's pay-off pile counts as its own and its reach is valued too.
"""

from __future__ import annotations

from app.engine import Game, Move
from app.engine.moves import parse_pile

from .easy import EasyScorer
from .tactics import REACH_CHANCE, hand_ranks, missing_to, needs, opponents_in_order, team_public, threat

PAYOFF = 100.0
THREAT = 55.0
THREAT_DECAY = 0.55
OWN_REACH = 18.0
PARTNER_REACH = 10.0
WILD_KEPT = 4.0
HAND_CARD = 0.8
SIDE_CARD = 0.35
FRESH_HAND = 8.0


class NormalScorer(EasyScorer):
    """Scores a planner position as the rule books would judge it (see the module docstring)."""

    def position(self, g: Game, seat: int, hand_known: bool, blind: frozenset[int]) -> float:
        sn = needs(g)
        value = -PAYOFF * g.team_payoff(seat) - threat_penalty(g, seat, blind, sn)
        ranks, wilds = team_public(g, seat)
        if hand_known:
            hr, hw = hand_ranks(g, seat)
            value -= HAND_CARD * len(g.hands[seat])
            value += WILD_KEPT * hw
            ranks = ranks | hr
            wilds += hw
        else:
            value += FRESH_HAND
        value += WILD_KEPT * 0.75 * sum(1 for st in g.side[seat] if st and g.deck.wild[st[-1]])
        value -= SIDE_CARD * sum(len(st) for st in g.side[seat])
        for p in g.team_seats[seat]:
            pile = g.payoff[p]
            if not pile or p in blind:
                continue
            miss = missing_to(g, pile[-1], ranks, wilds, sn)
            reach = REACH_CHANCE[miss] if miss < len(REACH_CHANCE) else 0.0
            value += (OWN_REACH if p == seat else PARTNER_REACH) * reach
        return value

    def discard(self, g: Game, seat: int, move: Move) -> float:
        return discard_value(g, seat, move)


def threat_penalty(g: Game, seat: int, blind: frozenset[int] = frozenset(),
                   stack_needs: list[int] | None = None) -> float:
    """What the table offers the opponents, in the order they play next: each one's chance
    of playing its pay-off top (from what is public), weighted down for later players."""
    sn = stack_needs if stack_needs is not None else needs(g)
    value = 0.0
    weight = 1.0
    for opp in opponents_in_order(g, seat):
        if opp not in blind:
            value += THREAT * weight * threat(g, opp, sn)
        weight *= THREAT_DECAY
    return value


def _bridge_ranks(g: Game, seat: int) -> set[int]:
    """Ranks just below the seat's team pay-off tops (the cards that would bridge to them)."""
    out: set[int] = set()
    for p in g.team_seats[seat]:
        pile = g.payoff[p]
        if pile and not g.deck.wild[pile[-1]]:
            out.add(g.deck.rank[pile[-1]] - 1)
    return out


def discard_value(g: Game, seat: int, move: Move) -> float:
    """How good a discard is: high cards, matching or descending, one junk stack, no wilds,
    never covering the card that bridges to the own pay-off card."""
    card = move[1]
    dst = move[3]
    assert card is not None and dst is not None
    deck = g.deck
    if deck.wild[card]:
        return -12.0
    r = deck.rank[card]
    k = parse_pile(dst).slot
    stacks = g.side[seat]
    stack = stacks[k]
    bridge = _bridge_ranks(g, seat)
    high = 0.35 * (r - 7)
    if not stack:
        empties = sum(1 for st in stacks if not st)
        # an empty stack is worth keeping for a high card or a new run
        return 0.5 + 0.6 * (r - 8) - (1.5 if empties == 1 and r < 9 else 0.0)
    top = stack[-1]
    if deck.wild[top]:
        return -6.0
    t = deck.rank[top]
    cover = -6.0 if t in bridge and t != r else 0.0
    if t == r:
        return 6.0 + high + cover
    if t == r + 1:
        return 5.0 + high + cover
    # the junk stack: the tallest stack takes what fits nowhere
    tallest = max(len(st) for st in stacks)
    junk = 1.5 if len(stack) == tallest else 0.0
    if t > r:
        return 1.0 - 0.15 * (t - r) + junk + high + cover
    return -1.5 - 0.25 * (r - t) + junk + high + cover


SCORER = NormalScorer()
MAX_NODES = 1500
