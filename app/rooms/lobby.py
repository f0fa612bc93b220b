"""The lobby: sitting and standing, bots, the host's settings, and chat.

A lobby change is computed from the room as this instance knows it and written only if the
room's revision has not moved meanwhile; if it has, the room is reloaded and the change is
checked again against the fresh room.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from app.store import rooms as room_store
from app.store.errors import Conflict
from app.store.models import utcnow

from . import errors as E
from .config import BOT_LEVELS, resolve
from .errors import ConfigError, RoomError
from .live import LiveRoom, Peer, RoomState, SeatInfo

if TYPE_CHECKING:
    from .service import RoomService

LOBBY = ("waiting", "over")
Change = Callable[[RoomState], dict[str, Any] | None]


def _in_lobby(st: RoomState, what: str) -> None:
    if st.status not in LOBBY:
        raise RoomError(E.NOT_ALLOWED_NOW, f"{what} only before the game starts (or after it ends)")


def may_host(room: LiveRoom, peer: Peer, grace: float) -> bool:
    """The host, or, once the host has been away longer than `grace`, any seated player."""
    st = room.state
    if peer.player_id == st.host_id:
        return True
    if room.lobby_seat(peer.player_id) is None or room.is_connected(st.host_id):
        return False
    seen = room.presence.get(st.host_id)
    since = seen.away_since if seen and seen.away_since else room.loaded_wall
    return (utcnow() - since).total_seconds() >= grace


def check_host(room: LiveRoom, peer: Peer, grace: float, what: str) -> None:
    if not may_host(room, peer, grace):
        raise RoomError(E.NOT_HOST, f"only the host can {what}")


def _seating(st: RoomState, seating: list[SeatInfo | None]) -> dict[str, Any]:
    return {"seating": [s.to_json() if s else None for s in seating]}


async def change(svc: RoomService, room: LiveRoom, compute: Change) -> None:
    """Write the change `compute` makes to the room (None: nothing to change), retrying
    against a fresh copy of the room if another writer got there first."""
    for _ in range(3):
        values = compute(room.state)
        if values is None:
            svc.push_room(room)
            return
        try:
            async with svc.sessions() as s:
                rev = await room_store.update_room(s, room.code, room.state.rev, values)
        except Conflict:
            await svc.reload(room)
            continue
        st = room.state
        for key, value in values.items():
            if key == "seating":
                st.seating = [SeatInfo.from_json(v) for v in value]
            else:
                setattr(st, key, value)
        st.rev = rev
        await svc.after_change(room, room_changed=True, state_changed=False)
        return
    raise RoomError(E.CONFLICT, "the room is changing fast; try again")


async def sit(svc: RoomService, room: LiveRoom, peer: Peer, seat: int | None) -> None:
    def compute(st: RoomState) -> dict[str, Any] | None:
        _in_lobby(st, "you can take a seat")
        seating = list(st.seating)
        mine = room.lobby_seat(peer.player_id)
        target = seat
        if target is None:
            if mine is not None:
                return None
            free = [i for i, s in enumerate(seating) if s is None]
            if not free:
                raise RoomError(E.ROOM_FULL, "every seat is taken; you can watch")
            target = free[0]
        if not 0 <= target < st.seats:
            raise RoomError(E.BAD_MESSAGE, f"there is no seat {target}: seats are 0 to {st.seats - 1}")
        if target == mine:
            return None
        if seating[target] is not None:
            if all(s is not None for s in seating) and mine is None:
                raise RoomError(E.ROOM_FULL, "every seat is taken; you can watch")
            raise RoomError(E.SEAT_TAKEN, f"seat {target} is taken")
        if mine is not None:
            seating[mine] = None
        seating[target] = SeatInfo(name=peer.name, player_id=peer.player_id)
        return _seating(st, seating)

    await change(svc, room, compute)


async def stand(svc: RoomService, room: LiveRoom, peer: Peer) -> None:
    def compute(st: RoomState) -> dict[str, Any] | None:
        _in_lobby(st, "you can leave your seat")
        mine = room.lobby_seat(peer.player_id)
        if mine is None:
            return None
        seating = list(st.seating)
        seating[mine] = None
        return _seating(st, seating)

    await change(svc, room, compute)


async def add_bot(svc: RoomService, room: LiveRoom, peer: Peer, seat: int | None, level: str) -> None:
    if level not in BOT_LEVELS:
        raise RoomError(E.BAD_MESSAGE, f"bot level must be one of {', '.join(BOT_LEVELS)}")

    def compute(st: RoomState) -> dict[str, Any] | None:
        check_host(room, peer, svc.settings.absent_grace, "add bots")
        _in_lobby(st, "bots can be added")
        seating = list(st.seating)
        target = seat
        if target is None:
            free = [i for i, s in enumerate(seating) if s is None]
            if not free:
                raise RoomError(E.ROOM_FULL, "every seat is taken")
            target = free[0]
        if not 0 <= target < st.seats:
            raise RoomError(E.BAD_MESSAGE, f"there is no seat {target}: seats are 0 to {st.seats - 1}")
        if seating[target] is not None:
            raise RoomError(E.SEAT_TAKEN, f"seat {target} is taken")
        seating[target] = SeatInfo(name=f"{level.capitalize()} bot {target + 1}", bot=level)
        return _seating(st, seating)

    await change(svc, room, compute)
    svc.pool.prepare()


async def remove_bot(svc: RoomService, room: LiveRoom, peer: Peer, seat: int) -> None:
    def compute(st: RoomState) -> dict[str, Any] | None:
        check_host(room, peer, svc.settings.absent_grace, "remove bots")
        _in_lobby(st, "bots can be removed")
        if not 0 <= seat < st.seats or st.seating[seat] is None or st.seating[seat].bot is None:  # type: ignore[union-attr]
            raise RoomError(E.NOT_ALLOWED_NOW, f"there is no bot in seat {seat}")
        seating = list(st.seating)
        seating[seat] = None
        return _seating(st, seating)

    await change(svc, room, compute)


async def configure(svc: RoomService, room: LiveRoom, peer: Peer, fields: dict[str, Any]) -> None:
    """The host changes the preset, options (replacing the previous overrides), seats, turn
    clock, hints or whether the room is listed; only the fields given change."""
    settings = svc.settings

    def compute(st: RoomState) -> dict[str, Any] | None:
        check_host(room, peer, settings.absent_grace, "change the settings")
        _in_lobby(st, "settings can change")
        options = fields.get("options")
        seats = fields.get("seats")
        if seats is None and options is not None and "players" in options:
            seats = None
        elif seats is None:
            seats = st.seats
        turn = fields.get("turn_seconds", st.turn_seconds)
        try:
            config = resolve(fields.get("preset") or st.preset, options if options is not None else st.overrides,
                             seats, turn, min_turn=settings.min_turn_seconds, max_turn=settings.max_turn_seconds)
        except ConfigError as e:
            raise RoomError(E.BAD_OPTIONS, e.message, option=e.option) from e
        seating = list(st.seating[:config.seats]) + [None] * max(0, config.seats - st.seats)
        values: dict[str, Any] = {"preset": config.preset, "overrides": config.overrides, "seats": config.seats,
                                  "turn_seconds": config.turn_seconds, **_seating(st, seating)}
        for flag in ("public", "hints"):
            if fields.get(flag) is not None:
                values[flag] = bool(fields[flag])
        return values

    await change(svc, room, compute)


def clean_chat(text: str, limit: int) -> str:
    """A chat line: control characters removed, whitespace trimmed, 1 to `limit` characters."""
    cleaned = "".join(" " if ch in "\t\n\r" else ch for ch in text
                      if ch in "\t\n\r" or unicodedata.category(ch)[0] != "C").strip()
    if not cleaned:
        raise RoomError(E.BAD_MESSAGE, "a chat line needs some text")
    if len(cleaned) > limit:
        raise RoomError(E.BAD_MESSAGE, f"a chat line has at most {limit} characters")
    return cleaned


async def chat(svc: RoomService, room: LiveRoom, peer: Peer, text: str) -> None:
    line = clean_chat(text, svc.settings.max_chat_chars)
    sender = {"player_id": peer.player_id, "name": peer.name, "seat": room.lobby_seat(peer.player_id)}
    at = utcnow().isoformat()
    for p in list(room.peers):
        p.send_chat(sender, line, at)
    await svc.publish(room, {"kind": "chat", "from": sender, "text": line, "at": at})
