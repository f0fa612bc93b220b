"""The store on its own: the move writer racing itself and another writer for one version, move
ids, a batch with a bad move, presence after a crash, SQLite's WAL mode (on SQLite and, when
SPITE_TEST_POSTGRES_URL is set, PostgreSQL: see `db_url` in tests/conftest.py). The engine, sessions
and writers are tests/store/conftest.py's."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, text, update
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.domain.writes import MoveWrite
from app.store import migrate
from app.store.db import make_engine, make_sessions
from app.store.errors import Conflict
from app.store.moves.writer import MoveWriter
from app.store.repositories import matches as match_store
from app.store.repositories import presence as presence_store
from app.store.repositories.players import create_player
from app.store.repositories.rooms import update_room
from app.store.tables import Hand, Match, Move, Presence, Room, Seat, utcnow

from .moves import playing, transaction_sizes


async def _match(sessions: async_sessionmaker[AsyncSession], match_id: str = "m1",
                 code: str = "ROOMCODE23") -> tuple[str, str]:
    async with sessions() as s:
        player, _ = await create_player(s, "Ann")
        s.add(Room(code=code, host_id=player.id, preset="standard", overrides={}, seats=2, public=False,
                   hints=True, status="waiting", seating=[None, None], rev=0, match_count=0))
        await s.commit()
        rev = await match_store.start_match(
            s, room_code=code, room_rev=0,
            room_values={"status": "playing", "match_id": match_id, "match_count": 1},
            match=Match(id=match_id, room_code=code, number=1, preset="standard", options={}, names=["A", "B"],
                        status="playing", v=0, totals=[0, 0]),
            seats=[Seat(match_id=match_id, seat=0, player_id=player.id, name="A"),
                   Seat(match_id=match_id, seat=1, name="B", bot_level="easy")],
            hand=Hand(match_id=match_id, number=1, seed="s", commitment="c", start_v=0))
        assert rev == 1
    return match_id, player.id


def _write(expect_v: int, *, seq: int | None = None, match_id: str = "m1", seat: int = 0,
           client_id: str | None = None, totals: list[int] | None = None, payload: Any = None) -> MoveWrite:
    """A plain move (as app/rooms/core/match_rules.py makes them) computed from version `expect_v`,
    taking version `seq` (`expect_v + 1` unless a test says otherwise)."""
    return MoveWrite(match_id=match_id, expect_v=expect_v, seq=expect_v + 1 if seq is None else seq,
                     hand_number=1, seat=seat,
                     actor="player", client_id=client_id,
                     payload={"kind": "end_turn"} if payload is None else payload, match=playing(totals or [0, 0]))


async def _outcome(writer: MoveWriter, write: MoveWrite) -> str:
    try:
        await writer.record(write)
    except Conflict:
        return "lost"
    return "won"


async def _stored(sessions: async_sessionmaker[AsyncSession], match_id: str) -> tuple[Match, list[Move]]:
    async with sessions() as s:
        record = await match_store.load_match(s, match_id)
        assert record is not None
        everything = list((await s.execute(select(Move).where(Move.match_id == match_id)
                                           .order_by(Move.seq))).scalars())
        return record.match, everything


async def _assert_one_winner(sessions: async_sessionmaker[AsyncSession], results: list[str],
                             writes: list[MoveWrite]) -> MoveWrite:
    """Exactly one write won; the match is at its version with its values and its move alone."""
    assert sorted(results) == ["lost", "won"]
    winner = writes[results.index("won")]
    match, moves = await _stored(sessions, winner.match_id)
    assert match.v == winner.seq
    assert list(match.totals) == winner.match.totals
    assert [(m.seq, m.client_id) for m in moves] == [(winner.seq, winner.client_id)]
    return winner


@pytest.mark.parametrize("batches", ["two writers", "one writer, separate batches", "one batch"])
async def test_one_version_claimed_twice(sessions: async_sessionmaker[AsyncSession],
                                         writers: Callable[..., MoveWriter], batches: str,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Two moves computed from the same version of a match: one commits, the other gets
    Conflict, and the match does not fork (one move at that version, the winner's values)."""
    match_id, _ = await _match(sessions)
    writes = [_write(0, client_id="a", totals=[1, 0]), _write(0, client_id="b", totals=[0, 1])]
    if batches == "two writers":  # two instances of the app
        first, second = writers(), writers()
    else:
        first = second = writers(max_batch=1 if batches == "one writer, separate batches" else 500, inline=False)
    sizes = transaction_sizes(first, monkeypatch)
    results = list(await asyncio.gather(_outcome(first, writes[0]), _outcome(second, writes[1])))
    winner = await _assert_one_winner(sessions, results, writes)
    if batches == "one batch":  # refused as a whole, then each move on its own (SQLite: in the same one)
        assert sizes == ([2] if first._batches is not None else [2, 1, 1])
    elif batches == "one writer, separate batches":
        assert sizes == [1, 1]

    # The loser, still thinking the match is at 0, cannot take the next version instead: the
    # version check refuses it although version 2 is free.
    assert await _outcome(second, _write(0, seq=2, client_id="c", totals=[9, 9])) == "lost"
    match, moves = await _stored(sessions, match_id)
    assert match.v == 1 and list(match.totals) == winner.match.totals
    assert [(m.seq, m.client_id) for m in moves] == [(1, winner.client_id)]


async def test_a_resent_move_id_is_refused(sessions: async_sessionmaker[AsyncSession],
                                           writers: Callable[..., MoveWriter]) -> None:
    """The same client move id twice for one seat: the second is a Conflict, even computed from
    the right version, and changes nothing; another seat may use the same id."""
    match_id, _ = await _match(sessions)
    writer = writers()
    await writer.record(_write(0, client_id="x"))
    assert await _outcome(writer, _write(1, client_id="x", totals=[5, 5])) == "lost"
    match, moves = await _stored(sessions, match_id)
    assert match.v == 1 and list(match.totals) == [0, 0] and [m.seq for m in moves] == [1]
    await writer.record(_write(1, seat=1, client_id="x"))
    match, moves = await _stored(sessions, match_id)
    assert match.v == 2 and [(m.seq, m.seat, m.client_id) for m in moves] == [(1, 0, "x"), (2, 1, "x")]


async def _three_matches(sessions: async_sessionmaker[AsyncSession]) -> list[str]:
    return [(await _match(sessions, f"m{i}", f"ROOMCODE2{i}"))[0] for i in (1, 2, 3)]


async def test_a_conflict_in_a_batch_fails_only_its_move(sessions: async_sessionmaker[AsyncSession],
                                                         writers: Callable[..., MoveWriter],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """One batch with the moves of three matches, the middle one stale: only it fails."""
    ids = await _three_matches(sessions)
    writer = writers(inline=False)
    await writer.record(_write(0, match_id="m2"))  # m2 is at version 1 now
    sizes = transaction_sizes(writer, monkeypatch)
    # m2's move is stale but its version is free: only the version check can refuse it.
    writes = [_write(0, match_id="m1", totals=[1, 0]), _write(0, seq=2, match_id="m2", totals=[9, 9]),
              _write(0, match_id="m3", totals=[0, 1])]
    results = await asyncio.gather(*(_outcome(writer, w) for w in writes))
    assert results == ["won", "lost", "won"]
    # Refused as a whole, then each move on its own (on a SQLite file under savepoints in the same
    # transaction, which keeps the write lock; on a server database in transactions of their own).
    assert sizes == ([3] if writer._batches is not None else [3, 1, 1, 1])
    for match_id, (v, totals) in zip(ids, [(1, [1, 0]), (1, [0, 0]), (1, [0, 1])], strict=True):
        match, moves = await _stored(sessions, match_id)
        assert (match.v, list(match.totals), [m.seq for m in moves]) == (v, totals, [1])


async def test_a_bad_row_in_a_batch_fails_only_its_move(sessions: async_sessionmaker[AsyncSession],
                                                        writers: Callable[..., MoveWriter]) -> None:
    """One batch with the moves of three matches, the middle one's payload not storable as
    JSON: only that move should fail."""
    ids = await _three_matches(sessions)
    writer = writers(inline=False)
    writes = [_write(0, match_id="m1"), _write(0, match_id="m2", payload={"kind": {"a set"}}),
              _write(0, match_id="m3")]
    results = await asyncio.gather(*(writer.record(w) for w in writes), return_exceptions=True)
    assert results[0] is None and results[2] is None and isinstance(results[1], Exception)
    assert [(await _stored(sessions, m))[0].v for m in ids] == [1, 0, 1]


async def test_a_row_the_database_refuses_fails_alone_and_the_writer_goes_on(
        sessions: async_sessionmaker[AsyncSession], writers: Callable[..., MoveWriter]) -> None:
    """A text PostgreSQL will not store (a NUL byte) in one match's move must not refuse the
    other rooms' moves committed with it (SQLite stores the byte: there all three commit)."""
    ids = await _three_matches(sessions)
    writer = writers()
    for round_ in range(2):
        writes = [_write(round_, match_id="m1"), _write(round_, match_id="m2", client_id=f"evil\x00{round_}"),
                  _write(round_, match_id="m3")]
        results = await asyncio.gather(*(writer.record(w) for w in writes), return_exceptions=True)
        assert results[0] is None and results[2] is None, results
    postgres = writer.engine.dialect.name == "postgresql"
    assert [(await _stored(sessions, m))[0].v for m in ids] == ([2, 0, 2] if postgres else [2, 2, 2])


async def test_a_stale_room_revision_is_refused(sessions: async_sessionmaker[AsyncSession]) -> None:
    await _match(sessions)
    async with sessions() as s:
        with pytest.raises(Conflict):  # a lobby change computed from an old revision
            await update_room(s, "ROOMCODE23", 0, {"public": True})


async def test_presence_survives_a_dead_instance(sessions: async_sessionmaker[AsyncSession]) -> None:
    _, player = await _match(sessions)
    async with sessions() as s:
        await presence_store.add_socket(s, "ROOMCODE23", player, "dead")
        await presence_store.add_socket(s, "ROOMCODE23", player, "dead")
        seen = await presence_store.room_presence(s, "ROOMCODE23", ttl=30)
        assert seen[player].connected and seen[player].name == "Ann"  # any instance can name who is there
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


async def test_on_sqlite_a_plain_move_commits_inline(sqlite_engine: AsyncEngine) -> None:
    """On a SQLite file a plain move commits inside `record`'s own step: the queue's task never
    starts, and the row is committed when `record` returns. Conflicts are refused the same way."""
    sessions = make_sessions(sqlite_engine)
    match_id, _ = await _match(sessions)
    writer = MoveWriter(sqlite_engine)
    await writer.record(_write(0, client_id="a", totals=[3, 0]))
    assert writer._task is None, "the move went through the queue"
    match, moves = await _stored(sessions, match_id)
    assert match.v == 1 and list(match.totals) == [3, 0] and [m.client_id for m in moves] == ["a"]
    assert await _outcome(writer, _write(0, client_id="b", totals=[0, 3])) == "lost"
    assert await _outcome(writer, _write(1, client_id="a")) == "lost"  # a resent move id
    match, moves = await _stored(sessions, match_id)
    assert match.v == 1 and list(match.totals) == [3, 0] and len(moves) == 1
    await writer.close()


async def test_on_sqlite_a_move_waits_off_the_loop_while_another_connection_writes(
        sqlite_engine: AsyncEngine) -> None:
    """When another connection holds the write lock the inline commit writes nothing and the move
    takes the queue, which waits for the lock without holding up the event loop."""
    sessions = make_sessions(sqlite_engine)
    match_id, _ = await _match(sessions)
    writer = MoveWriter(sqlite_engine)
    other = sqlite3.connect(str(make_url(str(sqlite_engine.url)).database), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        pending = asyncio.create_task(writer.record(_write(0, client_id="a")))
        ticks = 0
        for _ in range(20):  # the loop keeps turning while the move waits
            await asyncio.sleep(0.01)
            ticks += 1
        assert not pending.done() and ticks == 20
    finally:
        other.execute("ROLLBACK")
        other.close()
    await asyncio.wait_for(pending, 10)
    assert writer._batches is not None and writer._batches._task is not None, "the move should have been queued"
    assert writer._task is None, "a plain move on SQLite never takes the pooled path"
    match, moves = await _stored(sessions, match_id)
    assert match.v == 1 and [m.client_id for m in moves] == ["a"]
    await writer.close()


async def test_sqlite_runs_in_wal_mode(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path}/wal.db")
    try:
        await migrate.upgrade(engine)
        async with make_sessions(engine)() as s:
            assert (await s.execute(text("PRAGMA journal_mode"))).scalar_one() == "wal"
            assert (await s.execute(text("PRAGMA foreign_keys"))).scalar_one() == 1
    finally:
        await engine.dispose()
