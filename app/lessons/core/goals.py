"""The goals steps are made of.

`MoveGoal` accepts the learner's legal moves that `wanted` says serve the step and refuses
the others with its `miss` reason (a catalogue key `lesson.miss.<name>`, filled from the
table); the step is done when `until` holds (by default: after one accepted move). The
predicates below name the moves a lesson asks for.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from app.engine import Game, Move
from app.engine.moves import CENTRE, DISCARD, HAND, PAYOFF, PLAY, SIDE, parse_pile

from .model import Params, Why, no_params

Wanted = Callable[[Game, Move], bool]
Until = Callable[[Game, Game, Sequence[Move]], bool]


def one_move(start: Game, now: Game, moves: Sequence[Move]) -> bool:
    return len(moves) >= 1


def hand_over(start: Game, now: Game, moves: Sequence[Move]) -> bool:
    return now.outcome is not None


@dataclass(frozen=True)
class MoveGoal:
    """Moves `wanted` serves; others are refused with `lesson.miss.<miss>`."""

    wanted: Wanted
    miss: str
    until: Until = one_move
    miss_params: Params = no_params

    def accepts(self, game: Game, move: Move) -> Why | None:
        if self.wanted(game, move):
            return None
        return f"lesson.miss.{self.miss}", self.miss_params(game)

    def done(self, start: Game, now: Game, moves: Sequence[Move]) -> bool:
        return self.until(start, now, moves)


def zone(pile: str | None) -> str | None:
    return parse_pile(pile).zone if pile else None


def any_move(game: Game, move: Move) -> bool:
    return True


def plays_from(*zones: str) -> Wanted:
    """A play from one of `zones` (hand, payoff, side) to a centre stack."""
    def wanted(game: Game, move: Move) -> bool:
        return move.kind == PLAY and zone(move.src) in zones and zone(move.dst) == CENTRE
    return wanted


def is_discard(game: Game, move: Move) -> bool:
    return move.kind == DISCARD and zone(move.dst) == SIDE


plays_payoff = plays_from(PAYOFF)
plays_hand = plays_from(HAND)
plays_side = plays_from(SIDE)


def either(*options: Wanted) -> Wanted:
    def wanted(game: Game, move: Move) -> bool:
        return any(w(game, move) for w in options)
    return wanted


def first_wanted(game: Game, wanted: Wanted) -> Move:
    """The first legal move `wanted` serves (a step's solution)."""
    for move in game.legal_moves():
        if wanted(game, move):
            return move
    raise ValueError("no legal move serves this step")


def solver(wanted: Wanted) -> Callable[[Game], Move]:
    return lambda game: first_wanted(game, wanted)


def card_param(game: Game, card: int) -> dict[str, Any]:
    """A card as a catalogue `{card:card}` parameter (its code, e.g. 'QH')."""
    return {"card": game.deck.code(card)}
