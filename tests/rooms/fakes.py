"""In-memory ports for the room shell: a store, a clock that moves only when told, bots that
play a seeded random legal move, and sockets that record what they were sent. The engine and
the room core are the real ones; only what stands behind a port is fake."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from app.domain.records import Awards, RoomStatus, Seen
from app.engine import MatchStatus
from app.platform.settings import Settings
from app.rooms.core.effects import BeginMatch, CommitMove, DealHand
from app.rooms.core.model import RoomPatch, RoomState, SeatInfo
from app.rooms.core.steps import MatchLog, Step, rebuild
from app.rooms.ports import Changes, LoadedRoom
from app.store.errors import Conflict

START = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def settings(**overrides: Any) -> Settings:
    base: dict[str, Any] = {"database_url": "sqlite://", "bot_delay": 0.5, "absent_grace": 30.0,
                            "heartbeat_seconds": 3600.0, "lease_seconds": 30.0}
    return Settings(**{**base, **overrides})


class FakeClock:
    """Time stands still until `advance`; sleepers wake when their time has come."""

    def __init__(self, start: datetime = START) -> None:
        self.start = start
        self.t = 0.0
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def now(self) -> datetime:
        return self.start + timedelta(seconds=self.t)

    def monotonic(self) -> float:
        return 1000.0 + self.t

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._sleepers.append((self.t + seconds, fut))
        await fut

    async def advance(self, seconds: float) -> None:
        """Move time on in small steps, letting every task due run at its time."""
        end = self.t + seconds
        while True:
            await settle()
            due = [w for w, f in self._sleepers if not f.done() and w <= end]
            if not due:
                break
            self.t = max(self.t, min(due))
            for wake, fut in list(self._sleepers):
                if wake <= self.t and not fut.done():
                    fut.set_result(None)
            self._sleepers = [(w, f) for w, f in self._sleepers if not f.done()]
        self.t = end
        await settle()


async def settle(rounds: int = 30) -> None:
    """Let the event loop run what is ready (tasks woken by tasks included)."""
    for _ in range(rounds):
        await asyncio.sleep(0)


@dataclass
class StoredMatch:
    log: MatchLog
    status: str = MatchStatus.PLAYING


@dataclass
class MemoryStorage:
    """The durable ports in memory, with the store's rules: writes name the version or
    revision they were computed from and raise Conflict if it moved. `fail` makes the next
    write raise that error (the database could not be reached)."""

    rooms: dict[str, RoomState] = field(default_factory=dict)
    matches: dict[str, StoredMatch] = field(default_factory=dict)
    sockets: dict[tuple[str, str, str], int] = field(default_factory=dict)
    left: dict[tuple[str, str], datetime] = field(default_factory=dict)
    leases: dict[str, str] = field(default_factory=dict)
    chat: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    clock: FakeClock = field(default_factory=FakeClock)
    fail: Exception | None = None
    writes: int = 0
    wake: dict[str, datetime | None] = field(default_factory=dict)  # match id -> its row's wake_at
    reminded: list[Any] = field(default_factory=list)  # what the shell put in the outbox
    rated: list[Any] = field(default_factory=list)  # the standings of rated matches' ends committed

    def _write(self) -> None:
        if self.fail is not None:
            error, self.fail = self.fail, None
            raise error
        self.writes += 1

    def add_room(self, code: str, host: str, *, seats: int = 2, preset: str = "standard",
                 overrides: dict[str, Any] | None = None, turn_seconds: int | None = None,
                 hints: bool = True, pace: str = "live", rated: bool = False) -> None:
        self.rooms[code] = RoomState(code, host, preset, dict(overrides or {}), seats, True, turn_seconds, hints,
                                     None, RoomStatus.WAITING, [None] * seats, 0, None, 0, pace=pace, rated=rated)

    def steps(self, match_id: str) -> list[Step]:
        return list(self.matches[match_id].log.steps)

    # RoomStore.
    async def load(self, code: str) -> LoadedRoom | None:
        st = self.rooms.get(code)
        if st is None:
            return None
        st = replace(st, seating=list(st.seating), overrides=dict(st.overrides))
        match = rebuild(self.matches[st.match_id].log) if st.match_id in self.matches else None
        return LoadedRoom(st, match, "Host")

    async def room_state(self, code: str) -> RoomState | None:
        st = self.rooms.get(code)
        return replace(st, seating=list(st.seating)) if st is not None else None

    async def update_room(self, code: str, rev: int, patch: RoomPatch) -> int:
        self._write()
        st = self.rooms[code]
        if st.rev != rev:
            raise Conflict(f"room {code} moved past revision {rev}")
        self.rooms[code] = patch.applied(st, rev + 1)
        return rev + 1

    async def begin_match(self, code: str, begin: BeginMatch) -> int:
        self._write()
        st = self.rooms[code]
        if st.rev != begin.room_rev:
            raise Conflict("the room changed")
        m = begin.match
        self.matches[m.id] = StoredMatch(MatchLog(m.id, m.number, begin.options, list(m.seats), m.turn_seconds,
                                                  begin.deal.v, begin.deadline, [begin.deal]))
        self.wake[m.id] = begin.wake_at
        self.rooms[code] = begin.room.applied(st, st.rev + 1)
        return st.rev + 1

    async def deal_hand(self, deal: DealHand) -> None:
        self._write()
        stored = self.matches[deal.match_id]
        if stored.log.v != deal.expect_v:
            raise Conflict("already dealt")
        stored.log = replace(stored.log, v=deal.deal.v, deadline=deal.deadline, steps=[*stored.log.steps, deal.deal])
        stored.status = MatchStatus.PLAYING
        self.wake[deal.match_id] = deal.change.wake_at

    async def commit_move(self, move: CommitMove) -> Awards | None:
        self._write()
        stored = self.matches[move.match_id]
        step = move.step
        taken = step.client_id is not None and any(
            getattr(s, "client_id", None) == step.client_id and getattr(s, "seat", None) == step.seat
            for s in stored.log.steps)
        if stored.log.v != move.expect_v or taken:
            raise Conflict(f"move {step.v} of match {move.match_id} is taken")
        stored.log = replace(stored.log, v=step.v, deadline=move.deadline, steps=[*stored.log.steps, step])
        write = move.write  # what the SQL store is handed, as it is
        stored.status = write.match.status
        self.wake[move.match_id] = write.match.wake_at
        if write.rated is not None:
            self.rated.append(list(write.rated))
        if write.room_values is not None:
            assert move.room is not None and write.room_code is not None and write.room_values == move.room.values()
            st = self.rooms[write.room_code]
            self.rooms[write.room_code] = move.room.applied(st, st.rev + 1)
        return None  # nothing is earned here: achievements and ratings are tested on the store

    async def changes_since(self, code: str, match_id: str, v: int) -> Changes:
        log = self.matches[match_id].log
        return Changes([s for s in log.steps if s.v > v], log.deadline, await self.room_state(code))

    async def close(self) -> None:
        pass

    # Presence.
    async def save_chat(self, room: str, sender: dict[str, Any], text: str, at: datetime, keep: int) -> None:
        self._write()
        lines = [*self.chat.get(room, []), {"from": sender, "text": text, "at": at.isoformat()}]
        self.chat[room] = lines[len(lines) - keep:] if keep else []

    async def recent_chat(self, room: str, limit: int) -> list[dict[str, Any]]:
        return self.chat.get(room, [])[-limit:] if limit else []

    async def add_socket(self, room: str, player: str, instance: str) -> None:
        key = (room, player, instance)
        self.sockets[key] = self.sockets.get(key, 0) + 1

    async def drop_socket(self, room: str, player: str, instance: str) -> None:
        key = (room, player, instance)
        self.sockets[key] = max(0, self.sockets.get(key, 0) - 1)
        self.left[(room, player)] = self.clock.now()

    async def room_presence(self, room: str) -> dict[str, Seen]:
        out: dict[str, Seen] = {}
        for (code, player, _), count in self.sockets.items():
            if code != room:
                continue
            if count > 0 or (player in out and out[player].connected):
                out[player] = Seen(True, None)
            else:
                out[player] = Seen(False, self.left.get((room, player)))
        return out

    async def rooms_presence(self, rooms: list[str]) -> dict[str, dict[str, Seen]]:
        return {code: await self.room_presence(code) for code in rooms}

    async def heartbeat(self, instance: str, *, prune: bool) -> None:
        pass

    async def forget_instance(self, instance: str) -> None:
        for key in self.sockets:
            if key[2] == instance:
                self.sockets[key] = 0

    # Leases: first come, first served; nobody's lease lapses in these tests.
    async def acquire(self, room: str, instance: str, seconds: float) -> bool:
        return self.leases.setdefault(room, instance) == instance

    async def renew(self, instance: str, rooms: list[str], seconds: float) -> set[str]:
        return {r for r in rooms if self.leases.get(r) == instance}

    async def release(self, rooms: list[str], instance: str) -> None:
        for r in rooms:
            if self.leases.get(r) == instance:
                del self.leases[r]

    async def release_lapsed(self, room: str) -> None:
        pass

    async def lapse_all(self, instance: str) -> None:
        for r in [r for r, i in self.leases.items() if i == instance]:
            del self.leases[r]

    async def orphans(self) -> list[str]:
        return []

    async def due(self, horizon: float) -> list[str]:
        """Turn-based rooms whose match wakes within `horizon` seconds and that nobody drives."""
        until = self.clock.now() + timedelta(seconds=horizon)
        return [code for code, st in self.rooms.items()
                if st.match_id is not None and (w := self.wake.get(st.match_id)) is not None and w <= until
                and code not in self.leases]

    # Directory.
    async def create_room(self, host_id: str, fields: dict[str, Any], code: str) -> bool:
        if code in self.rooms:
            return False
        self.add_room(code, host_id, seats=fields["seats"], preset=fields["preset"], overrides=fields["overrides"],
                      turn_seconds=fields["turn_seconds"], hints=fields["hints"], pace=fields.get("pace", "live"))
        if fields.get("seating"):
            self.rooms[code] = replace(self.rooms[code], seating=[SeatInfo.from_json(s) for s in fields["seating"]])
        return True

    async def open_rooms_hosted(self, host_id: str, since: datetime) -> int:
        return sum(1 for st in self.rooms.values() if st.host_id == host_id and st.status != RoomStatus.OVER)

    async def public_rooms_waiting(self, host_id: str) -> int:
        return sum(1 for st in self.rooms.values() if st.host_id == host_id and st.public
                   and st.status == RoomStatus.WAITING)

    async def back_from_vacation(self, player_id: str) -> list[str]:
        return []

    async def remind(self, reminders: Any) -> None:
        self.reminded.extend(reminders)

    async def turn_based_count(self, player_id: str) -> int:
        return sum(1 for st in self.rooms.values() if st.pace == "turn_based" and st.status != RoomStatus.OVER
                   and any(s is not None and s.player_id == player_id for s in st.seating))

    async def public_rooms(self) -> list[tuple[RoomState, str | None]]:
        return [(st, "Host") for st in self.rooms.values() if st.public and st.status == RoomStatus.WAITING]


class SeededBots:
    """Bots that play a random legal move (seeded), and hint the first legal move."""

    def __init__(self, seed: int = 1) -> None:
        self.rng = random.Random(seed)
        self.asked: list[tuple[int | None, str]] = []

    async def choose(self, view: dict[str, Any], level: str) -> dict[str, Any]:
        self.asked.append((view["you"], level))
        return dict(self.rng.choice(view["legal_moves"]))

    async def hint(self, view: dict[str, Any], level: str) -> tuple[dict[str, Any], str]:
        return dict(view["legal_moves"][0]), "the first legal move"

    def prepare(self) -> None:
        pass

    def close(self) -> None:
        pass


class RecordingPeer:
    """A socket that keeps every message it is sent, as (type, fields)."""

    def __init__(self, player_id: str, name: str, account: bool = False) -> None:
        self.player_id = player_id
        self.name = name
        self.account = account
        self.sent_v: int | None = None
        self.got: list[tuple[str, dict[str, Any]]] = []
        self.closed: str | None = None

    def send_welcome(self, seat: int | None, host: bool, room: Any) -> None:
        self.got.append(("welcome", {"seat": seat, "host": host, "room": room}))

    def send_room(self, room: Any) -> None:
        self.got.append(("room", {"room": room}))

    def send_state(self, v: int, table: Any, events: Any, extra: Any) -> None:
        self.got.append(("state", {"v": v, "view": table.full(), "events": events, **extra}))

    def send_error(self, code: str, message: str, move_id: str | None = None, option: str | None = None) -> None:
        self.got.append(("error", {"code": code, "message": message, "id": move_id, "option": option}))

    def send_chat(self, sender: dict[str, Any], text: str, at: str) -> None:
        self.got.append(("chat", {"from": sender, "text": text, "at": at}))

    def send_chat_history(self, lines: list[dict[str, Any]]) -> None:
        self.got.append(("chat_history", {"lines": lines}))

    def send_hint(self, v: int, move: dict[str, Any], reason: str) -> None:
        self.got.append(("hint", {"v": v, "move": move, "reason": reason}))

    def send_log(self, log: Any) -> None:
        self.got.append(("log", dict(log)))

    def reconnect(self, reason: str) -> None:
        self.closed = reason

    def of(self, kind: str) -> Iterator[dict[str, Any]]:
        return (fields for k, fields in self.got if k == kind)

    def last(self, kind: str) -> dict[str, Any]:
        found = list(self.of(kind))
        assert found, f"{self.player_id} was sent no {kind}"
        return found[-1]
