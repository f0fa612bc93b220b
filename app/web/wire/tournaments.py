"""Tournaments' REST bodies (docs/protocol.md, "Tournaments (v1.4)"): the create request, strictly
typed (a wrong type is a 422); what its values may be is the core's to say
(`app.tournaments.core.settings`), with a named reason."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from app.web.wire.requests import printable


class NewTournament(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: Annotated[str, Field(max_length=200), AfterValidator(printable)]
    format: Literal["swiss", "round_robin", "arena"]
    rounds: int | None = None
    double: bool = False
    minutes: int | None = None
    seats: int = 2
    preset: Annotated[str, Field(max_length=32)] = "standard"
    options: dict[str, Any] | None = None
    pace: Literal["live", "turn_based"] = "live"
    turn_seconds: int | None = None
    duplicate: bool = False
    rated: bool = False
    public: bool = False
    max_players: int = 16
    starts_at: Annotated[datetime | None, Field(strict=False)] = None


class TournamentRef(BaseModel):
    """The tournament a room's table belongs to (in the room object)."""

    id: str
    round: int


class TournamentMade(BaseModel):
    id: str
    code: str
    invite_url: str
    name: str
    format: str
    status: str


class TournamentLine(BaseModel):
    """A tournament in a list (`GET /api/tournaments`): `code` only for a public one."""

    id: str
    code: str | None
    name: str
    format: str
    status: str
    players: int
    max_players: int | None
    pace: str | None
    rated: bool | None
    starts_at: str | None
    finished_at: str | None


class TournamentList(BaseModel):
    items: list[TournamentLine]


class PlayerRef(BaseModel):
    player_id: str
    name: str


class StandingRow(BaseModel):
    """A row of the standings, best first: points (match points with duplicate deals), the
    format's tie-break (Buchholz, Sonneborn–Berger; an arena's 0), rank (equal rows share one)."""

    player_id: str
    name: str
    points: float
    tiebreak: float
    rank: int
    withdrawn: bool


class TableResultOut(BaseModel):
    """Each seat's score (1, ½, 0) and its match points from the room."""

    scores: list[float]
    totals: list[int]


class TableOut(BaseModel):
    """A table: its room once made (null while it is being made), its seats, its result once over."""

    table: int
    room: str | None
    seats: list[PlayerRef]
    result: TableResultOut | None


class RoundOut(BaseModel):
    """A round (an arena's wave of tables): with duplicate deals its `commitment` from the start
    and its `seed` once it is over (null before)."""

    round: int
    status: Literal["playing", "over"]
    commitment: str | None
    seed: str | None
    byes: list[str]
    tables: list[TableOut]


class TournamentOut(BaseModel):
    """One tournament (`GET /api/tournaments/{id or code}`, docs/protocol.md)."""

    id: str
    code: str
    name: str
    format: str
    status: Literal["open", "running", "over"]
    organiser: PlayerRef
    settings: dict[str, Any]
    round: int
    rounds_total: int | None
    starts_at: str | None
    started_at: str | None
    ends_at: str | None
    finished_at: str | None
    players: list[StandingRow]
    rounds: list[RoundOut]
    seeds: list[str]
