"""Matches to write moves to, and moves as the room layer makes them (`match_rules`)."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.domain.writes import MatchChange, MoveWrite
from app.store.moves.inline import Locked
from app.store.moves.writer import MoveWriter
from app.store.repositories import matches as match_store
from app.store.repositories.players import create_player
from app.store.tables import Hand, Match, Move, Room, Seat


async def new_match(sessions: async_sessionmaker[AsyncSession], match_id: str = "m1",
                    code: str = "ROOM0001") -> list[str]:
    """A room playing match `match_id` (hand 1 dealt, version 0) between two players; their ids."""
    async with sessions() as s:
        ids = []
        for name in ("Ann", "Bob"):
            player, _ = await create_player(s, name)
            ids.append(player.id)
        s.add(Room(code=code, host_id=ids[0], preset="standard", overrides={}, seats=2, public=False,
                   hints=True, status="waiting", seating=[None, None], rev=0, match_count=0))
        await s.commit()
        await match_store.start_match(
            s, room_code=code, room_rev=0,
            room_values={"status": "playing", "match_id": match_id, "match_count": 1},
            match=Match(id=match_id, room_code=code, number=1, preset="standard", options={}, names=["Ann", "Bob"],
                        status="playing", v=0, totals=[0, 0]),
            seats=[Seat(match_id=match_id, seat=0, player_id=ids[0], name="Ann"),
                   Seat(match_id=match_id, seat=1, player_id=ids[1], name="Bob")],
            hand=Hand(match_id=match_id, number=1, seed="s", commitment="c", start_v=0))
    return ids


def plain(expect_v: int, *, match_id: str = "m1", client_id: str | None = None, totals: list[int] | None = None,
          seq: int | None = None) -> MoveWrite:
    """A plain move computed from version `expect_v`."""
    return MoveWrite(match_id=match_id, expect_v=expect_v, seq=expect_v + 1 if seq is None else seq,
                     hand_number=1, seat=expect_v % 2, actor="player", client_id=client_id,
                     payload={"kind": "end_turn"}, match=playing(totals or [0, 0]))


def playing(totals: list[int]) -> MatchChange:
    """What a plain move of a live room changes on its match: a hand still played."""
    return MatchChange(status="playing", totals=totals, turn_deadline=None, wake_at=None, last_move_at=None,
                       turn_seat=None)


async def stored(sessions: async_sessionmaker[AsyncSession], match_id: str = "m1") -> tuple[Match, list[Move]]:
    async with sessions() as s:
        match = (await s.execute(select(Match).where(Match.id == match_id))).scalar_one()
        moves = list((await s.execute(select(Move).where(Move.match_id == match_id).order_by(Move.seq))).scalars())
        return match, moves


def transaction_sizes(writer: MoveWriter, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The size of each transaction `writer` runs from now on: on the pooled connection (a batch,
    or one move retried alone), or (plain moves on a SQLite file) a batch on the loop's thread,
    whose refused moves are retried under savepoints in the same transaction."""
    sizes: list[int] = []
    transaction = writer._transaction

    async def counted(batch: Any) -> Any:
        sizes.append(len(batch))
        return await transaction(batch)

    monkeypatch.setattr(writer, "_transaction", counted)
    if writer._batches is not None:
        batches = writer._batches
        commit = batches._commit

        def committed(batch: Any) -> Any:
            try:
                outcomes = commit(batch)
            except Locked:  # not a transaction: tried again once the lock may be free
                raise
            except Exception:
                sizes.append(len(batch))
                raise
            sizes.append(len(batch))
            return outcomes

        monkeypatch.setattr(batches, "_commit", committed)
    return sizes
