"""What a step of a match writes, as one typed record the room core builds and the store takes
as it is: a move (`MoveWrite`, with what it changes on its match row: `MatchChange`) and the
deal of a hand (`DealChange`).

The core decides them (`app.rooms.core.match_rules`); the shell hands them to the store
unchanged (`app.rooms.shell.sql_storage`); the store binds its statements straight from their
fields (`app.store.moves.writer`, `app.store.repositories.matches.record_deal`). Frozen, with
slots: built once per move, on the hot path.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from app.domain.records import Earned, HandEnd, Standing


@dataclass(frozen=True, slots=True)
class MatchChange:
    """What a move changes on its match row: its status (the engine's `MatchStatus` value),
    every seat's match total, the next turn's deadline, when the server must act (turn-based
    rooms' `wake_at`), the move's time and the seat to move (None unless a hand is played);
    and at the match's end, its winners and end time (None before)."""

    status: str
    totals: Sequence[int]
    turn_deadline: datetime | None
    wake_at: datetime | None
    last_move_at: datetime | None
    turn_seat: int | None
    winners: Sequence[int] | None = None
    ended_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class MoveWrite:
    """One move to commit: its row (`seq`, `hand_number`, `seat`, `actor`, `client_id`,
    `payload`: the move as the wire says it), what it changes on its match (`match`) where the
    match is still at `expect_v` (the version the move was computed from; `seq` is the next),
    and for a hand's last move its result (`hand_end`), the achievements it earns (`earned`,
    kept if not yet held) and, when it ends a rated match, the standing to rate (`rated`).
    `room_values`: the room row's columns the move changes too (a match's end opens the lobby
    again), written on room `room_code` where the room still points at the match."""

    match_id: str
    expect_v: int
    seq: int
    hand_number: int
    seat: int
    actor: str
    client_id: str | None
    payload: dict[str, Any]
    match: MatchChange
    room_code: str | None = None
    hand_end: HandEnd | None = None
    earned: Sequence[Earned] = ()
    rated: Sequence[Standing] | None = None
    room_values: Mapping[str, Any] | None = None

    @property
    def plain(self) -> bool:
        """Changes only its match row's status, totals, deadline, wake time, move time and
        seat to move: no hand's end, no room change, no winners."""
        return self.hand_end is None and self.room_values is None and self.match.winners is None


@dataclass(frozen=True, slots=True)
class DealChange:
    """What the deal of a hand changes on its match row besides its version (the hand is then
    played: status `playing`): the first turn's deadline, when the server must act (turn-based
    rooms' `wake_at`) and the seat to move."""

    turn_deadline: datetime | None
    wake_at: datetime | None
    turn_seat: int | None
