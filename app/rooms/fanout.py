"""Pushing the room and the table to sockets. Every view is the engine's `view` for its
receiver (their seat in the match, or None for a spectator); nothing else redacts.

Callers hold the room's lock, so what is pushed is always committed. Sends only queue.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from app.engine import view

from .messages import StateExtra, room_info, state_extra
from .model import Room
from .ports import Peer


def push_room(room: Room, peers: Iterable[Peer]) -> None:
    data = room_info(room)
    for peer in list(peers):
        peer.send_room(data)


def send_state(room: Room, peer: Peer, now: datetime, grace: float, *,
               cache: dict[int | None, dict[str, Any]] | None = None, extra: StateExtra | None = None) -> None:
    """Send one socket the current table as its receiver may see it."""
    m = room.match
    if m is None or not m.engine.started:
        return
    seat = room.view_seat(peer.player_id)
    if cache is not None and seat in cache:
        seen = cache[seat]
    else:
        seen = view(m.engine, seat, room.connected(m.seats))
        if cache is not None:
            cache[seat] = seen
    peer.send_state(m.v, seen, m.events_since(peer.sent_v, seat), extra if extra is not None else
                    state_extra(room, now, grace))
    peer.sent_v = m.v


def push_states(room: Room, peers: Iterable[Peer], now: datetime, grace: float) -> None:
    """Send every socket given its own view of the current table."""
    if room.match is None:
        return
    cache: dict[int | None, dict[str, Any]] = {}
    extra = state_extra(room, now, grace)
    for peer in list(peers):
        send_state(room, peer, now, grace, cache=cache, extra=extra)
