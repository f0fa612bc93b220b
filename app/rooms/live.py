"""A live room in memory: its settings and lobby, the match being played (an engine `Match`
rebuilt from the store), the sockets attached on this instance, and who is connected.

Everything here is a cache of the store, rebuilt from it at will; the per-room lock guards
every read or change of the match, so no socket ever sees a move that is not committed.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

import orjson

from app.engine import Match, MatchStatus
from app.store.models import Room as RoomRow
from app.store.models import utcnow
from app.store.presence import Seen

EVENTS_KEPT = 64  # versions of events kept for sockets that fall a little behind


class Peer(Protocol):
    """One socket in a room, as the room service sees it (the server implements it).

    Every `send_*` is non-blocking: it queues the message for the socket.
    """

    player_id: str
    name: str
    sent_v: int | None

    def send_welcome(self, seat: int | None, host: bool, room: dict[str, Any]) -> None: ...

    def send_room(self, room: dict[str, Any]) -> None: ...

    def send_state(self, v: int, view: dict[str, Any], events: Any, extra: dict[str, Any]) -> None:
        """`events`: a JSON-ready list, or an `orjson.Fragment` of a JSON list."""
        ...

    def send_error(self, code: str, message: str, move_id: str | None = None,
                   option: str | None = None) -> None: ...

    def send_chat(self, sender: dict[str, Any], text: str, at: str) -> None: ...

    def send_hint(self, v: int, move: dict[str, Any], reason: str) -> None: ...

    def send_pong(self) -> None: ...

    def close(self, code: int, reason: str) -> None: ...


@dataclass
class SeatInfo:
    """Who sits in a seat: a player (player_id) or a bot (bot = its level)."""

    name: str
    player_id: str | None = None
    bot: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"player_id": self.player_id, "name": self.name, "bot": self.bot}

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> SeatInfo | None:
        if not data:
            return None
        return cls(name=str(data.get("name", "")), player_id=data.get("player_id"), bot=data.get("bot"))


@dataclass
class RoomState:
    """The room row as the service uses it."""

    code: str
    host_id: str
    preset: str
    overrides: dict[str, Any]
    seats: int
    public: bool
    turn_seconds: int | None
    hints: bool
    seed: str | None
    status: str
    seating: list[SeatInfo | None]
    rev: int
    match_id: str | None
    match_count: int

    @classmethod
    def from_row(cls, row: RoomRow) -> RoomState:
        seating = [SeatInfo.from_json(s) for s in (row.seating or [])]
        seating += [None] * (row.seats - len(seating))
        return cls(row.code, row.host_id, row.preset, dict(row.overrides or {}), row.seats, row.public,
                   row.turn_seconds, row.hints, row.seed, row.status, seating[:row.seats], row.rev,
                   row.match_id, row.match_count)

    def seating_json(self) -> list[dict[str, Any] | None]:
        return [s.to_json() if s else None for s in self.seating]


@dataclass
class LiveMatch:
    """The match being played: the engine's `Match` plus what the server keeps beside it."""

    id: str
    number: int
    game: Match
    seats: list[SeatInfo]
    turn_seconds: int | None
    deadline: datetime | None
    client_ids: dict[tuple[int, str], int] = field(default_factory=dict)
    # Each version's events, kept as JSON text: one object instead of many small dicts that
    # would live long enough for the garbage collector to scan them again and again.
    events: dict[int, bytes] = field(default_factory=dict)

    def seat_of(self, player_id: str) -> int | None:
        for i, s in enumerate(self.seats):
            if s.player_id == player_id:
                return i
        return None

    def remember(self, v: int, events: list[dict[str, Any]]) -> None:
        self.events[v] = orjson.dumps(events)
        self.events.pop(v - EVENTS_KEPT, None)
        if len(self.events) > EVENTS_KEPT:
            for old in [k for k in self.events if k <= v - EVENTS_KEPT]:
                del self.events[old]

    def events_since(self, since: int | None) -> list[Any] | orjson.Fragment:
        """Events of versions (since, v] as JSON (embedded as is by orjson), or none if some
        are no longer kept."""
        v = self.game.v
        if since is None or since >= v or since < v - EVENTS_KEPT:
            return []
        parts: list[bytes] = []
        for k in range(since + 1, v + 1):
            kept = self.events.get(k)
            if kept is None:
                return []
            if len(kept) > 2:
                parts.append(kept[1:-1])
        return orjson.Fragment(b"[" + b",".join(parts) + b"]")

    @property
    def playing(self) -> bool:
        return self.game.status == MatchStatus.PLAYING


class LiveRoom:
    """One room loaded on this instance."""

    def __init__(self, state: RoomState, match: LiveMatch | None) -> None:
        self.code = state.code
        self.state = state
        self.match = match
        self.lock = asyncio.Lock()
        self.peers: set[Peer] = set()
        self.here: Counter[str] = Counter()  # sockets per player on this instance
        self.presence: dict[str, Seen] = {}
        self.changed_at = time.monotonic()
        self.loaded_wall = utcnow()
        self.timer: asyncio.Task[None] | None = None
        self.subscription: Any = None
        self.closed = False
        self.host_name: str | None = None

    def attach(self, peer: Peer) -> None:
        self.peers.add(peer)
        self.here[peer.player_id] += 1

    def detach(self, peer: Peer) -> bool:
        """Remove a socket; False if it was not attached."""
        if peer not in self.peers:
            return False
        self.peers.discard(peer)
        self.here[peer.player_id] -= 1
        if self.here[peer.player_id] <= 0:
            del self.here[peer.player_id]
        return True

    # Who is where.
    def lobby_seat(self, player_id: str) -> int | None:
        for i, s in enumerate(self.state.seating):
            if s is not None and s.player_id == player_id:
                return i
        return None

    def view_seat(self, player_id: str) -> int | None:
        """The seat whose cards this player may see: their seat in the match, if any."""
        if self.match is not None:
            return self.match.seat_of(player_id)
        return self.lobby_seat(player_id)

    def is_connected(self, player_id: str) -> bool:
        if player_id in self.here:
            return True
        seen = self.presence.get(player_id)
        return bool(seen and seen.connected)

    def anyone_here(self) -> bool:
        """Is any person (seated or watching) connected to this room on any instance?"""
        return bool(self.peers) or any(s.connected for s in self.presence.values())

    def connected(self, seats: list[SeatInfo | None]) -> list[bool]:
        return [bool(s and (s.bot is not None or (s.player_id and self.is_connected(s.player_id))))
                for s in seats]

    def to_json(self, options: dict[str, Any] | None) -> dict[str, Any]:
        """The `room` object of the protocol."""
        st = self.state
        flags = self.connected(st.seating)
        seats = []
        for i, s in enumerate(st.seating):
            seats.append({"seat": i, "player_id": s.player_id if s else None, "name": s.name if s else None,
                          "bot": s.bot if s else None, "connected": flags[i] if s else False})
        seated = {s.player_id for s in st.seating if s and s.player_id}
        watching = set(self.here) - seated
        watching |= {pid for pid, seen in self.presence.items() if seen.connected and pid not in seated}
        return {
            "code": st.code, "host": st.host_id, "host_name": self.host_name, "status": st.status,
            "preset": st.preset, "seats_taken": sum(1 for s in st.seating if s is not None),
            "options": options, "overrides": st.overrides, "seats": seats, "seat_count": st.seats,
            "public": st.public, "turn_seconds": st.turn_seconds, "hints": st.hints,
            "match_id": st.match_id, "match_number": st.match_count, "spectators": len(watching),
            "seeded": st.seed is not None,
        }
