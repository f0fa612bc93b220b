"""The values the room core and the store share: plain, frozen where they can be, and free of
I/O (standard library and `typing_extensions` only), so the core can name them without loading
a database driver.

The store writes and reads them (`app.store.moves.writer`, `awards`, `presence`, `matches`), the
rating maths rates with them (`app.domain.rating`); the core decides them (`match_rules`,
`achievements`) and keeps them on its rooms (`model`). It imports nothing of the project.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from typing_extensions import TypedDict


class RoomStatus(StrEnum):
    """Where a room stands: its lobby is open (waiting), a match is being played, or the last
    match is over (the lobby is open again for a rematch)."""

    WAITING = "waiting"
    PLAYING = "playing"
    OVER = "over"


@dataclass(frozen=True)
class Seen:
    """A player's presence in a room: connected now, or away since when (and their name, so
    every instance can name who watches)."""

    connected: bool
    away_since: datetime | None
    name: str | None = None


class ChatSender(TypedDict):
    """Who said a chat line: their seat then (null: not seated)."""

    player_id: str
    name: str
    seat: int | None


class Rating(TypedDict):
    """A rating: `ordinal` (mu - 3 sigma) is the conservative estimate the leaderboard ranks by;
    `uncertain` while sigma is above UNCERTAIN_SIGMA (a player's first dozen or so rated
    matches): each match then moves the rating a lot."""

    mu: float
    sigma: float
    ordinal: float
    games: int
    uncertain: bool


# The model starts everyone at sigma 8.33; each rated match narrows it (by about 0.25 at first).
# Above 6 (the first 13 or so matches) a win moves the displayed rating (1500 + 40 x ordinal) by
# 80 or more, mostly because the estimate firms up: the pages say so in words.
UNCERTAIN_SIGMA = 6.0


@dataclass(frozen=True, slots=True)
class Skill:
    """A player's rating: mean, uncertainty, conservative estimate, rated matches played."""

    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def uncertain(self) -> bool:
        """Still uncertain: every match moves it a lot (`UNCERTAIN_SIGMA`)."""
        return self.sigma > UNCERTAIN_SIGMA

    def to_json(self) -> Rating:
        return {"mu": round(self.mu, 4), "sigma": round(self.sigma, 4), "ordinal": round(self.ordinal, 4),
                "games": self.games, "uncertain": self.uncertain}


@dataclass(frozen=True, slots=True)
class Standing:
    """One seat at the end of a rated match: who played it, its team (None: alone) and its
    final match total."""

    player_id: str
    team: int | None
    total: int


@dataclass(frozen=True, slots=True)
class Earned:
    """An achievement earned by the player of `seat`."""

    seat: int
    player_id: str
    key: str


@dataclass(frozen=True, slots=True)
class RatingDelta:
    seat: int
    player_id: str
    before: Skill
    after: Skill


@dataclass(frozen=True)
class Awards:
    """What a committed hand or match end earned: new achievements, and (at the end of a rated
    match) every seat's rating before and after."""

    achievements: list[Earned] = field(default_factory=list)
    ratings: list[RatingDelta] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.achievements or self.ratings)


@dataclass(frozen=True)
class HandEnd:
    """What a hand's last move also records: the result and each seat's score line."""

    number: int
    result: dict[str, Any]
    points: Sequence[int]
    totals: Sequence[int]
    payoff_left: Sequence[int]


@dataclass(frozen=True, slots=True)
class Attempt:
    """One player's attempt at a daily deal, as its results table needs it
    (`finished`: the match is over)."""

    player_id: str
    name: str
    finished: bool
    won: bool
    payoff_left: int
    moves: int
