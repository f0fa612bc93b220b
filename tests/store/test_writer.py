"""The move writer (`app.store.moves.writer.MoveWriter`) on a real database: what a hand's or a match's
last move writes besides its row, group commit, closing, cancelled callers and an unreachable
database. (Races, resent move ids and one bad move in a batch: tests/store/test_store.py.)"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.domain.records import Awards, Earned, HandEnd, Standing
from app.domain.writes import DealChange, MatchChange, MoveWrite
from app.store.db import make_engine
from app.store.errors import Conflict
from app.store.moves.writer import MoveWriter
from app.store.repositories import matches as match_store
from app.store.tables import Achievement, Hand, Rating, RatingChange, Room, Score

from .moves import new_match, plain, stored, transaction_sizes

Writers = Callable[..., MoveWriter]
ENDED = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def _last(expect_v: int, player_ids: list[str], *, earned: list[Earned] | None = None,
          rated: list[Standing] | None = None, room_values: dict[str, Any] | None = None) -> MoveWrite:
    """The move that ends hand 1 and the match: its result, scores, awards and room row."""
    return replace(plain(expect_v), match=MatchChange("match_over", [25, 4], None, None, ENDED, None, [0], ENDED),
                   hand_end=HandEnd(number=1, result={"reason": "payoff_out", "winners": [0]}, points=[25, 4],
                                    totals=[25, 4], payoff_left=[0, 7]),
                   earned=earned or [], rated=rated, room_code="ROOM0001", room_values=room_values)


async def test_a_hands_last_move_writes_its_result_scores_achievements_and_room_row(
        sessions: async_sessionmaker[AsyncSession], writers: Writers) -> None:
    ids = await new_match(sessions)
    writer = writers()
    await writer.record(plain(0))
    awards = await writer.record(_last(1, ids, earned=[Earned(0, ids[0], "first_win")],
                                       room_values={"status": "over"}))
    assert isinstance(awards, Awards) and awards.achievements == [Earned(0, ids[0], "first_win")]
    assert awards.ratings == []
    match, moves = await stored(sessions)
    assert (match.v, match.status, list(match.totals), match.winners) == (2, "match_over", [25, 4], [0])
    assert (match.ended_at, match.last_move_at, match.turn_seat, match.wake_at) == (ENDED, ENDED, None, None)
    assert [m.seq for m in moves] == [1, 2]
    async with sessions() as s:
        hand = (await s.execute(select(Hand))).scalar_one()
        assert hand.result == {"reason": "payoff_out", "winners": [0]} and hand.ended_at is not None
        scores = [(c.seat, c.points, c.total, c.payoff_left) for c in
                  (await s.execute(select(Score).order_by(Score.seat))).scalars()]
        assert scores == [(0, 25, 25, 0), (1, 4, 4, 7)]
        assert [(a.player_id, a.key, a.hand_number) for a in (await s.execute(select(Achievement))).scalars()] \
            == [(ids[0], "first_win", 1)]
        room = (await s.execute(select(Room))).scalar_one()
        assert (room.status, room.rev) == ("over", 2)  # start_match made rev 1


async def test_a_hands_last_move_before_the_matchs_end_writes_no_winners_and_keeps_the_room(
        sessions: async_sessionmaker[AsyncSession], writers: Writers) -> None:
    """A hand's end that is not the match's: the match advanced with the other moves of its batch
    (no winners, no end time), the hand's rows written, the room row untouched."""
    ids = await new_match(sessions)
    await new_match(sessions, "m2", "ROOM0002")
    end = HandEnd(number=1, result={"reason": "payoff_out", "winners": [1]}, points=[0, 12], totals=[0, 12],
                  payoff_left=[5, 0])
    hand_over = replace(plain(0), match=MatchChange("hand_over", [0, 12], None, None, ENDED, None), hand_end=end,
                        earned=[Earned(1, ids[1], "first_win")])
    awards = await asyncio.gather(writers(inline=False).record(hand_over),
                                  writers(inline=False).record(plain(0, match_id="m2", totals=[1, 0])))
    assert awards[0] == Awards([Earned(1, ids[1], "first_win")], []) and awards[1] is None
    match, _ = await stored(sessions)
    assert (match.v, match.status, list(match.totals), match.winners, match.ended_at) == (1, "hand_over", [0, 12],
                                                                                           None, None)
    assert (await stored(sessions, "m2"))[0].v == 1
    async with sessions() as s:
        hand = (await s.execute(select(Hand).where(Hand.match_id == "m1"))).scalar_one()
        assert hand.result == {"reason": "payoff_out", "winners": [1]}
        room = (await s.execute(select(Room).where(Room.code == "ROOM0001"))).scalar_one()
        assert (room.status, room.rev) == ("playing", 1)


async def test_a_deal_writes_its_typed_change_where_the_match_is_at_its_version(
        sessions: async_sessionmaker[AsyncSession], writers: Writers) -> None:
    """`record_deal` with a `DealChange`: the hand's row, the match at the hand's first version,
    playing again, with the first turn's deadline, wake time and seat; a second deal from the same
    version is refused and writes nothing."""
    await new_match(sessions)
    ended = replace(plain(0), match=MatchChange("hand_over", [0, 12], None, None, ENDED, None))
    await writers().record(ended)
    change = DealChange(turn_deadline=ENDED + timedelta(days=1), wake_at=ENDED + timedelta(days=1), turn_seat=1)
    async with sessions() as s:
        await match_store.record_deal(s, match_id="m1", expect_v=1, hand=Hand(
            match_id="m1", number=2, seed="t", commitment="c2", start_v=2), change=change)
    match, _ = await stored(sessions)
    assert (match.v, match.status, match.turn_deadline, match.wake_at, match.turn_seat) == (
        2, "playing", change.turn_deadline, change.wake_at, 1)
    with pytest.raises(Conflict):
        async with sessions() as s:
            await match_store.record_deal(s, match_id="m1", expect_v=1, hand=Hand(
                match_id="m1", number=3, seed="u", commitment="c3", start_v=3), change=change)
    async with sessions() as s:
        assert [h.number for h in (await s.execute(select(Hand).order_by(Hand.number))).scalars()] == [1, 2]
    assert (await stored(sessions))[0].v == 2


async def test_an_achievement_already_held_is_not_awarded_again(sessions: async_sessionmaker[AsyncSession],
                                                                writers: Writers) -> None:
    ids = await new_match(sessions)
    await new_match(sessions, "m2", "ROOM0002")
    async with sessions() as s:
        s.add(Achievement(player_id=ids[0], key="first_win", match_id="m2", hand_number=1, seat=0))
        await s.commit()
    awards = await writers().record(_last(0, ids, earned=[Earned(0, ids[0], "first_win")]))
    assert awards is not None and awards.achievements == []


async def test_a_rated_matchs_last_move_rates_every_seat_in_its_transaction(
        sessions: async_sessionmaker[AsyncSession], writers: Writers) -> None:
    ids = await new_match(sessions)
    awards = await writers().record(_last(0, ids, rated=[Standing(ids[0], None, 25), Standing(ids[1], None, 4)]))
    assert awards is not None and [(d.seat, d.player_id) for d in awards.ratings] == [(0, ids[0]), (1, ids[1])]
    winner, loser = awards.ratings
    assert winner.after.mu > winner.before.mu and loser.after.mu < loser.before.mu
    async with sessions() as s:
        rows = {r.player_id: r for r in (await s.execute(select(Rating))).scalars()}
        assert rows[ids[0]].games == rows[ids[1]].games == 1
        assert rows[ids[0]].mu == pytest.approx(winner.after.mu)
        history = list((await s.execute(select(RatingChange).order_by(RatingChange.seat))).scalars())
        assert [(h.player_id, h.match_id) for h in history] == [(ids[0], "m1"), (ids[1], "m1")]


async def test_the_room_row_is_left_alone_once_it_points_at_another_match(
        sessions: async_sessionmaker[AsyncSession], writers: Writers) -> None:
    ids = await new_match(sessions)
    async with sessions() as s:
        room = (await s.execute(select(Room))).scalar_one()
        room.match_id = None  # as if the room had moved on
        await s.commit()
    await writers().record(_last(0, ids, room_values={"status": "over"}))
    async with sessions() as s:
        room = (await s.execute(select(Room))).scalar_one()
        assert (room.status, room.rev) == ("playing", 1)


async def test_a_refused_last_move_writes_none_of_its_other_rows(sessions: async_sessionmaker[AsyncSession],
                                                                 writers: Writers) -> None:
    ids = await new_match(sessions)
    writer = writers()
    await writer.record(plain(0))
    with pytest.raises(Conflict):  # computed from version 0, which is gone
        await writer.record(_stale_last(ids))
    async with sessions() as s:
        assert (await s.execute(select(Hand))).scalar_one().result is None
        assert list((await s.execute(select(Score))).scalars()) == []
        assert list((await s.execute(select(Achievement))).scalars()) == []
        assert (await s.execute(select(Room))).scalar_one().status == "playing"


def _stale_last(ids: list[str]) -> MoveWrite:
    write = _last(0, ids, earned=[Earned(0, ids[0], "first_win")], room_values={"status": "over"})
    return replace(write, seq=2)  # a version nobody else took, but the match is no longer at version 0


async def test_moves_arriving_during_a_commit_share_the_next_transaction(
        sessions: async_sessionmaker[AsyncSession], writers: Writers, monkeypatch: pytest.MonkeyPatch) -> None:
    for i in range(5):
        await new_match(sessions, f"m{i}", f"ROOM000{i}")
    writer = writers(inline=False, max_batch=2)
    sizes = transaction_sizes(writer, monkeypatch)
    await asyncio.gather(*(writer.record(plain(0, match_id=f"m{i}")) for i in range(5)))
    assert sizes == [2, 2, 1]  # all queued before the writer ran; at most max_batch per transaction
    for i in range(5):
        match, moves = await stored(sessions, f"m{i}")
        assert match.v == 1 and len(moves) == 1


async def test_a_lone_move_is_committed_at_once(sessions: async_sessionmaker[AsyncSession], writers: Writers,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    await new_match(sessions)
    writer = writers(inline=False)
    sizes = transaction_sizes(writer, monkeypatch)
    for v in range(3):
        await asyncio.wait_for(writer.record(plain(v)), 5)
    assert sizes == [1, 1, 1]


async def test_close_commits_what_is_queued_then_refuses_more(sessions: async_sessionmaker[AsyncSession],
                                                              writers: Writers) -> None:
    for i in range(3):
        await new_match(sessions, f"m{i}", f"ROOM000{i}")
    writer = writers(inline=False)
    pending = [asyncio.create_task(writer.record(plain(0, match_id=f"m{i}"))) for i in range(3)]
    await asyncio.sleep(0)  # queued
    await writer.close()
    assert [await p for p in pending] == [None, None, None]
    for i in range(3):
        assert (await stored(sessions, f"m{i}"))[0].v == 1
    with pytest.raises(RuntimeError):
        await writer.record(plain(1, match_id="m0"))


async def test_a_cancelled_callers_move_is_committed_all_the_same(sessions: async_sessionmaker[AsyncSession],
                                                                   writers: Writers) -> None:
    await new_match(sessions)
    writer = writers(inline=False)
    caller = asyncio.create_task(writer.record(plain(0, client_id="gone")))
    await asyncio.sleep(0)
    caller.cancel()
    for _ in range(200):
        match, moves = await stored(sessions)
        if match.v == 1:
            break
        await asyncio.sleep(0.02)
    assert match.v == 1 and [m.client_id for m in moves] == ["gone"]


async def test_an_unreachable_database_fails_the_batch_at_once(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """No database file can be opened: every queued move fails with the database's error, in one
    try (not once per move, which would only fail the same way, slower)."""
    engine = make_engine(f"sqlite:///{tmp_path}/no/such/folder/x.db")
    writer = MoveWriter(engine, inline=False)
    sizes = transaction_sizes(writer, monkeypatch)
    try:
        results = await asyncio.gather(*(writer.record(plain(0, match_id=f"m{i}")) for i in range(4)),
                                       return_exceptions=True)
        assert all(isinstance(r, OperationalError) for r in results), results
        assert sizes == [4]
    finally:
        await writer.close()
        await engine.dispose()
