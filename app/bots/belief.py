"""What a seat believes about the other hands, from what their owners left unplayed.

A player's hand is the hand it held when it last closed its turn, less its discard: nobody
draws outside their own turn. The view gives the table of that moment
(`players[s].last_turn_end`: the cards on each centre slot and every pay-off top's rank), so a
seat can ask which cards would have fit then and were not played:

- a card of a rank some centre stack wanted, below a pay-off top of the owner's team (a card
  that would have climbed toward it), is unlikely to be held: weight `W_CLIMB`;
- one that fit but lies above every such top (playing it only empties the hand) a little
  less unlikely: `W_DUMP`;
- a hand that, with the team's side stacks, would have bridged a centre stack all the way to a
  pay-off top of its team (so the pay-off card could have been played) is very unlikely:
  `W_REACH`, for the hand as a whole;
- every other card keeps weight 1.

A hand is drawn card by card in proportion to those weights (weighted sampling without
replacement), then kept with probability `W_REACH` if it would have reached the pay-off card
(else drawn again, at most `TRIES` times: the last draw is kept). Every weight is above zero, so
any hand the owner may hold can be drawn and the sampler never fails; the other hidden places
(stock, pay-off piles below their tops, squared side stacks) stay uniform.

Only the view is read, so the belief is as honest as the view (tests/bots/test_belief.py).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.engine import Game
from app.engine.cards import RANK_BY_NAME

from .tactics import missing_to_rank, side_ranks

W_CLIMB = 0.15
W_DUMP = 0.5
W_REACH = 0.05
TRIES = 8


@dataclass(frozen=True)
class Evidence:
    """One seat's last turn end, as the bots read it: the ranks the centre accepted then and
    the (non-wild) pay-off ranks of its team then."""

    seat: int
    fits: frozenset[int]
    targets: tuple[int, ...]
    stack_needs: tuple[int, ...]


def _needs(counts: Sequence[int], unlimited: bool) -> tuple[int, ...]:
    """The rank each centre slot wanted (an empty slot, or a new stack, wants an Ace)."""
    out = [c + 1 for c in counts]
    if unlimited and (not out or 1 not in out):
        out.append(1)
    return tuple(out)


def evidence_of(view: dict[str, Any], g: Game, seat: int) -> Evidence | None:
    """What `seat`'s last turn end says (None: it has not closed a turn in this deal)."""
    end = view["players"][seat].get("last_turn_end")
    if not end:
        return None
    deck_top = g.top
    stack_needs = tuple(n for n in _needs(end["centre_counts"], g.opts.centre_stacks is None) if n <= deck_top)
    targets: list[int] = []
    wild_ranks = {RANK_BY_NAME["JOKER"]} | ({RANK_BY_NAME["K"]} if g.opts.kings_wild else set())
    for p in g.team_seats[seat]:
        name = end["payoff_ranks"][p]
        if name is None:
            continue
        r = RANK_BY_NAME[name]
        if r not in wild_ranks:
            targets.append(r)
    return Evidence(seat, frozenset(stack_needs), tuple(targets), stack_needs)


def card_weight(g: Game, ev: Evidence, card: int) -> float:
    """The weight of `card` being in `ev.seat`'s hand (see the module docstring)."""
    if g.deck.wild[card]:
        return 1.0
    r = g.deck.rank[card]
    if r not in ev.fits:
        return 1.0
    if any(r < t for t in ev.targets):
        return W_CLIMB
    return W_DUMP


def would_reach(g: Game, ev: Evidence, hand: Sequence[int]) -> bool:
    """Whether `hand` with the team's side stacks would have bridged a centre stack to a
    pay-off top of the team at that turn end."""
    if not ev.targets:
        return False
    deck = g.deck
    have: set[int] = set()
    wilds = 0
    for c in hand:
        if deck.wild[c]:
            wilds += 1
        else:
            have.add(deck.rank[c])
    for p in g.team_seats[ev.seat]:
        ranks, w = side_ranks(g, p)
        have |= ranks
        wilds += w
    return any(missing_to_rank(g, t, have, wilds, ev.stack_needs) == 0 for t in ev.targets)


class Belief:
    """The seat's belief about every other hand that has evidence (see the module docstring)."""

    def __init__(self, g: Game, evidence: list[Evidence]) -> None:
        self.game = g
        self.evidence = {ev.seat: ev for ev in evidence}
        size = g.deck.size
        self.weights = {ev.seat: [card_weight(g, ev, c) for c in range(size)] for ev in evidence}

    @classmethod
    def from_view(cls, view: dict[str, Any], template: Game, seat: int) -> Belief | None:
        """The belief of the view's seat; None when no other hand has evidence."""
        found = [ev for s in range(template.n) if s != seat
                 for ev in [evidence_of(view, template, s)] if ev is not None]
        return cls(template, found) if found else None

    def draw_hand(self, seat: int, cards: list[int], count: int, rng: random.Random) -> list[int]:
        """`count` of `cards` for `seat`'s hand, drawn from the belief (`cards` is left as it is)."""
        if count <= 0:
            return []
        if count >= len(cards):
            return cards[:]
        ev = self.evidence[seat]
        weights = self.weights[seat]
        hand: list[int] = []
        for _ in range(TRIES):
            # Efraimidis-Spirakis: the `count` largest keys u ** (1 / w) are a weighted sample
            keyed = sorted(((rng.random() ** (1.0 / weights[c]), c) for c in cards), reverse=True)
            hand = [c for _k, c in keyed[:count]]
            if not would_reach(self.game, ev, hand) or rng.random() < W_REACH:
                break
        return hand

    def arrange(self, pool: list[int], own: int, hand_counts: Sequence[int], payoff_first: list[int],
                rng: random.Random) -> list[int]:
        """Reorder a shuffled pool so that `knowledge._fill` deals the believed hands:
        `payoff_first` (the cards that go below the pay-off tops, in order) first, then each
        other seat's hand in seat order, then the rest in the pool's order."""
        taken = set(payoff_first)
        rest = [c for c in pool if c not in taken]
        out = payoff_first[:]
        for s, count in enumerate(hand_counts):
            if s == own or count <= 0:
                continue
            hand = self.draw_hand(s, rest, count, rng) if s in self.evidence else rest[:count]
            chosen = set(hand)
            rest = [c for c in rest if c not in chosen]
            out += hand
        return out + rest
