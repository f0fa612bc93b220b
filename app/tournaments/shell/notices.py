"""What tournament players are told, off the move path: their table is ready (the lobby
socket's `tournament`, and a push message through the outbox when they have no lobby socket
open anywhere), the standings changed (`standings`, to every player of the tournament), and
at the end the achievements of a first tournament and a tournament won.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.domain.reminder import Reminder
from app.rooms.shell.service import RoomService
from app.social.core.lobby_messages import LobbyStandings, LobbyTournament
from app.social.shell.player_channels import Channels
from app.store.repositories import social
from app.store.repositories import tournaments as store
from app.store.tables import Tournament, TournamentRound, TournamentTable
from app.tournaments.core.model import Entrant
from app.tournaments.shell import plan

log = logging.getLogger(__name__)
TOURNAMENT = "tournament"  # a Reminder's kind: push.tournament.* in the catalogues


class Notices:
    def __init__(self, service: RoomService, channels: Channels, sessions: async_sessionmaker[AsyncSession],
                 presence_ttl: float) -> None:
        self.service = service
        self.channels = channels
        self.sessions = sessions
        self.ttl = presence_ttl

    async def table_ready(self, t: Tournament, round_no: int, seats: Sequence[str], room: str) -> None:
        away: list[Reminder] = []
        for pid in seats:
            await self.channels.tell(pid, LobbyTournament(id=t.id, round=round_no, room=room))
            async with self.sessions() as s:
                online = await social.lobby_online(s, pid, self.ttl)
            if not online:
                away.append(Reminder(TOURNAMENT, pid, room, f"{TOURNAMENT}:{t.id}:{round_no}:{pid}",
                                     "Your tournament table is ready", f"{t.name}: round {round_no} is ready.",
                                     names=(t.name, str(round_no))))
        if away:
            self.service.reminding.deliver(room, away)

    async def standings(self, tournament_id: str, players: Sequence[str]) -> None:
        for pid in players:
            await self.channels.tell(pid, LobbyStandings(id=tournament_id))

    async def award(self, t: Tournament, entrants: list[Entrant], rounds: Sequence[TournamentRound],
                    tables: Sequence[TournamentTable]) -> None:
        """The tournament's last table is over: its achievements, granted before it is marked
        over (whoever sees it over sees them; a second grant changes nothing)."""
        rows = plan.table_standings(t, entrants, rounds, tables)
        last: dict[str, tuple[str, int]] = {}  # player → (match, seat) of their last table
        for tb in sorted(tables, key=lambda tb: tb.round):
            for seat, pid in enumerate(tb.seats):
                if tb.match_id is not None:
                    last[pid] = (tb.match_id, seat)
        now = self.service.clock.now()
        try:
            async with self.sessions() as s:
                for pid, (match_id, seat) in last.items():
                    await store.grant(s, pid, "first_tournament", match_id, seat, now)
                for r in rows:
                    if r.rank == 1 and r.player_id in last:
                        match_id, seat = last[r.player_id]
                        await store.grant(s, r.player_id, "tournament_won", match_id, seat, now)
        except Exception:
            log.exception("tournament %s: could not grant its achievements", t.id)
