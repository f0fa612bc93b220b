"""Rooms the server arranges (quick match, the daily deal): created private, their seats filled
as decided, and started at once, through the same core decisions and pump as a host's
commands (`lobby` and `match_rules`), so every instance sees them as any other room.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.rooms.core.effects import ChangeRoom
from app.rooms.core.lobby import Actor
from app.rooms.core.match_rules import decide_start
from app.rooms.core.model import RoomPatch, SeatInfo
from app.rooms.ports import Host, moment
from app.rooms.shell.directory import create_room
from app.rooms.shell.service import RoomService


@dataclass(frozen=True, slots=True)
class Sitter:
    """Who takes a seat: a player (id, name) or a bot (its level)."""

    player_id: str | None = None
    name: str = ""
    bot: str | None = None


async def arrange(service: RoomService, host: Host, sitters: list[Sitter], *, preset: str | None,
                  options: dict[str, Any] | None, rated: bool = False, seed: str | None = None,
                  hints: bool | None = None, pace: str = "live", turn_seconds: int | None = None,
                  capped: bool = True) -> tuple[str, str]:
    """Create a room hosted by `host` with these seats, start its match; (code, match id).
    `hints`: whether the room gives them (by default unless rated). RoomError if the room
    cannot be made (a bad configuration, the host's room limit unless `capped` is False)."""
    clock = service.clock
    code = await create_room(service.storage, service.settings, host, clock.now(), preset=preset, options=options,
                             seats=len(sitters), public=False, turn_seconds=turn_seconds,
                             hints=not rated if hints is None else hints, seed=seed,
                             rated=rated, pace=pace, capped=capped)
    room = await service.live(code)
    seating: list[SeatInfo | None] = [SeatInfo(name=s.name, player_id=s.player_id) if s.bot is None
               else SeatInfo(name=f"{s.bot.capitalize()} bot {i + 1}", bot=s.bot) for i, s in enumerate(sitters)]
    if any(s.bot is not None for s in sitters):
        service.bots.prepare()
    async with room.lock:
        at = moment(clock)
        await service.pump.run(room, ChangeRoom(RoomPatch(seating=seating), room.room.state.rev), at)
        begin = decide_start(room.room, Actor(host.id, host.name, host.has_account), rematch=False, now=at.now,
                             fresh=service.fresh(), settings=service.settings)
        await service.pump.run(room, begin, at)
        return code, begin.match.id
