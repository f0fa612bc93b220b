"""The store on its own: racing writers, move ids, presence after a crash, SQLite's WAL mode."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import text, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.store import matches as match_store
from app.store import migrate
from app.store import presence as presence_store
from app.store.db import make_engine, make_sessions
from app.store.errors import Conflict
from app.store.models import Hand, Match, Move, Presence, Room, Seat, utcnow
from app.store.players import create_player


@pytest.fixture
async def sessions(db_url: str) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    engine = make_engine(db_url)
    await migrate.upgrade(engine)
    try:
        yield make_sessions(engine)
    finally:
        await engine.dispose()


async def _match(sessions: async_sessionmaker[AsyncSession]) -> tuple[str, str]:
    async with sessions() as s:
        player, _ = await create_player(s, "Ann")
        s.add(Room(code="ROOMCODE23", host_id=player.id, preset="standard", overrides={}, seats=2, public=False,
                   hints=True, status="waiting", seating=[None, None], rev=0, match_count=0))
        await s.commit()
        rev = await match_store.start_match(
            s, room_code="ROOMCODE23", room_rev=0,
            room_values={"status": "playing", "match_id": "m1", "match_count": 1},
            match=Match(id="m1", room_code="ROOMCODE23", number=1, preset="standard", options={}, names=["A", "B"],
                        status="playing", v=0, totals=[0, 0]),
            seats=[Seat(match_id="m1", seat=0, player_id=player.id, name="A"),
                   Seat(match_id="m1", seat=1, name="B", bot_level="easy")],
            hand=Hand(match_id="m1", number=1, seed="s", commitment="c", start_v=0))
        assert rev == 1
    return "m1", player.id


def _move(seq: int, seat: int = 0, client_id: str | None = None) -> Move:
    return Move(match_id="m1", seq=seq, hand_number=1, seat=seat, actor="player", client_id=client_id,
                payload={"kind": "end_turn"})


async def test_two_writers_for_one_version(sessions: async_sessionmaker[AsyncSession]) -> None:
    match_id, _ = await _match(sessions)

    async def write(client_id: str) -> str:
        async with sessions() as s:
            try:
                await match_store.record_move(s, match_id=match_id, expect_v=0, move=_move(1, client_id=client_id),
                                              match_values={})
            except Conflict:
                return "lost"
        return "won"

    results = await asyncio.gather(write("a"), write("b"))
    assert sorted(results) == ["lost", "won"]
    async with sessions() as s:
        record = await match_store.load_match(s, match_id)
        assert record is not None and record.match.v == 1 and [m.seq for m in record.moves] == [1]
        winner = record.moves[0].client_id
        # A stale writer (thinks the match is at 0) cannot take version 2 either.
        with pytest.raises(Conflict):
            await match_store.record_move(s, match_id=match_id, expect_v=0, move=_move(2), match_values={})
    async with sessions() as s:
        assert await match_store.client_move_seq(s, match_id, 0, winner) == 1  # type: ignore[arg-type]
        with pytest.raises(Conflict):  # the same client move id twice for one seat
            await match_store.record_move(s, match_id=match_id, expect_v=1, move=_move(2, client_id=winner),
                                          match_values={})
        with pytest.raises(Conflict):  # a lobby change computed from an old revision
            from app.store.rooms import update_room
            await update_room(s, "ROOMCODE23", 0, {"public": True})


async def test_presence_survives_a_dead_instance(sessions: async_sessionmaker[AsyncSession]) -> None:
    _, player = await _match(sessions)
    async with sessions() as s:
        await presence_store.add_socket(s, "ROOMCODE23", player, "dead")
        await presence_store.add_socket(s, "ROOMCODE23", player, "dead")
        seen = await presence_store.room_presence(s, "ROOMCODE23", ttl=30)
        assert seen[player].connected
        await presence_store.drop_socket(s, "ROOMCODE23", player, "dead")
        assert (await presence_store.room_presence(s, "ROOMCODE23", ttl=30))[player].connected
        # The instance dies without a word: once its heartbeat is older than the TTL the player is away
        # since that heartbeat.
        old = utcnow() - timedelta(seconds=120)
        await s.execute(update(Presence).values(seen_at=old))
        await s.commit()
        seen = await presence_store.room_presence(s, "ROOMCODE23", ttl=30)
        assert not seen[player].connected and seen[player].away_since == old
        # Another instance sees them come back.
        await presence_store.add_socket(s, "ROOMCODE23", player, "alive")
        assert (await presence_store.room_presence(s, "ROOMCODE23", ttl=30))[player].connected
        await presence_store.forget_instance(s, "alive")
        seen = await presence_store.room_presence(s, "ROOMCODE23", ttl=30)
        assert not seen[player].connected and seen[player].away_since is not None
        assert seen[player].away_since > old


async def test_sqlite_runs_in_wal_mode(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path}/wal.db")
    try:
        await migrate.upgrade(engine)
        async with make_sessions(engine)() as s:
            assert (await s.execute(text("PRAGMA journal_mode"))).scalar_one() == "wal"
            assert (await s.execute(text("PRAGMA foreign_keys"))).scalar_one() == 1
    finally:
        await engine.dispose()
