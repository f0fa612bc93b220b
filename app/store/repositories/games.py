"""A player's games: every room they sit in that is not over (the "Your games" page), and how
many turn-based rooms they sit in (the cap). Rooms being played are found through the seats of
their current match (indexed by player); rooms still waiting through their lobby seating."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import String, cast, exists, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.domain.records import RoomStatus
from app.store.tables import Match, Room, Seat


@dataclass(frozen=True)
class GameRow:
    """One room of the player's, as the store knows it."""

    code: str
    pace: str
    status: str
    match_id: str | None
    match_status: str | None
    turn_seat: int | None
    deadline: datetime | None
    last_move_at: datetime | None
    turn_seconds: int | None
    my_seat: int | None
    seats: list[dict[str, object]]
    started_at: datetime | None = None  # the match's start (None while waiting)


def _seats_of(seating: list[object] | None) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for i, s in enumerate(seating or []):
        if isinstance(s, dict):
            out.append({"seat": i, "name": s.get("name"), "bot": s.get("bot"), "player_id": s.get("player_id"),
                        "team": None})
        else:
            out.append({"seat": i, "name": None, "bot": None, "player_id": None, "team": None})
    return out


async def player_games(session: AsyncSession, player_id: str, limit: int = 200) -> list[GameRow]:
    """The rooms `player_id` sits in that are not over: those being played (by the seats of their
    current match) and those waiting with the player in a lobby seat."""
    playing = (select(Room, Match, Seat.seat).join(Match, Match.id == Room.match_id)
               .join(Seat, (Seat.match_id == Match.id) & (Seat.player_id == player_id))
               .where(Room.status == RoomStatus.PLAYING).limit(limit))
    out: list[GameRow] = []
    found = (await session.execute(playing)).all()
    # who plays each seat, as the match's seats say (a bot's level, a partnership's team)
    by_match: dict[str, list[dict[str, object]]] = {}
    if found:
        rows = await session.execute(select(Seat).where(Seat.match_id.in_([m.id for _, m, _ in found]))
                                     .order_by(Seat.match_id, Seat.seat))
        for s in rows.scalars():
            by_match.setdefault(s.match_id, []).append(
                {"seat": s.seat, "name": s.name, "bot": s.bot_level, "player_id": s.player_id, "team": s.team})
    for room, match, seat in found:
        out.append(GameRow(room.code, room.pace, room.status, match.id, match.status, match.turn_seat,
                           match.turn_deadline, match.last_move_at, room.turn_seconds, seat,
                           by_match.get(match.id, []), match.started_at))
    # A waiting room's seating is JSON: the player's id (32 random characters) appears in it
    # exactly when they sit there.
    waiting = (select(Room).where(Room.status == RoomStatus.WAITING,
                                  cast(Room.seating, String).contains(f'"{player_id}"'))
               .order_by(Room.updated_at.desc()).limit(limit))
    for room in (await session.execute(waiting)).scalars().all():
        seats = _seats_of(room.seating)
        mine = next((int(s["seat"]) for s in seats if s["player_id"] == player_id), None)  # type: ignore[call-overload]
        if mine is None:
            continue
        out.append(GameRow(room.code, room.pace, room.status, None, None, None, None, room.updated_at,
                           room.turn_seconds, mine, seats))
    return out


async def turn_based_count(session: AsyncSession, player_id: str) -> int:
    """Turn-based rooms not over that the player sits in (being played, or waiting seated) or
    hosts (whether or not they sit: a host's table of bots counts too)."""
    seated = exists().where(Seat.match_id == Room.match_id, Seat.player_id == player_id)
    waiting_seated = cast(Room.seating, String).contains(f'"{player_id}"')
    q = (select(func.count()).select_from(Room)
         .where(Room.pace == "turn_based",
                or_(Room.host_id == player_id,
                    (Room.status == RoomStatus.PLAYING) & seated,
                    (Room.status == RoomStatus.WAITING) & waiting_seated),
                Room.status.in_((RoomStatus.PLAYING, RoomStatus.WAITING))))
    return int((await session.execute(q)).scalar_one())
