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
