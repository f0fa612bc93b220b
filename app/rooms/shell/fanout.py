"""Pushing the room and the table to sockets. Every view comes from the engine's observer:
per version the shared part (the public table) is built and JSON-encoded once for every
receiver, and each receiver's own part (`you`, `hand`, `legal_moves`) once per seat; a full
socket gets the two joined, encoded once per seat. Nothing else redacts.

Delta sockets (docs/protocol.md, "Delta frames") get what changed since the table they hold:
the room keeps the parts it last pushed (`Pushed`, one per room: the shared part and each
seat's own part, not one per socket), and a push diffs the shared part once and each seat's
own part once against them. A socket holds the table whose `serial` it was last sent; one that
holds another (a single socket sent a table since, a new match) is sent the whole.

Callers hold the room's lock, so what is pushed is always committed. Sends only queue.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

import orjson

from app.engine import own_view, sealed_result, shared_view
from app.rooms.core.delta import Delta, SharedChange
from app.rooms.core.messages import StateExtra, TableView, room_info, state_extra
from app.rooms.core.model import Room
from app.rooms.ports import Peer

_SERIALS = itertools.count(1)


class Pushed:
    """The table a room's sockets were last pushed (`push_states`): its serial, match and
    version, the shared part and each receiver seat's own part, as the observer made them."""

    __slots__ = ("serial", "match_id", "v", "shared", "own")

    def __init__(self, serial: int, match_id: str, v: int, shared: dict[str, Any],
                 own: dict[int | None, dict[str, Any]]) -> None:
        self.serial, self.match_id, self.v, self.shared, self.own = serial, match_id, v, shared, own


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


class _Changes:
    """What changed since `base` (the table pushed before, same match), which delta sockets
    holding it are sent: the shared part's diffed once per version, each own part once per
    seat. Like `_Encoded`, it holds no view, so views and tables make no reference cycle."""

    __slots__ = ("base", "shared", "_shared_change", "_deltas")

    def __init__(self, base: Pushed | None, shared: dict[str, Any]) -> None:
        self.base, self.shared = base, shared
        self._shared_change: SharedChange | None = None
        self._deltas: dict[int | None, Delta | None] = {}

    def delta(self, seat: int | None, own: dict[str, Any], held: int) -> Delta | None:
        """The change for a receiver in `seat` (its own part `own`) holding table `held`."""
        base = self.base
        if base is None or held != base.serial or seat not in base.own:
            return None
        if seat not in self._deltas:
            if self._shared_change is None:
                self._shared_change = SharedChange(base.v, base.shared, self.shared)
            self._deltas[seat] = self._shared_change.with_own(base.own[seat], own)
        return self._deltas[seat]


class _Tables:
    """The table of one version for each receiver seat, built on first use; `base`: the table
    pushed before (same match), which delta sockets holding it are sent the change from."""

    def __init__(self, room: Room, now: datetime, base: Pushed | None = None) -> None:
        m = room.match
        assert m is not None
        self.match = m.engine
        self.match_id, self.v = m.id, m.v
        self.serial = next(_SERIALS)
        self.shared = shared_view(m.engine, room.connected_flags(m.seats))
        if self.shared.get("result") is not None:  # a daily deal's seed stays hidden all its day
            self.shared = {**self.shared, "result": sealed_result(self.shared["result"], now.date().isoformat())}
        self.shared_json = _Encoded(self.shared)
        self.by_seat: dict[int | None, TableView] = {}
        self.changes = _Changes(base if base is not None and base.match_id == m.id else None, self.shared)

    def of(self, seat: int | None) -> TableView:
        table = self.by_seat.get(seat)
        if table is None:
            own = own_view(self.match, seat)
            table = self.by_seat[seat] = TableView(self.shared, own, self.shared_json, self.serial,
                                                   functools.partial(self.changes.delta, seat, own))
        return table

    def pushed(self) -> Pushed:
        return Pushed(self.serial, self.match_id, self.v, self.shared, {s: t.own for s, t in self.by_seat.items()})


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


def send_state(room: Room, peer: Peer, now: datetime, absent: Sequence[int], last: Pushed | None = None) -> None:
    """Send one socket the current table, whole, as its receiver may see it (`absent`: the seats
    the server plays for, `timers.absent_seats`; `last`: the room's last push, which the socket
    then holds if this table is that one, so the next push may be a delta)."""
    m = room.match
    if m is None or not m.engine.started:
        return
    tables = _Tables(room, now)
    if last is not None and last.match_id == m.id and last.v == m.v and last.shared == tables.shared:
        tables.serial = last.serial  # the same table: its own part is the same function of the same state
        last.own.setdefault(room.view_seat(peer.player_id), tables.of(room.view_seat(peer.player_id)).own)
    _send(room, peer, tables, state_extra(room, now, absent))


def push_states(room: Room, peers: Iterable[Peer], now: datetime, absent: Sequence[int],
                last: Pushed | None = None) -> Pushed | None:
    """Send every socket given its own view of the current table (a delta socket holding
    `last`, the room's previous push, the change from it); returns this push, to keep."""
    m = room.match
    if m is None or not m.engine.started:
        return last
    tables = _Tables(room, now, last)
    extra = state_extra(room, now, absent)
    for peer in list(peers):
        _send(room, peer, tables, extra)
    return tables.pushed()
