"""The room as the core sees it: plain values, no locks, sockets or tasks.

`Room` is a cache of the store (its row as a `RoomState`, the match being played rebuilt by
replay, who is connected), changed only once a change is committed: the room row by a
`RoomPatch` (`RoomPatch.applied`), the match by `steps.apply_steps`, both through
`effects.apply`. The shell's `live.LiveRoom` holds a `Room` and keeps the I/O beside it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, fields, replace
from datetime import datetime
from typing import Any

import orjson

from app.domain.records import Awards, RoomStatus, Seen
from app.engine import Match, MatchStatus, events_for, events_same_for_all
from app.rooms.core.commands import UNSET, Unset
from app.rooms.core.hand_tally import Tally

EVENTS_KEPT = 64  # versions of events kept for sockets that fall a little behind
LOBBY_OPEN = (RoomStatus.WAITING, RoomStatus.OVER)


@dataclass(frozen=True, slots=True)
class Moment:
    """The time of one command, read once by the shell: the wall clock (deadlines, presence)
    and the monotonic clock (pauses)."""

    now: datetime
    mono: float


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class RoomState:
    """The room row: settings, lobby seating, status, revision and current match. Never
    changed in place: a committed `RoomPatch` makes the next one."""

    code: str
    host_id: str
    preset: str
    overrides: dict[str, Any]
    seats: int
    public: bool
    turn_seconds: int | None
    hints: bool
    seed: str | None
    status: RoomStatus
    seating: list[SeatInfo | None]
    rev: int
    match_id: str | None
    match_count: int
    rated: bool = False
    pace: str = "live"  # or "turn_based" (pace.py)
    # Once a match is over, the rematch offered (`rematch.py`): {"by": player id, "answers":
    # {player id: accepted}}; empty otherwise (a new match clears it).
    rematch: dict[str, Any] = field(default_factory=dict)

    @property
    def lobby_open(self) -> bool:
        return self.status in LOBBY_OPEN


def seating_json(seating: list[SeatInfo | None]) -> list[dict[str, Any] | None]:
    return [s.to_json() if s else None for s in seating]


@dataclass(frozen=True, slots=True)
class RoomPatch:
    """What a decision changes on the room row; a field left `UNSET` keeps its value. The
    store writes `values()` where the row is still at the revision the decision was made on,
    and memory adopts `applied(state, rev)` once that is committed."""

    preset: str | Unset = UNSET
    overrides: dict[str, Any] | Unset = UNSET
    seats: int | Unset = UNSET
    turn_seconds: int | None | Unset = UNSET
    public: bool | Unset = UNSET
    hints: bool | Unset = UNSET
    seating: list[SeatInfo | None] | Unset = UNSET
    status: RoomStatus | Unset = UNSET
    match_id: str | Unset = UNSET
    match_count: int | Unset = UNSET
    pace: str | Unset = UNSET
    rematch: dict[str, Any] | Unset = UNSET

    def changes(self) -> dict[str, Any]:
        """The fields set, as `RoomState` holds them."""
        return {f.name: value for f in fields(self) if (value := getattr(self, f.name)) is not UNSET}

    def values(self) -> dict[str, Any]:
        """The fields set, as the room row's columns hold them."""
        out = self.changes()
        if "seating" in out:
            out["seating"] = seating_json(out["seating"])
        return out

    def applied(self, state: RoomState, rev: int) -> RoomState:
        """The room row once this patch is committed at revision `rev`."""
        return replace(state, **self.changes(), rev=rev)


@dataclass
class LiveMatch:
    """The match being played: the engine's `Match` plus what the room keeps beside it."""

    id: str
    number: int
    engine: Match
    seats: list[SeatInfo]
    turn_seconds: int | None
    deadline: datetime | None = None
    client_ids: dict[tuple[int, str], int] = field(default_factory=dict)
    # Between hands: the seats whose person said they are ready for the next hand, and when
    # the next hand is dealt anyway (set by `match_rules.arm_next_hand`; memory only).
    ready: set[int] = field(default_factory=set)
    next_deadline: datetime | None = None
    # Each version's events, kept as JSON text: one object instead of many small dicts that
    # would live long enough for the garbage collector to scan them again and again. When the
    # engine's observer says receivers may know different events, one text per receiver.
    events: dict[int, bytes | dict[int | None, bytes]] = field(default_factory=dict)
    # What the hand that just ended (and the match, once over) earned: achievements and
    # rating changes, as committed with its last move. None while a hand is played.
    awards: Awards | None = None
    # The moves of the hand being played that the server made for a person (the clock, a
    # stand-in), by version: the actor (cleared by each deal; rebuilt with the match).
    actors: dict[int, str] = field(default_factory=dict)
    # Per seat, the turns in a row the deadline ended (turn-based rooms; `pace.count_missed`),
    # rebuilt from the move log by replay.
    missed: list[int] = field(default_factory=list)
    # Seats whose player made a move themselves (not the clock or a stand-in), rebuilt by
    # replay: a rated match is rated only if every seat did.
    played: set[int] = field(default_factory=set)
    # Per seat, the moves its player made themselves over the match, rebuilt by replay: a
    # forfeit after fewer than `SPITE_RATED_FORFEIT_MIN_MOVES` is not rated (`forfeit.py`).
    own_moves: dict[int, int] = field(default_factory=dict)
    # The facts of the hand being played so far, for its achievements (`hand_tally`): kept by
    # `steps.apply_steps` as each step is applied; None (the hand is replayed) when unknown.
    tally: Tally | None = field(default=None, compare=False, repr=False)

    @property
    def v(self) -> int:
        return self.engine.v

    @property
    def turn(self) -> int:
        """The seat to move in the current hand."""
        return self.engine.game.turn

    @property
    def playing(self) -> bool:
        return self.engine.status == MatchStatus.PLAYING

    def seat_of(self, player_id: str) -> int | None:
        for i, s in enumerate(self.seats):
            if s.player_id == player_id:
                return i
        return None

    def remember(self, v: int, events: list[dict[str, Any]]) -> None:
        if events_same_for_all(events):
            self.events[v] = orjson.dumps(events)
        else:
            self.events[v] = {seat: orjson.dumps(events_for(events, seat))
                              for seat in [None, *range(len(self.seats))]}
        self.events.pop(v - EVENTS_KEPT, None)
        if len(self.events) > EVENTS_KEPT:
            for old in [k for k in self.events if k <= v - EVENTS_KEPT]:
                del self.events[old]

    def events_since(self, since: int | None, seat: int | None) -> list[Any] | orjson.Fragment:
        """The events of versions (since, v] receiver `seat` may know, as JSON (embedded as is
        by orjson), or none if some are no longer kept."""
        v = self.engine.v
        if since is None or since >= v or since < v - EVENTS_KEPT:
            return []
        parts: list[bytes] = []
        for k in range(since + 1, v + 1):
            kept = self.events.get(k)
            if isinstance(kept, dict):
                kept = kept[seat]
            if kept is None:
                return []
            if len(kept) > 2:
                parts.append(kept[1:-1])
        return orjson.Fragment(b"[" + b",".join(parts) + b"]")


class Room:
    """One room as this instance knows it: the row, the match, and who is connected."""

    def __init__(self, state: RoomState, match: LiveMatch | None, *, loaded_at: datetime,
                 host_name: str | None = None) -> None:
        self.code = state.code
        self.state = state
        self.match = match
        self.host_name = host_name
        self.here: Counter[str] = Counter()  # sockets per player on this instance
        self.names: dict[str, str] = {}  # names of the players whose sockets came here (watchers' names)
        self.presence: dict[str, Seen] = {}  # every instance's sockets, as the store last said
        self.loaded_at = loaded_at  # "away since" for players the store has never seen
        self.changed_at = 0.0  # monotonic time of the last change (bots pause after it)
        self.vacations: dict[str, datetime] = {}  # seated players on vacation, until when (turn-based)
        self._here_rev = self._here_told = 0  # joins and leaves here, and how many were told

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

    def away_since(self, player_id: str) -> datetime:
        seen = self.presence.get(player_id)
        return seen.away_since if seen and seen.away_since else self.loaded_at

    def anyone_here(self) -> bool:
        """Is any person (seated or watching) connected to this room on any instance?"""
        return bool(self.here) or any(s.connected for s in self.presence.values())

    def connected_flags(self, seats: list[SeatInfo] | list[SeatInfo | None]) -> list[bool]:
        """For each of `seats`: is it connected (a bot always is; an empty seat never)?"""
        return [bool(s and (s.bot is not None or (s.player_id and self.is_connected(s.player_id))))
                for s in seats]

    def watchers(self) -> set[str]:
        """Connected players who have no seat."""
        seated = {s.player_id for s in self.state.seating if s and s.player_id}
        watching = set(self.here) - seated
        watching |= {pid for pid, seen in self.presence.items() if seen.connected and pid not in seated}
        return watching

    def attach(self, player_id: str, name: str | None = None) -> None:
        self.here[player_id] += 1
        if name is not None:
            self.names[player_id] = name
        self._here_rev += 1

    def detach(self, player_id: str) -> None:
        self.here[player_id] -= 1
        if self.here[player_id] <= 0:
            del self.here[player_id]
        self._here_rev += 1

    def take_here_changed(self) -> bool:
        """Did sockets join or leave here since this was last asked (the other instances
        must hear of it)?"""
        changed, self._here_told = self._here_rev != self._here_told, self._here_rev
        return changed
