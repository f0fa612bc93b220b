"""A seat's chance to win the hand, estimated from its view alone.

`chances(view, moves, budget=...)` answers: "if this seat now made each of these moves, how
likely is its team to win the hand?" (with `moves=[None]`: as the position stands). Each round

1. samples the cards hidden from the seat from its knowledge (`Knowledge.determinize` with the
   Hard bot's belief about the other hands, `belief.py`): never the real hidden cards;
2. applies each move to a copy of that one sample and plays on with the rollout policy (Hard's
   fast policy as a model of Normal: pay-off card first, climb toward it, never set up an
   opponent, Normal's discards) for `Budget.turns` turn ends or until the hand is over;
3. scores the end: 1 won, 0 lost, 0.5 drawn, and a position still open by the `Leaf`.

Every move of a round is played on the same sample and the same rollout seed (common random
numbers), so the differences between moves are much less noisy than the chances themselves.

`weigh(view, first, ...)` is the one estimate of a decision that the match review and the
analysis board make: `first` and the moves worth comparing it with, each with its chance, on the
same samples, with the leaf Hard's search scores its simulations by (`value.search_leaf`).

The leaf is pluggable: `Leaf` is any `(game, seat) -> chance`; `payoff_leaf` (the default) is a
logistic of the pay-off cards left on each side, fitted on Normal-against-Normal hands
(docs/bots.md), and `view_leaf(position_value)` wraps a value function of a seat's view
(e.g. `app.bots.value.position_value(view, seat)`), which sees only that seat's view of the
sampled world.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from app.engine import Game, Match, Move
from app.engine import view as seat_view
from app.engine.moves import DISCARD, HAND

from . import normal
from .belief import Belief
from .hard import candidates, rollout_turn
from .knowledge import Knowledge
from .planner import plan_turn
from .turn_search import TurnPlans, finish_turn

MAX_MOVES = 400  # moves one rollout may play before the leaf judges it
PLAN_REST = False  # True: after a move of the seat that leaves it to move, the rest of its turn as
# Hard's turn search plays it (`turn_search.finish_turn`), not the rollout policy; it marked no
# more planted mistakes at twice the CPU (bench/planted.py; docs/bots.md, "One estimator")


class Leaf(Protocol):
    """The chance that `seat`'s team wins the hand from position `game` (0..1)."""

    def __call__(self, game: Game, seat: int, /) -> float: ...


PositionValue = Callable[[dict[str, Any], int], float]


# Fitted on Normal-against-Normal standard hands (bench/review.py --fit): the chance after a
# turn end is logistic in the difference of the pay-off cards left, scaled by how many are left.
LEAF_SCALE = 2.2
LEAF_TEMPO = 0.6  # cards the side to move is worth


def payoff_leaf(game: Game, seat: int) -> float:
    """The default leaf: from the pay-off cards left by the seat's team and its best opponent."""
    if game.outcome is not None:
        return outcome_value(game, seat)
    own = game.team_payoff(seat)
    opp = min(game.team_payoff(o) for o in game.opponents[seat])
    lead = opp - own + (LEAF_TEMPO if game.turn in game.team_seats[seat] else -LEAF_TEMPO)
    z = LEAF_SCALE * lead / math.sqrt(own + opp + 2.0)
    return 1.0 / (1.0 + math.exp(-z))


def view_leaf(value: PositionValue) -> Leaf:
    """A leaf from a value function of one seat's view (it sees only that seat's view of the
    sampled position, never the sample's hidden cards)."""

    def leaf(game: Game, seat: int) -> float:
        if game.outcome is not None:
            return outcome_value(game, seat)
        return float(value(seat_view(Match.of_position(game.copy()), seat), seat))

    return leaf


def outcome_value(game: Game, seat: int) -> float:
    """1 if the seat's team won the finished hand, 0 if it lost, 0.5 for a draw."""
    assert game.outcome is not None
    winners = game.outcome.winners
    if not winners:
        return 0.5
    return 1.0 if seat in winners else 0.0


@dataclass(frozen=True)
class Budget:
    """How much one estimate may cost: at most `samples` rounds and (if set) `ms` milliseconds
    of this process's CPU time (so a busy machine gives slower estimates, not noisier ones);
    rollouts stop after `turns` turn ends. `seed` fixes the samples (repeatable results when
    `ms` is None)."""

    samples: int = 64
    ms: float | None = None
    turns: int = 4
    seed: int = 0


def playout(g: Game, seat: int, rng: random.Random, turns: int, leaf: Leaf) -> float:
    """Play `g` on with the rollout policy for `turns` turn ends; the seat's chance there."""
    used = 0
    ends = 0
    while g.outcome is None and ends < turns and used < MAX_MOVES:
        used += rollout_turn(g, rng, MAX_MOVES - used, dump=True, model=True)
        ends += 1
    if g.outcome is not None:
        return outcome_value(g, seat)
    return leaf(g, seat)


def place_card(g: Game, mover: int, move: Move, rng: random.Random) -> None:
    """Condition a sample on an observed move of another seat: a card it played from its hand
    is put into its sampled hand (swapped with a random card of that hand)."""
    card = move.card
    from_hand = move.src == HAND or (move.kind == DISCARD and move.src is None)
    if card is None or not from_hand or card in g.hands[mover] or not g.hands[mover]:
        return
    zones: list[list[int]] = [h for s, h in enumerate(g.hands) if s != mover]
    zones += [g.stock, g.aside] + [p for p in g.payoff] + [st for sides in g.side for st in sides]
    for zone in zones:
        if card in zone:
            k = rng.randrange(len(g.hands[mover]))
            zone[zone.index(card)], g.hands[mover][k] = g.hands[mover][k], card
            g._legal = None
            return


def chances(view: dict[str, Any], moves: Sequence[Move | None], *, budget: Budget = Budget(),
            leaf: Leaf = payoff_leaf, mover: int | None = None, plan_rest: bool = False) -> list[float]:
    """For each of `moves` (None: no move), the view's seat's chance of winning the hand after
    it. A move of another seat (`mover`) is conditioned on (`place_card`); the seat's own moves
    must be legal in its view. `plan_rest`: after a move of the seat that leaves it to move, the
    rest of its turn is planned on what it sees in each sample (`turn_search.finish_turn`).
    Only the view is read."""
    know = Knowledge.from_view(view)
    seat = know.seat
    belief = Belief.from_view(view, know.template, seat)
    plans = TurnPlans() if plan_rest else None
    rng = random.Random(budget.seed)
    sums = [0.0] * len(moves)
    deadline = None if budget.ms is None else time.process_time() + budget.ms / 1000.0
    n = 0
    while n < budget.samples:
        sample = know.template.copy()
        know.determinize(sample, rng, belief)
        round_seed = rng.getrandbits(32)
        for i, m in enumerate(moves):
            g = sample.copy()
            if m is not None:
                if mover is not None and mover != seat:
                    place_card(g, mover, m, random.Random(round_seed))
                if g.outcome is None and g.is_legal(m):
                    g.apply(m)
                    if plans is not None and g.outcome is None and g.turn == seat:
                        finish_turn(g, seat, MAX_MOVES, plans)
            sums[i] += playout(g, seat, random.Random(round_seed), budget.turns, leaf)
        n += 1
        if deadline is not None and time.process_time() >= deadline:
            break
    return [s / n for s in sums]


def _zones(g: Game) -> list[list[int]]:
    """Every card place of `g` as lists (hands, pay-off piles, side stacks, centre, stock, aside)."""
    return [*g.hands, *g.payoff, *(st for sides in g.side for st in sides), *g.centre, g.stock, g.aside]


def condition(g: Game, real: Game, shown: set[int]) -> bool:
    """Put each card of `shown` (cards the seat has just seen) where `real` (its template after
    seeing them) has it, swapping it with the sampled card there; `g` keeps every other card.
    False when the sample's places do not line up with the real ones (then it is unusable)."""
    zones, truth = _zones(g), _zones(real)
    if len(zones) != len(truth) or any(len(a) != len(b) for a, b in zip(zones, truth, strict=True)):
        return False
    where = {c: (z, k) for z, zone in enumerate(zones) for k, c in enumerate(zone)}
    for z, zone in enumerate(truth):
        for k, card in enumerate(zone):
            if card not in shown or zones[z][k] == card:
                continue
            if z < g.n and card in zones[z]:  # a hand is a set: already in it will do
                continue
            if z < g.n:  # into the hand, in place of a sampled card the seat does not hold
                k = next(i for i, c in enumerate(zones[z]) if c not in zone)
            z2, k2 = where[card]
            out = zones[z][k]
            zones[z][k], zones[z2][k2] = card, out
            where[card], where[out] = (z, k), (z2, k2)
    g._legal = None
    return True


def luck(before: dict[str, Any], after: dict[str, Any], move: Move, *, mover: int, budget: Budget = Budget(),
         leaf: Leaf = payoff_leaf) -> float:
    """How much the cards the seat saw with `move` (its view `before` it, `after` it) moved its
    chance: the mean over sampled worlds of (chance with the cards it really saw) less (chance
    with the cards the world had there), both on the same world and the same rollout seed (the
    expected-value change over the chance event, with common random numbers). 0 when it saw none."""
    know = Knowledge.from_view(before)
    seat = know.seat
    real = Knowledge.from_view(after)
    shown = set(know.pool) - set(real.pool) - {move.card}
    if not shown:
        return 0.0
    belief = Belief.from_view(before, know.template, seat)
    rng = random.Random(budget.seed)
    deadline = None if budget.ms is None else time.process_time() + budget.ms / 1000.0
    total = 0.0
    n = used = 0
    while n < budget.samples:
        n += 1
        sample = know.template.copy()
        know.determinize(sample, rng, belief)
        round_seed = rng.getrandbits(32)
        if mover != seat:
            place_card(sample, mover, move, random.Random(round_seed))
        if sample.outcome is None and sample.is_legal(move):
            sample.apply(move)
            seen = sample.copy()
            if condition(seen, real.template, shown):
                used += 1
                total += (playout(seen, seat, random.Random(round_seed), budget.turns, leaf)
                          - playout(sample, seat, random.Random(round_seed), budget.turns, leaf))
        if deadline is not None and time.process_time() >= deadline:
            break
    return total / used if used else 0.0


def alternatives(view: dict[str, Any], played: Move, limit: int = 6) -> list[Move]:
    """`played` first, then the moves worth comparing it with: every legal move when there are
    few, else the first moves of the Normal planner's best lines (Hard's candidates)."""
    legal = [Move.from_wire(w) for w in view["legal_moves"] if w.get("kind") != "take_back"]
    if len(legal) > limit + 1:
        plan = plan_turn(Knowledge.from_view(view).template, normal.SCORER, normal.MAX_NODES)
        legal = [ln.moves[0] for ln in candidates(plan, limit)] or legal[:limit]
    out = [played]
    for m in legal:
        if m not in out:
            out.append(m)
    return out


def weigh(view: dict[str, Any], first: Move, *, candidates: int, budget: Budget, leaf: Leaf,
          lone: bool = True) -> tuple[list[Move], list[float]]:
    """The one estimate of a decision that the review and the analysis board make: `first` and
    the moves worth comparing it with (`alternatives`), each with the seat's chance to win the
    hand after it, on the same samples (with `PLAN_REST`, the rest of the seat's turn planned as
    Hard's turn search plays it). `lone=False`: a move without alternatives is not weighed."""
    moves = alternatives(view, first, candidates)
    if len(moves) < 2 and not lone:
        return moves, []
    return moves, chances(view, moves, budget=budget, leaf=leaf, plan_rest=PLAN_REST)


def chance(view: dict[str, Any], *, budget: Budget = Budget(), leaf: Leaf = payoff_leaf) -> float:
    """The view's seat's chance of winning the hand as the position stands."""
    return chances(view, [None], budget=budget, leaf=leaf)[0]


__all__ = ["Budget", "alternatives", "weigh", "Leaf", "PositionValue", "chance", "chances", "condition", "luck",
           "outcome_value", "payoff_leaf", "place_card", "playout", "view_leaf"]
