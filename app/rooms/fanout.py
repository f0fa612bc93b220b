"""Pushing the room and the table to sockets. Every view is the engine's `view` for its
receiver (their seat in the match, or None for a spectator); nothing else redacts.

Callers hold the room's lock, so what is pushed is always committed.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from app.engine import OptionsError, view
from app.store.models import utcnow

from .config import RoomConfig
from .live import LiveRoom, Peer


def room_options(room: LiveRoom) -> dict[str, Any] | None:
    """The room's options resolved by the engine (every option by its rules.md name)."""
    st = room.state
    try:
        return RoomConfig(st.preset, st.overrides, st.seats, st.turn_seconds).options().to_json()
    except OptionsError:
        return None


def room_json(room: LiveRoom) -> dict[str, Any]:
    return room.to_json(room_options(room))


def push_room(room: LiveRoom, peers: Iterable[Peer] | None = None) -> None:
    data = room_json(room)
    for peer in list(peers if peers is not None else room.peers):
        peer.send_room(data)


def absent_seats(room: LiveRoom, grace: float, now: datetime | None = None) -> list[int]:
    """Human seats of the match whose player has been away longer than `grace` while someone
    else is in the room: the server plays for them until they return."""
    m = room.match
    if m is None or not room.anyone_here():
        return []
    now = now or utcnow()
    out = []
    for seat, info in enumerate(m.seats):
        if info.player_id is None or room.is_connected(info.player_id):
            continue
        seen = room.presence.get(info.player_id)
        since = seen.away_since if seen and seen.away_since else room.loaded_wall
        if (now - since).total_seconds() >= grace:
            out.append(seat)
    return out


def state_extra(room: LiveRoom, grace: float) -> dict[str, Any]:
    """What the server adds beside the view: the match id, the turn clock, who is autoplayed."""
    m = room.match
    assert m is not None
    clock = None
    if m.playing and m.turn_seconds and m.deadline is not None:
        now = utcnow()
        clock = {"seat": m.game.game.turn, "deadline": m.deadline.isoformat(),
                 "remaining": round(max(0.0, (m.deadline - now).total_seconds()), 2),
                 "turn_seconds": m.turn_seconds}
    return {"match_id": m.id, "match_number": m.number, "clock": clock,
            "autoplay": absent_seats(room, grace) if m.playing else []}


def send_state(room: LiveRoom, peer: Peer, grace: float, *, cache: dict[int | None, dict[str, Any]] | None = None,
               extra: dict[str, Any] | None = None) -> None:
    """Send one socket the current table as its receiver may see it."""
    m = room.match
    if m is None or not m.game.started:
        return
    seat = room.view_seat(peer.player_id)
    if cache is not None and seat in cache:
        seen = cache[seat]
    else:
        seen = view(m.game, seat, room.connected(list(m.seats)))
        if cache is not None:
            cache[seat] = seen
    events = m.events_since(peer.sent_v)
    peer.send_state(m.game.v, seen, events, extra if extra is not None else state_extra(room, grace))
    peer.sent_v = m.game.v


def push_state(room: LiveRoom, grace: float, peers: Iterable[Peer] | None = None) -> None:
    """Send every socket (or the given ones) its own view of the current table."""
    if room.match is None:
        return
    cache: dict[int | None, dict[str, Any]] = {}
    extra = state_extra(room, grace)
    for peer in list(peers if peers is not None else room.peers):
        send_state(room, peer, grace, cache=cache, extra=extra)
