"""What happened in the hand being played, per seat, kept move by move: the facts a hand's
achievements are judged on (`achievements.earned`). The live match keeps a `Tally` as its
steps are applied (`steps.apply_steps`), so a hand's end needs no replay of the hand; a tally
that is not at the match's version (a match built another way) is not used, and the hand is
replayed instead (`achievements.hand_facts`), through the same two functions (`before`, `count`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from app.engine import Move
from app.engine.moves import PAYOFF, PLAY, SIDE, parse_pile
from app.engine.state import GameState


@dataclass
class HandFacts:
    """What happened in one hand, per seat."""

    side_plays: list[int]
    best_roll: list[int]  # most pay-off cards played in one turn
    payoff_completions: list[int]  # centre stacks completed with a pay-off card
    worst_deficit: list[int]  # most pay-off cards (of the team) behind the leading opponent
    winners: tuple[int, ...] = ()
    reason: str = ""
    payoff_left: list[int] = field(default_factory=list)


@dataclass
class Tally:
    """The facts of a hand so far, at match version `v`, with the pay-off cards played in a row
    by the seat whose turn it is (`roll_seat`, `roll`)."""

    facts: HandFacts
    v: int
    roll_seat: int = -1
    roll: int = 0

    @classmethod
    def start(cls, n: int, v: int) -> Tally:
        return cls(HandFacts([0] * n, [0] * n, [0] * n, [0] * n), v)

    def copy(self) -> Tally:
        f = self.facts
        return Tally(HandFacts(f.side_plays[:], f.best_roll[:], f.payoff_completions[:], f.worst_deficit[:]),
                     self.v, self.roll_seat, self.roll)


class Before(NamedTuple):
    """What a move is, read from the position before it (nothing is changed yet)."""

    seat: int
    zone: str | None  # the zone a played card came from (None for any other move)
    completes: bool  # a pay-off card that completes its centre stack


def before(g: GameState, mv: Move) -> Before:
    """Raises ValueError (or IndexError) for a move that names no pile of this table."""
    if mv.kind != PLAY or not mv.src:
        return Before(g.turn, None, False)
    zone = parse_pile(mv.src).zone
    completes = False
    if zone == PAYOFF and mv.dst:
        completes = len(g.centre[parse_pile(mv.dst).slot]) == g.top - 1
    return Before(g.turn, zone, completes)


def count(t: Tally, b: Before, g: GameState, v: int) -> None:
    """Count the move `b` described, now that `g` is the position after it (version `v`).
    Every live move passes here: two seats take a short way to the same deficits."""
    f = t.facts
    seat, zone, completes = b
    if seat != t.roll_seat:
        t.roll_seat, t.roll = seat, 0
    if zone == SIDE:
        f.side_plays[seat] += 1
    elif zone == PAYOFF:
        t.roll += 1
        if t.roll > f.best_roll[seat]:
            f.best_roll[seat] = t.roll
        if completes:
            f.payoff_completions[seat] += 1
    worst = f.worst_deficit
    payoff = g.payoff
    if len(payoff) == 2:
        d = len(payoff[0]) - len(payoff[1])
        if d > worst[0]:
            worst[0] = d
        elif -d > worst[1]:  # (both start at 0: only one of them can grow)
            worst[1] = -d
    else:
        left = [len(p) for p in payoff]
        team = [sum([left[s] for s in seats]) for seats in g.team_seats]
        for s, foes in enumerate(g.opponents):
            d = team[s] - min([team[o] for o in foes])
            if d > worst[s]:
                worst[s] = d
    t.v = v


def finished(t: Tally, g: GameState) -> HandFacts:
    """The facts of the hand that just ended in `g` (raises ValueError if it is not over)."""
    if g.outcome is None:
        raise ValueError("the hand is not over")
    f = t.facts
    f.winners, f.reason = g.outcome.winners, g.outcome.reason
    f.payoff_left = [len(p) for p in g.payoff]
    return f
