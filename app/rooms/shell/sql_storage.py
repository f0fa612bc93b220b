"""The room shell's ports on SQLAlchemy: `SqlRooms` speaks the rooms' values (room states,
steps, decisions) and turns them into the store's rows and calls. Moves go through the group
committing `MoveWriter`, which takes each move's record (`CommitMove.write`) as the core built
it; everything else through a session per call."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.domain.records import Awards, ChatSender, RoomStatus, Seen
from app.domain.reminder import Reminder
from app.engine import Match, MatchStatus, Move
from app.rooms.core.effects import BeginMatch, CommitMove, DealHand
from app.rooms.core.model import RoomPatch, RoomState, SeatInfo
from app.rooms.core.steps import DealStep, MatchLog, MoveStep, Step, rebuild
from app.rooms.ports import Changes, LoadedRoom
from app.store.errors import Conflict, Locked
from app.store.moves.writer import MoveWriter
from app.store.repositories import awards as award_store
from app.store.repositories import chat as chat_store
from app.store.repositories import games as game_store
from app.store.repositories import leases as lease_store
from app.store.repositories import matches as match_store
from app.store.repositories import outbox
from app.store.repositories import players as player_store
from app.store.repositories import presence as presence_store
from app.store.repositories import rooms as room_store
from app.store.repositories import vacations as vacation_store
from app.store.repositories.matches import MatchRecord
from app.store.tables import Hand, Seat, utcnow
from app.store.tables import Match as MatchRow
from app.store.tables import Move as MoveRow
from app.store.tables import Room as RoomRow


def state_of(row: RoomRow) -> RoomState:
    """The room row as the core keeps it."""
    seating = [SeatInfo.from_json(s) for s in (row.seating or [])]
    seating += [None] * (row.seats - len(seating))
    return RoomState(row.code, row.host_id, row.preset, dict(row.overrides or {}), row.seats, row.public,
                     row.turn_seconds, row.hints, row.seed, RoomStatus(row.status), seating[:row.seats], row.rev,
                     row.match_id, row.match_count, bool(row.rated), row.pace or "live", dict(row.rematch or {}))


def _steps(hands: Sequence[Hand], moves: Sequence[MoveRow]) -> list[Step]:
    steps: list[Step] = [DealStep(h.start_v, h.number, h.seed, tuple(h.deal_order) if h.deal_order else None)
                         for h in hands]
    steps += [MoveStep(m.seq, m.seat, Move.from_wire(m.payload), m.actor, m.client_id) for m in moves]
    steps.sort(key=lambda s: s.v)
    return steps


def match_log(record: MatchRecord) -> MatchLog:
    row = record.match
    seats = [SeatInfo(name=s.name, player_id=s.player_id, bot=s.bot_level) for s in record.seats]
    return MatchLog(row.id, row.number, row.options, seats, row.turn_seconds, row.v, row.turn_deadline,
                    _steps(record.hands, record.moves))


def match_at(record: MatchRecord, v: int) -> Match:
    """The engine's match of a stored record as it was at version `v` (0..its version)."""
    log = match_log(record)
    upto = MatchLog(log.id, log.number, log.options, log.seats, log.turn_seconds, v, None,
                    [s for s in log.steps if s.v <= v])
    return rebuild(upto).engine


async def _awards(session: AsyncSession, row: MatchRow) -> Awards | None:
    """What the hand that just ended earned, if the match is at a hand's end (else None)."""
    if row.status not in (MatchStatus.HAND_OVER, MatchStatus.MATCH_OVER):
        return None
    hands = await match_store.hand_count(session, row.id)
    return await award_store.awards_of(session, row.id, hands)


class SqlRooms:
    """`RoomStore`, `Presence`, `Leases` and `Directory` on one database."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], writer: MoveWriter | None = None, *,
                 presence_ttl: float = 30.0, notify_per_hour: int | None = None) -> None:
        self.sessions = sessions
        self.notify_per_hour = notify_per_hour  # SPITE_NOTIFY_PLAYER_HOUR: push rows queued per player an hour
        self.writer = writer or MoveWriter(sessions.kw["bind"])
        self.presence_ttl = presence_ttl

    # RoomStore.
    async def load(self, code: str) -> LoadedRoom | None:
        async with self.sessions() as s:
            row = await room_store.get_room(s, code)
            if row is None:
                return None
            state = state_of(row)
            match = None
            if state.match_id is not None:
                record = await match_store.load_match(s, state.match_id)
                if record is not None:
                    match = rebuild(match_log(record))
                    match.awards = await _awards(s, record.match)
            host_name = (await player_store.names(s, [state.host_id])).get(state.host_id)
            away: dict[str, datetime] = {}
            if state.pace == "turn_based":
                seated = [x.player_id for x in state.seating if x is not None and x.player_id]
                away = await vacation_store.active(s, seated, utcnow())
        return LoadedRoom(state, match, host_name, away)

    async def room_state(self, code: str) -> RoomState | None:
        async with self.sessions() as s:
            row = await room_store.get_room(s, code)
        return state_of(row) if row is not None else None

    # A room's writes are first tried on the loop's thread (`MoveWriter.transact`: on a SQLite
    # file, Core on a synchronous connection, never waiting for the lock); when the lock is taken
    # (or on a server database) they take a session of the pool.
    async def update_room(self, code: str, rev: int, patch: RoomPatch) -> int:
        values = patch.values()
        with contextlib.suppress(Locked):
            return self.writer.transact(lambda c: room_store.update_room_now(c, code, rev, values))
        async with self.sessions() as s:
            return await room_store.update_room(s, code, rev, values)

    async def begin_match(self, code: str, begin: BeginMatch) -> int:
        m = begin.match
        options = begin.options
        row = MatchRow(id=m.id, room_code=code, number=m.number, preset=begin.preset, options=options,
                       names=[s.name for s in m.seats], turn_seconds=m.turn_seconds, status=MatchStatus.PLAYING,
                       v=begin.deal.v, totals=[0] * len(m.seats), winners=None, turn_deadline=begin.deadline,
                       wake_at=begin.wake_at, turn_seat=begin.turn_seat)
        seats = [Seat(match_id=m.id, seat=i, player_id=s.player_id, name=s.name, bot_level=s.bot,
                      team=begin.teams[i]) for i, s in enumerate(m.seats)]
        hand = Hand(match_id=m.id, number=begin.deal.number, seed=begin.deal.seed, commitment=begin.commitment,
                    start_v=begin.deal.v)
        room_values = begin.room.values()
        with contextlib.suppress(Locked):
            return self.writer.transact(lambda c: match_store.start_match_now(
                c, room_code=code, room_rev=begin.room_rev, match=row, seats=seats, hand=hand,
                room_values=room_values))
        async with self.sessions() as s:
            return await match_store.start_match(s, room_code=code, room_rev=begin.room_rev, match=row,
                                                 seats=seats, hand=hand, room_values=room_values)

    async def deal_hand(self, deal: DealHand) -> None:
        hand = Hand(match_id=deal.match_id, number=deal.deal.number, seed=deal.deal.seed,
                    commitment=deal.commitment, start_v=deal.deal.v)
        with contextlib.suppress(Locked):
            return self.writer.transact(lambda c: match_store.record_deal_now(
                c, match_id=deal.match_id, expect_v=deal.expect_v, hand=hand, change=deal.change))
        async with self.sessions() as s:
            await match_store.record_deal(s, match_id=deal.match_id, expect_v=deal.expect_v, hand=hand,
                                          change=deal.change)

    async def commit_move(self, move: CommitMove) -> Awards | None:
        return await self.writer.record(move.write)  # the record as the core built it

    async def changes_since(self, code: str, match_id: str, v: int) -> Changes:
        async with self.sessions() as s:
            hands, moves = await match_store.changes_since(s, match_id, v)
            row = await s.get(MatchRow, match_id, populate_existing=True)
            room_row = await room_store.get_room(s, code)
            awards = await _awards(s, row) if row is not None else None
        return Changes(_steps(hands, moves), row.turn_deadline if row is not None else None,
                       state_of(room_row) if room_row is not None else None, awards)

    async def close(self) -> None:
        await self.writer.close()

    # Reminders (the outbox: app/store/repositories/outbox.py; sent by app/platform/notify/worker.py).
    async def remind(self, reminders: Sequence[Reminder]) -> None:
        async with self.sessions() as s:
            subs = await outbox.subscriptions_of(s, sorted({r.player_id for r in reminders}))
            items = [outbox.Outgoing(f"{r.key}:push:{sub.id}", "push", r.player_id, sub.id, r.payload())
                     for r in reminders for sub in subs if sub.player_id == r.player_id]
            await outbox.enqueue(s, items, per_player_hour=self.notify_per_hour)

    async def back_from_vacation(self, player_id: str) -> list[str]:
        async with self.sessions() as s:
            return await vacation_store.stop(s, player_id, utcnow())

    # Chat.
    async def save_chat(self, room: str, sender: ChatSender, text: str, at: datetime, keep: int) -> None:
        async with self.sessions() as s:
            await chat_store.add_line(s, room, sender, text, at, keep)

    async def recent_chat(self, room: str, limit: int) -> list[dict[str, Any]]:
        if limit <= 0:
            return []
        async with self.sessions() as s:
            lines = await chat_store.recent_lines(s, room, limit)
        return [{"from": sender, "text": text, "at": at.isoformat()} for sender, text, at in lines]

    # Presence.
    async def add_socket(self, room: str, player: str, instance: str) -> None:
        async with self.sessions() as s:
            await presence_store.add_socket(s, room, player, instance)

    async def drop_socket(self, room: str, player: str, instance: str) -> None:
        async with self.sessions() as s:
            await presence_store.drop_socket(s, room, player, instance)

    async def room_presence(self, room: str) -> dict[str, Seen]:
        async with self.sessions() as s:
            return await presence_store.room_presence(s, room, self.presence_ttl)

    async def rooms_presence(self, rooms: list[str]) -> dict[str, dict[str, Seen]]:
        async with self.sessions() as s:
            return await presence_store.rooms_presence(s, rooms, self.presence_ttl)

    async def heartbeat(self, instance: str, *, prune: bool) -> None:
        async with self.sessions() as s:
            await presence_store.heartbeat(s, instance)
            if prune:
                await presence_store.prune(s, utcnow() - timedelta(days=1))
                await lease_store.forget_finished(s)

    async def forget_instance(self, instance: str) -> None:
        async with self.sessions() as s:
            await presence_store.forget_instance(s, instance)

    # Leases.
    async def acquire(self, room: str, instance: str, seconds: float) -> bool:
        async with self.sessions() as s:
            return await lease_store.acquire(s, room, instance, seconds)

    async def renew(self, instance: str, rooms: list[str], seconds: float) -> set[str]:
        async with self.sessions() as s:
            return await lease_store.renew(s, instance, rooms, seconds)

    async def release(self, rooms: list[str], instance: str) -> None:
        async with self.sessions() as s:
            await lease_store.release(s, rooms, instance)

    async def release_lapsed(self, room: str) -> None:
        async with self.sessions() as s:
            await lease_store.release_lapsed(s, room)

    async def lapse_all(self, instance: str) -> None:
        async with self.sessions() as s:
            await lease_store.lapse_all(s, instance)

    async def orphans(self) -> list[str]:
        async with self.sessions() as s:
            return await lease_store.orphans(s)

    async def due(self, horizon: float) -> list[str]:
        async with self.sessions() as s:
            return await lease_store.due(s, horizon)

    # Directory.
    async def create_room(self, host_id: str, fields: dict[str, Any], code: str) -> bool:
        row = RoomRow(code=code, host_id=host_id, status=RoomStatus.WAITING, rev=0, match_count=0,
                      **{"seating": [None] * fields["seats"], **fields})
        async with self.sessions() as s:
            try:
                await room_store.insert_room(s, row)
            except Conflict:
                return False
        return True

    async def open_rooms_hosted(self, host_id: str, since: datetime) -> int:
        async with self.sessions() as s:
            return await room_store.open_rooms_hosted(s, host_id, since)

    async def public_rooms_waiting(self, host_id: str) -> int:
        async with self.sessions() as s:
            return await room_store.public_rooms_waiting(s, host_id)

    async def turn_based_count(self, player_id: str) -> int:
        async with self.sessions() as s:
            return await game_store.turn_based_count(s, player_id)

    async def public_rooms(self) -> list[tuple[RoomState, str | None]]:
        async with self.sessions() as s:
            rows = await room_store.public_rooms(s)
            hosts = await player_store.names(s, [row.host_id for row in rows])
        return [(state_of(row), hosts.get(row.host_id)) for row in rows]
