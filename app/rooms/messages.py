"""What the room tells a socket, typed (docs/protocol.md): the `room` object and the parts of
a `state` message beside the view. Builders here are pure functions of the room and the time.
(What instances tell each other is `notices`.)"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import orjson
from typing_extensions import TypedDict

from app.engine import MatchStatus, OptionsError, join_view

from .achievements import BY_KEY
from .config import RoomConfig
from .match_rules import ready_seats
from .model import Room
from .records import Awards
from .rematch import RematchInfo, rematch_info


class SeatEntry(TypedDict):
    seat: int
    player_id: str | None
    name: str | None
    bot: str | None
    connected: bool
    team: int | None


class WatcherEntry(TypedDict):
    player_id: str
    name: str | None  # from this instance's sockets or the shared presence; None if unknown


class RoomInfo(TypedDict):
    """The protocol's `room` object."""

    code: str
    host: str
    host_name: str | None
    status: str
    preset: str
    seats_taken: int
    options: dict[str, Any] | None
    overrides: dict[str, Any]
    seats: list[SeatEntry]
    seat_count: int
    public: bool
    turn_seconds: int | None
    hints: bool
    match_id: str | None
    match_number: int
    spectators: int
    watchers: list[WatcherEntry]
    seeded: bool
    rated: bool
    rematch: RematchInfo | None


class ClockInfo(TypedDict):
    seat: int
    deadline: str
    remaining: float
    turn_seconds: int


class NextHandInfo(TypedDict):
    """Between hands: who is ready and when the next hand is dealt anyway."""

    ready: list[int]
    deadline: str
    remaining: float


class StateExtra(TypedDict):
    """What a `state` message carries beside `v`, `view` and `events`."""

    match_id: str
    match_number: int
    clock: ClockInfo | None
    autoplay: list[int]
    awards: dict[str, Any] | None
    next_hand: NextHandInfo | None


class TableView:
    """One version of the table for one receiver: `shared` (the same object for every
    receiver of the version, encoded once) and `own`; `full()` is the joined view, encoded
    once however many sockets of that receiver take it."""

    __slots__ = ("shared", "own", "_shared_json", "_full_json")

    def __init__(self, shared: dict[str, Any], own: dict[str, Any], shared_json: Callable[[], orjson.Fragment]) -> None:
        self.shared, self.own = shared, own
        self._shared_json = shared_json
        self._full_json: orjson.Fragment | None = None

    def shared_json(self) -> orjson.Fragment:
        """The shared part encoded, once per version for every receiver."""
        return self._shared_json()

    def full(self) -> dict[str, Any]:
        return join_view(self.shared, self.own)

    def full_json(self) -> orjson.Fragment:
        if self._full_json is None:
            self._full_json = orjson.Fragment(orjson.dumps(self.full()))
        return self._full_json


def room_options(room: Room) -> dict[str, Any] | None:
    """The room's options resolved by the engine (every option by its rules.md name)."""
    st = room.state
    try:
        return RoomConfig(st.preset, st.overrides, st.seats, st.turn_seconds).options().to_json()
    except OptionsError:
        return None


def _teams(room: Room) -> list[int | None]:
    st = room.state
    try:
        options = RoomConfig(st.preset, st.overrides, st.seats, st.turn_seconds).options()
    except OptionsError:
        return [None] * st.seats
    return [options.team_of(i) for i in range(st.seats)]


def room_info(room: Room) -> RoomInfo:
    st = room.state
    flags = room.connected_flags(st.seating)
    teams = _teams(room)
    seats: list[SeatEntry] = [
        {"seat": i, "player_id": s.player_id if s else None, "name": s.name if s else None,
         "bot": s.bot if s else None, "connected": flags[i] if s else False, "team": teams[i]}
        for i, s in enumerate(st.seating)]
    names = {pid: room.names.get(pid) or (room.presence[pid].name if pid in room.presence else None)
             for pid in room.watchers()}
    watchers: list[WatcherEntry] = [{"player_id": pid, "name": names[pid]}
                                    for pid in sorted(names, key=lambda p: (names[p] or "", p))]
    return {
        "code": st.code, "host": st.host_id, "host_name": room.host_name, "status": st.status,
        "preset": st.preset, "seats_taken": sum(1 for s in st.seating if s is not None),
        "options": room_options(room), "overrides": st.overrides, "seats": seats, "seat_count": st.seats,
        "public": st.public, "turn_seconds": st.turn_seconds, "hints": st.hints and not st.rated,
        "match_id": st.match_id, "match_number": st.match_count, "spectators": len(watchers), "watchers": watchers,
        "seeded": st.seed is not None, "rated": st.rated, "rematch": rematch_info(room),
    }


def state_extra(room: Room, now: datetime, absent: Sequence[int]) -> StateExtra:
    """The match id, the turn clock and who is autoplayed (`absent`: `timers.absent_seats`),
    beside the view."""
    m = room.match
    assert m is not None
    clock: ClockInfo | None = None
    if m.playing and m.turn_seconds and m.deadline is not None:
        clock = {"seat": m.turn, "deadline": m.deadline.isoformat(),
                 "remaining": round(max(0.0, (m.deadline - now).total_seconds()), 2),
                 "turn_seconds": m.turn_seconds}
    next_hand: NextHandInfo | None = None
    if m.engine.status == MatchStatus.HAND_OVER and m.next_deadline is not None:
        next_hand = {"ready": ready_seats(room), "deadline": m.next_deadline.isoformat(),
                     "remaining": round(max(0.0, (m.next_deadline - now).total_seconds()), 2)}
    return {"match_id": m.id, "match_number": m.number, "clock": clock,
            "autoplay": list(absent) if m.playing else [],
            "awards": awards_json(m.awards) if m.awards is not None and not m.playing else None,
            "next_hand": next_hand}


def awards_json(awards: Awards) -> dict[str, Any]:
    """The state's `awards` at a hand's or match's end: achievements just earned (each with
    its name and description) and, after a rated match, every seat's rating before and after."""
    return {
        "achievements": [{"seat": e.seat, "player_id": e.player_id, "key": e.key, "name": BY_KEY[e.key].name,
                          "description": BY_KEY[e.key].description} for e in awards.achievements if e.key in BY_KEY],
        "ratings": [{"seat": d.seat, "player_id": d.player_id, "before": d.before.to_json(),
                     "after": d.after.to_json()} for d in awards.ratings],
    }
