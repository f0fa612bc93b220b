"""The ports of the room shell: what it needs from the world, as small Protocols.

Production plugs in `sql_storage.SqlRooms` (the store and the move writer), `app.platform.bus` (in-process
or Redis), `SystemClock`, `bot_pool.BotPool` and the server's sockets (`Peer`); the tests of
tests/rooms plug in-memory fakes and a fake clock into the same shell.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from app.domain.records import Awards, ChatSender, Seen
from app.domain.reminder import Reminder
from app.rooms.core.effects import BeginMatch, CommitMove, DealHand
from app.rooms.core.handlog import HandLog
from app.rooms.core.messages import RoomInfo, StateExtra, TableView
from app.rooms.core.model import LiveMatch, Moment, RoomPatch, RoomState
from app.rooms.core.steps import Step


class Host(Protocol):
    """Who creates a room, as the shell needs to know them (a player row is one)."""

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def has_account(self) -> bool: ...


class Clock(Protocol):
    """Wall time (UTC, for deadlines and presence) and a monotonic clock (for pauses)."""

    def now(self) -> datetime: ...

    def monotonic(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)

    def monotonic(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


def moment(clock: Clock) -> Moment:
    return Moment(clock.now(), clock.monotonic())


class Peer(Protocol):
    """One socket in a room, as the room shell sees it (the server implements it).

    Every `send_*` is non-blocking: it queues the message for the socket."""

    player_id: str
    name: str
    account: bool  # the player has an account (not a guest): may sit in rated rooms
    sent_v: int | None

    def send_welcome(self, seat: int | None, host: bool, room: RoomInfo) -> None: ...

    def send_room(self, room: RoomInfo) -> None: ...

    def send_state(self, v: int, table: TableView, events: Any, extra: StateExtra) -> None:
        """`table`: the receiver's view, in parts and whole (`messages.TableView`); `events`: a
        JSON-ready list, or an `orjson.Fragment` of a JSON list."""
        ...

    def send_error(self, code: str, message: str, move_id: str | None = None,
                   option: str | None = None) -> None: ...

    def send_chat(self, sender: ChatSender, text: str, at: str) -> None: ...

    def send_chat_history(self, lines: list[dict[str, Any]]) -> None:
        """The room's recent chat (each line `{"from", "text", "at"}`, oldest first), sent on join."""
        ...

    def send_hint(self, v: int, move: dict[str, Any], reason: HintReason | str) -> None: ...

    def send_log(self, log: HandLog) -> None:
        """The current hand's move log (`handlog.hand_log`), sent on join after the state."""
        ...

    def reconnect(self, reason: str) -> None:
        """Close after what is queued, telling the client to reconnect (this instance is
        going away, or the room is being rebuilt)."""
        ...


@dataclass(frozen=True)
class LoadedRoom:
    state: RoomState
    match: LiveMatch | None
    host_name: str | None
    vacations: dict[str, datetime] | None = None  # seated players on vacation, until when


@dataclass(frozen=True)
class Changes:
    """What the store holds past a version: the steps in order, the match's deadline now,
    and the room row."""

    steps: list[Step]
    deadline: datetime | None
    room: RoomState | None
    awards: Awards | None = None  # what the hand that ended (if the match is at a hand's end) earned


class RoomStore(Protocol):
    """The rooms' durable state. Every write names the version or revision it was computed
    from and raises `app.store.errors.Conflict` (changing nothing) if another writer got
    there first; other exceptions mean the store could not be reached."""

    async def load(self, code: str) -> LoadedRoom | None:
        """A room and its current match rebuilt (steps.rebuild), or None if no such room."""
        ...

    async def room_state(self, code: str) -> RoomState | None: ...

    async def update_room(self, code: str, rev: int, patch: RoomPatch) -> int:
        """Write a lobby change if the room is at `rev`; returns the new revision."""
        ...

    async def begin_match(self, code: str, begin: BeginMatch) -> int:
        """Insert the match, its seats and first hand, write `begin.room` if the room is at
        `begin.room_rev`; returns the new revision."""
        ...

    async def deal_hand(self, deal: DealHand) -> None:
        """Commit the deal of the next hand with what it changes on its match (`deal.change`)
        if the match is at `deal.expect_v`."""
        ...

    async def commit_move(self, move: CommitMove) -> Awards | None:
        """Commit a move's record as the core built it (`move.write`: group commit; returns once
        its transaction has committed) with what it changes on its match, the achievements and
        ratings its hand's or match's end earns and its room row's values; returns what its
        hand's end earned (None for a plain move)."""
        ...

    async def changes_since(self, code: str, match_id: str, v: int) -> Changes: ...

    async def close(self) -> None:
        """Commit what is queued, then stop taking moves."""
        ...


class Presence(Protocol):
    """Which players have sockets in which room, on every instance."""

    async def add_socket(self, room: str, player: str, instance: str) -> None: ...

    async def drop_socket(self, room: str, player: str, instance: str) -> None: ...

    async def room_presence(self, room: str) -> dict[str, Seen]: ...

    async def rooms_presence(self, rooms: list[str]) -> dict[str, dict[str, Seen]]: ...

    async def heartbeat(self, instance: str, *, prune: bool) -> None: ...

    async def forget_instance(self, instance: str) -> None: ...


class Leases(Protocol):
    """Who drives which room's timers (`driving.Driving`)."""

    async def acquire(self, room: str, instance: str, seconds: float) -> bool: ...

    async def renew(self, instance: str, rooms: list[str], seconds: float) -> set[str]: ...

    async def release(self, rooms: list[str], instance: str) -> None: ...

    async def release_lapsed(self, room: str) -> None: ...

    async def lapse_all(self, instance: str) -> None: ...

    async def orphans(self) -> list[str]: ...

    async def due(self, horizon: float) -> list[str]:
        """Turn-based rooms whose match wakes (a deadline, a bot's turn) within `horizon`
        seconds and whose lease nobody holds: the earliest few, read from an index."""
        ...


class Directory(Protocol):
    """Creating rooms and listing the public ones (REST)."""

    async def create_room(self, host_id: str, fields: dict[str, Any], code: str) -> bool:
        """Insert a room with this code; False if the code is taken."""
        ...

    async def open_rooms_hosted(self, host_id: str, since: datetime) -> int: ...

    async def public_rooms_waiting(self, host_id: str) -> int: ...

    async def public_rooms(self) -> Sequence[tuple[RoomState, str | None]]: ...

    async def turn_based_count(self, player_id: str) -> int:
        """Turn-based rooms not over that the player sits in (`SPITE_MAX_TURN_BASED`)."""
        ...


class Chat(Protocol):
    """Each room's recent chat lines."""

    async def save_chat(self, room: str, sender: ChatSender, text: str, at: datetime, keep: int) -> None:
        """Store the line, keeping only the room's latest `keep`."""
        ...

    async def recent_chat(self, room: str, limit: int) -> list[dict[str, Any]]:
        """The latest `limit` lines, oldest first, each `{"from", "text", "at"}` (`at` ISO 8601)."""
        ...


class Reminders(Protocol):
    """The notification outbox, as the room shell fills it."""

    async def remind(self, reminders: Sequence[Reminder]) -> None:
        """Queue each reminder for every device (and address) of its player; one already
        queued (same key) is not queued again."""
        ...

    async def back_from_vacation(self, player_id: str) -> list[str]:
        """The player moved: end their vacation and move their waiting turns' deadlines back by
        the part not used (each has the time it had left); the rooms whose deadline changed."""
        ...


class Storage(RoomStore, Presence, Leases, Directory, Chat, Reminders, Protocol):
    """Every durable port at once (one database serves them all)."""


@dataclass(frozen=True, slots=True)
class HintReason:
    """Why a hint suggests its move: in English, and as a key of the catalogues' `hint.<key>`
    with its parameters (so the socket says it in the receiver's language)."""

    text: str
    key: str | None = None
    params: dict[str, Any] = field(default_factory=dict)


class Bots(Protocol):
    """Bot decisions and hints, off the event loop."""

    async def choose(self, view: dict[str, Any], level: str) -> dict[str, Any]: ...

    async def hint(self, view: dict[str, Any], level: str) -> tuple[dict[str, Any], HintReason | str]: ...

    def prepare(self) -> None: ...

    def close(self) -> None: ...
