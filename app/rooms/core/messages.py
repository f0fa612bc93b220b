"""What the room tells a socket, typed (docs/protocol.md): the `room` object and the parts of
a `state` message beside the view. Builders here are pure functions of the room and the time.
(What instances tell each other is `notices`.)

These TypedDicts are the one schema of those objects: the socket sends them (`app.web.wire.room`
wraps them in messages), REST answers the room object (`app.web.wire.responses.RoomLinks`), the
tests validate what they receive against them, and `scripts/gen_types.py` writes
static/types.js from them. A `Doc` beside a field is its description (and, where the JSON
schema is too loose for the client, the field's JavaScript type).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from datetime import datetime
from typing import Annotated, Any

import orjson
from typing_extensions import TypedDict

from app.domain.records import Awards, Rating, RoomStatus
from app.engine import MatchStatus, OptionsError, daily_seed_day, join_view
from app.rooms.core.achievements import BY_KEY
from app.rooms.core.config import RoomConfig
from app.rooms.core.daily_room import is_daily
from app.rooms.core.delta import Delta
from app.rooms.core.match_rules import ready_seats
from app.rooms.core.model import Room
from app.rooms.core.rematch import RematchInfo, rematch_info


class Doc:
    """A field's description and, optionally, its JavaScript type (`js`), for the JSON schema
    pydantic makes of a TypedDict (REST's OpenAPI, static/types.js). Plain metadata: pydantic
    calls `__get_pydantic_json_schema__` on it, so this module need not import pydantic."""

    __slots__ = ("text", "js")

    def __init__(self, text: str = "", js: str | None = None) -> None:
        self.text, self.js = text, js

    def __get_pydantic_json_schema__(self, core_schema: Any, handler: Any) -> Any:
        schema = handler(core_schema)
        if self.text:
            schema["description"] = self.text
        if self.js:
            schema["x-js"] = self.js
        return schema


class SeatEntry(TypedDict):
    """A seat of a room: every field null and `connected` false when empty; a bot seat has no
    `player_id`, its level in `bot`, and is always connected."""

    seat: int
    player_id: str | None
    name: str | None
    bot: Annotated[str | None, Doc(js="BotLevel | null")]
    connected: bool
    team: Annotated[int | None, Doc("the seat's team index (0, 1, 2) in a partnership game, else null")]
    vacation: Annotated[bool, Doc("the seat's player is on vacation (turn-based deadlines wait)")]


class WatcherEntry(TypedDict):
    player_id: str
    # from this instance's sockets or the shared presence
    name: Annotated[str | None, Doc("null if unknown")]


class RoomInfo(TypedDict):
    """The room object (`room`, `welcome.room`, and REST with its links)."""

    code: str
    host: Annotated[str, Doc("the host's player id")]
    host_name: str | None
    status: RoomStatus
    preset: str
    seats_taken: int
    options: Annotated[dict[str, Any] | None, Doc("the resolved options; null if the room's are impossible",
                                                  "GameOptions | null")]
    overrides: Annotated[dict[str, Any], Doc("the options the host set, as given", "Partial<GameOptions>")]
    seats: list[SeatEntry]
    seat_count: int
    public: bool
    turn_seconds: int | None
    hints: bool
    match_id: str | None
    match_number: int
    spectators: Annotated[int, Doc("people connected who do not sit")]
    watchers: Annotated[list[WatcherEntry], Doc("who the spectators are")]
    seeded: bool
    rated: Annotated[bool, Doc("a rated room: accounts only, no bots; its matches change ratings")]
    pace: Annotated[str, Doc("live, or turn_based: hours or days a turn")]
    rematch: Annotated[RematchInfo | None, Doc("once a match is over and someone offered a rematch: who offered "
                                               "and each seat's answer")]
    daily: Annotated[str | None, Doc("a daily deal's room: the deal's UTC day, YYYY-MM-DD (no watchers, no hints, "
                                     "no invitations while that day lasts); else null")]


class ClockInfo(TypedDict):
    """The turn clock: whose turn it is and when it runs out (`remaining` seconds from when
    the state was sent)."""

    seat: int
    deadline: str
    remaining: float
    turn_seconds: int


class NextHandInfo(TypedDict):
    """Between hands: the seats ready for the next hand (bots and players away count as
    ready), and when it is dealt anyway (`remaining` seconds from when the state was sent)."""

    ready: list[int]
    deadline: str
    remaining: float


class AchievementAward(TypedDict):
    seat: int
    player_id: str
    key: str
    name: str
    description: str


class RatingChange(TypedDict):
    seat: int
    player_id: str
    before: Rating
    after: Rating


class AwardsInfo(TypedDict):
    """What a hand's or match's end awarded: achievements just earned and, after a rated
    match, every seat's rating before and after."""

    achievements: list[AchievementAward]
    ratings: list[RatingChange]


class StateExtra(TypedDict):
    """What a `state` message carries beside `v`, the view and `events`."""

    match_id: str
    match_number: int
    clock: Annotated[ClockInfo | None, Doc("null when there is no turn clock or no hand is being played")]
    autoplay: Annotated[list[int], Doc("seats the server plays for while their players are away")]
    awards: Annotated[AwardsInfo | None, Doc("once a hand or match is over: achievements earned, rating changes")]
    next_hand: Annotated[NextHandInfo | None, Doc("between hands of a match: who is ready, the countdown")]


class TableView:
    """One version of the table for one receiver: `shared` (the same object for every
    receiver of the version, encoded once) and `own`; `full()` is the joined view, encoded
    once however many sockets of that receiver take it. `serial` names this table among those
    pushed (a socket keeps the serial of the table it holds); `delta(held)` is the change from
    the table `held` names to this one, when the fan-out still knows that table."""

    __slots__ = ("shared", "own", "serial", "_shared_json", "_full_json", "_delta")

    def __init__(self, shared: dict[str, Any], own: dict[str, Any], shared_json: Callable[[], orjson.Fragment],
                 serial: int = 0, delta: Callable[[int], Delta | None] | None = None) -> None:
        self.shared, self.own, self.serial = shared, own, serial
        self._shared_json = shared_json
        self._full_json: orjson.Fragment | None = None
        self._delta = delta

    def shared_json(self) -> orjson.Fragment:
        """The shared part encoded, once per version for every receiver."""
        return self._shared_json()

    def full(self) -> dict[str, Any]:
        return join_view(self.shared, self.own)

    def full_json(self) -> orjson.Fragment:
        if self._full_json is None:
            self._full_json = orjson.Fragment(orjson.dumps(self.full()))
        return self._full_json

    def delta(self, held: int | None) -> Delta | None:
        """What makes the table of serial `held` (the one a socket holds) into this one; None
        when that is not the table this one follows (the socket is then sent the whole)."""
        return self._delta(held) if self._delta is not None and held is not None else None


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
         "bot": s.bot if s else None, "connected": flags[i] if s else False, "team": teams[i],
         "vacation": bool(s and s.player_id in room.vacations)}
        for i, s in enumerate(st.seating)]
    names = {pid: room.names.get(pid) or (room.presence[pid].name if pid in room.presence else None)
             for pid in room.watchers()}
    watchers: list[WatcherEntry] = [{"player_id": pid, "name": names[pid]}
                                    for pid in sorted(names, key=lambda p: (names[p] or "", p))]
    return {
        "code": st.code, "host": st.host_id, "host_name": room.host_name, "status": st.status,
        "preset": st.preset, "seats_taken": sum(1 for s in st.seating if s is not None),
        "options": room_options(room), "overrides": st.overrides, "seats": seats, "seat_count": st.seats,
        "public": st.public, "turn_seconds": st.turn_seconds, "hints": st.hints and not st.rated and not is_daily(st),
        "match_id": st.match_id, "match_number": st.match_count, "spectators": len(watchers), "watchers": watchers,
        "seeded": st.seed is not None, "rated": st.rated, "pace": st.pace, "rematch": rematch_info(room),
        "daily": daily_seed_day(st.seed),
    }


def hiding(room: RoomInfo, hidden: Collection[str]) -> RoomInfo:
    """The room object as a player who blocked `hidden` is sent it: those players are neither
    listed nor counted among its watchers (a blocked player's chosen name does not reach the
    blocker that way); the object itself when none of them watches."""
    if not hidden or not any(w["player_id"] in hidden for w in room["watchers"]):
        return room
    watchers = [w for w in room["watchers"] if w["player_id"] not in hidden]
    return {**room, "watchers": watchers, "spectators": len(watchers)}


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


def awards_json(awards: Awards) -> AwardsInfo:
    """The state's `awards` at a hand's or match's end: achievements just earned (each with
    its name and description) and, after a rated match, every seat's rating before and after."""
    return {
        "achievements": [{"seat": e.seat, "player_id": e.player_id, "key": e.key, "name": BY_KEY[e.key].name,
                          "description": BY_KEY[e.key].description} for e in awards.achievements if e.key in BY_KEY],
        "ratings": [{"seat": d.seat, "player_id": d.player_id, "before": d.before.to_json(),
                     "after": d.after.to_json()} for d in awards.ratings],
    }
