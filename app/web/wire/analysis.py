"""The analysis board's request and answer (docs/protocol.md, "Analysis board (v1.4)")."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from app.web.wire.responses import MovePayload, _Open


class SeatView(_Open):
    """Open: the engine's `view(match, seat)`: what that seat saw, and nothing more."""


class AnalysisQuestion(BaseModel):
    """The position at version `v` as seat `seat` saw it, after that seat's what-if `moves`."""

    model_config = ConfigDict(strict=True, extra="ignore")

    v: int = Field(ge=0, le=10_000_000)
    seat: int = Field(ge=0, le=64)
    moves: list[dict[str, Any]] = Field(default_factory=list, max_length=200)


class AnalysisLine(BaseModel):
    """One of the seat's moves and its chance to win the hand after it (0..1, from its view)."""

    move: MovePayload
    chance: float = Field(ge=0, le=1)


class AnalysisAnswer(BaseModel):
    """The board's answer: `lines` best first; empty (with `reason`: `not_your_turn`, `hand_over`,
    `match_over`) when the seat is not to move in a hand being played."""

    v: int
    seat: int
    moves: list[MovePayload]
    position: SeatView
    legal_moves: list[MovePayload]
    lines: list[AnalysisLine]
    turn: int
    over: bool
    reason: str | None = None
    cached: bool = False
