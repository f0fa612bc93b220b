"""Rooms as the REST API sees them: creating one, and the list of public rooms waiting for players."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from app.platform.settings import Settings
from app.rooms.core import errors as E
from app.rooms.core.config import new_room_code, resolve
from app.rooms.core.errors import ConfigError, RoomError
from app.rooms.core.messages import RoomInfo, room_info
from app.rooms.core.model import Room, SeatInfo, seating_json
from app.rooms.core.pace import TURN_BASED, over_cap
from app.rooms.ports import Directory, Host


async def create_room(directory: Directory, settings: Settings, host: Host, now: datetime, *,
                      preset: str | None, options: dict[str, Any] | None, seats: int | None, public: bool,
                      turn_seconds: int | None, hints: bool, seed: str | None, rated: bool = False,
                      pace: str = "live", sit: bool = False, capped: bool = True) -> str:
    """Create a room hosted by `host` and return its code (RoomError on a bad configuration,
    or when the host already has too many rooms open). Only an account holder may host a
    rated room; a rated room gives no hints, whatever `hints` asked. `sit`: the host takes the
    first seat at once. `capped` False: a room the server makes for a feature with caps of its
    own (a tournament's table), which the host's room caps must not stop."""
    if rated and not host.has_account:
        raise RoomError(E.RATED_ROOM, "only players with an account can create a rated room", reason="rated_host")
    try:
        config = resolve(preset, options, seats, turn_seconds, min_turn=settings.min_turn_seconds,
                         max_turn=settings.max_turn_seconds, rated=rated, pace=pace,
                         turn_based_min=settings.turn_based_min_seconds,
                         rated_min_turn=settings.rated_min_turn_seconds)
    except ConfigError as e:
        raise RoomError(E.BAD_OPTIONS, e.message, option=e.option, reason=e.reason, params=e.params) from e
    if capped and pace == TURN_BASED:
        refused = over_cap(await directory.turn_based_count(host.id), settings.max_turn_based)
        if refused:
            raise RoomError(E.RATE_LIMITED, refused, reason="turn_based_cap", params={"n": settings.max_turn_based})
    limit = settings.max_rooms_per_player
    if capped and await directory.open_rooms_hosted(host.id, now - timedelta(days=1)) >= limit:
        raise RoomError(E.RATE_LIMITED, f"you already host {limit} open rooms", reason="too_many_rooms",
                        params={"n": limit})
    listed = settings.max_public_rooms_per_player
    if public and await directory.public_rooms_waiting(host.id) >= listed:
        raise RoomError(E.RATE_LIMITED, f"you already have {listed} public rooms waiting for players; "
                        "start one, or make this one private", reason="too_many_public", params={"n": listed})
    fields = {"preset": config.preset, "overrides": config.overrides, "seats": config.seats, "public": public,
              "turn_seconds": config.turn_seconds, "hints": hints and not rated, "seed": seed, "rated": rated,
              "pace": pace}
    if sit:
        fields["seating"] = seating_json([SeatInfo(name=host.name, player_id=host.id)] + [None] * (config.seats - 1))
    for _ in range(5):
        code = new_room_code()
        if await directory.create_room(host.id, fields, code):
            return code
    raise RoomError(E.UNAVAILABLE, "could not find a free room code; try again", reason="no_free_code")


async def public_rooms(directory: Directory, now: datetime) -> list[RoomInfo]:
    """Public rooms waiting for players, newest first, as the protocol shows rooms."""
    return [room_info(Room(state, None, loaded_at=now, host_name=host))
            for state, host in await directory.public_rooms()]
