"""Tournaments' rows (docs/tournaments.md): made, joined and left by the routes, run by the round
runner. Each write that a race could double is one conditional statement or guarded by a key:

- a join raises `entries` only while under the cap (so the cap holds whoever joins at once), and
  the (tournament, player) key refuses a second entry;
- a round is paired once: `round` moves from r−1 to r in one conditional update, in the same
  transaction as the round's row (keyed by tournament and round) and its tables;
- caps per player (tournaments organised, tournaments joined) are counted with the player's row
  locked (`FOR UPDATE` on PostgreSQL; SQLite has one writer at a time), so one request at a
  time counts and inserts.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.engine import MatchStatus
from app.store.tables import (
    Achievement,
    Match,
    Player,
    Tournament,
    TournamentPlayer,
    TournamentRound,
    TournamentTable,
    utcnow,
)

OPEN, RUNNING, OVER = "open", "running", "over"


class Refused(Exception):
    """A write the rows refuse: `reason` is the catalogue's key (`reason.<reason>`)."""

    def __init__(self, reason: str, **params: Any) -> None:
        super().__init__(reason)
        self.reason = reason
        self.params = params


async def _hold(session: AsyncSession, player_id: str) -> None:
    """Lock the player's row for this transaction (PostgreSQL; SQLite has one writer at a time):
    a cap on a player's tournaments is counted and kept by one request at a time."""
    await session.execute(select(Player.id).where(Player.id == player_id).with_for_update())


async def create(session: AsyncSession, row: Tournament, *, cap: int) -> Tournament:
    """Insert `row`; Refused(`tournament_cap_created`) if its organiser already organises `cap`
    tournaments not over."""
    await _hold(session, row.organiser_id)
    mine = await session.scalar(select(func.count()).select_from(Tournament).where(
        Tournament.organiser_id == row.organiser_id, Tournament.status != OVER))
    if (mine or 0) >= cap:
        await session.rollback()
        raise Refused("tournament_cap_created", cap=cap)
    session.add(row)
    await session.commit()
    return row


async def get(session: AsyncSession, tournament_id: str) -> Tournament | None:
    return await session.get(Tournament, tournament_id, populate_existing=True)


async def by_code(session: AsyncSession, code: str) -> Tournament | None:
    return (await session.execute(select(Tournament).where(Tournament.code == code))).scalar_one_or_none()


async def listed(session: AsyncSession, limit: int = 100) -> Sequence[Tournament]:
    """Public tournaments open or running, soonest first."""
    return (await session.execute(select(Tournament).where(Tournament.public, Tournament.status != OVER)
                                  .order_by(Tournament.created_at).limit(limit))).scalars().all()


async def of_player(session: AsyncSession, player_id: str, limit: int = 50) -> Sequence[Tournament]:
    """The tournaments a player joined, newest first (history and profiles)."""
    return (await session.execute(
        select(Tournament).join(TournamentPlayer, TournamentPlayer.tournament_id == Tournament.id)
        .where(TournamentPlayer.player_id == player_id).order_by(Tournament.created_at.desc()).limit(limit)
    )).scalars().all()


async def players(session: AsyncSession, tournament_id: str) -> Sequence[TournamentPlayer]:
    return (await session.execute(select(TournamentPlayer).where(TournamentPlayer.tournament_id == tournament_id)
                                  .order_by(TournamentPlayer.order))).scalars().all()


async def join(session: AsyncSession, t: Tournament, *, player_id: str, name: str, rating: float | None,
               max_players: int, cap: int) -> None:
    """Enter the player; Refused: `tournament_full`, `tournament_joined` (already in, or
    withdrawn: a withdrawn player does not come back), `tournament_cap_joined`."""
    await _hold(session, player_id)
    mine = await session.scalar(
        select(func.count()).select_from(TournamentPlayer)
        .join(Tournament, Tournament.id == TournamentPlayer.tournament_id)
        .where(TournamentPlayer.player_id == player_id, TournamentPlayer.withdrawn_at.is_(None),
               Tournament.status != OVER))
    if (mine or 0) >= cap:
        await session.rollback()
        raise Refused("tournament_cap_joined", cap=cap)
    entered = await session.execute(update(Tournament).where(Tournament.id == t.id,
                                                             Tournament.entries < max_players)
                                    .values(entries=Tournament.entries + 1).returning(Tournament.entries))
    order = entered.scalar_one_or_none()
    if order is None:
        await session.rollback()
        raise Refused("tournament_full", max=max_players)
    session.add(TournamentPlayer(tournament_id=t.id, player_id=player_id, name=name, order=order - 1,
                                 rating=rating, joined_at=utcnow()))
    try:
        await session.commit()
    except IntegrityError:
        await session.rollback()
        raise Refused("tournament_joined") from None


async def withdraw(session: AsyncSession, tournament_id: str, player_id: str, now: datetime) -> bool:
    """Mark the player withdrawn; False if they were not in it (or already out)."""
    done = await session.execute(update(TournamentPlayer).where(
        TournamentPlayer.tournament_id == tournament_id, TournamentPlayer.player_id == player_id,
        TournamentPlayer.withdrawn_at.is_(None)).values(withdrawn_at=now))
    await session.commit()
    return bool(done.rowcount)  # type: ignore[attr-defined]


async def start(session: AsyncSession, tournament_id: str, now: datetime, ends_at: datetime | None,
                settings: dict[str, Any]) -> bool:
    """open → running, with its settings as fixed at the start (the Swiss rounds); False if it
    was not open (started by another request or the runner)."""
    done = await session.execute(update(Tournament).where(Tournament.id == tournament_id, Tournament.status == OPEN)
                                 .values(status=RUNNING, started_at=now, ends_at=ends_at, settings=settings))
    await session.commit()
    return bool(done.rowcount)  # type: ignore[attr-defined]


async def finish(session: AsyncSession, tournament_id: str, now: datetime) -> bool:
    """running (or open, when it could not start) → over; False if it already was."""
    done = await session.execute(update(Tournament).where(Tournament.id == tournament_id, Tournament.status != OVER)
                                 .values(status=OVER, finished_at=now))
    await session.commit()
    return bool(done.rowcount)  # type: ignore[attr-defined]


async def due(session: AsyncSession, now: datetime) -> Sequence[Tournament]:
    """Tournaments the runner must look at: running ones, and open ones whose start time came."""
    return (await session.execute(select(Tournament).where(
        (Tournament.status == RUNNING) | ((Tournament.status == OPEN) & (Tournament.starts_at <= now)))
        .order_by(Tournament.created_at))).scalars().all()


async def rounds(session: AsyncSession, tournament_id: str) -> Sequence[TournamentRound]:
    return (await session.execute(select(TournamentRound).where(TournamentRound.tournament_id == tournament_id)
                                  .order_by(TournamentRound.round))).scalars().all()


async def tables(session: AsyncSession, tournament_id: str) -> Sequence[TournamentTable]:
    return (await session.execute(select(TournamentTable).where(TournamentTable.tournament_id == tournament_id)
                                  .order_by(TournamentTable.round, TournamentTable.table))).scalars().all()


async def pair_round(session: AsyncSession, tournament_id: str, round_no: int, *, tables_seats: list[list[str]],
                     byes: list[str], seed: str | None, commitment: str | None, now: datetime) -> bool:
    """Record round `round_no`'s pairing, once: False (nothing written) if it was paired already."""
    moved = await session.execute(update(Tournament).where(Tournament.id == tournament_id,
                                                           Tournament.round == round_no - 1)
                                  .values(round=round_no))
    if not moved.rowcount:  # type: ignore[attr-defined]
        await session.rollback()
        return False
    session.add(TournamentRound(tournament_id=tournament_id, round=round_no, status="playing", byes=byes,
                                seed=seed, commitment=commitment, started_at=now))
    for i, seats in enumerate(tables_seats):
        session.add(TournamentTable(tournament_id=tournament_id, round=round_no, table=i + 1, seats=seats,
                                    finished=False, forfeits=[]))
    try:
        await session.commit()
    except IntegrityError:
        await session.rollback()
        return False
    return True


CLAIM = "~"  # a table's room_code while a runner makes its room: "~" and the claim's time (epoch seconds)
CLAIM_SECONDS = 60  # a claim older than this was cut short (its runner died): the table may be claimed again


async def claim_table(session: AsyncSession, table: TournamentTable, now: datetime) -> bool:
    """Claim the table to make its room: True for exactly one of any runners racing."""
    stale = f"{CLAIM}{int(now.timestamp()) - CLAIM_SECONDS:011d}"
    done = await session.execute(update(TournamentTable).where(
        TournamentTable.tournament_id == table.tournament_id, TournamentTable.round == table.round,
        TournamentTable.table == table.table, TournamentTable.match_id.is_(None),
        TournamentTable.room_code.is_(None) | (TournamentTable.room_code.startswith(CLAIM)
                                               & (TournamentTable.room_code < stale)))
        .values(room_code=f"{CLAIM}{int(now.timestamp()):011d}"))
    await session.commit()
    return bool(done.rowcount)  # type: ignore[attr-defined]


async def unclaim_table(session: AsyncSession, table: TournamentTable) -> None:
    await session.execute(update(TournamentTable).where(
        TournamentTable.tournament_id == table.tournament_id, TournamentTable.round == table.round,
        TournamentTable.table == table.table, TournamentTable.match_id.is_(None)).values(room_code=None))
    await session.commit()


async def seat_table(session: AsyncSession, table: TournamentTable, room: str, match_id: str) -> None:
    await session.execute(update(TournamentTable).where(
        TournamentTable.tournament_id == table.tournament_id, TournamentTable.round == table.round,
        TournamentTable.table == table.table).values(room_code=room, match_id=match_id))
    await session.commit()


async def end_table(session: AsyncSession, table: TournamentTable, scores: list[float], totals: list[int],
                    forfeits: list[int] | None = None) -> None:
    values: dict[str, Any] = {"finished": True, "scores": scores, "totals": totals}
    if forfeits is not None:
        values["forfeits"] = forfeits
    await session.execute(update(TournamentTable).where(
        TournamentTable.tournament_id == table.tournament_id, TournamentTable.round == table.round,
        TournamentTable.table == table.table, TournamentTable.finished.is_(False)).values(**values))
    await session.commit()


async def mark_forfeit(session: AsyncSession, table: TournamentTable, seat: int) -> None:
    """The player at `seat` withdrew while the table ran: they score 0 whatever the room says."""
    await session.execute(update(TournamentTable).where(
        TournamentTable.tournament_id == table.tournament_id, TournamentTable.round == table.round,
        TournamentTable.table == table.table).values(forfeits=sorted({*table.forfeits, seat})))
    await session.commit()


async def end_round(session: AsyncSession, tournament_id: str, round_no: int, now: datetime) -> bool:
    done = await session.execute(update(TournamentRound).where(
        TournamentRound.tournament_id == tournament_id, TournamentRound.round == round_no,
        TournamentRound.status == "playing").values(status="over", ended_at=now))
    await session.commit()
    return bool(done.rowcount)  # type: ignore[attr-defined]


async def match_results(session: AsyncSession, match_ids: list[str]) -> dict[str, tuple[list[int], list[int]]]:
    """The finished ones of these matches: match id → (winners' seats, totals)."""
    if not match_ids:
        return {}
    rows = (await session.execute(select(Match.id, Match.winners, Match.totals).where(
        Match.id.in_(match_ids), Match.status == MatchStatus.MATCH_OVER))).all()
    return {mid: (list(winners or []), list(totals or [])) for mid, winners, totals in rows}


async def stalled(session: AsyncSession, match_ids: list[str], before: datetime) -> list[str]:
    """The ones of these matches still being played whose last move (or start) is older than `before`."""
    if not match_ids:
        return []
    last = func.coalesce(Match.last_move_at, Match.started_at)
    rows = (await session.execute(select(Match.id).where(Match.id.in_(match_ids),
                                                         Match.status != MatchStatus.MATCH_OVER, last < before))).all()
    return [mid for (mid,) in rows]


async def table_of_room(session: AsyncSession, room_code: str) -> tuple[str, int] | None:
    """(tournament id, round) of the room's table, if the room is one."""
    row = (await session.execute(select(TournamentTable.tournament_id, TournamentTable.round)
                                 .where(TournamentTable.room_code == room_code).limit(1))).one_or_none()
    return (row[0], row[1]) if row is not None else None


async def grant(session: AsyncSession, player_id: str, key: str, match_id: str, seat: int, now: datetime) -> None:
    """A tournament's achievement (`first_tournament`, `tournament_won`), once per player: kept
    with the player's last match of the tournament."""
    dialect = pg_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert
    await session.execute(dialect(Achievement).values(player_id=player_id, key=key, match_id=match_id, hand_number=0,
                                                      seat=seat, earned_at=now)
                          .on_conflict_do_nothing(index_elements=[Achievement.player_id, Achievement.key]))
    await session.commit()


async def _duplicate_round_playing(session: AsyncSession, tournament_id: str, round_no: int) -> bool:
    t = await session.get(Tournament, tournament_id)
    if t is None or not t.settings.get("duplicate"):
        return False
    r = await session.get(TournamentRound, (tournament_id, round_no))
    return r is not None and r.status == "playing"


async def sealed_round(session: AsyncSession, match_id: str) -> tuple[str, int] | None:
    """(tournament, round) if the match is a table of a duplicate round still being played: its
    deals are every table's, so nothing may show its cards (replay, review) before the round ends."""
    row = (await session.execute(select(TournamentTable.tournament_id, TournamentTable.round)
                                 .where(TournamentTable.match_id == match_id).limit(1))).one_or_none()
    if row is None or not await _duplicate_round_playing(session, row[0], row[1]):
        return None
    return row[0], row[1]


async def watch_sealed(session: AsyncSession, room_code: str, player_id: str) -> bool:
    """Whether `player_id` may not watch this room: it is a table of a duplicate round still
    being played, and they still play that round's deals at another table."""
    row = (await session.execute(select(TournamentTable).where(TournamentTable.room_code == room_code)
                                 .limit(1))).scalar_one_or_none()
    if row is None or player_id in row.seats or not await _duplicate_round_playing(session, row.tournament_id,
                                                                                   row.round):
        return False
    mine = (await session.execute(select(TournamentTable.seats, TournamentTable.finished).where(
        TournamentTable.tournament_id == row.tournament_id, TournamentTable.round == row.round))).all()
    return any(player_id in seats and not finished for seats, finished in mine)
