"""Fixed positions, built through the engine: `table(...)` names every pile by card codes
('7H', 'KS', 'JK'; piles top last) and `Game.layout` deals exactly that (every other card of
the decks goes to the stock), so a lesson's table is a real, legal position of the game."""

from __future__ import annotations

from collections.abc import Sequence

from app.engine import Game, Options

from .model import Position

Codes = Sequence[str]


def table(*, payoff: Sequence[Codes], hands: Sequence[Codes], side: Sequence[Sequence[Codes]] | None = None,
          centre: Sequence[Codes] = (), stock: Codes = (), turn: int = 0) -> Position:
    """A position maker for a two-seat lesson (seat 0 the learner, to move unless `turn`)."""
    def make(options: Options) -> Game:
        sides = side or [[[] for _k in range(options.side_stacks)] for _s in range(options.players)]
        padded = [list(s) + [[] for _k in range(options.side_stacks - len(s))] for s in sides]
        return Game.layout(options, payoff=payoff, hands=hands, side=padded, centre=centre, stock=stock,
                           turn=turn, seed="lesson")
    return make


def deal(seed: str) -> Position:
    """A real deal from `seed` (a friendly one, chosen for the lesson)."""
    def make(options: Options) -> Game:
        return Game.deal(options, seed)
    return make
