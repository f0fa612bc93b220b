"""`Game`: one hand of play, with the methods callers use (legal moves, apply, copy)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .deal import deal_into, layout_into, set_piles
from .legal import legal_moves
from .moves import Move
from .options import Options
from .play import apply as apply_move
from .state import GameState


class Game(GameState):
    """One hand: options + seed (or a deal order) + the moves applied so far.

    `legal_moves()` lists exactly the moves `apply()` accepts; `apply()` raises an
    `IllegalMove` (a ValueError) whose message a player can read, and then changes nothing.
    """

    __slots__ = ()

    @classmethod
    def deal(cls, opts: Options, seed: str, order: Sequence[int] | None = None,
             events: bool = False) -> Game:
        """A new hand dealt from `seed` (or from an explicit deal `order` of card ids)."""
        g = cls.__new__(cls)
        deal_into(g, opts, seed, order)
        if events:
            g.events = [{"type": "deal", "first": g.first}]
        return g

    @classmethod
    def layout(cls, opts: Options, **piles: Any) -> Game:
        """An exact position from card codes (see `deal.layout_into`), for tests and analysis."""
        g = cls.__new__(cls)
        layout_into(g, opts, **piles)
        return g

    @classmethod
    def from_piles(cls, opts: Options, *, seed: str = "search", turn_plays: int = 0,
                   turn_centre: int = 0, moved: Sequence[int] = (), passes: int = 0,
                   dry: int = 0, discards: int = 0, block: bool = False, stale_refills: int = 0,
                   payoff_low: int | None = None, off_centre: bool = False, **piles: Any) -> Game:
        """A position from card ids in every zone (see `deal.set_piles`), with the turn's
        counters; for bots that fill a view's hidden zones with sampled cards."""
        g = cls.__new__(cls)
        g._init_static(opts, seed)
        set_piles(g, **piles)
        g.turn_plays, g.turn_centre, g.moved = turn_plays, turn_centre, list(moved)
        g.passes, g.dry = passes, dry
        g.turn_discards, g.block, g.stale_refills = discards, block, stale_refills
        g.off_centre = off_centre
        if payoff_low is not None:
            g.payoff_low = payoff_low
        return g

    def legal_moves(self) -> list[Move]:
        return legal_moves(self)

    def is_legal(self, move: Move) -> bool:
        return move in legal_moves(self)

    def apply(self, move: Move, check: bool = True) -> None:
        apply_move(self, move, check)

    def copy(self) -> Game:
        g = GameState.copy(self)
        assert isinstance(g, Game)
        return g
