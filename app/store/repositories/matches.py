"""Matches, seats and hands: starting a match, dealing its next hand, and loading it.

Moves (and the scores a hand's last move records) are committed by the move writer
(`app.store.moves.writer`). Every write that advances a match names the version it was computed from
(`expect_v`); the conditional update of the match row's version (`Match.v`; and here, the unique hand number) make a
writer that lost a race fail with `Conflict` (and change nothing) instead of forking the match.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from sqlalchemy import Connection, Table, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.domain.writes import DealChange
from app.engine import MatchStatus
from app.store.errors import Conflict, save, update_one
from app.store.repositories.players import plain_id
from app.store.repositories.rooms import update_room, update_room_now
from app.store.tables import Hand, Match, Move, Seat

MATCHES, SEATS, HANDS = (cast(Table, t.__table__) for t in (Match, Seat, Hand))


@dataclass
class MatchRecord:
    """Everything that rebuilds a match: its row, seats, hands and moves in order."""

    match: Match
    seats: list[Seat]
    hands: list[Hand]
    moves: list[Move] = field(default_factory=list)


async def start_match(session: AsyncSession, *, room_code: str, room_rev: int, room_values: dict[str, Any],
                      match: Match, seats: Sequence[Seat], hand: Hand) -> int:
    """Create a match with its seats and first hand, and point the room at it; returns the
    room's new revision. Conflict if the room changed meanwhile."""
    rev = await update_room(session, room_code, room_rev, room_values, commit=False)
    session.add(match)
    await session.flush()
    session.add_all(list(seats))
    session.add(hand)
    await save(session, f"match {match.number} of room {room_code} already exists")
    return rev


async def record_deal(session: AsyncSession, *, match_id: str, expect_v: int, hand: Hand,
                      change: DealChange) -> None:
    """Commit the deal of the next hand: the hand's row, and its match at the hand's first
    version, playing again, with what `change` says of its first turn. Conflict if it was
    already dealt."""
    session.add(hand)
    await save(session, f"hand {hand.number} of match {match_id} already dealt", commit=False)
    await update_one(session, update(Match).where(Match.id == match_id, Match.v == expect_v)
                     .values(v=hand.start_v, status=MatchStatus.PLAYING, turn_deadline=change.turn_deadline,
                             wake_at=change.wake_at, turn_seat=change.turn_seat),
                     f"match {match_id} moved past version {expect_v}")
    await save(session, f"hand {hand.number} of match {match_id}")


def start_match_now(conn: Connection, *, room_code: str, room_rev: int, room_values: dict[str, Any],
                    match: Match, seats: Sequence[Seat], hand: Hand) -> int:
    """`start_match` in Core, in the transaction of a synchronous connection (`inline_writes`):
    the same rows, from the same (unsaved) ORM objects' fields."""
    rev = update_room_now(conn, room_code, room_rev, room_values)
    try:
        conn.execute(insert(MATCHES).values(_fields(match)))
        rows = [_fields(s) for s in seats]
        if all(row.keys() == rows[0].keys() for row in rows):  # an executemany takes its first row's columns
            conn.execute(insert(SEATS), rows)
        else:
            for row in rows:
                conn.execute(insert(SEATS).values(row))
        conn.execute(insert(HANDS).values(_fields(hand)))
    except IntegrityError as e:
        raise Conflict(f"match {match.number} of room {room_code} already exists") from e
    return rev


def record_deal_now(conn: Connection, *, match_id: str, expect_v: int, hand: Hand, change: DealChange) -> None:
    """`record_deal` in Core, in the transaction of a synchronous connection (`inline_writes`)."""
    try:
        conn.execute(insert(HANDS).values(_fields(hand)))
    except IntegrityError as e:
        raise Conflict(f"hand {hand.number} of match {match_id} already dealt") from e
    done = conn.execute(update(MATCHES).where(MATCHES.c.id == match_id, MATCHES.c.v == expect_v)
                        .values(v=hand.start_v, status=MatchStatus.PLAYING, turn_deadline=change.turn_deadline,
                                wake_at=change.wake_at, turn_seat=change.turn_seat))
    if done.rowcount != 1:
        raise Conflict(f"match {match_id} moved past version {expect_v}")


def _fields(row: Any) -> dict[str, Any]:
    """The column values set on an unsaved ORM object (the table's defaults fill the others)."""
    return {k: v for k, v in vars(row).items() if not k.startswith("_")}


async def load_match(session: AsyncSession, match_id: str, with_moves: bool = True) -> MatchRecord | None:
    """A match with its seats, hands and (by default) moves, in order, as of its row's version."""
    if not plain_id(match_id):
        return None
    match = (await session.execute(select(Match).where(Match.id == match_id)
                                   .execution_options(populate_existing=True))).scalar_one_or_none()
    if match is None:
        return None
    # Only what the match row counts: another instance may commit more between our reads
    # (each statement sees the latest commits), and those arrive on the bus.
    seats = list((await session.execute(select(Seat).where(Seat.match_id == match_id).order_by(Seat.seat))).scalars())
    hands = list((await session.execute(select(Hand).where(Hand.match_id == match_id, Hand.start_v <= match.v)
                                        .order_by(Hand.number))).scalars())
    moves: list[Move] = []
    if with_moves:
        moves = list((await session.execute(select(Move).where(Move.match_id == match_id, Move.seq <= match.v)
                                            .order_by(Move.seq))).scalars())
    return MatchRecord(match, seats, hands, moves)


async def changes_since(session: AsyncSession, match_id: str, v: int) -> tuple[list[Hand], list[Move]]:
    """Hands dealt and moves made after version `v`, each in order."""
    hands = list((await session.execute(select(Hand).where(Hand.match_id == match_id, Hand.start_v > v)
                                        .order_by(Hand.number))).scalars())
    moves = list((await session.execute(select(Move).where(Move.match_id == match_id, Move.seq > v)
                                        .order_by(Move.seq))).scalars())
    return hands, moves


async def hand_count(session: AsyncSession, match_id: str) -> int:
    """How many hands of the match have been dealt."""
    return int((await session.execute(select(func.count()).select_from(Hand)
                                      .where(Hand.match_id == match_id))).scalar_one())
