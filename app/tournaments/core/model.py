"""The values a tournament's decisions take and give: who plays, what each table gave, a round's
pairing and a row of the standings. Plain frozen dataclasses: the shell reads them from the store
and the pure modules (`pairing`, `standings`, `duplicate`) compute on them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Format = Literal["swiss", "round_robin", "arena"]
Pace = Literal["live", "turn_based"]


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player in the tournament. `order`: when they joined (0 first), the seed order of the
    first Swiss round and the Berger tables' numbering; `withdrawn`: never paired again."""

    player_id: str
    name: str
    order: int
    rating: float | None = None
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class TableResult:
    """One table of a round as it ended (or is still running: `finished` False).

    `seats`: the players' ids by seat (seat 0 first); `scores`: each seat's result, 1 a win,
    ½ a draw, 0 a loss (a 3- or 4-seat arena table: 1 for the winner or winners, 0 the others);
    `totals`: each seat's match points from the room (the engine's scoring), the finer measure
    duplicate scoring compares when results tie; `forfeit`: the seats that forfeited (withdrew or
    did not show), who score 0 whatever the room said."""

    round: int
    table: int
    seats: tuple[str, ...]
    scores: tuple[float, ...] = ()
    totals: tuple[int, ...] = ()
    finished: bool = False
    forfeit: tuple[int, ...] = ()

    def score(self, seat: int) -> float:
        """What `seat` scored: its `scores` entry, 0 if it forfeited (or no score is known)."""
        if seat in self.forfeit or seat >= len(self.scores):
            return 0.0
        return self.scores[seat]


@dataclass(frozen=True, slots=True)
class Bye:
    """A player with no table in a round: scores a win's points (at most one bye each)."""

    round: int
    player_id: str


@dataclass(frozen=True, slots=True)
class Pairing:
    """A round's tables (each a tuple of player ids by seat) and its byes."""

    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Standing:
    """One row of the standings: points (match points with duplicate deals), the format's
    tie-break (Buchholz, Sonneborn–Berger; arena: none, 0), rank from 1 (equal rows share one)."""

    player_id: str
    name: str
    points: float
    tiebreak: float
    rank: int
    withdrawn: bool = False
