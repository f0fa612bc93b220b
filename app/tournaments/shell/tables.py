"""A tournament's tables as rooms: made and seated through the arranged-rooms path (the same
core decisions and pump as any room), and read back once their match is over.

A table's room is hosted by the player in its first seat, private, started at once, rated if
the tournament is, without hints (a competition), with the tournament's preset, options, pace
and turn length; with duplicate deals its seed is the round's. The host's room caps do not
apply: the tournament's own caps bound its rooms (docs/operations.md).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.rooms.shell.arranged import Sitter, arrange
from app.rooms.shell.service import RoomService
from app.store.repositories import tournaments as store
from app.store.tables import Player, Tournament, TournamentRound, TournamentTable

log = logging.getLogger(__name__)


def seat_scores(seats: int, winners: list[int], forfeits: Sequence[int]) -> list[float]:
    """Each seat's result from the match's winners: 1 for a lone winner, ½ each when the win is
    shared (a draw) or nobody won, 0 for the others; a seat that forfeited (withdrew) scores 0
    and, at a 2-seat table, its opponent 1."""
    out = ([0.5] * seats if not winners else
           [(1.0 if len(winners) == 1 else 0.5) if s in winners else 0.0 for s in range(seats)])
    if forfeits:
        out = [0.0 if s in forfeits else out[s] for s in range(seats)]
        if seats == 2 and len(forfeits) == 1:
            out[1 - forfeits[0]] = 1.0
    return out


async def make_room(service: RoomService, sessions: async_sessionmaker[AsyncSession], t: Tournament,
                    rnd: TournamentRound, table: TournamentTable) -> str | None:
    """Make and start the table's room and record it on the table; its code, or None (logged)
    if it could not be made (the runner tries again on its next pass)."""
    settings: dict[str, Any] = t.settings
    async with sessions() as s:
        rows = {p.id: p for p in [await s.get(Player, pid) for pid in table.seats] if p is not None}
    if len(rows) != len(table.seats):
        log.error("tournament %s round %s table %s: a player is gone", t.id, table.round, table.table)
        async with sessions() as s:
            await store.unclaim_table(s, table)
        return None
    host = rows[table.seats[0]]
    sitters = [Sitter(player_id=pid, name=rows[pid].name) for pid in table.seats]
    try:
        code, match_id = await arrange(service, host, sitters, preset=settings.get("preset"),
                                       options=settings.get("options"), rated=bool(settings.get("rated")),
                                       seed=rnd.seed, hints=False, pace=settings.get("pace", "live"),
                                       turn_seconds=settings.get("turn_seconds"), capped=False)
    except Exception:
        log.exception("could not make the room of tournament %s round %s table %s", t.id, table.round, table.table)
        async with sessions() as s:
            await store.unclaim_table(s, table)
        return None
    async with sessions() as s:
        await store.seat_table(s, table, code, match_id)
    return code
