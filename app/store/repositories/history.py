"""Reading history: a player's matches (cursor-paginated), one match in full, a player's stats.

Results are JSON-ready dicts. Seeds of hands still in play are never included.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.engine import MatchStatus, room_code_visible, seed_if_over
from app.store.repositories import cursors
from app.store.repositories.cursors import BadCursor as BadCursor  # the routers catch it here
from app.store.repositories.players import plain_id
from app.store.tables import Hand, Match, Room, Score, Seat, utcnow

# `progress` (docs/protocol.md, History): where a match stands for the one who asks, and so
# which link a history shows for it.
OVER, RESUME, WATCH, PRIVATE, ABANDONED = "over", "resume", "watch", "private", "abandoned"
ABANDONED_AFTER = 3600.0  # seconds without a move after which a live match counts as abandoned


@dataclass(frozen=True, slots=True)
class RoomFacts:
    """What a history needs of a match's room: is it public, its pace, its current match."""

    public: bool
    pace: str
    match_id: str | None


def progress(match: Match, took_part: bool, room: RoomFacts | None, now: datetime,
             abandoned_after: float = ABANDONED_AFTER) -> str:
    """`over` once the match is over; `abandoned` when its room has moved on (or is gone) or a
    live match has had no move for `abandoned_after` seconds (a turn-based one moves on by its
    deadlines); `private` when the caller may not know the room's code; else `resume` for one
    who played in it and `watch` for anyone else."""
    if match.status == MatchStatus.MATCH_OVER:
        return OVER
    last = match.last_move_at or match.started_at
    idle = room is not None and room.pace == "live" and now - last > timedelta(seconds=abandoned_after)
    if room is None or room.match_id != match.id or idle:
        return ABANDONED
    if not room_code_visible(room.public, took_part):
        return PRIVATE
    return RESUME if took_part else WATCH


def encode_cursor(started_at: datetime, match_id: str) -> str:
    return cursors.encode(started_at, match_id)


def decode_cursor(cursor: str) -> tuple[datetime, str]:
    at, match_id = cursors.decode(cursor, "time", "id")
    return at, match_id


def iso(at: datetime | None) -> str | None:
    return at.isoformat() if at is not None else None


def seat_json(seat: Seat, totals: Sequence[int]) -> dict[str, Any]:
    return {
        "seat": seat.seat, "name": seat.name, "player_id": seat.player_id, "bot": seat.bot_level,
        "team": seat.team, "total": totals[seat.seat] if seat.seat < len(totals) else 0,
    }


def match_summary(match: Match, seats: Sequence[Seat], viewer: str | None, rooms: dict[str, RoomFacts],
                  abandoned_after: float = ABANDONED_AFTER) -> dict[str, Any]:
    """A match as histories list it; its room is named only as the observer allows (`rooms`:
    what is known of these matches' rooms, by code)."""
    took_part = viewer is not None and any(s.player_id == viewer for s in seats)
    facts = rooms.get(match.room_code)
    room = match.room_code if room_code_visible(facts is not None and facts.public, took_part) else None
    return {
        "id": match.id, "room": room, "number": match.number, "preset": match.preset,
        "status": match.status, "match_target": match.options.get("match_target"),
        "players": [seat_json(s, match.totals) for s in seats], "totals": list(match.totals),
        "winners": list(match.winners) if match.winners is not None else None,
        "started_at": iso(match.started_at), "ended_at": iso(match.ended_at),
        "progress": progress(match, took_part, facts, utcnow(), abandoned_after),
    }


async def _seats_of(session: AsyncSession, match_ids: Sequence[str]) -> dict[str, list[Seat]]:
    out: dict[str, list[Seat]] = {m: [] for m in match_ids}
    if match_ids:
        rows = await session.execute(select(Seat).where(Seat.match_id.in_(match_ids)).order_by(Seat.seat))
        for seat in rows.scalars():
            out[seat.match_id].append(seat)
    return out


async def _rooms(session: AsyncSession, codes: set[str]) -> dict[str, RoomFacts]:
    if not codes:
        return {}
    rows = await session.execute(select(Room.code, Room.public, Room.pace, Room.match_id).where(Room.code.in_(codes)))
    return {code: RoomFacts(bool(public), pace, match_id) for code, public, pace, match_id in rows.all()}


async def player_matches(session: AsyncSession, player_id: str, cursor: str | None, limit: int,
                         viewer: str | None = None, abandoned_after: float = ABANDONED_AFTER,
                         ) -> tuple[list[dict[str, Any]], str | None]:
    """A page of the player's matches, newest first, and the cursor of the next page, as
    `viewer` (the caller's player id, if signed in) may see them."""
    q = (select(Match, Seat.seat).join(Seat, Seat.match_id == Match.id).where(Seat.player_id == player_id)
         .order_by(Match.started_at.desc(), Match.id.desc()).limit(limit + 1))
    if cursor:
        at, last_id = decode_cursor(cursor)
        q = q.where(or_(Match.started_at < at, and_(Match.started_at == at, Match.id < last_id)))
    rows = (await session.execute(q)).all()
    page = rows[:limit]
    seats = await _seats_of(session, [m.id for m, _ in page])
    rooms = await _rooms(session, {m.room_code for m, _ in page})
    items = []
    for match, seat in page:
        item = match_summary(match, seats[match.id], viewer, rooms, abandoned_after)
        item["seat"] = seat
        won = match.winners if match.status == MatchStatus.MATCH_OVER else None
        item["won"] = (seat in won) if won is not None else None
        items.append(item)
    nxt = encode_cursor(page[-1][0].started_at, page[-1][0].id) if len(rows) > limit else None
    return items, nxt


def hand_json(hand: Hand, scores: Sequence[Score]) -> dict[str, Any]:
    return {
        "number": hand.number, "commitment": hand.commitment, "seed": seed_if_over(hand.seed, hand.result is not None),
        "start_v": hand.start_v, "started_at": iso(hand.started_at), "ended_at": iso(hand.ended_at),
        "result": hand.result,
        "scores": [{"seat": s.seat, "points": s.points, "total": s.total, "payoff_left": s.payoff_left}
                   for s in sorted(scores, key=lambda s: s.seat)],
    }


async def match_detail(session: AsyncSession, match_id: str, viewer: str | None = None,
                       abandoned_after: float = ABANDONED_AFTER) -> dict[str, Any] | None:
    """One match: players, options, hands with results and scores, start and end (its room
    named as `viewer` may see it)."""
    if not plain_id(match_id):
        return None
    match = await session.get(Match, match_id)
    if match is None:
        return None
    seats = (await _seats_of(session, [match_id]))[match_id]
    hands = (await session.execute(select(Hand).where(Hand.match_id == match_id).order_by(Hand.number))).scalars()
    scores = (await session.execute(select(Score).where(Score.match_id == match_id))).scalars().all()
    out = match_summary(match, seats, viewer, await _rooms(session, {match.room_code}), abandoned_after)
    out.update({
        "options": match.options, "turn_seconds": match.turn_seconds, "v": match.v,
        "hands": [hand_json(h, [s for s in scores if s.hand_number == h.number]) for h in hands],
    })
    return out


async def player_stats(session: AsyncSession, player_id: str,
                       abandoned_after: float = ABANDONED_AFTER) -> dict[str, Any]:
    """Matches played (finished) and won, points scored, matches still going (not abandoned:
    `progress`), hands played and won, and the average pay-off cards left at a hand's end."""
    rows = (await session.execute(
        select(Match.totals, Match.winners, Seat.seat).join(Seat, Seat.match_id == Match.id)
        .where(Seat.player_id == player_id, Match.status == MatchStatus.MATCH_OVER))).all()
    played = len(rows)
    won = sum(1 for _, winners, seat in rows if winners and seat in winners)
    points = sum(int(totals[seat]) for totals, _, seat in rows)
    hand_rows = (await session.execute(
        select(Score.payoff_left, Score.points, Hand.result, Seat.seat)
        .join(Seat, and_(Seat.match_id == Score.match_id, Seat.seat == Score.seat))
        .join(Hand, and_(Hand.match_id == Score.match_id, Hand.number == Score.hand_number))
        .where(Seat.player_id == player_id))).all()
    hands = len(hand_rows)
    hands_won = sum(1 for _, _, result, seat in hand_rows if result and seat in result.get("winners", []))
    left = sum(r[0] for r in hand_rows)
    open_matches = (await session.execute(
        select(Match).join(Seat, Seat.match_id == Match.id)
        .where(Seat.player_id == player_id, Match.status != MatchStatus.MATCH_OVER))).scalars().all()
    rooms, now = await _rooms(session, {m.room_code for m in open_matches}), utcnow()
    going = sum(1 for m in open_matches if progress(m, True, rooms.get(m.room_code), now, abandoned_after) != ABANDONED)
    return {
        "player_id": player_id, "played": played, "won": won, "points": points,
        "in_progress": going, "hands_played": hands, "hands_won": hands_won,
        "average_cards_left": round(left / hands, 2) if hands else None,
    }
