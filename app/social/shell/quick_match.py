"""Quick match, the shell: one matcher for the whole site, wherever it runs.

Every instance runs the loop (`leased.run_leased`); each pass first takes the lease `~quick-match` (the same lease
table that says which instance drives a room), so one instance at a time pairs tickets, and
another takes over within a lease period if it dies. A pass reads the queue from the store,
asks the pure `quick_pairing.pair`, claims each table's tickets in one conditional update (a
ticket cancelled meanwhile makes the claim fail: nothing is built), builds the room
(`arranged.arrange`), and tells each player on their lobby channel (`matched`).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.platform.settings import Settings
from app.rooms.shell.arranged import Sitter, arrange
from app.rooms.shell.leased import run_leased
from app.rooms.shell.service import RoomService
from app.social.core.lobby_messages import LobbyMatched, LobbyQuickMatch
from app.social.core.quick_pairing import MatchRules, Pairing, Table, pair
from app.social.shell.player_channels import Channels
from app.store.repositories import quick_tickets as quick_store
from app.store.repositories import social
from app.store.tables import Player

log = logging.getLogger(__name__)
LEASE = "~quick-match"


def rules_of(settings: Settings) -> MatchRules:
    return MatchRules(window=settings.quick_match_window, widen=settings.quick_match_widen,
                      bot_seconds=settings.quick_match_bot_seconds, gone_seconds=settings.presence_ttl)


class QuickMatch:
    def __init__(self, service: RoomService, channels: Channels, sessions: async_sessionmaker[AsyncSession],
                 settings: Settings) -> None:
        self.service = service
        self.channels = channels
        self.sessions = sessions
        self.settings = settings
        self.rules = rules_of(settings)
        self._task: asyncio.Task[None] | None = None
        self._pass = asyncio.Lock()

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._loop())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def _loop(self) -> None:
        await run_leased(LEASE, self.service, self.sessions, self.settings.quick_match_interval, self.run_once)

    async def run_once(self, now: datetime | None = None) -> list[str]:
        """One matching pass; the codes of the rooms it made."""
        async with self._pass:
            now = now or self.service.clock.now()
            async with self.sessions() as s:
                tickets = await quick_store.waiting(s, self.settings.presence_ttl)
                blocked = await social.blocked_pairs(s, sorted({t.player_id for t in tickets}))
            pairing: Pairing = pair(tickets, now, self.rules, blocked)
            if pairing.gone:
                async with self.sessions() as s:
                    await quick_store.cancel_ids(s, [t.id for t in pairing.gone])
            made = []
            for table in pairing.tables:
                code = await self._build(table)
                if code is not None:
                    made.append(code)
            return made

    async def _build(self, table: Table) -> str | None:
        ids = [t.id for t in table.tickets]
        async with self.sessions() as s:
            if not await quick_store.claim(s, ids):
                return None
            players = {p.id: p for p in [await s.get(Player, t.player_id) for t in table.tickets] if p is not None}
        code: str | None = None
        try:
            host = players[table.tickets[0].player_id]
            sitters = [Sitter(bot=self.settings.quick_match_bot_level) if t is None
                       else Sitter(player_id=t.player_id, name=players[t.player_id].name) for t in table.seating]
            options = {"teams": "pairs"} if table.seats == 4 else None
            code, _ = await arrange(self.service, host, sitters, preset="standard", options=options,
                                    rated=table.rated)
        except Exception:
            log.exception("could not build a quick-match room")
        async with self.sessions() as s:
            await quick_store.settle(s, ids, code)
        for t in table.tickets:
            await self.channels.tell(t.player_id, LobbyMatched(room=code, ticket=t.id) if code else
                                     LobbyQuickMatch(ticket=t.id, status="cancelled"))
        return code
