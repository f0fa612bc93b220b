"""Rebuilding rooms and matches from the store (the truth) into memory.

A live match is `Match.replay` of its stored options, names, seeds and moves; the rebuilt
version must equal the stored one, else the store and the engine disagree and the room is
refused rather than served wrong.
"""

from __future__ import annotations

from collections import defaultdict

from sqlalchemy.ext.asyncio import AsyncSession

from app.engine import HandRecord, Match, Move, options_from_json
from app.store import matches as match_store
from app.store import rooms as room_store
from app.store.matches import MatchRecord

from .live import LiveMatch, RoomState, SeatInfo


class CorruptMatch(RuntimeError):
    """The stored moves do not replay to the stored version."""


def hand_records(record: MatchRecord) -> list[HandRecord]:
    by_hand: dict[int, list[Move]] = defaultdict(list)
    for row in record.moves:
        by_hand[row.hand_number].append(Move.from_wire(row.payload))
    return [HandRecord(h.seed, by_hand[h.number], list(h.deal_order) if h.deal_order else None)
            for h in record.hands]


def replay(record: MatchRecord, upto: int | None = None) -> Match:
    """The engine's match rebuilt from a stored record (up to version `upto`, if given)."""
    options = options_from_json(record.match.options)
    return Match.replay(options, list(record.match.names), hand_records(record), upto=upto)


def live_match(record: MatchRecord) -> LiveMatch:
    """A live match from its record, checked against the stored version."""
    game = replay(record)
    row = record.match
    if game.v != row.v:
        raise CorruptMatch(f"match {row.id} replays to version {game.v}, the store says {row.v}")
    seats = [SeatInfo(name=s.name, player_id=s.player_id, bot=s.bot_level) for s in record.seats]
    client_ids = {(m.seat, m.client_id): m.seq for m in record.moves if m.client_id is not None}
    return LiveMatch(row.id, row.number, game, seats, row.turn_seconds, row.turn_deadline, client_ids)


async def load(session: AsyncSession, code: str) -> tuple[RoomState, LiveMatch | None] | None:
    """A room and its current match from the store, or None if there is no such room."""
    row = await room_store.get_room(session, code)
    if row is None:
        return None
    state = RoomState.from_row(row)
    match = None
    if state.match_id is not None:
        record = await match_store.load_match(session, state.match_id)
        if record is not None:
            match = live_match(record)
    return state, match
