"""Moves: a small value type with its wire form, and pile names.

Piles are named as on the wire: ``hand``, ``payoff:S``, ``side:S:K``, ``centre:I``; the one
parser is `parse_pile` (-> `Pile`), the formatters `payoff_pile`, `side_pile`, `centre_pile`
and `Pile.name`.
A `Move` is a named tuple ``(kind, card, src, dst)``; fields a kind does not use are None.
Two moves are equal exactly when the server would treat them as the same move.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, lru_cache
from typing import Any, NamedTuple

from .errors import BadMove

PLAY = "play"
DISCARD = "discard"
MOVE_SIDE = "move_side"
LOAD = "load"
END_TURN = "end_turn"
TAKE_BACK = "take_back"
FORFEIT = "forfeit"  # a seat's team loses the match (`Match.apply`); never among the legal moves
KINDS = (PLAY, DISCARD, MOVE_SIDE, LOAD, END_TURN, TAKE_BACK, FORFEIT)
NO_FIELDS = (END_TURN, TAKE_BACK, FORFEIT)
HAND = "hand"


class Move(NamedTuple):
    kind: str
    card: int | None = None
    src: str | None = None
    dst: str | None = None

    def to_wire(self) -> dict[str, Any]:
        """The protocol's move object (only the fields this kind carries); a fresh dict."""
        return dict(shared_wire(self))

    def _make_wire(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.card is not None:
            out["card"] = self.card
        if self.src is not None:
            out["from"] = self.src
        if self.dst is not None:
            out["to"] = self.dst
        return out

    @classmethod
    def from_wire(cls, data: Any) -> Move:
        """Parse a move object; raises BadMove if it is not shaped like one.

        Only shape is checked here; whether the move is legal is the game's business.
        Fields a kind does not carry are ignored.
        """
        if not isinstance(data, Mapping):
            raise BadMove("a move must be an object")
        kind = data.get("kind")
        if kind not in KINDS:
            raise BadMove("a move's kind must be one of " + ", ".join(KINDS))
        card = data.get("card")
        src = data.get("from")
        dst = data.get("to")
        if kind in (PLAY, DISCARD, LOAD):
            if isinstance(card, bool) or not isinstance(card, int):
                raise BadMove("a move's card must be the card's id (a number)")
        else:
            card = None
        if kind in (PLAY, MOVE_SIDE, LOAD):
            if not isinstance(src, str) or len(src) > 32:
                raise BadMove("a move needs 'from', the name of a pile")
        elif kind == FORFEIT and src is not None:  # a resign: the seat giving up, by its pay-off pile
            if not isinstance(src, str) or len(src) > 32:
                raise BadMove("a forfeit's 'from' is the pay-off pile of the seat that resigns")
        else:
            src = None
        if kind not in NO_FIELDS:
            if not isinstance(dst, str) or len(dst) > 32:
                raise BadMove("a move needs 'to', the name of a pile")
        else:
            dst = None
        return cls(kind, card, src, dst)


END = Move(END_TURN)
TAKE = Move(TAKE_BACK)
RESIGN = Move(FORFEIT)
"""The server's forfeit for missed turns: the seat to move loses (docs/rules.md, "Forfeit")."""


def resign(seat: int) -> Move:
    """`seat`'s player resigns (docs/rules.md, "Resign"): a forfeit naming the seat, by its
    pay-off pile (`from`), since a seat may resign on any turn, not only its own."""
    return Move(FORFEIT, src=payoff_pile(seat))


_WIRE: dict[Move, dict[str, Any]] = {}


def shared_wire(move: Move) -> dict[str, Any]:
    """`move.to_wire()` without the copy, for views: the same dict every time, never mutate it.
    A plain dict (an lru_cache wraps every key in a tuple and hashes that: a view's list of
    legal moves cost twice as much); emptied when it holds 2**16 moves."""
    wire = _WIRE.get(move)
    if wire is None:
        if len(_WIRE) >= 1 << 16:
            _WIRE.clear()
        wire = _WIRE[move] = move._make_wire()
    return wire


def shared_wires(moves: list[Move]) -> list[dict[str, Any]]:
    """`shared_wire` of each move (a view's legal moves), in order."""
    get = _WIRE.get
    return [get(m) or shared_wire(m) for m in moves]  # a wire dict is never empty: it has its kind


PAYOFF = "payoff"
SIDE = "side"
CENTRE = "centre"


class Pile(NamedTuple):
    """A parsed pile name: `zone` (HAND, PAYOFF, SIDE, CENTRE), the owner's `seat` (-1 for
    the hand and centre stacks) and the `slot` of a side or centre stack (-1 otherwise)."""

    zone: str
    seat: int = -1
    slot: int = -1

    @property
    def name(self) -> str:
        """The pile's wire name (`parse_pile(p.name) == p`)."""
        if self.zone == PAYOFF:
            return payoff_pile(self.seat)
        if self.zone == SIDE:
            return side_pile(self.seat, self.slot)
        if self.zone == CENTRE:
            return centre_pile(self.slot)
        return HAND


@cache
def payoff_pile(seat: int) -> str:
    return f"{PAYOFF}:{seat}"


@cache
def side_pile(seat: int, slot: int) -> str:
    return f"{SIDE}:{seat}:{slot}"


@cache
def centre_pile(slot: int) -> str:
    return f"{CENTRE}:{slot}"


@lru_cache(maxsize=4096)
def parse_pile(name: str) -> Pile:
    """The one parser of pile names: ``hand``, ``payoff:S``, ``side:S:K``, ``centre:I``;
    raises BadMove for anything else. Cached: the engine and the bots call it per move."""
    parts = name.split(":")
    try:
        if parts == [HAND]:
            return Pile(HAND)
        if parts[0] == PAYOFF and len(parts) == 2:
            return Pile(PAYOFF, int(parts[1]))
        if parts[0] == SIDE and len(parts) == 3:
            return Pile(SIDE, int(parts[1]), int(parts[2]))
        if parts[0] == CENTRE and len(parts) == 2:
            return Pile(CENTRE, -1, int(parts[1]))
    except ValueError:
        pass
    raise BadMove(f"{name!r} is not a pile name")
