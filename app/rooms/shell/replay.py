"""Replays of finished matches: every move and seed, and the whole table at any version with
every card face up (the engine's `omniscient_view`). Only once a match is over (the engine's
`replay_open` decides)."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.engine import omniscient_view, replay_open
from app.platform.lru import Lru
from app.rooms.shell.sql_storage import match_at
from app.store.repositories import matches as match_store
from app.store.repositories.history import iso
from app.store.repositories.matches import MatchRecord


class NotOver(Exception):
    """The match is still being played: its hidden cards stay hidden."""


class BadStep(ValueError):
    """`at` is outside 0..total."""

    def __init__(self, total: int) -> None:
        super().__init__(f"at must be from 0 to {total}")
        self.total = total


RECORDS = Lru(64)  # finished matches' records
STEPS = Lru(512)  # (match id, version) -> the table face up


async def _finished(sessions: async_sessionmaker[AsyncSession], match_id: str) -> MatchRecord | None:
    record = RECORDS.get(match_id)
    if record is None:
        async with sessions() as s:
            record = await match_store.load_match(s, match_id)
        if record is None:
            return None
        if not replay_open(record.match.status):
            raise NotOver("the match is still being played; its replay opens once it is over")
        RECORDS.put(match_id, record)
    return record


async def replay(sessions: async_sessionmaker[AsyncSession], match_id: str, at: int | None) -> dict[str, Any] | None:
    """The replay of a finished match (None if there is no such match). The table at a
    version is rebuilt in a worker thread (a long match takes a while: the event loop stays
    free) and kept for the next asker."""
    record = await _finished(sessions, match_id)
    if record is None:
        return None
    total = record.match.v
    if at is None:
        return {
            "match_id": record.match.id, "total": total, "options": record.match.options,
            "names": list(record.match.names), "started_at": iso(record.match.started_at),
            "hands": [{"number": h.number, "seed": h.seed, "commitment": h.commitment, "start_v": h.start_v,
                       "deal_order": h.deal_order, "result": h.result} for h in record.hands],
            "moves": [{"seq": m.seq, "hand": m.hand_number, "seat": m.seat, "actor": m.actor,
                       "move": m.payload, "at": iso(m.created_at)} for m in record.moves],
        }
    if not 0 <= at <= total:
        raise BadStep(total)
    view = STEPS.get((match_id, at))
    if view is None:
        view = await asyncio.to_thread(lambda: omniscient_view(match_at(record, at)))
        STEPS.put((match_id, at), view)
    return {"at": at, "total": total, "view": view}
