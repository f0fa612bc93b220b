"""Pushing the room and the table to sockets. Every view comes from the engine's observer:
per version the shared part (the public table) is built and JSON-encoded once for every
receiver, and each receiver's own part (`you`, `hand`, `legal_moves`) once per seat; a full
socket gets the two joined, encoded once per seat. Nothing else redacts.

Callers hold the room's lock, so what is pushed is always committed. Sends only queue.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

import orjson

from app.engine import own_view, sealed_result, shared_view
from app.rooms.core.messages import StateExtra, TableView, room_info, state_extra
from app.rooms.core.model import Room
from app.rooms.ports import Peer


class _Encoded:
    """The shared part of one version, JSON-encoded on first use (full sockets never need it),
    then shared by every receiver. Each `TableView` holds this object, never the `_Tables` that
    made it: a bound method of `_Tables` in every view made a reference cycle through the
    version's engine match, so each move's old match (its whole game state) lived on as cyclic
    garbage until a garbage collection found it, and those collections cost more CPU than the
    engine's own work on the move (docs/performance.md, "Garbage")."""

    __slots__ = ("value", "_json")

    def __init__(self, value: dict[str, Any]) -> None:
        self.value = value
        self._json: orjson.Fragment | None = None

    def __call__(self) -> orjson.Fragment:
        if self._json is None:
            self._json = orjson.Fragment(orjson.dumps(self.value))
        return self._json


class _Tables:
    """The table of one version for each receiver seat, built on first use."""

    def __init__(self, room: Room, now: datetime) -> None:
        m = room.match
        assert m is not None
        self.match = m.engine
        self.shared = shared_view(m.engine, room.connected_flags(m.seats))
        if self.shared.get("result") is not None:  # a daily deal's seed stays hidden all its day
            self.shared = {**self.shared, "result": sealed_result(self.shared["result"], now.date().isoformat())}
        self.shared_json = _Encoded(self.shared)
        self.by_seat: dict[int | None, TableView] = {}

    def of(self, seat: int | None) -> TableView:
        table = self.by_seat.get(seat)
        if table is None:
            table = self.by_seat[seat] = TableView(self.shared, own_view(self.match, seat), self.shared_json)
        return table


def push_room(room: Room, peers: Iterable[Peer]) -> None:
    data = room_info(room)
    for peer in list(peers):
        peer.send_room(data)


def _send(room: Room, peer: Peer, tables: _Tables, extra: StateExtra) -> None:
    m = room.match
    assert m is not None
    seat = room.view_seat(peer.player_id)
    peer.send_state(m.v, tables.of(seat), m.events_since(peer.sent_v, seat), extra)
    peer.sent_v = m.v


def send_state(room: Room, peer: Peer, now: datetime, absent: Sequence[int]) -> None:
    """Send one socket the current table as its receiver may see it (`absent`: the seats the
    server plays for, `timers.absent_seats`)."""
    m = room.match
    if m is None or not m.engine.started:
        return
    _send(room, peer, _Tables(room, now), state_extra(room, now, absent))


def push_states(room: Room, peers: Iterable[Peer], now: datetime, absent: Sequence[int]) -> None:
    """Send every socket given its own view of the current table."""
    m = room.match
    if m is None or not m.engine.started:
        return
    tables = _Tables(room, now)
    extra = state_extra(room, now, absent)
    for peer in list(peers):
        _send(room, peer, tables, extra)
