"""Ratings and achievements in the store: written by the move writer in the transaction that
ends a match (ratings) or a hand (achievements), and read for profiles, the leaderboard and
the state a socket is sent at a hand's or match's end.

Exactly once: a match's ratings are written with the move that ends it (and `rating_history`
is unique per match and player); an achievement is a row per (player, key), inserted only if
absent, so a crash either keeps the move and its awards or neither, and nothing is earned twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import Interval, Table, and_, distinct, func, literal, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession
from sqlalchemy.orm import aliased

from app.domain import records
from app.domain.rating import UNRATED, rate, repeat_weight
from app.domain.records import Awards, Earned, RatingDelta, Skill, Standing
from app.store.repositories import cursors
from app.store.repositories.cursors import BadCursor as BadCursor  # the routers catch it here
from app.store.repositories.players import plain_id
from app.store.tables import Achievement, Player, Rating, RatingChange, utcnow

RATINGS, HISTORY, EARNED = (cast(Table, t.__table__) for t in (Rating, RatingChange, Achievement))


@dataclass(frozen=True, slots=True)
class Repeats:
    """Rated matches between the same players within `hours` count fully for the first `full`
    (`SPITE_RATED_REPEAT_FULL`, `SPITE_RATED_REPEAT_HOURS`), then less (`rating.repeat_weight`)."""

    full: int = 3
    hours: float = 24.0


async def earlier_meetings(conn: AsyncConnection, player_ids: Sequence[str], since: datetime) -> int:
    """Rated matches since `since` that had exactly these players (all of them rated in it)."""
    c = HISTORY.c
    same = (select(c.match_id).where(c.player_id.in_(list(player_ids)), c.at >= since).group_by(c.match_id)
            .having(func.count(distinct(c.player_id)) == len(set(player_ids))))
    return int((await conn.execute(select(func.count()).select_from(same.subquery()))).scalar_one())


def _insert(conn: AsyncConnection, table: Table) -> Any:
    """An INSERT that skips rows whose key is already there (SQLite or PostgreSQL)."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    return dialect.insert(table)


async def record_ratings(conn: AsyncConnection, match_id: str, standings: Sequence[Standing],
                         now: datetime, repeats: Repeats = Repeats()) -> list[RatingDelta]:
    """Rate a finished match in the caller's transaction: every seat's rating is read (locked,
    on PostgreSQL), updated by `rating.rate` and written with a history row. The same players
    meeting again within `repeats.hours` count less (a history row is written all the same)."""
    ids = [s.player_id for s in standings]
    await conn.execute(_insert(conn, RATINGS).values([  # in key order: two matches ending at once lock alike
        {"player_id": pid, "mu": UNRATED.mu, "sigma": UNRATED.sigma, "ordinal": UNRATED.ordinal, "games": 0,
         "updated_at": now} for pid in sorted(ids)]).on_conflict_do_nothing(index_elements=["player_id"]))
    c = RATINGS.c
    rows = (await conn.execute(select(c.player_id, c.mu, c.sigma, c.games).where(c.player_id.in_(ids))
                               .with_for_update())).all()
    before = {pid: Skill(mu, sigma, games) for pid, mu, sigma, games in rows}
    earlier = await earlier_meetings(conn, ids, now - timedelta(hours=repeats.hours))
    after = rate(before, standings, repeat_weight(earlier, repeats.full))
    deltas = []
    for seat, pid in enumerate(ids):
        new = after[pid]
        await conn.execute(update(RATINGS).where(c.player_id == pid).values(
            mu=new.mu, sigma=new.sigma, ordinal=new.ordinal, games=new.games, updated_at=now))
        deltas.append(RatingDelta(seat, pid, before[pid], new))
    await conn.execute(HISTORY.insert(), [
        {"player_id": d.player_id, "match_id": match_id, "seat": d.seat, "at": now, "before": d.before.to_json(),
         "after": d.after.to_json()} for d in deltas])
    return deltas


async def record_achievements(conn: AsyncConnection, match_id: str, hand_number: int, earned: Sequence[Earned],
                              now: datetime) -> list[Earned]:
    """Insert the achievements not yet held (in the caller's transaction); the ones that are new."""
    if not earned:
        return []
    c = EARNED.c
    stmt = (_insert(conn, EARNED).values([
        {"player_id": e.player_id, "key": e.key, "match_id": match_id, "hand_number": hand_number, "seat": e.seat,
         "earned_at": now} for e in earned])
        .on_conflict_do_nothing(index_elements=["player_id", "key"]).returning(c.player_id, c.key))
    new = {(pid, key) for pid, key in (await conn.execute(stmt)).all()}
    return [e for e in earned if (e.player_id, e.key) in new]


def _skill(data: dict[str, Any]) -> Skill:
    return Skill(float(data["mu"]), float(data["sigma"]), int(data["games"]))


def _told(data: dict[str, Any]) -> dict[str, Any]:
    """A stored rating as the wire says it: `uncertain` added where an older row lacks it."""
    return {**data, "uncertain": _skill(data).uncertain}


async def awards_of(session: AsyncSession, match_id: str, hand_number: int) -> Awards:
    """What hand `hand_number` of the match (and the match itself, if rated and over) earned."""
    got = (await session.execute(select(Achievement).where(Achievement.match_id == match_id,
                                                           Achievement.hand_number == hand_number)
                                 .order_by(Achievement.seat, Achievement.key))).scalars()
    deltas = (await session.execute(select(RatingChange).where(RatingChange.match_id == match_id)
                                    .order_by(RatingChange.seat))).scalars()
    return Awards([Earned(a.seat, a.player_id, a.key) for a in got],
                  [RatingDelta(d.seat, d.player_id, _skill(d.before), _skill(d.after)) for d in deltas])


def rating_json(row: Rating | None) -> records.Rating | None:
    return Skill(row.mu, row.sigma, row.games).to_json() if row is not None else None


async def rating_of(session: AsyncSession, player_id: str) -> Rating | None:
    return await session.get(Rating, player_id) if plain_id(player_id) else None


async def rating_history(session: AsyncSession, player_id: str, cursor: str | None,
                         limit: int) -> tuple[list[dict[str, Any]], str | None]:
    """The player's rating changes, newest first, and the cursor of the next page."""
    q = (select(RatingChange).where(RatingChange.player_id == player_id)
         .order_by(RatingChange.at.desc(), RatingChange.id.desc()).limit(limit + 1))
    if cursor:
        at, last = cursors.decode(cursor, "time", "row")
        q = q.where(or_(RatingChange.at < at, and_(RatingChange.at == at, RatingChange.id < last)))
    rows = list((await session.execute(q)).scalars())
    page = rows[:limit]
    # the stored ratings as written, with `uncertain` for rows written before it was
    items = [{"match_id": r.match_id, "at": r.at.isoformat(), "before": _told(r.before), "after": _told(r.after)}
             for r in page]
    nxt = cursors.encode(page[-1].at, page[-1].id) if len(rows) > limit else None
    return items, nxt


def _older_than(session: AsyncSession, created: Any, at: Any, age: timedelta) -> Any:
    """SQL: `created` is at least `age` before `at` (SQLite keeps datetimes as text: by julianday)."""
    if session.get_bind().dialect.name == "sqlite":
        return func.julianday(created) <= func.julianday(at) - age.total_seconds() / 86_400
    return created <= at - literal(age, Interval())


async def leaderboard(session: AsyncSession, min_games: int, cursor: str | None,
                      limit: int, min_opponents: int = 1,
                      min_age: timedelta = timedelta(0)) -> tuple[list[dict[str, Any]], str | None]:
    """Players with at least `min_games` rated matches against at least `min_opponents`
    different established players, highest ordinal first (ties by id): a puppet account is not
    enough, nor are fresh ones. A player is listed once it has existed `min_age`
    (`SPITE_LEADERBOARD_MIN_AGE_HOURS`), and an opponent counts only if it had existed that long
    when the match was rated: accounts made for farming count for nothing on their first day."""
    mine, other = aliased(RatingChange), aliased(RatingChange)
    rival = aliased(Player)
    varied = (select(mine.player_id).join(other, and_(other.match_id == mine.match_id,
                                                      other.player_id != mine.player_id))
              .join(rival, rival.id == other.player_id)
              .where(_older_than(session, rival.created_at, other.at, min_age))
              .group_by(mine.player_id).having(func.count(distinct(other.player_id)) >= min_opponents))
    q = (select(Rating, Player.name).join(Player, Player.id == Rating.player_id)
         .where(Rating.games >= min_games, Rating.player_id.in_(varied), Player.created_at <= utcnow() - min_age)
         .order_by(Rating.ordinal.desc(), Rating.player_id).limit(limit + 1))
    rank = 0
    if cursor:
        ordinal, last, rank = cursors.decode(cursor, "float", "id", "count")
        q = q.where(or_(Rating.ordinal < ordinal, and_(Rating.ordinal == ordinal, Rating.player_id > last)))
    rows = (await session.execute(q)).all()
    page = rows[:limit]
    items = [{"rank": rank + i + 1, "player_id": r.player_id, "name": name, "rating": rating_json(r)}
             for i, (r, name) in enumerate(page)]
    nxt = cursors.encode(page[-1][0].ordinal, page[-1][0].player_id, rank + len(page)) if len(rows) > limit else None
    return items, nxt


async def standing(session: AsyncSession, player_id: str,
                   min_age: timedelta = timedelta(0)) -> tuple[int, int, datetime | None]:
    """Where one player stands against the leaderboard's rules (`leaderboard`, same counting):
    their rated matches, the different opponents of those who had existed `min_age` when the
    match was rated, and when the player was made (None: no such player)."""
    mine, other = aliased(RatingChange), aliased(RatingChange)
    rival = aliased(Player)
    games = (await session.execute(select(Rating.games).where(Rating.player_id == player_id))).scalar_one_or_none()
    opponents = (await session.execute(
        select(func.count(distinct(other.player_id)))
        .select_from(mine).join(other, and_(other.match_id == mine.match_id, other.player_id != mine.player_id))
        .join(rival, rival.id == other.player_id)
        .where(mine.player_id == player_id, _older_than(session, rival.created_at, other.at, min_age)))).scalar_one()
    made = (await session.execute(select(Player.created_at).where(Player.id == player_id))).scalar_one_or_none()
    return games or 0, int(opponents or 0), made


async def earned_by(session: AsyncSession, player_id: str) -> dict[str, Achievement]:
    rows = (await session.execute(select(Achievement).where(Achievement.player_id == player_id))).scalars()
    return {a.key: a for a in rows}
