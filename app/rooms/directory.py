"""Rooms as the REST API sees them: creating one, and the list of public rooms waiting for players."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

from app.store import players as player_store
from app.store import rooms as room_store
from app.store.errors import Conflict
from app.store.models import Player, utcnow
from app.store.models import Room as RoomRow

from . import errors as E
from . import fanout
from .config import new_room_code, resolve
from .errors import ConfigError, RoomError
from .live import LiveRoom, RoomState

if TYPE_CHECKING:
    from .service import RoomService


async def create_room(svc: RoomService, host: Player, *, preset: str | None, options: dict[str, Any] | None,
                      seats: int | None, public: bool, turn_seconds: int | None, hints: bool,
                      seed: str | None) -> str:
    """Create a room hosted by `host` and return its code (RoomError on a bad configuration,
    or when the host already has too many rooms open)."""
    limits = svc.settings
    try:
        config = resolve(preset, options, seats, turn_seconds, min_turn=limits.min_turn_seconds,
                         max_turn=limits.max_turn_seconds)
    except ConfigError as e:
        raise RoomError(E.BAD_OPTIONS, e.message, option=e.option) from e
    async with svc.sessions() as s:
        recent = utcnow() - timedelta(days=1)
        if await room_store.open_rooms_hosted(s, host.id, recent) >= limits.max_rooms_per_player:
            raise RoomError(E.RATE_LIMITED, f"you already host {limits.max_rooms_per_player} open rooms")
        for _ in range(5):
            row = RoomRow(code=new_room_code(), host_id=host.id, preset=config.preset, overrides=config.overrides,
                          seats=config.seats, public=public, turn_seconds=config.turn_seconds, hints=hints,
                          seed=seed, status="waiting", seating=[None] * config.seats, rev=0, match_count=0)
            try:
                await room_store.insert_room(s, row)
                return row.code
            except Conflict:
                continue
    raise RoomError(E.UNAVAILABLE, "could not find a free room code; try again")


async def public_rooms(svc: RoomService) -> list[dict[str, Any]]:
    """Public rooms waiting for players, newest first, as the protocol shows rooms."""
    async with svc.sessions() as s:
        rows = await room_store.public_rooms(s)
        hosts = await player_store.names(s, [row.host_id for row in rows])
    out = []
    for row in rows:
        room = LiveRoom(RoomState.from_row(row), None)
        room.host_name = hosts.get(row.host_id)
        out.append(fanout.room_json(room))
    return out
